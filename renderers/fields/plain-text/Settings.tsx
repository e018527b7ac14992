import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../messages/use-format.ts';
import type { SettingsEditorProps } from '../settings-editor-types.ts';

const wholeNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** PlainText: minimum and maximum character counts. */
export function PlainTextSettings({ idBase, draft, change, disabled, problemAt, touch }: SettingsEditorProps) {
  const format = useFormat();
  const error = problemAt('min');
  const bound = (key: 'min' | 'max') => {
    const id = `${idBase}-${key}`;
    return (
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {format(key === 'min' ? 'schemaField.min' : 'schemaField.max')}
        </label>
        <input
          id={id}
          className="input"
          type="number"
          inputMode="numeric"
          min={0}
          max={contentLimits.plainTextMax}
          step={1}
          value={draft[key] ?? ''}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${idBase}-bounds-error` : undefined}
          onChange={(event) => {
            touch('min');
            change({ [key]: wholeNumber(event.target.value) });
          }}
        />
      </div>
    );
  };
  return (
    <div className="field-setting">
      <div className="field-attributes-grid">
        {bound('min')}
        {bound('max')}
      </div>
      {error ? (
        <p className="field-error" id={`${idBase}-bounds-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
