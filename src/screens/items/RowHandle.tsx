/**
 * The drag handle cell of the item table: one button that a pointer drags (ag-grid's row drag)
 * and the keyboard moves (Space or Enter picks the row up, arrows move it, Space or Enter drops,
 * Escape cancels), as the schema builder's handles do; next to it, when the list shows every
 * item, a "Move to position…" button opening a dialog that moves the item anywhere in the list.
 *
 * The keys are not handled here: ag-grid draws rows anew while a row is carried, and a key
 * pressed while the focused button is being replaced would go to the page's body and be lost.
 * The grid (ItemGrid) listens for them on the document and finds the row by its id.
 */
import { createContext, useContext, useEffect, useRef } from 'react';
import { GripVertical, ListOrdered } from 'lucide-react';
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
  /** Opens "Move to position…" for an item; absent when the list does not show every item (search, filter). */
  onPosition?: ((item: Item) => void) | undefined;
  /** The "Move to position…" button's accessible name for an item. */
  positionLabelOf: (item: Item) => string;
  /** Focus left the handle of the picked item for somewhere outside the grid. */
  onLeave: (to: EventTarget | null) => void;
}

export const RowMoveContext = createContext<RowMoveControl | null>(null);

/** Marks the handle button and the position button: the grid finds them (and their row) by these. */
export const handleAttribute = 'data-row-handle';
export const positionAttribute = 'data-row-position';

export function RowHandleCell(params: ICellRendererParams<Item>) {
  const control = useContext(RowMoveContext);
  const button = useRef<HTMLButtonElement>(null);
  const positionButton = useRef<HTMLButtonElement>(null);
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
    // A click on the handle never opens the item. ag-grid hears clicks on its own elements before
    // React's handlers (on the page's root) would: the listeners sit on the buttons themselves.
    const click = (event: MouseEvent) => event.stopPropagation();
    cell.addEventListener('focus', forward);
    element.addEventListener('click', click);
    if (document.activeElement === cell) element.focus();
    return () => {
      cell.removeEventListener('focus', forward);
      element.removeEventListener('click', click);
    };
  }, [params]);

  const offersPosition = control?.onPosition !== undefined;
  useEffect(() => {
    const element = positionButton.current;
    if (!element) return undefined;
    const click = (event: MouseEvent) => {
      event.stopPropagation();
      const data = params.node.data;
      if (data) controlRef.current?.onPosition?.(data);
    };
    element.addEventListener('click', click);
    return () => element.removeEventListener('click', click);
  }, [params, offersPosition]);

  if (!item || !control) return null;
  const picked = control.picked === item._id;
  return (
    <span className="row-handle-cell">
      <button
        ref={button}
        type="button"
        tabIndex={-1}
        className={picked ? 'row-handle row-handle-picked' : 'row-handle'}
        aria-label={control.labelOf(item)}
        aria-describedby={control.instructionsId}
        aria-pressed={picked}
        {...{ [handleAttribute]: '' }}
        onBlur={(event) => {
          if (picked) control.onLeave(event.relatedTarget);
        }}
      >
        <GripVertical aria-hidden="true" size={18} />
      </button>
      {control.onPosition ? (
        <button
          ref={positionButton}
          type="button"
          tabIndex={-1}
          className="row-position"
          aria-label={control.positionLabelOf(item)}
          title={control.positionLabelOf(item)}
          {...{ [positionAttribute]: '' }}
        >
          <ListOrdered aria-hidden="true" size={16} />
        </button>
      ) : null}
    </span>
  );
}
