/**
 * The item table: ag-grid's infinite row model serving one page of the list
 * per block, row height 42, an optional checkbox column, sort toggling asc/desc per column.
 * ag-grid loads with this screen's chunk only.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
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
import { RowMoveContext } from './RowHandle.tsx';
import { RowMoveAnnouncer, useRowMove, type MoveTarget } from './row-move.tsx';

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

export type { MoveTarget } from './row-move.tsx';

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
  const move = useRowMove({ ...props, wrapper, apiRef });
  const { pageItems, preview, focus } = move;

  // A new datasource per fetch key: the grid drops its cache and asks for the first block.
  const datasource = useMemo<IDatasource>(() => {
    preview.current = null;
    return {
      getRows(params) {
        // While a row is carried, the grid redraws the page in the order shown, without a read.
        if (preview.current) {
          const order = preview.current.order;
          params.successCallback(order, order.length);
          setTimeout(focus.focusHandle);
          return;
        }
        fetchRef.current().then(
          (items) => {
            pageItems.current = items;
            params.successCallback(items, items.length);
            focus.afterRead(items);
          },
          () => params.failCallback(),
        );
      },
    };
  }, [fetchKey]);

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

  const { height, measure } = useFillHeight(wrapper, visibleRows);

  return (
    <RowMoveContext.Provider value={props.onMoveItem ? move.control : null}>
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
          rowClassRules={move.rowClassRules}
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
      {props.onMoveItem ? <RowMoveAnnouncer {...move.announcer} /> : null}
    </RowMoveContext.Provider>
  );
}
