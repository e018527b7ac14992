import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../messages/use-format.ts';
import { SettingField } from '../SettingField.tsx';
import { HelpAndError } from '../settings/HelpAndError.tsx';
import type { SettingsEditorProps } from '../settings-editor-types.ts';

const wholeNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** PlainText: minimum and maximum character counts. */
export function PlainTextSettings({ idBase, draft, change, disabled, problemAt, touch }: SettingsEditorProps) {
  const format = useFormat();
  const error = problemAt('min');
  const bound = (key: 'min' | 'max') => (
    <SettingField
      id={`${idBase}-${key}`}
      className="field"
      label={format(key === 'min' ? 'schemaField.min' : 'schemaField.max')}
      invalid={Boolean(error)}
      describedBy={error ? `${idBase}-bounds-error` : undefined}
    >
      {(control) => (
        <input
          {...control}
          className="input"
          type="number"
          inputMode="numeric"
          min={0}
          max={contentLimits.plainTextMax}
          step={1}
          value={draft[key] ?? ''}
          disabled={disabled}
          onChange={(event) => {
            touch('min');
            change({ [key]: wholeNumber(event.target.value) });
          }}
        />
      )}
    </SettingField>
  );
  // One problem line under both bounds (min above max is a problem of the pair).
  return (
    <div className="field-setting">
      <div className="field-attributes-grid">
        {bound('min')}
        {bound('max')}
      </div>
      <HelpAndError id={`${idBase}-bounds`} error={error} />
    </div>
  );
}
