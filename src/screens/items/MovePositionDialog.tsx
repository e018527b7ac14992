/**
 * "Move to position…" (docs/content-storage.md "Ranks and CSV"): moves one item to any position of the whole
 * list in rank order, whatever page it is on. The position is typed (digits only, 1 to the list
 * size) and checked here; the grid sends it as the sort route's `order`, which the server counts
 * in the list's rank order under the list's lock.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';

/** Digits a position may have: the server reads `order` up to 9 digits. */
export const positionMaxDigits = 9;

/** What is wrong with a typed position (a message key), or the position. */
export function readPosition(text: string, count: number): { position: number } | { error: 'itemList.position.range' | 'itemList.position.digits' } {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'itemList.position.range' };
  if (!/^\d+$/.test(trimmed)) return { error: 'itemList.position.digits' };
  const position = Number(trimmed);
  if (trimmed.length > positionMaxDigits || position < 1 || position > count) return { error: 'itemList.position.range' };
  return { position };
}

export interface MovePositionDialogProps {
  /** The item to move, as a person knows it, and where it is now (1-based); null when closed. */
  target: { name: string; position: number } | null;
  /** The list's size: the last position. */
  count: number;
  onClose: () => void;
  onMove: (position: number) => void;
}

export function MovePositionDialog({ target, count, onClose, onMove }: MovePositionDialogProps) {
  const format = useFormat();
  const id = useId();
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  // Each opening starts empty.
  useEffect(() => {
    if (target) {
      setText('');
      setTried(false);
    }
  }, [target]);

  const read = readPosition(text, count);
  // The error shows once a move was tried, then follows the typing.
  const error = tried && 'error' in read ? format(read.error, { count }) : '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if ('position' in read) onMove(read.position);
  };

  return (
    <ModalDialog
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={format('itemList.position.title', { name: target?.name ?? '' })}
      name="movePosition"
      widthPx={420}
    >
      {({ titleId }) => (
        <form className="form move-position" aria-labelledby={titleId} noValidate onSubmit={submit}>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-position`}>
              {format('itemList.position.label', { count })}
            </label>
            <input
              id={`${id}-position`}
              className="input"
              inputMode="numeric"
              autoComplete="off"
              maxLength={positionMaxDigits}
              value={text}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-current ${id}-error`}
              onChange={(event) => setText(event.target.value)}
            />
            <p id={`${id}-current`} className="field-help">
              {target ? format('itemList.position.current', { name: target.name, position: target.position, count }) : null}
            </p>
            {/* Always there, so that a problem appearing while typing is announced. */}
            <p id={`${id}-error`} className="field-error" aria-live="polite">
              {error}
            </p>
          </div>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              {format('form.cancel')}
            </button>
            <button type="submit" className="button button-primary">
              {format('itemList.position.submit')}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
