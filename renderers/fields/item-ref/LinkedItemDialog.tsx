/**
 * The ItemRef picker's dialog to create an item in the referenced collection, or to edit a linked
 * one. It is the item form in a modal: the item page's form session and view (ItemFormView.tsx), so
 * the same rules hold as on the item page: required fields, editors' own problems held before any
 * request, the server's per-field refusals shown at the field with everything typed kept, updates
 * naming the version edited (If-Match) and a 409 settled field by field, leaving with unsaved
 * changes asked about. Saving closes the dialog and hands the saved item's link to the picker.
 */
import { useEffect, useId, useMemo, useRef } from 'react';
import { ui } from '../../../definitions/constants.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { saveErrorMessage } from '../../../machines/item-form.ts';
import { fieldErrorsOf } from '../../../machines/item-form-rules.ts';
import type { Collection, Item, ProjectScope } from '../../../src/api/content.ts';
import { ModalDialog } from '../../dialogs/ModalDialog.tsx';
import { useFormat } from '../../messages/use-format.ts';
import type { EditorEnvironment, LinkedItemRef } from '../editor-environment.ts';
import { ItemFormView, ItemLeaveDialog, useItemFormSession } from '../ItemFormView.tsx';
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
  const schema = collection.schema;
  // Where the page would navigate, the dialog closes: the final states say how (below).
  const session = useItemFormSession(scope, collection, schema, { itemID, closeAfterSaving: true }, { navigate: () => {} });
  const { snapshot, send, actorRef, context, busy, loading, inConflict, isNew, canSave, filesBusy } = session;

  // Saved (closed), left, or the item could not be loaded (notFound, loadFailed): the dialog is done.
  const finished = snapshot.status === 'done';
  // Read when the machine finishes, so the latest callbacks are told.
  const doneRef = useRef({ onSaved, onClose });
  doneRef.current = { onSaved, onClose };
  useEffect(() => {
    if (!finished) return;
    const saved = actorRef.getSnapshot();
    const item = saved.context.item;
    if (saved.matches('closed') && item && typeof item._id === 'string') doneRef.current.onSaved({ itemRefID: item._id, value: itemTitle(schema, item) });
    doneRef.current.onClose();
    // Once, when the machine finishes.
  }, [finished, actorRef, schema]);

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
          <ItemFormView
            session={session}
            schema={schema}
            idPrefix={id}
            className="linked-item-fields"
            environment={environment}
            nestedPlace={nestedPlace}
            refusal={refusalText}
          />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={requestClose} disabled={busy && !loading}>
              {format('item.cancel')}
            </button>
            <button type="button" className="button button-primary" disabled={loading || !canSave || busy || filesBusy} onClick={session.save}>
              {snapshot.matches('saving') ? format('item.saving') : inConflict ? format('item.conflictSave') : format(isNew ? 'item.create' : 'item.update')}
            </button>
          </div>
        </div>
      </ModalDialog>
      <ItemLeaveDialog session={session} />
    </>
  );
}
