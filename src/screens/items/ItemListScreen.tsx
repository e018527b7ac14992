/**
 * The item list screen: the collection's name and
 * item count, the menu (Column Settings, Download CSV, Import Items, Select/Unselect, Collection Settings, Make
 * collection sortable, Layout, Layout settings), New Item or Delete N Items, search, filter, the
 * table and its footer — or, with another layout chosen (the menu, or the `layout` query parameter
 * of a top-level list), the calendar, kanban or map in place of the table (renderers/layouts/). An open item (the child routes) replaces the list, which stays mounted underneath so
 * closing the item returns to the same page, sort and filter. A nested collection's list is drawn
 * by the item page, folded beside its parent item (NestedItemList, src/screens/item/ItemFold.tsx).
 */
import { lazy, Suspense, useEffect, useId, useMemo, useRef } from 'react';
import { Link, useNavigate, useOutlet, useParams } from 'react-router';
import { Settings } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { contentFeatures } from '../../../definitions/content.ts';
import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';
import { layouts } from '../../../renderers/layouts/index.ts';
import { LayoutSettingsDialog } from '../../../renderers/layouts/LayoutSettingsDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Collection, ProjectScope } from '../../api/content.ts';
import { contentKeys } from '../../api/content-keys.ts';
import { useCollection } from '../../api/content-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { useLiveData } from '../../hooks/use-live-data.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectScope } from '../collection/use-project-scope.ts';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { ColumnSettingsDialog } from './ColumnSettingsDialog.tsx';
import type { ColumnScope } from './column-settings.ts';
import { DeleteItemsDialog } from './DeleteItemsDialog.tsx';
import { ImportItemsDialog } from './ImportItemsDialog.tsx';
import { ItemGrid } from './ItemGrid.tsx';
import { ItemListHeader } from './ItemListHeader.tsx';
import { ItemListMenu } from './ItemListMenu.tsx';
import { ItemListNotices } from './ItemListNotices.tsx';
import { ItemListToolbar } from './ItemListToolbar.tsx';
import { ListFooter } from './ListFooter.tsx';
import { nestedFields, slugPath } from './nested-path.ts';
import { newNestedItemID } from '../item/new-nested-item.ts';
import { defaultPerPage, nestedPerPage } from './paging.ts';
import { useItemColumns } from './use-item-columns.ts';
import { useItemList, type NestedList } from './use-item-list.ts';
import { useItemOrder } from './use-item-order.ts';
import { usePageReader } from './use-page-reader.ts';
import { useListLayout } from './use-list-layout.ts';
import './items.css';

/** A single-item collection's page: its own chunk, with the field editors, loaded only for such collections. */
const SingleItemScreen = lazy(() => import('../item/SingleItemScreen.tsx').then((module) => ({ default: module.SingleItemScreen })));

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

/** A schema holds more than the metadata entry when a field keeps values of its own. */
const hasOwnFields = (schema: readonly SchemaField[]) => schema.some((field) => fieldType(field.type)?.storage.kind !== 'none');

function ItemListView({ scope, collection, nested, embedding }: { scope: ProjectScope; collection: Collection; nested?: NestedList | undefined; embedding?: Embedding | undefined }) {
  const format = useFormat();
  const id = useId();
  const navigate = useNavigate();
  const path = useProjectPath();
  const actions = useProjectActions();
  const problemMessage = useProblemMessage();
  const queryClient = useQueryClient();
  const collectionID = collection.id;
  const { context, dialog: openDialog, deleting, send, params } = useItemList(scope, collectionID, nested, nested ? nestedPerPage : defaultPerPage);
  const { page, perPage, sort, search, filter, reload, total, rowsShown, loadFailed, multiSelect, selected } = context;
  const nestedPath = nested ? slugPath(nested.nestedID) : '';
  const columnScope: ColumnScope = useMemo(() => ({ ...scope, collectionID, nestedPath }), [scope, collectionID, nestedPath]);
  const order = useItemOrder({ scope, collectionID, nested, onRanked: () => send({ type: 'RELOAD' }), onMoved: () => send({ type: 'REFRESH' }) });
  const layout = useListLayout({
    scope,
    collectionID,
    nestedPath,
    topLevel: !embedding && !nested,
    canUpdate: actions.update,
    chosen: context.layout,
    onChosen: (kind) => send({ type: 'LAYOUT_CHOSEN', layout: kind }),
  });

  const schema = collection.schema;
  const ownFields = hasOwnFields(schema);
  // The drag handle moves items in rank order: shown when ranks exist and no column sorts the list.
  // Search and filter keep the rank order, and the neighbours sent are those shown, so moves stay exact.
  const dragColumn = context.hasRanks && sort === null && !multiSelect && actions.update;
  const columns = useItemColumns(collection, columnScope, dragColumn);
  const fetchKey = `${JSON.stringify(params)}#${reload}`;

  const fetchPage = usePageReader(scope, collectionID, params, send);

  // The search's wait starts once the typed text is drawn (machines/item-list.ts).
  useEffect(() => send({ type: 'SEARCH_SHOWN' }), [context.searchText, send]);

  // Back from the item page (the child route closed): items may have changed there, so the page is read again.
  const outletOpen = useOutlet() !== null;
  const itemOpen = embedding ? embedding.itemOpen : outletOpen;
  const wasItemOpen = useRef(itemOpen);
  useEffect(() => {
    if (wasItemOpen.current && !itemOpen) send({ type: 'REFRESH' });
    wasItemOpen.current = itemOpen;
  }, [itemOpen, send]);

  // Live data: on sorts newest first, off clears the sort; Load New Items reloads page 1.
  const live = useLiveData(
    { scope, collectionID, ...(nested ? { itemID: nested.itemID, nestedID: nested.nestedID } : {}) },
    {
      applyLiveSort: () => send({ type: 'LIVE_ON' }),
      clearLiveSort: () => send({ type: 'LIVE_OFF' }),
      reloadItems: () => send({ type: 'LOAD_NEW_ITEMS' }),
    },
  );

  const filtered = Boolean(search || filter);
  const Layout = layout.kind === 'table' ? null : layouts[layout.kind];
  const itemPath = (itemID: string) =>
    nested ? path('nestedItem', { collectionID, itemID: nested.itemID, nestedID: nested.nestedID, collectionNestedID: itemID }) : path('viewItem', { collectionID, itemID });
  const openItem = (itemID: string) => (embedding ? embedding.onOpenItem(itemID) : navigate(itemPath(itemID)));
  // A nested list's New Item opens the nested item page with `new` for the item (never an item id).
  const newItemPath = nested ? itemPath(newNestedItemID) : path('addItemToCollection', { collectionID });
  // A new item with values set by a click in a layout: the item page takes them from the navigation's state.
  const newItem = (prefill: Record<string, unknown>) => navigate(newItemPath, { state: { itemValues: prefill } });
  const layoutBaseParams = useMemo(
    () => ({ ...(search ? { search } : {}), ...(filter ? { filter } : {}), ...(nested ? { parentItemID: nested.itemID, nestedID: nested.nestedID } : {}) }),
    [search, filter, nested?.itemID, nested?.nestedID],
  );
  const count = total ?? collection.itemCount;
  const showLiveSwitch = contentFeatures.liveData && (count > 0 || live.on);
  const headingId = `${id}-title`;
  const dialog = (name: 'columns' | 'layoutSettings') => ({
    open: openDialog === name,
    onOpenChange: (open: boolean) => send({ type: open ? (name === 'columns' ? 'OPEN_COLUMNS' : 'OPEN_LAYOUT_SETTINGS') : 'CLOSE_DIALOG' }),
  });

  return (
    <section className="item-list" aria-labelledby={headingId}>
      <ItemListHeader
        headingId={headingId}
        name={collection.name}
        count={count}
        onClose={embedding?.onClose}
        deleting={multiSelect && actions.delete ? { selected: selected.length, onDelete: () => send({ type: 'ASK_DELETE' }) } : null}
        newItemTo={ownFields && !multiSelect && actions.create ? newItemPath : null}
      >
        <ItemListMenu
          ownFields={ownFields}
          multiSelect={multiSelect}
          count={count}
          canUpdate={actions.update}
          canImport={!nested && !embedding && actions.create}
          ranking={order.ranking}
          layoutKind={layout.kind}
          onColumns={() => send({ type: 'OPEN_COLUMNS' })}
          onDownloadCsv={() => send({ type: 'DOWNLOAD_CSV' })}
          onImport={() => send({ type: 'OPEN_IMPORT' })}
          onToggleSelect={() => send({ type: 'TOGGLE_MULTI_SELECT' })}
          onCollectionSettings={() => navigate(path('editCollection', { collectionID }))}
          onMakeSortable={order.makeSortable}
          onLayout={layout.choose}
          onLayoutSettings={() => send({ type: 'OPEN_LAYOUT_SETTINGS' })}
        />
      </ItemListHeader>
      {order.ranking ? <StatusLine text={format('itemList.ranking', { remaining: order.rankRemaining ?? count })} /> : null}

      {!ownFields ? (
        <NoSchema settingsPath={path('editCollection', { collectionID })} />
      ) : (
        <>
          <ItemListNotices csv={context.csv} live={live} />
          <ItemListToolbar
            scope={scope}
            schema={schema}
            searchText={context.searchText}
            onSearchText={(text) => send({ type: 'SEARCH_TYPED', text })}
            onFilter={(next) => send({ type: 'FILTER_CHANGED', filter: next })}
            live={showLiveSwitch ? live : null}
          />
          {loadFailed ? <LoadFailed onRetry={() => send({ type: 'RELOAD' })} /> : null}
          {Layout ? (
            <Suspense fallback={<p className="muted" role="status">{format('itemList.loading')}</p>}>
              <Layout
                scope={scope}
                collection={collection}
                nested={nested}
                settings={layout.settings.data ?? {}}
                onSettingsChange={(next) => layout.save.mutate(next)}
                onOpenSettings={() => send({ type: 'OPEN_LAYOUT_SETTINGS' })}
                baseParams={layoutBaseParams}
                reloadKey={reload}
                canCreate={actions.create && ownFields}
                canUpdate={actions.update}
                onOpenItem={openItem}
                onNewItem={newItem}
              />
            </Suspense>
          ) : (
            <>
              {total === 0 ? (
                <div className="panel empty-state" role="status">
                  <h3>{format(filtered ? 'itemList.noMatch' : 'itemList.empty')}</h3>
                </div>
              ) : null}
              <div hidden={total === 0}>
                <ItemGrid
                  fetchKey={fetchKey}
                  fetchPage={fetchPage}
                  perPage={perPage}
                  visibleRows={rowsShown || perPage}
                  columnDefs={columns.columnDefs}
                  sort={sort}
                  onSortChange={(next) => send({ type: 'SORT_CHANGED', sort: next })}
                  multiSelect={multiSelect}
                  onSelectionChange={(ids) => send({ type: 'SELECTION_CHANGED', ids })}
                  onMoveItem={dragColumn ? order.move : undefined}
                  wholeList={!filtered}
                  itemName={columns.itemName}
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
                  onPage={(next) => send({ type: 'PAGE_CHANGED', page: next })}
                  onPerPage={(next) => send({ type: 'PER_PAGE_CHANGED', perPage: next })}
                />
              </div>
            </>
          )}
        </>
      )}

      {layout.kind !== 'table' ? (
        <LayoutSettingsDialog
          {...dialog('layoutSettings')}
          kind={layout.kind}
          schema={schema}
          settings={layout.settings.data ?? {}}
          saving={layout.save.isPending}
          onSave={(patch) =>
            layout.save.mutate(patch, { onError: (error) => void notify({ kind: 'error', title: format('layout.settings.saveFailed'), description: problemMessage(error) }) })
          }
        />
      ) : null}
      <ColumnSettingsDialog {...dialog('columns')} columns={columns.columnChoices} settings={columns.columnSettings} onChange={columns.changeColumns} />
      {openDialog === 'importItems' ? (
        <ImportItemsDialog
          scope={scope}
          collectionID={collectionID}
          collectionName={collection.name}
          onClose={() => send({ type: 'CLOSE_DIALOG' })}
          onImported={() => {
            // The page and total read again (the live stream's announcement comes too, when on),
            // and the collection's item count wherever it is shown.
            send({ type: 'RELOAD' });
            void queryClient.invalidateQueries({ queryKey: contentKeys.collection(scope, collectionID), exact: true });
            void queryClient.invalidateQueries({ queryKey: contentKeys.collections(scope) });
          }}
        />
      ) : null}
      <DeleteItemsDialog
        open={openDialog === 'confirmDelete' || openDialog === 'deleting'}
        count={selected.length}
        deleting={deleting}
        onCancel={() => send({ type: 'CLOSE_DIALOG' })}
        onDelete={() => send({ type: 'DELETE' })}
      />
    </section>
  );
}

/** A schema of only the metadata entry: says so and offers the collection's settings. */
function NoSchema({ settingsPath }: { settingsPath: string }) {
  const format = useFormat();
  return (
    <div className="panel empty-state">
      <h3>{format('itemList.noSchema')}</h3>
      <p className="muted">{format('itemList.noSchemaHint')}</p>
      <Link className="button button-primary" to={settingsPath}>
        <Settings aria-hidden="true" size={16} />
        {format('itemList.editSettings')}
      </Link>
    </div>
  );
}

function StatusLine({ text }: { text: string }) {
  return (
    <p className="muted" role="status">
      {text}
    </p>
  );
}

/** The page could not be read: says so and offers to read it again. */
function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const format = useFormat();
  return (
    <div className="panel item-list-error" role="alert">
      <p>{format('itemList.loadFailed')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {format('itemList.retry')}
      </button>
    </div>
  );
}
