import { defaultAccept } from '../../../definitions/content.ts';
import { useFormat } from '../../messages/use-format.ts';
import { TextAttribute } from '../settings/TextAttribute.tsx';
import type { SettingsEditorProps } from '../settings-editor-types.ts';

/** ImageRef, ImageRefSet: the file types the uploader offers (by default image/* and PDF). */
export function AcceptSettings({ idBase, draft, change, disabled }: SettingsEditorProps) {
  const format = useFormat();
  return (
    <div className="field-setting">
      <TextAttribute
        id={`${idBase}-accept`}
        label={format('schemaField.accept')}
        value={draft.accept ?? ''}
        mono
        maxLength={1000}
        placeholder={defaultAccept}
        disabled={disabled}
        help={format('schemaField.acceptHelp', { accept: defaultAccept })}
        onChange={(accept) => change({ accept })}
      />
    </div>
  );
}
