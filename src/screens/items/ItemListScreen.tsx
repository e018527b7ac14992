/**
 * The item list screen: the collection's name and
 * item count, the menu (Column Settings, Download CSV, Select/Unselect, Collection Settings, Make
 * collection sortable, Layout, Layout settings), New Item or Delete N Items, search, filter, the
 * table and its footer — or, with another layout chosen (the menu, or the `layout` query parameter
 * of a top-level list), the calendar, kanban or map in place of the table (renderers/layouts/). An open item (the child routes) replaces the list, which stays mounted underneath so
 * closing the item returns to the same page, sort and filter. A nested collection's list is drawn
 * by the item page, folded beside its parent item (NestedItemList, src/screens/item/ItemFold.tsx).
 */
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type ComponentType } from 'react';
import { Link, useNavigate, useOutlet, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MoreHorizontal, Plus, Search, Settings, Trash2, X } from 'lucide-react';
import { DropdownMenu, Switch } from 'radix-ui';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { contentFeatures } from '../../../definitions/content.ts';
import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { layoutChoices, layoutKindOf, layoutLabelKey, layouts } from '../../../renderers/layouts/index.ts';
import { LayoutSettingsDialog } from '../../../renderers/layouts/LayoutSettingsDialog.tsx';
import type { LayoutKind } from '../../../renderers/layouts/types.ts';
import { displayFor, type DisplayProps } from '../../../renderers/fields/displays.ts';
import { DirectedDisplay } from '../../../renderers/fields/DirectedDisplay.tsx';
import type { TextDirection } from '../../../renderers/fields/editor-environment.ts';
import { DateDisplay } from '../../../renderers/fields/date/Display.tsx';
import { TextDisplay } from '../../../renderers/fields/TextDisplay.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Collection, Item, ListParams, ProjectScope } from '../../api/content.ts';
import { contentKeys, useCollection, useContentApi, useDeleteItems, useInitListRank, useMoveItem } from '../../api/content-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { useLayoutSettings, useSaveLayoutSettings } from '../../api/layout-queries.ts';
import { useLiveData } from '../../hooks/use-live-data.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectScope } from '../collection/use-project-scope.ts';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { ColumnSettingsDialog, type ColumnChoice } from './ColumnSettingsDialog.tsx';
import { loadColumnSettings, saveColumnSettings, type ColumnScope, type ColumnSettings } from './column-settings.ts';
import { FilterControl } from './FilterControl.tsx';
import { ItemGrid, type SortState } from './ItemGrid.tsx';
import { columnWidth, idColumnWidth } from './column-widths.ts';
import { ListFooter } from './ListFooter.tsx';
import { RowHandleCell } from './RowHandle.tsx';
import { nestedFields, slugPath } from './nested-path.ts';
import { newNestedItemID } from '../item/new-nested-item.ts';
import { defaultPerPage, nestedPerPage, pageCount } from './paging.ts';
import './items.css';
import { saveCsv } from './save-csv.ts';

/** The list search waits this long after typing and takes at most 256 characters. */
export const searchDebounceMs = 500;
export const searchMaxLength = 256;

/** An item with fewer keys than this came back incomplete: the page is read again. */
const completeItemKeys = 2;

/** A single-item collection's page: its own chunk, with the field editors, loaded only for such collections. */
const SingleItemScreen = lazy(() => import('../item/SingleItemScreen.tsx').then((module) => ({ default: module.SingleItemScreen })));

/** A nested list: the top-level item it hangs under and the nestedID naming it. */
interface NestedList {
  itemID: string;
  nestedID: string;
}

/** What the fold gives a nested list it embeds: its open item, how to open one and how to close the list. */
interface Embedding {
  itemOpen: boolean;
  onOpenItem: (itemID: string) => void;
  onClose: () => void;
}

export default function ItemListScreen() {
  // The item routes below (viewItem and its nested collections) carry an itemID and a nestedID:
  // they belong to the open item, which folds its nested collections out itself.
  const { collectionID = '' } = useParams();
  const outlet = useOutlet();
  return (
    <>
      <div className="item-list-host" hidden={outlet !== null}>
        {/* Keyed by collection: another list starts with no selection, search or filter, on page 1. */}
        <ItemList key={collectionID} collectionID={collectionID} nested={undefined} />
      </div>
      {outlet ? <div className="item-panel">{outlet}</div> : null}
    </>
  );
}

/** A nested collection's list, 100 per page, embedded in the fold beside its parent item. */
export function NestedItemList({ collectionID, itemID, nestedID, embedding }: { collectionID: string; itemID: string; nestedID: string; embedding: Embedding }) {
  return <ItemList collectionID={collectionID} nested={{ itemID, nestedID }} embedding={embedding} />;
}

function ItemList({ collectionID, nested, embedding }: { collectionID: string; nested: NestedList | undefined; embedding?: Embedding }) {
  const format = useFormat();
  const scope = useProjectScope();
  const query = useCollection(scope, collectionID);
  if (!query.data) {
    if (query.isError) {
      const notFound = isApiError(query.error) && query.error.status === 404;
      return (
        <section className="panel" aria-labelledby="item-list-missing">
          <h2 id="item-list-missing">{format(notFound ? 'collectionSettings.notFound' : 'collectionSettings.loadFailed')}</h2>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            {format('itemList.retry')}
          </button>
        </section>
      );
    }
    return (
      <p className="muted" role="status">
        {format('itemList.loading')}
      </p>
    );
  }
  if (nested) {
    const fields = nestedFields(query.data.schema, nested.nestedID);
    const field = fields?.[fields.length - 1];
    if (!fields || !field) {
      return (
        <section className="panel" aria-labelledby="item-list-missing">
          <h2 id="item-list-missing">{format('collectionSettings.notFound')}</h2>
        </section>
      );
    }
    const view: Collection = { ...query.data, name: field.name, schema: field.nestedCollectionSchema ?? [], itemCount: 0 };
    return <ItemListView scope={scope} collection={view} nested={nested} embedding={embedding} />;
  }
  // A single-item collection shows its one item's form instead of the list.
  if (query.data.singleItem) {
    return (
      <Suspense fallback={<p className="muted" role="status">{format('itemList.loading')}</p>}>
        <SingleItemScreen scope={scope} collection={query.data} />
      </Suspense>
    );
  }
  return <ItemListView scope={scope} collection={query.data} />;
}

const isColumnField = (field: SchemaField) => field.visible !== false && fieldType(field.type)?.storage.kind === 'column';
/** A schema holds more than the metadata entry when a field keeps values of its own. */
const hasOwnFields = (schema: readonly SchemaField[]) => schema.some((field) => fieldType(field.type)?.storage.kind !== 'none');

function cellOf(Display: ComponentType<DisplayProps>, field: SchemaField, direction?: TextDirection) {
  return function Cell(params: ICellRendererParams<Item>) {
    return params.data ? <DirectedDisplay Display={Display} value={params.value} field={field} direction={direction} /> : null;
  };
}

const metaField = (slug: string, name: string, code: number): SchemaField => ({ id: slug, slug, name, type: code });

function ItemListView({ scope, collection, nested, embedding }: { scope: ProjectScope; collection: Collection; nested?: NestedList | undefined; embedding?: Embedding | undefined }) {
  const format = useFormat();
  const id = useId();
  const api = useContentApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const path = useProjectPath();
  const actions = useProjectActions();
  const problemMessage = useProblemMessage();
  const collectionID = collection.id;

  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(nested ? nestedPerPage : defaultPerPage);
  const [sort, setSort] = useState<SortState | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<string | undefined>(undefined);
  const [reload, setReload] = useState(0);
  const [total, setTotal] = useState<number | null>(null);
  const [rowsShown, setRowsShown] = useState(0);
  const [loadFailed, setLoadFailed] = useState(false);
  const [multiSelect, setMultiSelect] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const nestedPath = nested ? slugPath(nested.nestedID) : '';
  const columnScope: ColumnScope = useMemo(() => ({ ...scope, collectionID, nestedPath }), [scope, collectionID, nestedPath]);
  const [columnSettings, setColumnSettings] = useState<ColumnSettings>(() => loadColumnSettings(columnScope));
  const [hasRanks, setHasRanks] = useState(false);
  const [rankRemaining, setRankRemaining] = useState<number | null>(null);
  const deleteItems = useDeleteItems(scope, collectionID, nested ? { itemID: nested.itemID, nestedID: nested.nestedID } : undefined);
  const initRank = useInitListRank(scope, collectionID, nested ? { parentItemID: nested.itemID, nestedID: nested.nestedID } : undefined, setRankRemaining);
  const moveItem = useMoveItem(scope, collectionID);

  // The layout: the `layout` query parameter (top-level lists), else the one chosen here, else the
  // one saved with the collection (shared by the team), else the table.
  const [searchParams, setSearchParams] = useSearchParams();
  const layoutSettings = useLayoutSettings(scope, collectionID, nestedPath);
  const saveLayoutSettings = useSaveLayoutSettings(scope, collectionID, nestedPath);
  const [chosenLayout, setChosenLayout] = useState<LayoutKind | undefined>(undefined);
  const [layoutSettingsOpen, setLayoutSettingsOpen] = useState(false);
  const addressLayout = embedding || nested ? undefined : layoutKindOf(searchParams.get('layout'));
  const layoutKind: LayoutKind = addressLayout ?? chosenLayout ?? layoutSettings.data?.layout ?? 'table';
  // The address's layout stays chosen when an item page opened from it closes to the plain list address.
  useEffect(() => {
    if (addressLayout) setChosenLayout(addressLayout);
  }, [addressLayout]);
  const chooseLayout = (next: LayoutKind) => {
    setChosenLayout(next);
    if (!nested) {
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          params.set('layout', next);
          return params;
        },
        { replace: true },
      );
    }
    if (actions.update && layoutSettings.data?.layout !== next) saveLayoutSettings.mutate({ layout: next });
  };

  const schema = collection.schema;
  const ownFields = hasOwnFields(schema);
  const fields = useMemo(() => schema.filter(isColumnField), [schema]);

  // Typing settles for 500 ms before the list is searched again, from page 1.
  useEffect(() => {
    const next = searchText.trim();
    if (next === search) return undefined;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(1);
    }, searchDebounceMs);
    return () => clearTimeout(timer);
  }, [searchText, search]);

  const params: ListParams = useMemo(
    () => ({
      pageNumber: page,
      perPage,
      ...(sort ? { sort: sort.key, order: sort.order } : {}),
      ...(search ? { search } : {}),
      ...(filter ? { filter } : {}),
      ...(nested ? { parentItemID: nested.itemID, nestedID: nested.nestedID } : {}),
    }),
    [page, perPage, sort, search, filter, nested?.itemID, nested?.nestedID],
  );
  const fetchKey = `${JSON.stringify(params)}#${reload}`;

  const fetchPage = useCallback(async (): Promise<Item[]> => {
    const queryKey = contentKeys.itemList(scope, collectionID, params);
    const read = (staleTime: number) => queryClient.fetchQuery({ queryKey, queryFn: () => api.listItems(scope, collectionID, params), staleTime });
    try {
      let result = await read(5_000);
      // Items with fewer than 2 keys are missing: read the page again, once.
      if (result.items.some((item) => Object.keys(item).length < completeItemKeys)) {
        void notify({ kind: 'info', title: format('itemList.missingReload') });
        result = await read(0);
      }
      const items = result.items.filter((item) => Object.keys(item).length >= completeItemKeys);
      setTotal(result.total);
      setRowsShown(items.length);
      // Ranks exist once every item of the page has one (after "Make collection sortable").
      setHasRanks(items.length > 0 && items.every((item) => typeof item._rank === 'string' && item._rank !== ''));
      setLoadFailed(false);
      return items;
    } catch (error) {
      setLoadFailed(true);
      // A failed search says "Unknown Issue".
      if (params.search) void notify({ kind: 'error', title: format('search.failed') });
      throw error;
    }
  }, [api, collectionID, format, params, queryClient, scope]);

  // A page past the end after deleting goes back to the last page.
  useEffect(() => {
    if (total === null) return;
    const pages = pageCount(total, perPage);
    if (page > pages) setPage(pages);
  }, [total, perPage, page]);

  // Multi-select turns off when the list has no items left.
  useEffect(() => {
    if (total === 0 && multiSelect) {
      setMultiSelect(false);
      setSelected([]);
    }
  }, [total, multiSelect]);

  const changeColumns = (next: ColumnSettings) => {
    setColumnSettings(next);
    saveColumnSettings(columnScope, next);
  };

  const columnChoices: ColumnChoice[] = useMemo(
    () => [
      ...fields.map((field) => ({ id: field.slug, name: field.name })),
      { id: '_id', name: format('itemList.col.id') },
      { id: '_lastUpdatedDate', name: format('itemList.col.lastUpdated') },
      { id: '_createdDate', name: format('itemList.col.created') },
    ],
    [fields, format],
  );

  // The drag handle moves items in rank order: shown when ranks exist and no column sorts the list.
  // Search and filter keep the rank order, and the neighbours sent are those shown, so moves stay exact.
  const dragColumn = hasRanks && sort === null && !multiSelect && actions.update;
  // How a person knows an item in the handle's name and the announcements: its primary field, else
  // its first text column, else its id.
  const nameField = useMemo(
    () => fields.find((field) => field.primaryField) ?? fields.find((field) => fieldType(field.type)?.name === 'PlainText'),
    [fields],
  );
  const itemName = useCallback(
    (item: Item) => {
      const value = nameField ? item[nameField.slug] : undefined;
      return typeof value === 'string' && value.trim() !== '' ? value : item._id;
    },
    [nameField],
  );
  const columnDefs: ColDef<Item>[] = useMemo(() => {
    const dateType = schema.find((field) => fieldType(field.type)?.name === 'Date')?.type ?? 10;
    const defs: ColDef<Item>[] = [
      ...fields.map((field) => ({
        colId: field.slug,
        headerName: field.name,
        valueGetter: (p: { data: Item | undefined }) => p.data?.[field.slug],
        cellRenderer: cellOf(displayFor(field), field, collection.rtlDirection ? 'rtl' : 'ltr'),
        sortable: fieldType(field.type)?.capabilities.sortable ?? false,
        width: columnWidth(fieldType(field.type)?.name, field.name),
      })),
      {
        colId: '_id',
        headerName: format('itemList.col.id'),
        valueGetter: (p) => p.data?._id,
        cellRenderer: cellOf(TextDisplay, metaField('_id', 'ID', 1)),
        sortable: true,
        cellClass: 'cell-mono',
        width: idColumnWidth,
      },
      {
        colId: '_lastUpdatedDate',
        width: columnWidth('Date', format('itemList.col.lastUpdated')),
        headerName: format('itemList.col.lastUpdated'),
        valueGetter: (p) => p.data?._lastUpdatedDate,
        cellRenderer: cellOf(DateDisplay, metaField('_lastUpdatedDate', 'Last Updated', dateType)),
        sortable: true,
      },
      {
        colId: '_createdDate',
        width: columnWidth('Date', format('itemList.col.created')),
        headerName: format('itemList.col.created'),
        valueGetter: (p) => p.data?._createdDate,
        cellRenderer: cellOf(DateDisplay, metaField('_createdDate', 'Created Date', dateType)),
        sortable: true,
      },
    ];
    if (dragColumn) {
      defs.unshift({
        colId: '_drag',
        headerName: format('itemList.col.order'),
        cellRenderer: RowHandleCell,
        cellClass: 'cell-handle',
        sortable: false,
        resizable: false,
        width: 84,
        minWidth: 84,
        maxWidth: 84,
        pinned: 'left',
        valueGetter: () => '',
      });
    }
    return defs.map((def) => ({
      ...def,
      hide: columnSettings.hidden.includes(def.colId ?? ''),
      pinned: def.colId === '_drag' ? 'left' : (columnSettings.pinned[def.colId ?? ''] ?? null),
    }));
  }, [fields, schema, format, columnSettings, dragColumn, collection.rtlDirection]);

  const reloadList = () => {
    void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collectionID) });
    setReload((n) => n + 1);
  };

  // Back from the item page (the child route closed): items may have changed there, so the page is read again.
  const outletOpen = useOutlet() !== null;
  const itemOpen = embedding ? embedding.itemOpen : outletOpen;
  const wasItemOpen = useRef(itemOpen);
  useEffect(() => {
    if (wasItemOpen.current && !itemOpen) setReload((n) => n + 1);
    wasItemOpen.current = itemOpen;
  }, [itemOpen]);

  // Live data: on sorts newest first, off clears the sort; Load New Items reloads page 1.
  const live = useLiveData(
    { scope, collectionID, ...(nested ? { itemID: nested.itemID, nestedID: nested.nestedID } : {}) },
    {
      applyLiveSort: () => {
        setSort({ key: '_createdDate', order: 'desc' });
        setPage(1);
      },
      clearLiveSort: () => {
        setSort(null);
        setPage(1);
      },
      reloadItems: () => {
        setPage(1);
        reloadList();
      },
    },
  );

  const [csvProgress, setCsvProgress] = useState<{ rows: number; total: number | null } | null>(null);
  const downloadCsv = async () => {
    setCsvProgress({ rows: 0, total: null });
    try {
      const { pageNumber: _page, perPage: _perPage, ...rest } = params;
      const blob = await api.itemsCsv(scope, collectionID, rest, (rows, total) => setCsvProgress({ rows, total }));
      saveCsv(blob, collectionID);
    } catch (error) {
      void notify({ kind: 'error', title: format('itemList.downloadFailed'), description: problemMessage(error) });
    } finally {
      setCsvProgress(null);
    }
  };

  const orderFailed = () => void notify({ kind: 'error', title: format('order.failedTitle'), description: format('order.failed') });

  const makeSortable = () =>
    initRank.mutate(undefined, {
      onSuccess: (ranked) => {
        // Nothing ranked: every item already had its place, so nothing was made sortable.
        if (ranked === 0) void notify({ kind: 'info', title: format('itemList.alreadySortable') });
        else void notify({ kind: 'success', title: format('itemList.madeSortable') });
        reloadList();
      },
      onError: orderFailed,
      onSettled: () => setRankRemaining(null),
    });

  // A nested item moves through its top-level item, nestedID ending in its own id (docs/content-storage.md).
  const move = (itemID: string, target: { afterID?: string; beforeID?: string; order?: number }) =>
    moveItem.mutate(nested ? { itemID: nested.itemID, nestedID: `${nested.nestedID}.${itemID}`, ...target } : { itemID, ...target }, {
      onError: orderFailed,
      onSettled: () => setReload((n) => n + 1),
    });

  const removeSelected = async () => {
    const count = selected.length;
    const failed = await deleteItems.mutateAsync(selected).catch(() => selected);
    setConfirmDelete(false);
    setSelected([]);
    if (failed.length < count) void notify({ kind: 'success', title: format('itemList.deleted', { count: count - failed.length }) });
    if (failed.length) void notify({ kind: 'error', title: format('item.deleteError') });
    reloadList();
  };

  const filtered = Boolean(search || filter);
  const Layout = layoutKind === 'table' ? null : layouts[layoutKind];
  const openItem = (itemID: string) =>
    embedding
      ? embedding.onOpenItem(itemID)
      : navigate(
          nested
            ? path('nestedItem', { collectionID, itemID: nested.itemID, nestedID: nested.nestedID, collectionNestedID: itemID })
            : path('viewItem', { collectionID, itemID }),
        );
  // A new item with values set by a click in a layout: the item page takes them from the navigation's state.
  const newItem = (prefill: Record<string, unknown>) =>
    navigate(
      nested
        ? path('nestedItem', { collectionID, itemID: nested.itemID, nestedID: nested.nestedID, collectionNestedID: newNestedItemID })
        : path('addItemToCollection', { collectionID }),
      { state: { itemValues: prefill } },
    );
  const layoutBaseParams = useMemo(
    () => ({ ...(search ? { search } : {}), ...(filter ? { filter } : {}), ...(nested ? { parentItemID: nested.itemID, nestedID: nested.nestedID } : {}) }),
    [search, filter, nested?.itemID, nested?.nestedID],
  );
  const count = total ?? collection.itemCount;
  const showLiveSwitch = contentFeatures.liveData && (count > 0 || live.on);
  const headingId = `${id}-title`;
  // A nested list's New Item opens the nested item page with `new` for the item (never an item id).
  const showNewItem = ownFields && !multiSelect && actions.create;

  return (
    <section className="item-list" aria-labelledby={headingId}>
      <header className="item-list-header">
        <div className="item-list-title">
          {embedding ? (
            <button type="button" className="icon-button" aria-label={format('fold.close', { name: collection.name })} onClick={embedding.onClose}>
              <X aria-hidden="true" size={20} />
            </button>
          ) : null}
          <h2 id={headingId}>{collection.name}</h2>
          <span className="muted item-count" aria-live="polite">
            {format('itemList.count', { count })}
          </span>
        </div>
        <div className="item-list-actions">
          {multiSelect && actions.delete ? (
            <button type="button" className="button button-danger" disabled={selected.length === 0} onClick={() => setConfirmDelete(true)}>
              <Trash2 aria-hidden="true" size={16} />
              {format('itemList.deleteItems', { count: selected.length })}
            </button>
          ) : null}
          {showNewItem ? (
            <Link
              className="button button-primary"
              to={
                nested
                  ? path('nestedItem', { collectionID, itemID: nested.itemID, nestedID: nested.nestedID, collectionNestedID: newNestedItemID })
                  : path('addItemToCollection', { collectionID })
              }
            >
              <Plus aria-hidden="true" size={16} />
              {format('itemList.newItem')}
            </Link>
          ) : null}
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger className="icon-button" aria-label={format('itemList.menu')}>
              <MoreHorizontal aria-hidden="true" size={20} />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
                <DropdownMenu.Item className="menu-item" disabled={!ownFields} onSelect={() => setColumnsOpen(true)}>
                  {format('itemList.columnSettings')}
                </DropdownMenu.Item>
                <DropdownMenu.Item className="menu-item" onSelect={() => void downloadCsv()}>
                  {format('itemList.downloadCsv')}
                </DropdownMenu.Item>
                <DropdownMenu.Item
                  className="menu-item"
                  disabled={!multiSelect && count === 0}
                  onSelect={() => {
                    setMultiSelect(!multiSelect);
                    setSelected([]);
                  }}
                >
                  {format(multiSelect ? 'itemList.unselect' : 'itemList.select')}
                </DropdownMenu.Item>
                <DropdownMenu.Item className="menu-item" onSelect={() => navigate(path('editCollection', { collectionID }))}>
                  {format('itemList.collectionSettings')}
                </DropdownMenu.Item>
                {actions.update ? (
                  <DropdownMenu.Item className="menu-item" disabled={initRank.isPending} onSelect={makeSortable}>
                    {format('itemList.makeSortable')}
                  </DropdownMenu.Item>
                ) : null}
                <DropdownMenu.Separator className="menu-separator" />
                <DropdownMenu.Label className="menu-label">{format('itemList.layout')}</DropdownMenu.Label>
                <DropdownMenu.RadioGroup value={layoutKind} onValueChange={(value) => chooseLayout(layoutKindOf(value) ?? 'table')}>
                  {layoutChoices.map((kind) => (
                    <DropdownMenu.RadioItem key={kind} className="menu-item" value={kind}>
                      {format(layoutLabelKey(kind))}
                    </DropdownMenu.RadioItem>
                  ))}
                </DropdownMenu.RadioGroup>
                {layoutKind !== 'table' ? (
                  <DropdownMenu.Item className="menu-item" disabled={!actions.update || !ownFields} onSelect={() => setLayoutSettingsOpen(true)}>
                    {format('layout.settings.menu')}
                  </DropdownMenu.Item>
                ) : null}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
      </header>
      {initRank.isPending ? (
        <p className="muted" role="status">
          {format('itemList.ranking', { remaining: rankRemaining ?? count })}
        </p>
      ) : null}

      {!ownFields ? (
        <div className="panel empty-state">
          <h3>{format('itemList.noSchema')}</h3>
          <p className="muted">{format('itemList.noSchemaHint')}</p>
          <Link className="button button-primary" to={path('editCollection', { collectionID })}>
            <Settings aria-hidden="true" size={16} />
            {format('itemList.editSettings')}
          </Link>
        </div>
      ) : (
        <>
          {csvProgress ? (
            <div className="csv-progress" role="status">
              <label htmlFor={`${id}-csv`}>
                {csvProgress.total === null
                  ? format('itemList.downloading')
                  : format('itemList.downloadProgress', { rows: Math.min(csvProgress.rows, csvProgress.total), total: csvProgress.total })}
              </label>
              <progress id={`${id}-csv`} max={csvProgress.total ?? undefined} value={csvProgress.total === null ? undefined : Math.min(csvProgress.rows, csvProgress.total)} />
            </div>
          ) : null}
          {live.newItemsAvailable ? (
            <div className="callout-info live-alert" role="status">
              <p>{format('itemList.newItemsAvailable')}</p>
              <button type="button" className="button button-small button-primary" onClick={live.loadNewItems}>
                {format('itemList.loadNewItems')}
              </button>
            </div>
          ) : null}
          {live.status === 'failed' ? (
            <div className="callout-error live-alert" role="alert">
              <p>{format('itemList.liveFailed')}</p>
              <button type="button" className="button button-small" onClick={live.retry}>
                {format('itemList.liveRetry')}
              </button>
            </div>
          ) : null}
          <div className="item-list-toolbar">
            <label className="item-search">
              <span className="visually-hidden">{format('itemList.search')}</span>
              <Search aria-hidden="true" size={16} />
              <input
                className="input"
                type="search"
                placeholder={format('itemList.search')}
                maxLength={searchMaxLength}
                value={searchText}
                onChange={(event) => setSearchText(event.target.value.slice(0, searchMaxLength))}
              />
            </label>
            <FilterControl
              scope={scope}
              schema={schema}
              onChange={(next) => {
                setFilter(next);
                setPage(1);
              }}
            />
            {showLiveSwitch ? (
              <div className="live-switch">
                <Switch.Root id={`${id}-live`} className="switch" checked={live.on} aria-describedby={`${id}-live-help`} onCheckedChange={live.toggle}>
                  <Switch.Thumb className="switch-thumb" />
                </Switch.Root>
                <label htmlFor={`${id}-live`}>{format('itemList.liveData')}</label>
                <span id={`${id}-live-help`} className="visually-hidden">
                  {format('itemList.liveDataHelp')}
                </span>
                {live.status === 'connecting' || live.status === 'retrying' ? (
                  <span className="muted live-status" aria-live="polite">
                    {format(live.status === 'connecting' ? 'itemList.liveConnecting' : 'itemList.liveRetrying')}
                  </span>
                ) : null}
              </div>
            ) : null}
          </div>
          {loadFailed ? (
            <div className="panel item-list-error" role="alert">
              <p>{format('itemList.loadFailed')}</p>
              <button type="button" className="button" onClick={reloadList}>
                {format('itemList.retry')}
              </button>
            </div>
          ) : null}
          {Layout ? (
            <Suspense fallback={<p className="muted" role="status">{format('itemList.loading')}</p>}>
              <Layout
                scope={scope}
                collection={collection}
                nested={nested}
                settings={layoutSettings.data ?? {}}
                onSettingsChange={(next) => saveLayoutSettings.mutate(next)}
                onOpenSettings={() => setLayoutSettingsOpen(true)}
                baseParams={layoutBaseParams}
                reloadKey={reload}
                canCreate={actions.create && ownFields}
                canUpdate={actions.update}
                onOpenItem={openItem}
                onNewItem={newItem}
              />
            </Suspense>
          ) : null}
          {Layout ? null : total === 0 ? (
            <div className="panel empty-state" role="status">
              <h3>{format(filtered ? 'itemList.noMatch' : 'itemList.empty')}</h3>
            </div>
          ) : null}
          {Layout ? null : (
          <div hidden={total === 0}>
            <ItemGrid
              fetchKey={fetchKey}
              fetchPage={fetchPage}
              perPage={perPage}
              visibleRows={rowsShown || perPage}
              columnDefs={columnDefs}
              sort={sort}
              onSortChange={(next) => {
                setSort(next);
                setPage(1);
              }}
              multiSelect={multiSelect}
              onSelectionChange={setSelected}
              onMoveItem={dragColumn ? move : undefined}
              wholeList={!filtered}
              itemName={itemName}
              positionOffset={(page - 1) * perPage}
              listSize={total ?? undefined}
              onOpenItem={openItem}
              label={format('itemList.grid', { name: collection.name })}
              selectLabel={format('itemList.select')}
            />
            <ListFooter
              page={page}
              perPage={perPage}
              total={total ?? 0}
              onPage={setPage}
              onPerPage={(next) => {
                setPerPage(next);
                setPage(1);
              }}
            />
          </div>
          )}
        </>
      )}

      {layoutKind !== 'table' ? (
        <LayoutSettingsDialog
          open={layoutSettingsOpen}
          onOpenChange={setLayoutSettingsOpen}
          kind={layoutKind}
          schema={schema}
          settings={layoutSettings.data ?? {}}
          saving={saveLayoutSettings.isPending}
          onSave={(patch) =>
            saveLayoutSettings.mutate(patch, { onError: (error) => void notify({ kind: 'error', title: format('layout.settings.saveFailed'), description: problemMessage(error) }) })
          }
        />
      ) : null}
      <ColumnSettingsDialog open={columnsOpen} onOpenChange={setColumnsOpen} columns={columnChoices} settings={columnSettings} onChange={changeColumns} />
      <ModalDialog open={confirmDelete} onOpenChange={setConfirmDelete} title={format('itemList.deleteTitle', { count: selected.length })} name="deleteItems" widthPx={440}>
        <p>{format('itemList.deleteConfirm')}</p>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setConfirmDelete(false)}>
            {format('form.cancel')}
          </button>
          <button type="button" className="button button-danger" disabled={deleteItems.isPending} onClick={() => void removeSelected()}>
            {deleteItems.isPending ? format('form.deleting') : format('itemList.delete')}
          </button>
        </div>
      </ModalDialog>
    </section>
  );
}
