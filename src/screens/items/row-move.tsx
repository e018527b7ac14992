/**
 * Moving the item table's rows by keyboard (ItemGrid.tsx): a row picked up by its drag handle is
 * carried with the arrows in the order shown, dropped with Space or Enter (naming one neighbour,
 * as a pointer drop does) or put back with Escape; "Move to position…" moves an item to a position
 * of the whole list. Every step is announced, and the handle of the moved item keeps the focus
 * while the grid draws its rows anew.
 */
import { useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import type { GridApi } from 'ag-grid-community';
import type { Item } from '../../api/content.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { MovePositionDialog } from './MovePositionDialog.tsx';
import { handleAttribute, positionAttribute, type RowMoveControl } from './RowHandle.tsx';

/** Where a moved item goes: right after or before a row, or to a 1-based position of the whole list. */
export interface MoveTarget {
  afterID?: string;
  beforeID?: string;
  order?: number;
}

/** A row carried by keyboard: its id, its index when picked up, and the order shown meanwhile. */
interface Carried {
  id: string;
  from: number;
  order: Item[];
}

export interface RowMoveOptions {
  wrapper: RefObject<HTMLDivElement | null>;
  apiRef: RefObject<GridApi<Item> | null>;
  /** Another read (a reload, a new sort or page) ends a keyboard move. */
  fetchKey: string;
  onMoveItem?: ((itemID: string, target: MoveTarget) => void) | undefined;
  wholeList?: boolean | undefined;
  itemName?: ((item: Item) => string) | undefined;
  positionOffset?: number | undefined;
  listSize?: number | undefined;
}

/**
 * The handle to focus once the rows holding an item are drawn (after a move or its reload), and
 * once the list has been read again after a drop: an item's, or the one of the row at an index
 * (the row that took the place of an item moved to another page).
 */
function useFocusClaim(wrapper: RefObject<HTMLDivElement | null>, apiRef: RefObject<GridApi<Item> | null>, shownOrder: () => Item[]) {
  const focusItem = useRef<string | null>(null);
  const focusAfterRead = useRef<string | { index: number } | null>(null);
  const claimRun = useRef(0);
  const claimTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // An unmounted grid stops claiming the focus.
  useEffect(
    () => () => {
      claimRun.current += 1;
      clearTimeout(claimTimer.current);
    },
    [],
  );

  const focusHandle = () => {
    const api = apiRef.current;
    const id = focusItem.current;
    if (!api || !id) return;
    const index = shownOrder().findIndex((item) => item._id === id);
    focusItem.current = null;
    // Someone who went on elsewhere meanwhile keeps their place.
    const elsewhere = () => {
      const active = document.activeElement;
      return active !== null && active !== document.body && !wrapper.current?.contains(active);
    };
    // Row classes (the picked row's) are only worked out when rows are drawn: draw them again.
    api.redrawRows();
    if (index === -1 || elsewhere()) return;
    api.ensureIndexVisible(index);
    api.setFocusedCell(index, '_drag');
    // The grid draws the rows over a few frames and may draw the handle's row anew: the handle
    // takes the focus back until it has kept it for a few frames.
    let steady = 0;
    const run = ++claimRun.current;
    const claim = (tries: number) => {
      if (tries === 0 || steady >= 3 || run !== claimRun.current || elsewhere()) return;
      const row = [...(wrapper.current?.querySelectorAll<HTMLElement>('.ag-row') ?? [])].find((candidate) => candidate.getAttribute('row-id') === id && candidate.querySelector('[data-row-handle]'));
      const button = row?.querySelector<HTMLElement>('[data-row-handle]');
      if (button && document.activeElement === button) steady += 1;
      else if (button) {
        steady = 0;
        button.focus();
      }
      claimTimer.current = setTimeout(() => claim(tries - 1), 16);
    };
    claim(60);
  };

  /** After a read of `items`: the handle waiting for it takes the focus. */
  const afterRead = (items: Item[]) => {
    const after = focusAfterRead.current;
    if (after !== null) {
      focusItem.current = typeof after === 'string' ? after : (items[Math.min(after.index, items.length - 1)]?._id ?? null);
      focusAfterRead.current = null;
    }
    if (focusItem.current) setTimeout(focusHandle);
  };

  return { focusItem, focusAfterRead, focusHandle, afterRead };
}

interface DocumentMoveKeys {
  wrapper: RefObject<HTMLDivElement | null>;
  enabled: boolean;
  preview: RefObject<Carried | null>;
  pageItems: RefObject<Item[]>;
  carryKey: (key: string, item: Item) => boolean;
  pickUp: (item: Item) => void;
  openPosition: (item: Item) => void;
  cancel: (item: Item, refocus?: boolean) => void;
}

/**
 * Every key of the handles, heard on the document before anything else (ag-grid included):
 * the handle buttons are drawn anew while a carried row moves, and a key pressed meanwhile
 * reaches the page's body instead. While a row is carried, keys in the grid or on the body
 * are its keys, whichever element has the focus; the row is known by its id, not by a button.
 * A press outside the grid while a row is carried puts the row back.
 */
function useDocumentMoveKeys(args: DocumentMoveKeys) {
  const { wrapper, enabled, preview, pageItems, carryKey, pickUp, openPosition, cancel } = args;
  const onDocumentKey = (event: KeyboardEvent) => {
    const root = wrapper.current;
    if (!root || !enabled || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const inGrid = target !== null && root.contains(target);
    const used = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    const carried = preview.current;
    if (carried) {
      const lost = target === null || target === document.body || target === document.documentElement;
      const item = carried.order.find((row) => row._id === carried.id);
      if ((inGrid || lost) && item && carryKey(event.key, item)) used();
      return;
    }
    if (!inGrid) return;
    const grip = target.closest<HTMLElement>(`[${handleAttribute}]`);
    const position = target.closest<HTMLElement>(`[${positionAttribute}]`);
    if (!grip && !position) return;
    const rowID = target.closest('[row-id]')?.getAttribute('row-id');
    const item = pageItems.current.find((row) => row._id === rowID);
    if (!item) return;
    const enter = event.key === ' ' || event.key === 'Enter';
    if (grip) {
      if (enter) {
        pickUp(item);
        used();
      } else if (event.key === 'Tab' && !event.shiftKey) {
        // Within the handle's cell, Tab goes on to its "Move to position…" button (ag-grid's Tab goes to the next cell).
        const next = grip.parentElement?.querySelector<HTMLElement>(`[${positionAttribute}]`);
        if (next) {
          next.focus();
          used();
        }
      }
      return;
    }
    if (enter) {
      // Enter here would otherwise reach the grid, which opens the item.
      openPosition(item);
      used();
    } else if (event.key === 'Tab' && event.shiftKey) {
      const back = position?.parentElement?.querySelector<HTMLElement>(`[${handleAttribute}]`);
      if (back) {
        back.focus();
        used();
      }
    }
  };
  // As leaving the grid by Tab would, even where nothing takes the focus (which would then fall
  // to the body). It waits for the press to have moved the focus: redrawing while the grid still
  // has it would keep it there.
  const onDocumentPointer = (event: PointerEvent) => {
    const carried = preview.current;
    if (!carried || (event.target instanceof Node && wrapper.current?.contains(event.target))) return;
    setTimeout(() => {
      if (preview.current !== carried) return;
      const item = carried.order.find((row) => row._id === carried.id);
      if (item) cancel(item, false);
    });
  };
  const documentHandlers = useRef({ key: onDocumentKey, pointer: onDocumentPointer });
  documentHandlers.current = { key: onDocumentKey, pointer: onDocumentPointer };
  useEffect(() => {
    const keydown = (event: KeyboardEvent) => documentHandlers.current.key(event);
    const pointerdown = (event: PointerEvent) => documentHandlers.current.pointer(event);
    document.addEventListener('keydown', keydown, true);
    document.addEventListener('pointerdown', pointerdown, true);
    return () => {
      document.removeEventListener('keydown', keydown, true);
      document.removeEventListener('pointerdown', pointerdown, true);
    };
  }, []);
}

/**
 * The keyboard move of the grid's rows: the rows last read (`pageItems`), the order shown while
 * a row is carried (`preview`), what the handles need (`control`), the picked row's class rule,
 * and what the announcer and the position dialog show (`announcer`).
 */
export function useRowMove(options: RowMoveOptions) {
  const { wrapper, apiRef, fetchKey } = options;
  const format = useFormat();
  const instructionsId = useId();
  // The rows last read, and while a row is moved by keyboard the order shown instead.
  const pageItems = useRef<Item[]>([]);
  const preview = useRef<Carried | null>(null);
  const focus = useFocusClaim(wrapper, apiRef, () => preview.current?.order ?? pageItems.current);
  const [picked, setPickedState] = useState<string | null>(null);
  const pickedRef = useRef(picked);
  const setPicked = (id: string | null) => {
    pickedRef.current = id;
    setPickedState(id);
  };
  const [announcement, setAnnouncementText] = useState('');
  // The same words twice (pressing against the end of the page) must still be heard: they are
  // told apart by a trailing no-break space the reader does not say.
  const setAnnouncement = (text: string) => setAnnouncementText((before) => (before === text ? `${text}\u00a0` : text));
  useEffect(() => {
    pickedRef.current = null;
    setPickedState(null);
  }, [fetchKey]);

  const nameOf = (item: Item) => options.itemName?.(item) ?? item._id;
  const positionOf = (index: number) => (options.positionOffset ?? 0) + index + 1;
  const count = options.listSize ?? pageItems.current.length;

  const redraw = (id: string) => {
    focus.focusItem.current = id;
    apiRef.current?.refreshInfiniteCache();
  };

  /** Picks a row up by keyboard: from now on the arrows move it in the order shown. */
  const pickUp = (item: Item) => {
    if (!options.onMoveItem) return;
    const from = pageItems.current.findIndex((row) => row._id === item._id);
    if (from === -1) return;
    preview.current = { id: item._id, from, order: [...pageItems.current] };
    setPicked(item._id);
    redraw(item._id);
    setAnnouncement(format('itemList.drag.start', { name: nameOf(item), position: positionOf(from), count }));
  };

  /** A key while a row is carried; answers whether it was used (then nothing else may). */
  const carryKey = (key: string, item: Item): boolean => {
    const carried = preview.current;
    if (!carried) return false;
    const order = carried.order;
    const at = order.findIndex((row) => row._id === item._id);
    const last = order.length - 1;
    const to =
      key === 'ArrowUp' ? Math.max(0, at - 1) : key === 'ArrowDown' ? Math.min(last, at + 1) : key === 'Home' ? 0 : key === 'End' ? last : undefined;
    if (to !== undefined) {
      if (to !== at) {
        const next = [...order];
        next.splice(at, 1);
        next.splice(to, 0, item);
        carried.order = next;
        redraw(item._id);
        setAnnouncement(format('itemList.drag.over', { name: nameOf(item), position: positionOf(to), count }));
        return true;
      }
      // Against the edge of the page: past it, the list goes on on another page, which a carried
      // row cannot reach (it is not loaded); "Move to position…" can, when offered.
      const up = key === 'ArrowUp' || key === 'Home';
      const more = up ? positionOf(at) > 1 : positionOf(at) < count;
      const message = more && options.wholeList ? (up ? 'itemList.drag.pageTop' : 'itemList.drag.pageBottom') : 'itemList.drag.edge';
      setAnnouncement(format(message, { name: nameOf(item), position: positionOf(at), count }));
      return true;
    }
    if (key === ' ' || key === 'Enter') {
      setPicked(null);
      setAnnouncement(format('itemList.drag.end', { name: nameOf(item), position: positionOf(at), count }));
      if (at === carried.from) {
        preview.current = null;
        redraw(item._id);
        return true;
      }
      // The order stays shown until the list is read again (the screen reloads after the move).
      // As a pointer drop does, it names one neighbour: the row now above it when it went down,
      // the row now below it when it went up. Both would be refused when a search or filter
      // hides items between them.
      const after = order[at - 1];
      const before = order[at + 1];
      redraw(item._id);
      focus.focusAfterRead.current = item._id;
      if (at > carried.from && after) options.onMoveItem?.(item._id, { afterID: after._id });
      else if (before) options.onMoveItem?.(item._id, { beforeID: before._id });
      return true;
    }
    if (key === 'Escape') {
      cancel(item);
      return true;
    }
    // Nothing else leaves the handle while a row is carried (Tab, the other arrows).
    return key === 'Tab' || key === 'ArrowLeft' || key === 'ArrowRight' || key === 'PageUp' || key === 'PageDown';
  };

  // "Move to position…": the item it moves and where it is now.
  const [positionTarget, setPositionTarget] = useState<{ item: Item; position: number; index: number } | null>(null);
  const openPosition = (item: Item) => {
    const index = pageItems.current.findIndex((row) => row._id === item._id);
    if (index === -1 || !options.wholeList) return;
    setPositionTarget({ item, position: positionOf(index), index });
  };
  const moveToPosition = (position: number) => {
    const target = positionTarget;
    setPositionTarget(null);
    if (!target) return;
    const { item, index } = target;
    if (position === target.position) {
      setAnnouncement(format('itemList.drag.end', { name: nameOf(item), position, count }));
      return;
    }
    setAnnouncement(format('itemList.drag.moved', { name: nameOf(item), position, count }));
    // After the reload the focus goes to the item's handle when it is still on this page, else to
    // the handle of the row that took its place.
    const first = positionOf(0);
    focus.focusAfterRead.current = position >= first && position < first + pageItems.current.length ? item._id : { index };
    options.onMoveItem?.(item._id, { order: position });
  };

  function cancel(item: Item, refocus = true) {
    preview.current = null;
    setPicked(null);
    setAnnouncement(format('itemList.drag.cancel', { name: nameOf(item) }));
    if (refocus) redraw(item._id);
    else {
      apiRef.current?.refreshInfiniteCache();
      apiRef.current?.redrawRows();
    }
  }

  useDocumentMoveKeys({ wrapper, enabled: Boolean(options.onMoveItem), preview, pageItems, carryKey, pickUp, openPosition, cancel });

  const control: RowMoveControl = {
    picked,
    instructionsId,
    labelOf: (item) => format('itemList.move', { name: nameOf(item) }),
    positionLabelOf: (item) => format('itemList.position.open', { name: nameOf(item) }),
    onPosition: options.wholeList ? openPosition : undefined,
    onLeave: (to) => {
      const carried = preview.current;
      if (!carried || (to instanceof Node && wrapper.current?.contains(to))) return;
      const item = carried.order.find((row) => row._id === carried.id);
      // Focus going nowhere happens while rows are redrawn; only a real other place cancels.
      if (item && to) cancel(item, false);
    },
  };
  const rowClassRules = useMemo(() => ({ 'item-row-picked': (params: { data?: Item }) => params.data !== undefined && params.data._id === pickedRef.current }), []);
  const announcer: RowMoveAnnouncerProps = {
    instructionsId,
    wholeList: Boolean(options.wholeList),
    announcement,
    target: positionTarget ? { name: nameOf(positionTarget.item), position: positionTarget.position } : null,
    count,
    onClose: () => setPositionTarget(null),
    onMove: moveToPosition,
  };
  return { pageItems, preview, focus, control, rowClassRules, announcer };
}

interface RowMoveAnnouncerProps {
  instructionsId: string;
  wholeList: boolean;
  announcement: string;
  target: { name: string; position: number } | null;
  count: number;
  onClose: () => void;
  onMove: (position: number) => void;
}

/** The handles' instructions, the announcements of a move, and the "Move to position…" dialog. */
export function RowMoveAnnouncer({ instructionsId, wholeList, announcement, target, count, onClose, onMove }: RowMoveAnnouncerProps) {
  const format = useFormat();
  return (
    <>
      <p id={instructionsId} className="visually-hidden">
        {format('itemList.drag.instructions')}
        {wholeList ? ` ${format('itemList.drag.instructionsPosition')}` : null}
      </p>
      <div className="visually-hidden" aria-live="assertive" aria-atomic="true">
        {announcement}
      </div>
      <MovePositionDialog target={target} count={count} onClose={onClose} onMove={onMove} />
    </>
  );
}
