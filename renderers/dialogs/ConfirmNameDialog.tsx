/**
 * A destructive action confirmed by typing a name: the action runs only when the typed text
 * equals the expected name exactly; otherwise the mismatch message shows and nothing happens.
 * Texts come from the screen, already in the user's words.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { isExactName } from '../../definitions/confirm-name.ts';
import { ModalDialog } from './ModalDialog.tsx';

export interface ConfirmNameDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  body: ReactNode;
  inputLabel: string;
  expected: string;
  mismatchMessage: string;
  confirmLabel: string;
  busyLabel: string;
  cancelLabel: string;
  busy?: boolean;
  /** The server's refusal of the last attempt. */
  error?: string | null;
  onConfirm: () => void;
  widthPx?: number;
  name?: string;
}

export function ConfirmNameDialog(props: ConfirmNameDialogProps) {
  const { open, onOpenChange, title, body, widthPx, name } = props;
  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} title={title} description={body} widthPx={widthPx} name={name}>
      {({ titleId }) => (open ? <ConfirmNameForm {...props} titleId={titleId} /> : null)}
    </ModalDialog>
  );
}

function ConfirmNameForm({
  inputLabel,
  expected,
  mismatchMessage,
  confirmLabel,
  busyLabel,
  cancelLabel,
  busy = false,
  error,
  onConfirm,
  onOpenChange,
  titleId,
}: ConfirmNameDialogProps & { titleId: string }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!isExactName(typed, expected)) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    onConfirm();
  };
  const message = mismatch ? mismatchMessage : (error ?? null);
  return (
    <form className="form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {inputLabel}
        </label>
        <input
          id={`${id}-name`}
          className="input"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          aria-invalid={mismatch || undefined}
          aria-describedby={message ? `${id}-error` : undefined}
          onChange={(event) => {
            setTyped(event.target.value);
            setMismatch(false);
          }}
        />
      </div>
      {message ? (
        <div id={`${id}-error`} role="alert" className="form-alert">
          {message}
        </div>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => onOpenChange(false)}>
          {cancelLabel}
        </button>
        <button type="submit" className="button button-danger" aria-disabled={busy || undefined}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </form>
  );
}
