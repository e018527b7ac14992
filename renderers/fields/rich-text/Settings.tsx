import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../messages/use-format.ts';
import { CustomScriptSetting } from './CustomScriptSetting.tsx';
import { SettingField } from '../SettingField.tsx';
import type { SettingsEditorProps } from '../settings-editor-types.ts';

/** RichText's settings: the editor's custom CSS, then its custom script file. */
export function RichTextSettings(props: SettingsEditorProps) {
  return (
    <>
      <CustomCssEditor {...props} />
      <CustomJsEditor {...props} />
    </>
  );
}

/** RichText: CSS applied inside this field's editor. */
function CustomCssEditor({ idBase, draft, change, disabled }: SettingsEditorProps) {
  const format = useFormat();
  return (
    <SettingField id={`${idBase}-richTextCustomCSS`} label={format('schemaField.richTextCustomCSS')} help={format('schemaField.richTextCustomCSSHelp')}>
      {(control) => (
        <textarea
          {...control}
          className="input textarea input-mono"
          rows={4}
          spellCheck={false}
          value={draft.richTextCustomCSS ?? ''}
          maxLength={contentLimits.customCssMax}
          disabled={disabled}
          onChange={(event) => change({ richTextCustomCSS: event.target.value })}
        />
      )}
    </SettingField>
  );
}

/** RichText: the custom script file (Upload Custom JS, View JS File), while the project allows scripts. */
function CustomJsEditor({ idBase, draft, change, disabled, scope }: SettingsEditorProps) {
  return (
    <CustomScriptSetting
      id={`${idBase}-richTextCustomJS`}
      fieldName={draft.name}
      value={draft.richTextCustomJS || undefined}
      onChange={(url) => change({ richTextCustomJS: url })}
      disabled={disabled}
      scope={scope}
    />
  );
}
