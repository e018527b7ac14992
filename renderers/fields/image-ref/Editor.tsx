/**
 * ImageRef: one file. Choose it with the button or drop it; it is checked
 * first (limit, accept list, the 4 MB note). On a saved item it uploads at once, with a progress
 * bar, and replaces the stored one; on a new item it waits in the form (its preview from the
 * browser) and goes after the create. The stored file shows in its preview (image, audio player,
 * 3D viewer or card, with its download), with its alt text (saved with the item) and Delete.
 */
import { useRef, useState } from 'react';
import { Trash2 } from 'lucide-react';
import { defaultAccept } from '../../../definitions/content.ts';
import { extensionOf } from '../../../definitions/files.ts';
import { useFormat } from '../../messages/use-format.ts';
import { notify } from '../../toasts/notify.ts';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { FilePicker, UploadProgress, useFileCheck } from './FilePicker.tsx';
import { useImageFiles, useUploadProgress } from './image-files.ts';
import { extensionOfImage, forget, imageValueOf, isPending, nameOf, pendingImage, text, urlOf, type ImageValue } from './image-value.ts';
import { FilePreview } from './media/FilePreview.tsx';
import { fileKindOf } from './media/kinds.ts';
import './image-editor.css';

/** A preview of a chosen file not uploaded yet: the picture itself when it is one, else its name. */
export function PendingPreview({ image }: { image: ImageValue }) {
  const format = useFormat();
  const name = nameOf(image);
  const picture = fileKindOf(text(image.extension) || extensionOf(name)) === 'image' && image.selectedImage;
  return (
    <div className="file-pending">
      {picture ? <img className="file-pending-image" src={image.selectedImage} alt={text(image.altText)} /> : null}
      <span className="file-pending-text">{format('editor.image.pending', { name })}</span>
    </div>
  );
}

export function ImageRefEditor({ field, value, onChange, error, disabled, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const files = useImageFiles();
  const check = useFileCheck(field.accept || defaultAccept);
  const image = imageValueOf(value);
  const pending = isPending(image);
  const url = image ? urlOf(image) : '';
  const [notice, setNotice] = useState<{ tone: 'alert' | 'note'; message: string } | null>(null);
  const [uploading, setUploading] = useState<{ name: string; fraction: number } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const afterCreate = useUploadProgress(pending ? image?.file : undefined);
  const current = useRef(image);
  current.current = image;

  const busy = uploading !== null || deleting || afterCreate !== undefined;
  const canChange = files !== null && !disabled && !busy;
  const name = image ? nameOf(image) : '';
  const altId = `${id}-alt`;
  const noticeId = `${id}-notice`;

  const choose = async ([file]: File[]) => {
    if (!file || !files) return;
    const checked = check(file);
    if (!checked.ok) {
      setNotice({ tone: 'alert', message: checked.message });
      return;
    }
    setNotice(checked.note ? { tone: 'note', message: checked.note } : null);
    const altText = text(current.current?.altText);
    if (!files.saved) {
      forget(current.current);
      onChange(pendingImage(file, altText));
      return;
    }
    setUploading({ name: file.name, fraction: 0 });
    const result = await files.upload(field.slug, { file, altText, onProgress: (fraction) => setUploading({ name: file.name, fraction }) });
    setUploading(null);
    if (!result.ok) {
      const message = format('editor.image.uploadFailed', { name: file.name, reason: result.message });
      setNotice({ tone: 'alert', message });
      void notify({ kind: 'error', title: format('images.uploadFailed'), description: result.message });
    }
  };

  const remove = async () => {
    if (!files || !image) return;
    setNotice(null);
    if (pending || !files.saved) {
      forget(image);
      onChange(null);
      return;
    }
    setDeleting(true);
    const result = await files.remove(field.slug);
    setDeleting(false);
    void notify(result.ok ? { kind: 'success', title: format('image.deleted') } : { kind: 'error', title: format('image.deleteFailed'), description: result.message });
  };

  return (
    <div className="editor-image-wrap">
      <div
        id={id}
        className="editor editor-image"
        role="group"
        aria-labelledby={labelledBy}
        aria-describedby={describedByOf(describedBy, notice && noticeId, error && messagesId(id))}
        aria-busy={busy || undefined}
      >
        {image && pending ? <PendingPreview image={image} /> : null}
        {image && !pending && url ? <FilePreview url={url} name={name} extension={extensionOfImage(image)} altText={text(image.altText) || undefined} /> : null}
        {!image ? <span className="editor-muted">{format('editor.image.noFile')}</span> : null}
        {uploading ? <UploadProgress name={uploading.name} fraction={uploading.fraction} /> : null}
        {afterCreate !== undefined ? <UploadProgress name={name} fraction={afterCreate} /> : null}
        {image ? (
          <div className="file-alt">
            <label htmlFor={altId} className="file-alt-label">
              {format('editor.image.altText')}
            </label>
            <input
              id={altId}
              className="input"
              type="text"
              value={text(image.altText)}
              disabled={disabled || busy}
              onChange={(event) => onChange({ ...image, altText: event.currentTarget.value })}
            />
          </div>
        ) : null}
        <div className="file-actions">
          {files ? (
            <FilePicker
              accept={field.accept || defaultAccept}
              disabled={!canChange}
              label={format(image ? 'editor.image.replace' : 'editor.image.choose')}
              describedBy={describedByOf(notice && noticeId)}
              onFiles={(chosen) => void choose(chosen)}
            />
          ) : (
            <span className="editor-muted">{format('editor.image.readOnly')}</span>
          )}
          {image && files ? (
            <button
              type="button"
              className="button button-small button-danger"
              disabled={!canChange}
              aria-label={format('editor.image.delete', { name })}
              onClick={() => void remove()}
            >
              <Trash2 aria-hidden="true" size={14} />
              {format('editor.image.deleteShort')}
            </button>
          ) : null}
        </div>
        {notice ? (
          <p id={noticeId} className={notice.tone === 'alert' ? 'field-error' : 'field-help file-note'} role={notice.tone === 'alert' ? 'alert' : 'status'}>
            {notice.message}
          </p>
        ) : null}
      </div>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
