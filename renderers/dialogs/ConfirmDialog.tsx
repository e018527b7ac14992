/**
 * A question with Cancel and one action (delete, deploy, roll back) in the console's modal dialog:
 * the confirmations of webhooks, integrations and functions. Cancel, Escape and the close button
 * all answer `onOpenChange(false)`; the action is disabled while it runs.
 */
import type { ReactNode } from 'react';
import { ModalDialog } from './ModalDialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  /** The dialog's name for tests and styles (ModalDialog's `name`). */
  name: string;
  /** The question. */
  children: ReactNode;
  cancelLabel: string;
  actionLabel: string;
  /** `danger` for what cannot be undone. */
  tone?: 'danger' | 'primary';
  pending: boolean;
  onConfirm(): void;
}

export function ConfirmDialog({ open, onOpenChange, title, name, children, cancelLabel, actionLabel, tone = 'danger', pending, onConfirm }: ConfirmDialogProps) {
  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} title={title} widthPx={500} name={name}>
      {children}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => onOpenChange(false)}>
          {cancelLabel}
        </button>
        <button type="button" className={`button button-${tone}`} disabled={pending} onClick={onConfirm}>
          {actionLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
