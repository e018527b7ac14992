/**
 * A modal dialog around any content (forms, confirmations) with radix's Dialog: focus trap,
 * Escape, outside click, labelling and restoring focus come from the primitive. A persistent
 * dialog closes only through what its content does (no Escape, no outside click, no close button).
 */
import { useId, useLayoutEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useFormat } from '../messages/use-format.ts';

export interface ModalDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's title, already in the user's words. */
  title: ReactNode;
  description?: ReactNode;
  /** The content: a node, or a function given the title's id (a form inside is named by it). */
  children: ReactNode | ((ids: { titleId: string }) => ReactNode);
  /** Width on wide screens; narrow screens always get the full width less a margin. */
  widthPx?: number;
  persistent?: boolean;
  /** Marks the dialog for styles and tests. */
  name?: string;
}

export function ModalDialog({ open, onOpenChange, title, description, children, widthPx, persistent = false, name }: ModalDialogProps) {
  const format = useFormat();
  const titleId = useId();
  // Dialogs open from state, not from a radix Trigger: remember what had focus to give it back.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement && document.activeElement !== document.body) opener.current = document.activeElement;
  }, [open]);
  const block = (event: Event) => {
    if (persistent) event.preventDefault();
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          data-dialog={name}
          aria-labelledby={titleId}
          {...(description ? {} : { 'aria-describedby': undefined })}
          style={widthPx ? ({ '--dialog-width': `${widthPx}px` } as CSSProperties) : undefined}
          onCloseAutoFocus={(event) => {
            if (opener.current?.isConnected) {
              event.preventDefault();
              opener.current.focus();
            }
          }}
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
        >
          <Dialog.Title className="dialog-title" id={titleId}>
            {title}
          </Dialog.Title>
          {description ? <Dialog.Description className="dialog-description">{description}</Dialog.Description> : null}
          {typeof children === 'function' ? children({ titleId }) : children}
          {/* Last in the tab order (drawn top right), so opening the dialog focuses its first field. */}
          {persistent ? null : (
            <Dialog.Close className="icon-button dialog-close" aria-label={format('dialog.close')}>
              <X aria-hidden="true" size={18} />
            </Dialog.Close>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
