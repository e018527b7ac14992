/**
 * The drag handle cell of the item table: one button that a pointer drags (ag-grid's row drag)
 * and the keyboard moves (Space or Enter picks the row up, arrows move it, Space or Enter drops,
 * Escape cancels), as the schema builder's handles do. The grid (ItemGrid) owns the move; the
 * handle only hands it its keys.
 */
import { createContext, useContext, useEffect, useRef } from 'react';
import { GripVertical } from 'lucide-react';
import type { ICellRendererParams } from 'ag-grid-community';
import type { Item } from '../../api/content.ts';

/** What a handle needs from the grid it sits in. */
export interface RowMoveControl {
  /** The id of the item being moved by keyboard, if any. */
  picked: string | null;
  /** The handle's accessible name for an item ("Move Post 1"). */
  labelOf: (item: Item) => string;
  /** The id of the text that tells how to move with the keyboard. */
  instructionsId: string;
  /** A key pressed on a handle; answers whether the grid used it (then nothing else may). */
  onKey: (key: string, item: Item) => boolean;
  /** Focus left the handle of the picked item for somewhere outside the grid. */
  onLeave: (to: EventTarget | null) => void;
}

export const RowMoveContext = createContext<RowMoveControl | null>(null);

export function RowHandleCell(params: ICellRendererParams<Item>) {
  const control = useContext(RowMoveContext);
  const button = useRef<HTMLButtonElement>(null);
  const controlRef = useRef(control);
  controlRef.current = control;
  const item = params.data;

  useEffect(() => {
    const element = button.current;
    if (!element) return undefined;
    // The same button starts a pointer drag; it stays shown whatever ag-grid thinks of the column.
    params.registerRowDragger(element, 4, undefined, true);
    // The grid focuses cells; the handle's cell hands its focus to the button (a widget in a cell).
    const cell = params.eGridCell;
    const forward = (event: FocusEvent) => {
      if (event.target === cell) element.focus();
    };
    // Keys are handled before the grid sees them: a used key is marked so the grid ignores it.
    const keydown = (event: KeyboardEvent) => {
      const data = params.node.data;
      if (!data || !controlRef.current) return;
      if (controlRef.current.onKey(event.key, data)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    // A click (or Space's click) on the handle never opens the item.
    const click = (event: MouseEvent) => event.stopPropagation();
    cell.addEventListener('focus', forward);
    element.addEventListener('keydown', keydown);
    element.addEventListener('click', click);
    if (document.activeElement === cell) element.focus();
    return () => {
      cell.removeEventListener('focus', forward);
      element.removeEventListener('keydown', keydown);
      element.removeEventListener('click', click);
    };
  }, [params]);

  if (!item || !control) return null;
  const picked = control.picked === item._id;
  return (
    <button
      ref={button}
      type="button"
      tabIndex={-1}
      className={picked ? 'row-handle row-handle-picked' : 'row-handle'}
      aria-label={control.labelOf(item)}
      aria-describedby={control.instructionsId}
      aria-pressed={picked}
      data-row-handle=""
      onBlur={(event) => {
        if (picked) control.onLeave(event.relatedTarget);
      }}
    >
      <GripVertical aria-hidden="true" size={18} />
    </button>
  );
}
