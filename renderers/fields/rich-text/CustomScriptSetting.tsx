/**
 * A RichText field's custom script file (a script-file setting that
 * accepts .js): Upload Custom JS and View JS File, shown only while the project's scripts are on
 * (an organization admin's switch; the server refuses a new script otherwise). The file is stored
 * as a project asset; the server serves scripts as attachments under a sandboxing CSP, so it
 * never runs on the console's origin, and View JS File shows its text in a dialog. An upload
 * error shows an alert with the error.
 */
import { useEffect, useRef, useState } from 'react';
import type { ProjectScope } from '../../../src/api/content.ts';
import { fileLimits } from '../../../definitions/files.ts';
import { ModalDialog } from '../../dialogs/ModalDialog.tsx';
import { useFormat } from '../../messages/use-format.ts';
import { useRichTextServices, useRichTextSettings } from './rich-text-services.ts';
import './custom-script.css';

export interface CustomScriptSettingProps {
  id: string;
  /** The field's name, for the viewer's title. */
  fieldName: string;
  /** The script file's address, when the field has one. */
  value: string | undefined;
  onChange(url: string): void;
  disabled: boolean;
  scope: ProjectScope;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const fileNameOf = (url: string) => decodeURIComponent(url.split(/[?#]/)[0]!.split('/').pop() ?? url);

export function CustomScriptSetting({ id, fieldName, value, onChange, disabled, scope }: CustomScriptSettingProps) {
  const format = useFormat();
  const settings = useRichTextSettings(scope);
  const services = useRichTextServices();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState('');
  const [viewing, setViewing] = useState(false);

  if (!settings.scriptsEnabled) {
    return value ? (
      <div className="field field-setting">
        <p className="field-label">{format('richText.script.label')}</p>
        <p className="field-help">{format('richText.script.current', { name: fileNameOf(value) })}</p>
        <p className="field-help">{format('richText.script.off')}</p>
      </div>
    ) : null;
  }

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setFailure('');
    const clear = () => {
      if (input.current) input.current.value = '';
    };
    if (!/\.js$/i.test(file.name)) {
      setFailure(format('richText.script.notJs'));
      clear();
      return;
    }
    if (file.size > fileLimits.uploadBytesMax) {
      setFailure(format('richText.upload.tooLarge'));
      clear();
      return;
    }
    setUploading(true);
    try {
      const stored = await services.uploadAsset(scope, file);
      onChange(stored.url);
    } catch (error) {
      setFailure(format('richText.script.uploadFailed', { reason: reasonOf(error) }));
    } finally {
      setUploading(false);
      clear();
    }
  };

  return (
    <div className="field field-setting" role="group" aria-labelledby={`${id}-label`}>
      <p className="field-label" id={`${id}-label`}>
        {format('richText.script.label')}
      </p>
      <p className="field-help" id={`${id}-help`}>
        {value ? format('richText.script.current', { name: fileNameOf(value) }) : format('richText.script.none')} {format('richText.script.help')}
      </p>
      <div className="form-actions rich-text-script-actions">
        <input
          ref={input}
          id={id}
          type="file"
          accept=".js,text/javascript,application/javascript"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => void upload(event.target.files?.[0])}
        />
        <button type="button" className="button button-small" disabled={disabled || uploading} aria-describedby={`${id}-help`} onClick={() => input.current?.click()}>
          {format(uploading ? 'richText.script.uploading' : 'richText.script.upload')}
        </button>
        {value ? (
          <>
            <button type="button" className="button button-small" onClick={() => setViewing(true)}>
              {format('richText.script.view')}
            </button>
            <button type="button" className="button button-small" disabled={disabled || uploading} onClick={() => onChange('')}>
              {format('richText.script.remove')}
            </button>
          </>
        ) : null}
      </div>
      {failure ? (
        <p role="alert" className="form-alert">
          {failure}
        </p>
      ) : null}
      {value ? <ScriptViewer url={value} open={viewing} fieldName={fieldName} onClose={() => setViewing(false)} /> : null}
    </div>
  );
}

/** The script's text, read as text and shown in a dialog: never evaluated. */
function ScriptViewer({ url, open, fieldName, onClose }: { url: string; open: boolean; fieldName: string; onClose(): void }) {
  const format = useFormat();
  const services = useRichTextServices();
  const [state, setState] = useState<{ text?: string; error?: string }>({});
  useEffect(() => {
    if (!open) return;
    let current = true;
    setState({});
    services.readText(url).then(
      (text) => current && setState({ text }),
      (error: unknown) => current && setState({ error: format('richText.script.readFailed', { reason: reasonOf(error) }) }),
    );
    return () => {
      current = false;
    };
  }, [open, url, services, format]);
  return (
    <ModalDialog open={open} onOpenChange={(next) => (next ? undefined : onClose())} title={format('richText.script.viewTitle', { name: fieldName })} name="viewScript" widthPx={720}>
      <div className="rich-text-script-view">
        {state.error ? (
          <p role="alert" className="form-alert">
            {state.error}
          </p>
        ) : state.text === undefined ? (
          <p className="muted">{format('richText.script.loading')}</p>
        ) : (
          <pre className="rich-text-script-text" tabIndex={0} aria-label={format('richText.script.viewTitle', { name: fieldName })}>
            <code>{state.text}</code>
          </pre>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {format('richText.script.close')}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
