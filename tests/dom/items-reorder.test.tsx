/**
 * Moving items in rank order (the drag handle column of ranked lists): the handle is a button
 * that picks its row up with Space or Enter, moves it with the arrows, drops it with Space or
 * Enter (naming the new neighbour to the server) or puts it back with Escape, announcing each
 * step; nested lists move and are made sortable through their top-level item.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useParams } from 'react-router';
import ItemListScreen, { NestedItemList } from '../../src/screens/items/ItemListScreen.tsx';
import type { Collection, ContentApi, Item } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { fakePlatformApi, ORG, PROJECT, renderPlatform, collectionRoutes } from './support/platform.tsx';
import { notify } from '../../renderers/toasts/notify.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

afterEach(cleanup);
// ag-grid draws its rows in a few frames; on a busy machine that takes more than the default second.
configure({ asyncUtilTimeout: 15_000 });

const metadata = { id: 'meta', name: 'Metadata', slug: 'metadata', type: 100 };
const posts: Collection = {
  id: 'posts',
  name: 'Posts',
  schema: [
    { id: 't', name: 'Title', slug: 'title', type: 1 },
    { id: 'c', name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ id: 'h', name: 'Heading', slug: 'heading', type: 1 }] },
    metadata,
  ],
  singleItem: false,
  rtlDirection: false,
  itemCount: 4,
  createdDate: '2026-01-01T00:00:00.000Z',
};
const item = (n: number, key = 'title', label = 'Post', rank: string = `a${n}`): Item => ({
  _id: `id${n}`,
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: '2026-01-01T00:00:00.000Z',
  _order: n,
  _rank: rank,
  [key]: `${label} ${n}`,
});

interface Fake {
  api: ContentApi;
  moveItem: ReturnType<typeof vi.fn>;
  initRank: ReturnType<typeof vi.fn>;
  listItems: ReturnType<typeof vi.fn>;
}

/** The list at `path`, over a fake content API whose list is `rows()` (read at every call). */
function open(path: string, rows: () => Item[]): Fake {
  const listItems = vi.fn(async () => ({ items: rows(), total: rows().length }));
  const moveItem = vi.fn(async (_scope: unknown, _collection: string, { itemID }: { itemID: string }) => ({ item: { ...item(0), _id: itemID }, etag: '"1"' }));
  const initRank = vi.fn(async () => ({ ranked: 3, remaining: 0 }));
  const api = { collection: vi.fn(async () => posts), listItems, moveItem, initRank } as unknown as ContentApi;
  const screenElement = (
    <ContentApiProvider value={api}>
      <ItemListScreen />
    </ContentApiProvider>
  );
  const routes = collectionRoutes([
    { id: 'viewCollection', path: ':collectionID', element: screenElement, children: [{ id: 'viewItem', path: 'item/:itemID', element: <p>item page</p> }] },
    {
      // The item page folds nested lists out beside their item (ItemFold); here the list alone.
      id: 'viewNestedCollection',
      path: ':collectionID/item/:itemID/nestedID/:nestedID',
      element: (
        <ContentApiProvider value={api}>
          <NestedListAlone />
        </ContentApiProvider>
      ),
      children: [{ id: 'nestedItem', path: 'item/:collectionNestedID', element: <p>nested item page</p> }],
    },
    { id: 'editCollection', path: ':collectionID/edit', element: <p>settings page</p> },
  ]);
  renderPlatform({ routes, path: `/organization/${ORG}/project/${PROJECT}/collection/${path}`, api: fakePlatformApi() });
  return { api, moveItem, initRank, listItems };
}

function NestedListAlone() {
  const { collectionID = '', itemID = '', nestedID = '' } = useParams();
  return <NestedItemList collectionID={collectionID} itemID={itemID} nestedID={nestedID} embedding={{ itemOpen: false, onOpenItem: () => {}, onClose: () => {} }} />;
}

/** The titles in the order the grid shows its rows. */
function shown(column: string): string[] {
  const cells = [...document.querySelectorAll<HTMLElement>(`.ag-row .ag-cell[col-id="${column}"]`)];
  return cells
    .map((cell) => ({ index: Number(cell.closest('.ag-row')?.getAttribute('row-index')), text: cell.textContent?.trim() ?? '' }))
    .sort((a, b) => a.index - b.index)
    .map((row) => row.text);
}

const live = () => document.querySelector('[aria-live="assertive"]');

describe('moving items by keyboard', { timeout: 60_000 }, () => {
  it('picks a row up, moves it down with the arrows and drops it after its new neighbour', async () => {
    const user = userEvent.setup();
    const fake = open('posts', () => [item(1), item(2), item(3), item(4)]);
    const handle = await screen.findByRole('button', { name: 'Move Post 1' });
    expect(handle).toHaveAccessibleDescription(/focus its handle and press Space or Enter/);
    expect(handle).toHaveAttribute('aria-pressed', 'false');
    handle.focus();

    await user.keyboard(' ');
    expect(live()).toHaveTextContent('Picked up Post 1, at position 1 of 4.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect([...document.querySelectorAll('.ag-row.item-row-picked')].map((row) => row.getAttribute('row-id'))).toEqual(['id1']));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(shown('title')).toEqual(['Post 2', 'Post 1', 'Post 3', 'Post 4']));
    expect(live()).toHaveTextContent('Post 1 is at position 2 of 4.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(shown('title')).toEqual(['Post 2', 'Post 3', 'Post 1', 'Post 4']));
    // Nothing reaches the server before the drop.
    expect(fake.moveItem).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveFocus());
    await user.keyboard(' ');
    expect(live()).toHaveTextContent('Post 1 dropped at position 3 of 4.');
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(1));
    expect(fake.moveItem.mock.calls[0]?.slice(1)).toEqual(['posts', { itemID: 'id1' }, { afterID: 'id3' }]);
  });

  it('moving up names the row now below it; Enter works as Space; Home goes to the top of the page', async () => {
    const user = userEvent.setup();
    const fake = open('posts', () => [item(1), item(2), item(3), item(4)]);
    (await screen.findByRole('button', { name: 'Move Post 3' })).focus();
    await user.keyboard('{Enter}');
    await user.keyboard('{Home}');
    await waitFor(() => expect(shown('title')).toEqual(['Post 3', 'Post 1', 'Post 2', 'Post 4']));
    expect(live()).toHaveTextContent('Post 3 is at position 1 of 4.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 3' })).toHaveFocus());
    // The first row cannot go higher: said, and nothing moves.
    await user.keyboard('{ArrowUp}');
    expect(live()).toHaveTextContent('Post 3 cannot move further on this page: position 1 of 4.');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(1));
    expect(fake.moveItem.mock.calls[0]?.slice(1)).toEqual(['posts', { itemID: 'id3' }, { beforeID: 'id1' }]);
    // Enter on a handle never opens the item.
    expect(screen.queryByText('item page')).toBeNull();
  });

  it('Escape puts the row back, says so and sends nothing; dropping where it was sends nothing', async () => {
    const user = userEvent.setup();
    const fake = open('posts', () => [item(1), item(2), item(3), item(4)]);
    (await screen.findByRole('button', { name: 'Move Post 2' })).focus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(shown('title')).toEqual(['Post 1', 'Post 3', 'Post 2', 'Post 4']));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(shown('title')).toEqual(['Post 1', 'Post 2', 'Post 3', 'Post 4']));
    expect(live()).toHaveTextContent('Moving Post 2 was cancelled.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 2' })).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Move Post 2' })).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(document.querySelectorAll('.item-row-picked')).toHaveLength(0));
    await user.keyboard(' ');
    await user.keyboard(' ');
    expect(live()).toHaveTextContent('Post 2 dropped at position 2 of 4.');
    expect(fake.moveItem).not.toHaveBeenCalled();
  });

  it('leaving the grid while a row is carried puts it back', async () => {
    const user = userEvent.setup();
    const fake = open('posts', () => [item(1), item(2), item(3)]);
    (await screen.findByRole('button', { name: 'Move Post 1' })).focus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(shown('title')).toEqual(['Post 2', 'Post 1', 'Post 3']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveFocus());
    await user.click(screen.getByRole('searchbox', { name: 'Search items' }));
    expect(live()).toHaveTextContent('Moving Post 1 was cancelled.');
    await waitFor(() => expect(shown('title')).toEqual(['Post 1', 'Post 2', 'Post 3']));
    expect(screen.getByRole('searchbox', { name: 'Search items' })).toHaveFocus();
    expect(fake.moveItem).not.toHaveBeenCalled();
  });

  it('has no handle column before the items have ranks', async () => {
    open('posts', () => [item(1, 'title', 'Post', ''), item(2, 'title', 'Post', '')]);
    await waitFor(() => expect(shown('title')).toEqual(['Post 1', 'Post 2']));
    expect(screen.queryByRole('button', { name: /^Move / })).toBeNull();
    expect(document.querySelector('[col-id="_drag"]')).toBeNull();
  });

  it('has no handle column while a column sorts the list', async () => {
    const user = userEvent.setup();
    open('posts', () => [item(1), item(2)]);
    await screen.findByRole('button', { name: 'Move Post 1' });
    const header = document.querySelector<HTMLElement>('.ag-header-cell[col-id="title"] .ag-header-cell-label');
    if (!header) throw new Error('no Title header');
    await user.click(header);
    await waitFor(() => expect(document.querySelector('[col-id="_drag"]')).toBeNull());
    expect(screen.queryByRole('button', { name: /^Move / })).toBeNull();
  });
});

describe('nested lists', { timeout: 60_000 }, () => {
  const nestedPath = 'posts/item/top1/nestedID/chapters';

  it('moves a nested item through its top-level item, nestedID ending in its id', async () => {
    const user = userEvent.setup();
    const fake = open(nestedPath, () => [item(1, 'heading', 'Chapter'), item(2, 'heading', 'Chapter'), item(3, 'heading', 'Chapter')]);
    (await screen.findByRole('button', { name: 'Move Chapter 2' })).focus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown}');
    await user.keyboard(' ');
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(1));
    expect(fake.moveItem.mock.calls[0]?.slice(1)).toEqual(['posts', { itemID: 'top1', nestedID: 'chapters.id2' }, { afterID: 'id3' }]);
    expect(fake.listItems.mock.calls[0]?.[2]).toMatchObject({ parentItemID: 'top1', nestedID: 'chapters' });
  });

  it('"Make collection sortable" ranks the nested list, naming its parent item and nestedID', async () => {
    const user = userEvent.setup();
    const fake = open(nestedPath, () => [item(1, 'heading', 'Chapter', ''), item(2, 'heading', 'Chapter', '')]);
    await waitFor(() => expect(shown('heading')).toEqual(['Chapter 1', 'Chapter 2']));
    expect(screen.queryByRole('button', { name: /^Move / })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Collection menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make collection sortable' }));
    await waitFor(() => expect(fake.initRank).toHaveBeenCalledTimes(1));
    expect(fake.initRank.mock.calls[0]?.slice(1)).toEqual(['posts', { parentItemID: 'top1', nestedID: 'chapters' }]);
  });

  it('the top-level list ranks without a parent', async () => {
    const user = userEvent.setup();
    const fake = open('posts', () => [item(1, 'title', 'Post', '')]);
    await waitFor(() => expect(shown('title')).toEqual(['Post 1']));
    await user.click(screen.getByRole('button', { name: 'Collection menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make collection sortable' }));
    await waitFor(() => expect(fake.initRank).toHaveBeenCalledTimes(1));
    expect(fake.initRank.mock.calls[0]?.slice(1)).toEqual(['posts', {}]);
    expect(within(document.body).queryByText('item page')).toBeNull();
  });

  it('"Make collection sortable" says so when every item already had a rank, and does not claim it made it sortable', async () => {
    const user = userEvent.setup();
    vi.mocked(notify).mockClear();
    const fake = open('posts', () => [item(1), item(2)]);
    fake.initRank.mockImplementation(async () => ({ ranked: 0, remaining: 0 }));
    await waitFor(() => expect(shown('title')).toEqual(['Post 1', 'Post 2']));
    await user.click(screen.getByRole('button', { name: 'Collection menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make collection sortable' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'info', title: 'This collection is already sortable' }));
    expect(notify).not.toHaveBeenCalledWith(expect.objectContaining({ title: 'The collection is now sortable' }));
    vi.mocked(notify).mockClear();
    fake.initRank.mockImplementation(async () => ({ ranked: 2, remaining: 0 }));
    await user.click(screen.getByRole('button', { name: 'Collection menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make collection sortable' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'The collection is now sortable' }));
  });
});
