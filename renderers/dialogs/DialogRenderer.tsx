/**
 * Draws a message dialog from its definition with radix's AlertDialog (focus trap, Escape,
 * labelling and restoring focus come from the primitive).
 */
import { AlertDialog } from 'radix-ui';
import type { DialogDefinition } from '../../definitions/dialogs/types.ts';
import { useFormat } from '../messages/use-format.ts';

export interface DialogRendererProps {
  definition: DialogDefinition;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAction: (actionId: string) => void;
}

export function DialogRenderer({ definition, open, onOpenChange, onAction }: DialogRendererProps) {
  const format = useFormat();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog"
          data-dialog={definition.id}
          onEscapeKeyDown={(event) => {
            if (definition.persistent) event.preventDefault();
          }}
        >
          <AlertDialog.Title className="dialog-title">{format(definition.title)}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-description">{format(definition.description)}</AlertDialog.Description>
          <div className="dialog-actions">
            {definition.actions.map((action) => {
              const Button = action.primary ? AlertDialog.Action : AlertDialog.Cancel;
              return (
                <Button
                  key={action.id}
                  className={action.primary ? 'button button-primary' : 'button'}
                  onClick={() => onAction(action.id)}
                >
                  {format(action.label)}
                </Button>
              );
            })}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
