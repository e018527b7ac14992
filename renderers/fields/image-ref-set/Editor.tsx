/**
 * ImageRefSet: several files, in order. Files are chosen (button or
 * drop, several at once) and checked one by one as for an ImageRef. On a saved item each uploads
 * at once, one after the other, with its progress bar, and is appended; on a new item they wait
 * in the form and go after the create. Each file has its preview, alt text and Delete. The order
 * changes by dragging a file's handle (dnd-kit, keyboard too); files not uploaded yet cannot be
 * dragged. A new order (and alt text) is part of the form's value, saved with the item.
 */
import { useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { GripVertical, Trash2 } from 'lucide-react';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { defaultAccept } from '../../../definitions/content.ts';
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import { useFormat } from '../../messages/use-format.ts';
import { notify } from '../../toasts/notify.ts';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { FilePicker, UploadProgress, useFileCheck } from '../image-ref/FilePicker.tsx';
import { PendingPreview } from '../image-ref/Editor.tsx';
import { extensionOfImage, forget, isPending, nameOf, pendingImage, text, urlOf, type ImageValue } from '../image-ref/image-value.ts';
import { useImageFiles, useUploadProgress } from '../image-ref/image-files.ts';
import { FilePreview } from '../image-ref/media/FilePreview.tsx';
import '../image-ref/image-editor.css';

// Files chosen for a new item have no id yet: each gets a key of its own for the list.
const fileKeys = new WeakMap<File, string>();
let nextFileKey = 0;
const fileKey = (file: File) => {
  let key = fileKeys.get(file);
  if (!key) {
    key = `file-${(nextFileKey += 1)}`;
    fileKeys.set(file, key);
  }
  return key;
};

/** A stable key of an entry: its `_id`, its chosen file, its stored name, else its place. */
const keyOf = (entry: ImageValue, index: number) => text(entry._id) || (entry.file ? fileKey(entry.file) : text(entry.imageName) || `at-${index}`);

/** Entries are the same stored image when they share an `_id`, else a stored name. */
const sameImage = (a: ImageValue, b: ImageValue) => (a._id ? a._id === b._id : !!a.imageName && a.imageName === b.imageName && !b._id);

/**
 * The set as the editor shows it once a file call answered with the stored set: the person's
 * entries (their order, alt text) that are still stored, then the stored ones they did not have.
 */
export function mergeStoredSet(local: readonly ImageValue[], stored: unknown): ImageValue[] | null {
  const server = Array.isArray(stored) ? (stored.filter(isPlainObject) as ImageValue[]) : [];
  const kept = local.filter((entry) => isPending(entry) || server.some((other) => sameImage(entry, other)));
  const added = server.filter((entry) => !local.some((other) => sameImage(other, entry)));
  const merged = [...kept, ...added];
  return merged.length ? merged : null;
}

interface Uploading {
  key: string;
  name: string;
  fraction: number;
}

export function ImageRefSetEditor({ field, value, onChange, error, disabled, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const files = useImageFiles();
  const accept = field.accept || defaultAccept;
  const check = useFileCheck(accept);
  const entries: ImageValue[] = Array.isArray(value) ? (value.filter(isPlainObject) as ImageValue[]) : [];
  const current = useRef(entries);
  current.current = entries;
  const [notices, setNotices] = useState<{ tone: 'alert' | 'note'; message: string }[]>([]);
  const [uploading, setUploading] = useState<Uploading[]>([]);
  const [deleting, setDeleting] = useState<string | null>(null);
  const busy = uploading.length > 0 || deleting !== null;
  const canChange = files !== null && !disabled;
  const noticeId = `${id}-notice`;

  const choose = async (chosen: File[]) => {
    if (!files) return;
    const found: { tone: 'alert' | 'note'; message: string }[] = [];
    const accepted: File[] = [];
    for (const file of chosen) {
      const checked = check(file);
      if (!checked.ok) found.push({ tone: 'alert', message: checked.message });
      else {
        if (checked.note) found.push({ tone: 'note', message: checked.note });
        accepted.push(file);
      }
    }
    setNotices(found);
    if (accepted.length === 0) return;
    if (!files.saved) {
      onChange([...current.current, ...accepted.map((file) => pendingImage(file))]);
      return;
    }
    const queued = accepted.map((file) => ({ key: fileKey(file), name: file.name, fraction: 0 }));
    setUploading((list) => [...list, ...queued]);
    // One after the other: the set keeps the order the files were chosen in.
    for (const file of accepted) {
      const key = fileKey(file);
      const result = await files.upload(field.slug, {
        file,
        altText: '',
        onProgress: (fraction) => setUploading((list) => list.map((entry) => (entry.key === key ? { ...entry, fraction } : entry))),
        merge: (stored) => mergeStoredSet(current.current, stored),
      });
      setUploading((list) => list.filter((entry) => entry.key !== key));
      if (!result.ok) {
        setNotices((list) => [...list, { tone: 'alert', message: format('editor.image.uploadFailed', { name: file.name, reason: result.message }) }]);
        void notify({ kind: 'error', title: format('images.uploadFailed'), description: result.message });
      }
    }
  };

  const remove = async (entry: ImageValue, key: string) => {
    if (!files) return;
    setNotices([]);
    if (isPending(entry) || !files.saved) {
      forget(entry);
      const rest = current.current.filter((other, i) => keyOf(other, i) !== key);
      onChange(rest.length ? rest : null);
      return;
    }
    setDeleting(key);
    const which = entry._id ? { imageID: entry._id } : { imageName: text(entry.imageName) };
    const result = await files.remove(field.slug, which, (stored) => mergeStoredSet(current.current, stored));
    setDeleting(null);
    void notify(result.ok ? { kind: 'success', title: format('image.deleted') } : { kind: 'error', title: format('image.deleteFailed'), description: result.message });
  };

  const setAltText = (key: string, altText: string) => onChange(current.current.map((entry, i) => (keyOf(entry, i) === key ? { ...entry, altText } : entry)));

  // Reordering.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const keys = entries.map(keyOf);
  const nameByKey = (key: UniqueIdentifier) => {
    const index = keys.indexOf(String(key));
    return index === -1 ? String(key) : nameOf(entries[index]!);
  };
  const positionOf = (key: UniqueIdentifier | undefined) => (key === undefined ? 0 : keys.indexOf(String(key)) + 1);
  const announcements: Announcements = {
    onDragStart: ({ active }) => format('editor.imageSet.drag.start', { name: nameByKey(active.id), position: positionOf(active.id), count: keys.length }),
    onDragOver: ({ active, over }) => (over ? format('editor.imageSet.drag.over', { name: nameByKey(active.id), position: positionOf(over.id), count: keys.length }) : undefined),
    onDragEnd: ({ active, over }) =>
      over
        ? format('editor.imageSet.drag.end', { name: nameByKey(active.id), position: positionOf(over.id), count: keys.length })
        : format('editor.imageSet.drag.cancel', { name: nameByKey(active.id) }),
    onDragCancel: ({ active }) => format('editor.imageSet.drag.cancel', { name: nameByKey(active.id) }),
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = keys.indexOf(String(active.id));
    const to = keys.indexOf(String(over.id));
    if (from === -1 || to === -1) return;
    onChange(arrayMove(current.current, from, to));
  };

  return (
    <div className="editor-image-wrap">
      <div
        id={id}
        className="editor editor-image-set"
        role="group"
        aria-labelledby={labelledBy}
        aria-describedby={describedByOf(describedBy, notices.length > 0 && noticeId, error && messagesId(id))}
        aria-busy={busy || undefined}
      >
        {entries.length === 0 && uploading.length === 0 ? <span className="editor-muted">{format('editor.image.noFile')}</span> : null}
        {entries.length > 0 ? (
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            accessibility={{ announcements, screenReaderInstructions: { draggable: format('editor.imageSet.drag.instructions') } }}
            onDragEnd={onDragEnd}
          >
            <SortableContext items={keys} strategy={verticalListSortingStrategy} disabled={!canChange || busy}>
              <ul className="file-set" aria-label={format('editor.imageSet.list')}>
                {entries.map((entry, index) => {
                  const key = keys[index]!;
                  const name = nameOf(entry);
                  const pending = isPending(entry);
                  const url = urlOf(entry);
                  return (
                    <SortableEntry key={key} id={key} name={name} sortable={canChange && !busy && !pending} pending={pending}>
                      {pending ? <PendingPreview image={entry} /> : url ? <FilePreview url={url} name={name} extension={extensionOfImage(entry)} altText={text(entry.altText) || undefined} /> : null}
                      {pending ? <AfterCreateProgress file={entry.file} name={name} /> : null}
                      <div className="file-alt">
                        <label htmlFor={`${id}-alt-${index}`} className="file-alt-label">
                          {format('editor.image.altTextOf', { name })}
                        </label>
                        <input
                          id={`${id}-alt-${index}`}
                          className="input"
                          type="text"
                          value={text(entry.altText)}
                          disabled={disabled || deleting === key}
                          onChange={(event) => setAltText(key, event.currentTarget.value)}
                        />
                      </div>
                      {files ? (
                        <div className="file-actions">
                          <button
                            type="button"
                            className="button button-small button-danger"
                            disabled={!canChange || busy}
                            aria-label={format('editor.image.delete', { name })}
                            onClick={() => void remove(entry, key)}
                          >
                            <Trash2 aria-hidden="true" size={14} />
                            {format('editor.image.deleteShort')}
                          </button>
                        </div>
                      ) : null}
                    </SortableEntry>
                  );
                })}
              </ul>
            </SortableContext>
          </DndContext>
        ) : null}
        {uploading.map((entry) => (
          <UploadProgress key={entry.key} name={entry.name} fraction={entry.fraction} />
        ))}
        {files ? (
          <FilePicker accept={accept} multiple disabled={!canChange || busy} label={format('editor.image.chooseMore')} describedBy={describedByOf(notices.length > 0 && noticeId)} onFiles={(chosen) => void choose(chosen)} />
        ) : (
          <span className="editor-muted">{format('editor.image.readOnly')}</span>
        )}
        {notices.length ? (
          <div id={noticeId}>
            {notices.map((notice, i) => (
              <p key={i} className={notice.tone === 'alert' ? 'field-error' : 'field-help file-note'} role={notice.tone === 'alert' ? 'alert' : 'status'}>
                {notice.message}
              </p>
            ))}
          </div>
        ) : null}
      </div>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}

/** The progress of a file a new item uploads after its create. */
function AfterCreateProgress({ file, name }: { file: File | undefined; name: string }) {
  const fraction = useUploadProgress(file);
  return fraction === undefined ? null : <UploadProgress name={name} fraction={fraction} />;
}

/** One file of the set: the row moves with the drag, only the handle starts one; a file not uploaded yet stays put. */
function SortableEntry({ id, name, sortable, pending, children }: { id: string; name: string; sortable: boolean; pending: boolean; children: ReactNode }) {
  const format = useFormat();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: !sortable });
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition };
  return (
    <li ref={setNodeRef} style={style} className={isDragging ? 'file-set-entry file-set-entry-dragging' : 'file-set-entry'} data-entry={id}>
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="icon-button file-set-handle"
        {...attributes}
        {...(sortable ? listeners : {})}
        aria-disabled={!sortable}
        aria-label={format('editor.imageSet.move', { name })}
        {...(pending ? { title: format('editor.imageSet.notUploaded') } : {})}
      >
        <GripVertical aria-hidden="true" size={18} />
      </button>
      <div className="file-set-body">{children}</div>
    </li>
  );
}
