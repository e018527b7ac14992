/**
 * The ItemRef picker's dialog to create an item in the referenced collection, or to edit a linked
 * one. It is the item form in a modal: the same item-form machine drives it, so the
 * same rules hold as on the item page: required fields, editors' own problems held before any
 * request, the server's per-field refusals shown at the field with everything typed kept, updates
 * naming the version edited (If-Match) and a 409 settled field by field, leaving with unsaved
 * changes asked about. Saving closes the dialog and hands the saved item's link to the picker.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { ui } from '../../../definitions/constants.ts';
import { leaveItemDialog } from '../../../definitions/dialogs/item.ts';
import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { itemFormMachine, saveErrorMessage, type DeleteItemInput, type ItemNotice } from '../../../machines/item-form.ts';
import { fieldErrorsOf, type ConflictSide, type ItemConflict } from '../../../machines/item-form-rules.ts';
import type { Collection, Item, ProjectScope } from '../../../src/api/content.ts';
import { useItemCalls } from '../../../src/api/content-queries.ts';
import { DialogRenderer } from '../../dialogs/DialogRenderer.tsx';
import { ModalDialog } from '../../dialogs/ModalDialog.tsx';
import { useFormat } from '../../messages/use-format.ts';
import { notify } from '../../toasts/notify.ts';
import { ConflictPanel } from '../ConflictPanel.tsx';
import type { EditorEnvironment, LinkedItemRef } from '../editor-environment.ts';
import { ItemFields, useFieldProblems } from '../ItemFields.tsx';
import { ImageFilesProvider } from '../image-ref/image-files.ts';
import { useFormFiles } from '../image-ref/use-form-files.ts';
import { itemTitle } from './item-title.ts';
import './linked-item-dialog.css';

export interface LinkedItemDialogProps {
  scope: ProjectScope;
  /** The referenced collection, with its schema. */
  collection: Collection;
  /** The linked item to edit; null to create one. */
  itemID: string | null;
  /** The item was saved: its link, named as the server names it. */
  onSaved(ref: LinkedItemRef): void;
  /** The dialog is done (after saving, or left). */
  onClose(): void;
}

export function LinkedItemDialog({ scope, collection, itemID, onSaved, onClose }: LinkedItemDialogProps) {
  const format = useFormat();
  const id = useId();
  const calls = useItemCalls(scope, collection.id);
  const schema = collection.schema;

  const toast = (notice: ItemNotice) => void notify({ kind: notice.tone, title: format(notice.key as MessageKey, notice.values) });
  // The machine is made once; what it calls is read through this ref, so it always sees this render's values.
  const io = useRef({ calls, toast, onSaved, onClose, uploadFiles: null as ReturnType<typeof useFormFiles>['uploadFiles'] | null });
  io.current = { ...io.current, calls, toast, onSaved, onClose };
  const [logic] = useState(() =>
    itemFormMachine.provide({
      actors: {
        loadItem: fromPromise(({ input }) => io.current.calls.load(input)),
        saveItem: fromPromise(({ input }) => io.current.calls.save(input)),
        // The dialog offers no delete: linked items are deleted from their own page.
        deleteItem: fromPromise<unknown, DeleteItemInput>(async () => {
          throw new Error('deleting is not offered in the linked-item dialog');
        }),
        // A new linked item's chosen files are uploaded once it is created, as on the item page.
        uploadFiles: fromPromise(({ input }) => {
          if (!io.current.uploadFiles) throw new Error('uploadFiles is not ready');
          return io.current.uploadFiles(input);
        }),
      },
      actions: {
        // Where the page would navigate, the dialog closes: the final states below say how.
        navigate: () => {},
        notify: (_, params) => io.current.toast(params),
        persistCloseAfterSaving: () => {},
      },
    }),
  );
  const [snapshot, send, actorRef] = useMachine(logic, {
    input: { collectionID: collection.id, schema, itemID, singleItem: collection.singleItem, closeAfterSaving: true },
  });
  const { context } = snapshot;

  // Files: uploaded and removed at once on a saved item; a new item's go after its create.
  const { files, uploadFiles, busy: filesBusy } = useFormFiles(
    scope,
    collection.id,
    { itemID: context.itemID, nestedID: context.nestedID, parentItemID: context.parentItemID },
    (slug, result, value) => send({ type: 'FILE_STORED', slug, result, value }),
  );
  io.current.uploadFiles = uploadFiles;

  // Saved (closed), left, or the item could not be loaded (notFound, loadFailed): the dialog is done.
  const finished = snapshot.status === 'done';
  useEffect(() => {
    if (!finished) return;
    const saved = actorRef.getSnapshot();
    const item = saved.context.item;
    if (saved.matches('closed') && item && typeof item._id === 'string') io.current.onSaved({ itemRefID: item._id, value: itemTitle(schema, item) });
    io.current.onClose();
  }, [finished, actorRef, schema]);

  const { reporters: problemReporters, refuseHeld } = useFieldProblems(schema);

  const busy = snapshot.hasTag('busy');
  const loading = snapshot.matches('loading') || snapshot.matches('starting');
  const inConflict = snapshot.matches({ form: 'conflict' });
  const editable = snapshot.matches({ form: 'editing' });
  const isNew = context.itemID === null;
  const canSave = inConflict || context.changed || (isNew && context.singleItem);

  const save = () => {
    // An editor holding a problem: nothing is sent (a conflict's choice is saved as chosen).
    if (!inConflict && refuseHeld()) return;
    send({ type: 'SAVE' });
  };

  // Escape, the close button and Cancel: leave through the machine, which asks when there are changes.
  const requestClose = () => {
    const now = actorRef.getSnapshot();
    if (now.can({ type: 'LEAVE' })) send({ type: 'LEAVE' });
    else if (now.matches('loading') || now.matches('starting')) onClose();
    // Saving: the answer decides (a refusal keeps the form open with everything typed).
  };

  // A refusal no field carries (no answer, a single-item collection already full): said in the dialog too.
  const refusal = context.error && !inConflict && Object.keys(fieldErrorsOf(schema, context.error)).length === 0 ? context.error : null;
  const refusalMessage = refusal ? saveErrorMessage(isNew ? 'create' : 'update', refusal) : null;
  // An update's message carries the server's reason already; a create's does not.
  const refusalText = refusal && refusalMessage ? [format(refusalMessage.key as MessageKey, refusalMessage.values), isNew ? refusal.detail : ''].filter(Boolean).join(' ') : null;

  const savedName = itemTitle(schema, context.item ?? { _id: itemID ?? '' });
  const title = isNew ? format('item.newTitle', { collection: collection.name }) : format('editor.itemRef.editTitle', { name: savedName });

  // The dialog's editors work on the linked item: their environment and nested place are its own, not the page's.
  const environment: EditorEnvironment = useMemo(
    () => ({ scope, direction: collection.rtlDirection ? 'rtl' : 'ltr', ...(context.item && context.itemID ? { item: context.item as Item } : {}) }),
    [scope, collection.rtlDirection, context.item, context.itemID],
  );
  const nestedPlace = context.itemID ? { collectionID: collection.id, parentItemID: context.itemID, itemChain: '' } : null;

  return (
    <>
      <ModalDialog
        open={!finished}
        onOpenChange={(open) => {
          if (!open) requestClose();
        }}
        title={title}
        widthPx={ui.linkedItemDialogWidthPx}
        name="linked-item"
      >
        <div className="linked-item" aria-busy={busy || undefined}>
          {loading ? (
            <p className="muted" role="status">
              {format('item.loading')}
            </p>
          ) : (
            <>
              {inConflict && context.conflict ? (
                <ConflictPanel
                  conflict={context.conflict}
                  schema={schema}
                  busy={busy}
                  onChoose={(slug, side) => send({ type: 'CHOOSE', slug, side })}
                  onChooseAll={(side) => send({ type: 'CHOOSE_ALL', side })}
                />
              ) : null}
              {refusalText ? (
                <div role="alert" className="form-alert">
                  {refusalText}
                </div>
              ) : null}
              <ImageFilesProvider value={files}>
                <ItemFields
                  idPrefix={id}
                  className="linked-item-fields"
                  schema={schema}
                  values={context.values}
                  fieldErrors={context.fieldErrors}
                  disabled={!editable}
                  onChange={(slug, value) => send({ type: 'CHANGE', slug, value })}
                  reporters={problemReporters}
                  environment={environment}
                  nestedPlace={nestedPlace}
                />
              </ImageFilesProvider>
            </>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={requestClose} disabled={busy && !loading}>
              {format('item.cancel')}
            </button>
            <button type="button" className="button button-primary" disabled={loading || !canSave || busy || filesBusy} onClick={save}>
              {snapshot.matches('saving') ? format('item.saving') : inConflict ? format('item.conflictSave') : format(isNew ? 'item.create' : 'item.update')}
            </button>
          </div>
        </div>
      </ModalDialog>
      <DialogRenderer
        definition={leaveItemDialog}
        open={snapshot.matches('confirmingLeave')}
        onOpenChange={(open) => {
          if (!open && actorRef.getSnapshot().matches('confirmingLeave')) send({ type: 'CANCEL_LEAVE' });
        }}
        onAction={(action) => send({ type: action === 'leave' ? 'CONFIRM_LEAVE' : 'CANCEL_LEAVE' })}
      />
    </>
  );
}
