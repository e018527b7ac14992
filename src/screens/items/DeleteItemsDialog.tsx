/** Asks before deleting the selected items; the button says Deleting… while the server works. */
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface DeleteItemsDialogProps {
  open: boolean;
  count: number;
  deleting: boolean;
  onCancel: () => void;
  onDelete: () => void;
}

export function DeleteItemsDialog({ open, count, deleting, onCancel, onDelete }: DeleteItemsDialogProps) {
  const format = useFormat();
  return (
    <ModalDialog open={open} onOpenChange={(next) => (next ? undefined : onCancel())} title={format('itemList.deleteTitle', { count })} name="deleteItems" widthPx={440}>
      <p>{format('itemList.deleteConfirm')}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          {format('form.cancel')}
        </button>
        <button type="button" className="button button-danger" disabled={deleting} onClick={onDelete}>
          {deleting ? format('form.deleting') : format('itemList.delete')}
        </button>
      </div>
    </ModalDialog>
  );
}
