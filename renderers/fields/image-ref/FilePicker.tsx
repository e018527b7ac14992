/**
 * Choosing files for the ImageRef and ImageRefSet editors: a button (the keyboard's way) and a
 * drop zone around it, over a hidden file input. Each chosen file is checked here first,
 * before any request: above the upload limit it is refused ("File is too large, files must be below 10mb") and
 * the selection is cleared; a file the field does not accept is refused; above 4 MB it passes with
 * a note. The server checks all of it again.
 */
import { useRef, useState, type DragEvent } from 'react';
import { Upload } from 'lucide-react';
import { acceptsFile, fileLimits } from '../../../definitions/files.ts';
import { useFormat } from '../../messages/use-format.ts';

/** What the checks say of one file. */
export type FileCheck = { ok: false; message: string } | { ok: true; note?: string };

/** Checks a chosen file against the upload limit and the field's accept list. */
export function useFileCheck(accept: string) {
  const format = useFormat();
  return (file: File): FileCheck => {
    if (file.size > fileLimits.uploadBytesMax) return { ok: false, message: format('editor.image.tooLarge') };
    // The server refuses an empty file too (empty_file): said before anything is sent.
    if (file.size === 0) return { ok: false, message: format('editor.image.empty', { name: file.name }) };
    if (!acceptsFile(accept, file.type, file.name)) return { ok: false, message: format('editor.image.notAccepted', { name: file.name, accept }) };
    if (file.size > fileLimits.uploadBytesWarn) {
      // "File is size is Xmb": megabytes of 1,000,000 bytes, one decimal.
      return { ok: true, note: format('editor.image.largeNote', { size: Math.round(file.size / 100_000) / 10 }) };
    }
    return { ok: true };
  };
}

export interface FilePickerProps {
  /** Id of the choose button. */
  id?: string;
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  /** The button's text. */
  label: string;
  describedBy?: string | undefined;
  onFiles(files: File[]): void;
}

export function FilePicker({ id, accept, multiple = false, disabled = false, label, describedBy, onFiles }: FilePickerProps) {
  const format = useFormat();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const take = (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    // The input forgets the choice at once: a refused file is not left selected, and choosing the same file again works.
    if (input.current) input.current.value = '';
    if (files.length) onFiles(multiple ? files : files.slice(0, 1));
  };
  const onDragOver = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setOver(false);
    if (disabled) return;
    event.preventDefault();
    take(event.dataTransfer.files);
  };

  return (
    <div className={over ? 'file-drop file-drop-over' : 'file-drop'} onDragOver={onDragOver} onDragLeave={() => setOver(false)} onDrop={onDrop} data-disabled={disabled || undefined}>
      <button type="button" id={id} className="button button-small" disabled={disabled} aria-describedby={describedBy} onClick={() => input.current?.click()}>
        <Upload aria-hidden="true" size={14} />
        {label}
      </button>
      <span className="file-drop-hint" aria-hidden="true">
        {format(multiple ? 'editor.image.dropMany' : 'editor.image.drop')}
      </span>
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        data-file-input=""
        onChange={(event) => take(event.currentTarget.files)}
      />
    </div>
  );
}

/** An upload's progress bar with its text. */
export function UploadProgress({ name, fraction }: { name: string; fraction: number }) {
  const format = useFormat();
  const label = format('editor.image.progress', { name, percent: fraction });
  return (
    <div className="file-progress">
      <progress max={1} value={fraction} aria-label={format('editor.image.uploading', { name })} aria-valuetext={label} />
      <span className="file-progress-text">{label}</span>
    </div>
  );
}
