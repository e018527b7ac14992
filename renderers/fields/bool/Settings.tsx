import { useFormat } from '../../messages/use-format.ts';
import { SettingField } from '../SettingField.tsx';
import type { SettingsEditorProps } from '../settings-editor-types.ts';

/** Bool: the value new items get; not set leaves the switch undecided. */
export function BoolSettings({ idBase, draft, change, disabled }: SettingsEditorProps) {
  const format = useFormat();
  const value = draft.defaultValue === true ? 'true' : draft.defaultValue === false ? 'false' : '';
  return (
    <SettingField id={`${idBase}-defaultValue`} label={format('schemaField.defaultValue')}>
      {(control) => (
        <select
          {...control}
          className="input"
          value={value}
          disabled={disabled}
          onChange={(event) => change({ defaultValue: event.target.value === '' ? null : event.target.value === 'true' })}
        >
          <option value="">{format('schemaField.defaultValueUnset')}</option>
          <option value="true">{format('schemaField.defaultValueTrue')}</option>
          <option value="false">{format('schemaField.defaultValueFalse')}</option>
        </select>
      )}
    </SettingField>
  );
}
