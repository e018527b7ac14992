/**
 * The item table: ag-grid's infinite row model serving one page of the list
 * per block, row height 42, an optional checkbox column, sort toggling asc/desc per column.
 * ag-grid loads with this screen's chunk only.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import {
  CellStyleModule,
  ColumnApiModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowDragModule,
  RowSelectionModule,
  RowStyleModule,
  ScrollApiModule,
  ValidationModule,
  themeQuartz,
  type CellKeyDownEvent,
  type ColDef,
  type GridApi,
  type IDatasource,
  type RowClickedEvent,
  type RowDragEndEvent,
  type SortChangedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import type { Item } from '../../api/content.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { MovePositionDialog } from './MovePositionDialog.tsx';
import { handleAttribute, positionAttribute, RowMoveContext, type RowMoveControl } from './RowHandle.tsx';

// ScrollApiModule: ensureIndexVisible, bringing the handle given the focus back after a move into view.
ModuleRegistry.registerModules([InfiniteRowModelModule, RowSelectionModule, ColumnApiModule, RowApiModule, RowDragModule, RowStyleModule, RenderApiModule, CellStyleModule, ScrollApiModule, ...(import.meta.env?.DEV ? [ValidationModule] : [])]);

export const gridRowHeight = 42;

/** The grid in the console's colours: the custom properties switch with the theme. */
const gridTheme = themeQuartz.withParams({
  backgroundColor: 'var(--surface)',
  foregroundColor: 'var(--text)',
  textColor: 'var(--text)',
  subtleTextColor: 'var(--muted)',
  headerBackgroundColor: 'var(--surface-2)',
  headerTextColor: 'var(--text)',
  borderColor: 'var(--border)',
  accentColor: 'var(--primary)',
  chromeBackgroundColor: 'var(--surface-2)',
  oddRowBackgroundColor: 'var(--surface)',
  rowHoverColor: 'var(--surface-2)',
  selectedRowBackgroundColor: 'var(--info-bg)',
  checkboxCheckedBackgroundColor: 'var(--primary)',
  checkboxCheckedShapeColor: 'var(--on-primary)',
  checkboxUncheckedBorderColor: 'var(--muted)',
  fontFamily: 'inherit',
  fontSize: 14,
  rowHeight: gridRowHeight,
  headerHeight: 44,
  wrapperBorderRadius: 10,
  focusShadow: '0 0 0 2px var(--focus)',
});

/** Where a moved item goes: right after or before a row, or to a 1-based position of the whole list. */
export interface MoveTarget {
  afterID?: string;
  beforeID?: string;
  order?: number;
}

export interface SortState {
  key: string;
  order: 'asc' | 'desc';
}

export interface ItemGridProps {
  /** Changes whenever the list must be read again (page, per page, sort, filter, search). */
  fetchKey: string;
  fetchPage: () => Promise<Item[]>;
  perPage: number;
  columnDefs: ColDef<Item>[];
  sort: SortState | null;
  onSortChange: (sort: SortState | null) => void;
  multiSelect: boolean;
  onSelectionChange: (ids: string[]) => void;
  onOpenItem: (itemID: string) => void;
  /** Names the grid for assistive technology. */
  label: string;
  /** Every column but the checkbox one: how a person sees the checkbox column. */
  selectLabel: string;
  /**
   * Moving a row by its drag handle (the `_drag` column, RowHandleCell): a pointer or the keyboard
   * drops it after or before another row (one neighbour); "Move to position…" gives the position.
   */
  onMoveItem?: (itemID: string, target: MoveTarget) => void;
  /**
   * The list shows every item of its level (no search, no filter): its positions are the whole
   * list's, which the server's `order` counts, so "Move to position…" is offered.
   */
  wholeList?: boolean;
  /** How a person knows an item (its first text value or its id): used in the handle's name and the announcements. */
  itemName?: (item: Item) => string;
  /** The list position of the page's first row minus one, and the list's size: positions announced while moving. */
  positionOffset?: number;
  listSize?: number;
  /** Rows on the current page: the grid is no taller than they need (it fills the window's height at most, then scrolls). */
  visibleRows: number;
}

/** The header row and the grid's border. */
const gridChrome = 46;
const fewestRows = 3;

/**
 * The grid's height: down to the window's bottom edge, less what follows it (the paging footer)
 * and the room the page keeps free there (the grid's `scroll-margin-bottom`: the narrow screens'
 * bottom navigation), in whole rows so none is cut; no taller than the page's rows need, and at
 * least three rows. Measured again when the window or the page above the grid changes size.
 */
function useFillHeight(wrapper: RefObject<HTMLDivElement | null>, rows: number): { height: number; measure: () => void } {
  const [fit, setFit] = useState<{ rows: number; scrollbar: number } | null>(null);
  const measure = useCallback(() => {
    const element = wrapper.current;
    if (!element) return;
    const top = element.getBoundingClientRect().top + window.scrollY;
    let after = 0;
    for (let sibling = element.nextElementSibling; sibling; sibling = sibling.nextElementSibling) {
      const style = getComputedStyle(sibling);
      if (style.position === 'absolute' || style.position === 'fixed' || style.display === 'none') continue;
      after += sibling.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
    }
    const reserve = parseFloat(getComputedStyle(element).scrollMarginBottom) || 0;
    // A horizontal scroll bar takes its height from the rows' room.
    const scrollbar = element.querySelector<HTMLElement>('.ag-body-horizontal-scroll')?.offsetHeight ?? 0;
    const room = window.innerHeight - top - after - reserve - gridChrome - scrollbar;
    const next = { rows: Math.floor(room / gridRowHeight), scrollbar };
    setFit((before) => (before && before.rows === next.rows && before.scrollbar === next.scrollbar ? before : next));
  }, [wrapper]);
  useEffect(() => {
    const element = wrapper.current;
    if (!element) return;
    measure();
    // Every browser has ResizeObserver; a DOM without it (jsdom) follows the window only.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element.closest('main') ?? document.body);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [wrapper, measure]);
  const shown = Math.max(fewestRows, Math.min(rows, fit?.rows ?? 12));
  return { height: shown * gridRowHeight + gridChrome + (fit?.scrollbar ?? 0), measure };
}

export function ItemGrid(props: ItemGridProps) {
  const { fetchKey, fetchPage, perPage, columnDefs, sort, onSortChange, multiSelect, onSelectionChange, onOpenItem, label, visibleRows } = props;
  const apiRef = useRef<GridApi<Item> | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const format = useFormat();
  const instructionsId = useId();
  // The rows last read, and while a row is moved by keyboard the order shown instead.
  const pageItems = useRef<Item[]>([]);
  const preview = useRef<{ id: string; from: number; order: Item[] } | null>(null);
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
  // The handle to focus once the rows holding this item are drawn (after a move or its reload).
  const focusItem = useRef<string | null>(null);
  // The handle to focus once the list has been read again after a drop: an item's, or the one of
  // the row at an index (the row that took the place of an item moved to another page).
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
    const index = (preview.current?.order ?? pageItems.current).findIndex((item) => item._id === id);
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

  // A new datasource per fetch key: the grid drops its cache and asks for the first block.
  const datasource = useMemo<IDatasource>(() => {
    preview.current = null;
    return {
      getRows(params) {
        // While a row is carried, the grid redraws the page in the order shown, without a read.
        if (preview.current) {
          const order = preview.current.order;
          params.successCallback(order, order.length);
          setTimeout(focusHandle);
          return;
        }
        fetchRef.current().then(
          (items) => {
            pageItems.current = items;
            params.successCallback(items, items.length);
            const after = focusAfterRead.current;
            if (after !== null) {
              focusItem.current = typeof after === 'string' ? after : (items[Math.min(after.index, items.length - 1)]?._id ?? null);
              focusAfterRead.current = null;
            }
            if (focusItem.current) setTimeout(focusHandle);
          },
          () => params.failCallback(),
        );
      },
    };
  }, [fetchKey]);
  // Another read (a reload, a new sort or page) ends a keyboard move.
  useEffect(() => {
    pickedRef.current = null;
    setPickedState(null);
  }, [fetchKey]);

  const nameOf = (item: Item) => props.itemName?.(item) ?? item._id;
  const positionOf = (index: number) => (props.positionOffset ?? 0) + index + 1;
  const count = props.listSize ?? pageItems.current.length;

  const redraw = (id: string) => {
    focusItem.current = id;
    apiRef.current?.refreshInfiniteCache();
  };

  /** Picks a row up by keyboard: from now on the arrows move it in the order shown. */
  const pickUp = (item: Item) => {
    if (!props.onMoveItem) return;
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
      const message = more && props.wholeList ? (up ? 'itemList.drag.pageTop' : 'itemList.drag.pageBottom') : 'itemList.drag.edge';
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
      focusAfterRead.current = item._id;
      if (at > carried.from && after) props.onMoveItem?.(item._id, { afterID: after._id });
      else if (before) props.onMoveItem?.(item._id, { beforeID: before._id });
      return true;
    }
    if (key === 'Escape') {
      cancel(item);
      return true;
    }
    // Nothing else leaves the handle while a row is carried (Tab, the other arrows).
    return key === 'Tab' || key === 'ArrowLeft' || key === 'ArrowRight' || key === 'PageUp' || key === 'PageDown';
  };

  /**
   * Every key of the handles, heard on the document before anything else (ag-grid included):
   * the handle buttons are drawn anew while a carried row moves, and a key pressed meanwhile
   * reaches the page's body instead. While a row is carried, keys in the grid or on the body
   * are its keys, whichever element has the focus; the row is known by its id, not by a button.
   */
  const onDocumentKey = (event: KeyboardEvent) => {
    const root = wrapper.current;
    if (!root || !props.onMoveItem || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
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
  // A press outside the grid while a row is carried puts the row back, as leaving it by Tab
  // would, even where nothing takes the focus (which would then fall to the body). It waits for
  // the press to have moved the focus: redrawing while the grid still has it would keep it there.
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

  // "Move to position…": the item it moves and where it is now.
  const [positionTarget, setPositionTarget] = useState<{ item: Item; position: number; index: number } | null>(null);
  const openPosition = (item: Item) => {
    const index = pageItems.current.findIndex((row) => row._id === item._id);
    if (index === -1 || !props.wholeList) return;
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
    focusAfterRead.current = position >= first && position < first + pageItems.current.length ? item._id : { index };
    props.onMoveItem?.(item._id, { order: position });
  };

  const moveControl: RowMoveControl = {
    picked,
    instructionsId,
    labelOf: (item) => format('itemList.move', { name: nameOf(item) }),
    positionLabelOf: (item) => format('itemList.position.open', { name: nameOf(item) }),
    onPosition: props.wholeList ? openPosition : undefined,
    onLeave: (to) => {
      const carried = preview.current;
      if (!carried || (to instanceof Node && wrapper.current?.contains(to))) return;
      const item = carried.order.find((row) => row._id === carried.id);
      // Focus going nowhere happens while rows are redrawn; only a real other place cancels.
      if (item && to) cancel(item, false);
    },
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

  // The grid's sort follows the list's sort (after a reload or a reset).
  useEffect(() => {
    const api = apiRef.current;
    if (!api) return;
    const current = api.getColumnState().find((column) => column.sort);
    if ((current?.colId ?? null) === (sort?.key ?? null) && (current?.sort ?? null) === (sort?.order ?? null)) return;
    api.applyColumnState({ state: sort ? [{ colId: sort.key, sort: sort.order }] : [], defaultState: { sort: null } });
  }, [sort]);

  useEffect(() => {
    if (!multiSelect) apiRef.current?.deselectAll();
  }, [multiSelect]);

  const labelGrid = () => {
    const grid = wrapper.current?.querySelector('[role="grid"], [role="treegrid"]');
    grid?.setAttribute('aria-label', label);
  };
  useEffect(labelGrid);

  const rowClassRules = useMemo(() => ({ 'item-row-picked': (params: { data?: Item }) => params.data !== undefined && params.data._id === pickedRef.current }), []);

  const { height, measure } = useFillHeight(wrapper, visibleRows);

  return (
    <RowMoveContext.Provider value={props.onMoveItem ? moveControl : null}>
      <div className="item-grid" ref={wrapper} style={{ height }}>
        <AgGridReact<Item>
          theme={gridTheme}
          rowModelType="infinite"
          datasource={datasource}
          cacheBlockSize={perPage}
          maxBlocksInCache={1}
          infiniteInitialRowCount={1}
          rowHeight={gridRowHeight}
          getRowId={(params) => params.data._id}
          rowClassRules={rowClassRules}
          columnDefs={columnDefs}
          defaultColDef={{ sortingOrder: ['asc', 'desc'], resizable: true, suppressHeaderMenuButton: true, minWidth: 100 }}
          suppressMultiSort
          rowSelection={multiSelect ? { mode: 'multiRow', checkboxes: true, headerCheckbox: false, enableClickSelection: false } : undefined}
          selectionColumnDef={{ pinned: 'left', width: 56, minWidth: 56, maxWidth: 56, headerName: props.selectLabel, headerClass: 'grid-select-header' }}
          onGridReady={(event) => {
            apiRef.current = event.api;
            if (sort) event.api.applyColumnState({ state: [{ colId: sort.key, sort: sort.order }], defaultState: { sort: null } });
            labelGrid();
          }}
          onSortChanged={(event: SortChangedEvent<Item>) => {
            const column = event.api.getColumnState().find((state) => state.sort);
            const next = column?.sort ? { key: column.colId, order: column.sort } : null;
            if ((next?.key ?? null) !== (sort?.key ?? null) || (next?.order ?? null) !== (sort?.order ?? null)) onSortChange(next);
          }}
          onSelectionChanged={(event) => onSelectionChange(event.api.getSelectedRows().map((row) => row._id))}
          onRowClicked={(event: RowClickedEvent<Item>) => {
            if (!multiSelect && event.data) onOpenItem(event.data._id);
          }}
          onCellKeyDown={(event: CellKeyDownEvent<Item>) => {
            const key = (event.event as KeyboardEvent | undefined)?.key;
            if (key === 'Enter' && !multiSelect && event.data) onOpenItem(event.data._id);
          }}
          onRowDragEnd={(event: RowDragEndEvent<Item>) => {
            const moved = event.node;
            const over = event.overNode;
            if (!props.onMoveItem || !moved.data || !over?.data || moved.data._id === over.data._id) return;
            const down = (over.rowIndex ?? 0) > (moved.rowIndex ?? 0);
            props.onMoveItem(moved.data._id, down ? { afterID: over.data._id } : { beforeID: over.data._id });
          }}
          onFirstDataRendered={() => {
            labelGrid();
            measure();
          }}
          onModelUpdated={labelGrid}
          // Columns shown, hidden or resized may bring or take away the horizontal scroll bar.
          onDisplayedColumnsChanged={measure}
          onColumnResized={measure}
          onGridSizeChanged={measure}
        />
      </div>
      {props.onMoveItem ? (
        <>
          <p id={instructionsId} className="visually-hidden">
            {format('itemList.drag.instructions')}
            {props.wholeList ? ` ${format('itemList.drag.instructionsPosition')}` : null}
          </p>
          <div className="visually-hidden" aria-live="assertive" aria-atomic="true">
            {announcement}
          </div>
          <MovePositionDialog
            target={positionTarget ? { name: nameOf(positionTarget.item), position: positionTarget.position } : null}
            count={count}
            onClose={() => setPositionTarget(null)}
            onMove={moveToPosition}
          />
        </>
      ) : null}
    </RowMoveContext.Provider>
  );
}
