/**
 * The item table (content §2 Table): ag-grid's infinite row model serving one page of the list
 * per block, row height 42, an optional checkbox column, sort toggling asc/desc per column.
 * ag-grid loads with this screen's chunk only.
 */
import { useEffect, useMemo, useRef } from 'react';
import {
  CellStyleModule,
  ColumnApiModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowDragModule,
  RowSelectionModule,
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

ModuleRegistry.registerModules([InfiniteRowModelModule, RowSelectionModule, ColumnApiModule, RowApiModule, RowDragModule, RenderApiModule, CellStyleModule, ...(import.meta.env?.DEV ? [ValidationModule] : [])]);

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
  /** Moving a row by its drag handle (a column with `rowDrag`): after or before another row. */
  onMoveItem?: (itemID: string, target: { afterID?: string; beforeID?: string }) => void;
  /** Rows on the current page: sets the grid's height (up to 12 rows, then it scrolls). */
  visibleRows: number;
}

export function ItemGrid(props: ItemGridProps) {
  const { fetchKey, fetchPage, perPage, columnDefs, sort, onSortChange, multiSelect, onSelectionChange, onOpenItem, label, visibleRows } = props;
  const apiRef = useRef<GridApi<Item> | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;

  // A new datasource per fetch key: the grid drops its cache and asks for the first block.
  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params) {
        fetchRef.current().then(
          (items) => params.successCallback(items, items.length),
          () => params.failCallback(),
        );
      },
    }),
    [fetchKey],
  );

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

  const height = Math.max(3, Math.min(visibleRows, 12)) * gridRowHeight + 46;

  return (
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
        onFirstDataRendered={labelGrid}
        onModelUpdated={labelGrid}
      />
    </div>
  );
}
