/**
 * Moving items by keyboard beyond the page (docs/content-storage.md "Ranks and CSV"): the grid hears the handles'
 * keys on the document, so keys pressed while the rows are drawn anew (the focus then falls to
 * the body) still move the carried row; "Move to position…" beside each handle moves an item to
 * any position of the whole list (a dialog taking digits only, 1 to the list size), sent as the
 * sort route's `order`; at a page edge the arrows point to it; a failed move says "Oops!" and
 * reloads the list.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ItemListScreen from '../../src/screens/items/ItemListScreen.tsx';
import { readPosition } from '../../src/screens/items/MovePositionDialog.tsx';
import type { Collection, ContentApi, Item, ListParams } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, ORG, PROJECT, renderPlatform, collectionRoutes } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

afterEach(() => {
  cleanup();
  vi.mocked(notify).mockClear();
});
// ag-grid draws its rows in a few frames; on a busy machine that takes more than the default second.
configure({ asyncUtilTimeout: 15_000 });

const posts: Collection = {
  id: 'posts',
  name: 'Posts',
  schema: [{ id: 't', name: 'Title', slug: 'title', type: 1 }, { id: 'meta', name: 'Metadata', slug: 'metadata', type: 100 }],
  singleItem: false,
  rtlDirection: false,
  itemCount: 7,
  createdDate: '2026-01-01T00:00:00.000Z',
};
const item = (n: number): Item => ({
  _id: `id${n}`,
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: '2026-01-01T00:00:00.000Z',
  _order: n,
  _rank: `a${n}`,
  title: `Post ${n}`,
});

interface Target {
  afterID?: string;
  beforeID?: string;
  order?: number;
}

/**
 * The list over a fake content API holding `count` posts in rank order: pages are slices of it,
 * and a move changes it as the server would (so the reload after a move shows the new order).
 */
function open(count: number, options: { failMove?: boolean } = {}) {
  const list = Array.from({ length: count }, (_, i) => item(i + 1));
  const listItems = vi.fn(async (_scope: unknown, _collection: string, params: ListParams) => {
    const perPage = params.perPage ?? 50;
    const from = ((params.pageNumber ?? 1) - 1) * perPage;
    return { items: list.slice(from, from + perPage), total: list.length };
  });
  const moveItem = vi.fn(async (_scope: unknown, _collection: string, { itemID }: { itemID: string }, target: Target) => {
    if (options.failMove) throw new Error('409 ordering_failed');
    const moved = list.find((row) => row._id === itemID)!;
    list.splice(list.indexOf(moved), 1);
    const at =
      target.order !== undefined
        ? Math.min(target.order - 1, list.length)
        : target.afterID
          ? list.findIndex((row) => row._id === target.afterID) + 1
          : list.findIndex((row) => row._id === target.beforeID);
    list.splice(at, 0, moved);
    return { item: moved, etag: '"1"' };
  });
  const api = { collection: vi.fn(async () => posts), listItems, moveItem } as unknown as ContentApi;
  const routes = collectionRoutes([
    {
      id: 'viewCollection',
      path: ':collectionID',
      element: (
        <ContentApiProvider value={api}>
          <ItemListScreen />
        </ContentApiProvider>
      ),
      children: [{ id: 'viewItem', path: 'item/:itemID', element: <p>item page</p> }],
    },
  ]);
  renderPlatform({ routes, path: `/organization/${ORG}/project/${PROJECT}/collection/posts`, api: fakePlatformApi() });
  return { listItems, moveItem, titles: () => list.map((row) => row.title as string) };
}

/** The titles in the order the grid shows its rows. */
function shown(): string[] {
  const cells = [...document.querySelectorAll<HTMLElement>('.ag-row .ag-cell[col-id="title"]')];
  return cells
    .map((cell) => ({ index: Number(cell.closest('.ag-row')?.getAttribute('row-index')), text: cell.textContent?.trim() ?? '' }))
    .sort((a, b) => a.index - b.index)
    .map((row) => row.text);
}

const live = () => document.querySelector('[aria-live="assertive"]');

/** Three items per page (the footer's custom per page), to have pages with few rows. */
async function threePerPage(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Per Page' }), 'Custom');
  const custom = screen.getByRole('textbox', { name: 'Items per page (custom)' });
  await user.clear(custom);
  await user.type(custom, '3{Enter}');
  await waitFor(() => expect(shown()).toEqual(['Post 1', 'Post 2', 'Post 3']));
}

describe('keys while the rows are drawn anew', { timeout: 60_000 }, () => {
  it('keys reaching the body while a row is carried still move it, and the focus comes back to its handle', async () => {
    const user = userEvent.setup();
    const fake = open(4);
    (await screen.findByRole('button', { name: 'Move Post 1' })).focus();
    await user.keyboard(' ');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveFocus());
    // What a redraw does to the focused handle: the focus falls to the body. Two presses land there.
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(live()).toHaveTextContent('Post 1 is at position 3 of 4.');
    await waitFor(() => expect(shown()).toEqual(['Post 2', 'Post 3', 'Post 1', 'Post 4']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveFocus());
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(live()).toHaveTextContent('Post 1 dropped at position 3 of 4.');
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(1));
    expect(fake.moveItem.mock.calls[0]?.slice(2)).toEqual([{ itemID: 'id1' }, { afterID: 'id3' }]);
  });

  it('presses without a pause move the row as many places as there were presses', async () => {
    const user = userEvent.setup({ delay: null });
    const fake = open(5);
    (await screen.findByRole('button', { name: 'Move Post 4' })).focus();
    await user.keyboard(' {ArrowUp}{ArrowUp}{ArrowUp} ');
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(1));
    expect(fake.moveItem.mock.calls[0]?.slice(2)).toEqual([{ itemID: 'id4' }, { beforeID: 'id1' }]);
    expect(live()).toHaveTextContent('Post 4 dropped at position 1 of 5.');
    await waitFor(() => expect(shown()).toEqual(['Post 4', 'Post 1', 'Post 2', 'Post 3', 'Post 5']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 4' })).toHaveFocus());
  });

  it('keys elsewhere on the page are not the carried row’s: a press outside the grid puts it back', async () => {
    const user = userEvent.setup();
    const fake = open(3);
    (await screen.findByRole('button', { name: 'Move Post 1' })).focus();
    await user.keyboard(' ');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveAttribute('aria-pressed', 'true'));
    const search = screen.getByRole('searchbox', { name: 'Search items' });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(live()).toHaveTextContent('Picked up Post 1');
    // A press on the page's background (nothing there takes the focus) cancels too.
    await user.pointer({ keys: '[MouseLeft]', target: document.body });
    await waitFor(() => expect(live()).toHaveTextContent('Moving Post 1 was cancelled.'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 1' })).toHaveAttribute('aria-pressed', 'false'));
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(shown()).toEqual(['Post 1', 'Post 2', 'Post 3']);
    expect(fake.moveItem).not.toHaveBeenCalled();
  });
});

describe('Move to position…', { timeout: 90_000 }, () => {
  it('is reached by Tab from the handle, opens by Enter (not the item), checks the position and sends it as order', async () => {
    const user = userEvent.setup();
    const fake = open(7);
    await threePerPage(user);
    (await screen.findByRole('button', { name: 'Move Post 3' })).focus();
    expect(screen.getByRole('button', { name: 'Move Post 3' })).toHaveAccessibleDescription(/press Tab from its handle to reach Move to position/);
    await user.keyboard('{Tab}');
    expect(screen.getByRole('button', { name: 'Move Post 3 to position…' })).toHaveFocus();
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(screen.getByRole('button', { name: 'Move Post 3' })).toHaveFocus();
    await user.keyboard('{Tab}{Enter}');

    const dialog = await screen.findByRole('dialog', { name: 'Move Post 3 to position' });
    expect(screen.queryByText('item page')).toBeNull();
    const field = screen.getByRole('textbox', { name: 'New position (1 to 7)' });
    expect(field).toHaveFocus();
    expect(field).toHaveAccessibleDescription(/Post 3 is at position 3 of 7\./);
    const move = screen.getByRole('button', { name: 'Move' });

    await user.click(move);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/Enter a position from 1 to 7\./);
    await user.type(field, '2a');
    expect(field).toHaveAccessibleDescription(/Use digits only: a position from 1 to 7\./);
    for (const bad of ['0', '8', '-1', '1.5', ' ']) {
      await user.clear(field);
      await user.type(field, bad);
      await user.click(move);
      expect(screen.getByRole('dialog')).toBe(dialog);
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(fake.moveItem).not.toHaveBeenCalled();

    // Position 6 is on page 2: the item leaves this page, and the focus goes to the row taking its place.
    await user.clear(field);
    await user.type(field, '6{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(1));
    expect(fake.moveItem.mock.calls[0]?.slice(2)).toEqual([{ itemID: 'id3' }, { order: 6 }]);
    expect(live()).toHaveTextContent('Post 3 moved to position 6 of 7.');
    expect(fake.titles()).toEqual(['Post 1', 'Post 2', 'Post 4', 'Post 5', 'Post 6', 'Post 3', 'Post 7']);
    await waitFor(() => expect(shown()).toEqual(['Post 1', 'Post 2', 'Post 4']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 4' })).toHaveFocus());
  });

  it('moves an item of page 2 to position 1; the focus follows it when it stays on the page', async () => {
    const user = userEvent.setup();
    const fake = open(7);
    await threePerPage(user);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(shown()).toEqual(['Post 4', 'Post 5', 'Post 6']));
    await user.click(screen.getByRole('button', { name: 'Move Post 5 to position…' }));
    expect(screen.queryByText('item page')).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'New position (1 to 7)' }), '1');
    await user.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(1));
    expect(fake.moveItem.mock.calls[0]?.slice(2)).toEqual([{ itemID: 'id5' }, { order: 1 }]);
    expect(fake.titles()).toEqual(['Post 5', 'Post 1', 'Post 2', 'Post 3', 'Post 4', 'Post 6', 'Post 7']);
    // Still on page 2, which now starts with Post 3.
    await waitFor(() => expect(shown()).toEqual(['Post 3', 'Post 4', 'Post 6']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 4' })).toHaveFocus());

    // Moving within the page keeps the focus on the moved item.
    await user.click(screen.getByRole('button', { name: 'Move Post 6 to position…' }));
    await user.type(screen.getByRole('textbox', { name: 'New position (1 to 7)' }), '4{Enter}');
    await waitFor(() => expect(fake.moveItem).toHaveBeenCalledTimes(2));
    expect(fake.moveItem.mock.calls[1]?.slice(2)).toEqual([{ itemID: 'id6' }, { order: 4 }]);
    await waitFor(() => expect(shown()).toEqual(['Post 6', 'Post 3', 'Post 4']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Post 6' })).toHaveFocus());
  });

  it('Cancel and the position it already has send nothing', async () => {
    const user = userEvent.setup();
    const fake = open(4);
    await user.click(await screen.findByRole('button', { name: 'Move Post 2 to position…' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Move Post 2 to position…' }));
    await user.type(screen.getByRole('textbox', { name: 'New position (1 to 4)' }), '2{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(live()).toHaveTextContent('Post 2 dropped at position 2 of 4.');
    expect(fake.moveItem).not.toHaveBeenCalled();
  });

  it('a refused move says "Oops!" and reads the list again', async () => {
    const user = userEvent.setup();
    const fake = open(4, { failMove: true });
    await user.click(await screen.findByRole('button', { name: 'Move Post 4 to position…' }));
    const reads = fake.listItems.mock.calls.length;
    await user.type(screen.getByRole('textbox', { name: 'New position (1 to 4)' }), '1{Enter}');
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Oops!', description: 'There was an error ordering the items.' }));
    await waitFor(() => expect(fake.listItems.mock.calls.length).toBeGreaterThan(reads));
    expect(shown()).toEqual(['Post 1', 'Post 2', 'Post 3', 'Post 4']);
  });

  it('is not offered while a search narrows the list (its positions are not the whole list’s)', async () => {
    const user = userEvent.setup();
    const fake = open(4);
    await screen.findByRole('button', { name: 'Move Post 1 to position…' });
    await user.type(screen.getByRole('searchbox', { name: 'Search items' }), 'Post');
    await waitFor(() => expect(fake.listItems.mock.calls.some((call) => call[2].search === 'Post')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Move Post 1 to position…' })).toBeNull());
    // The handle stays, and its instructions no longer speak of it.
    expect(screen.getByRole('button', { name: 'Move Post 1' })).not.toHaveAccessibleDescription(/Move to position/);
  });
});

describe('the arrows at the edge of a page', { timeout: 90_000 }, () => {
  it('point to Move to position… when the list goes on on another page, and move nothing', async () => {
    const user = userEvent.setup();
    const fake = open(7);
    await threePerPage(user);
    (await screen.findByRole('button', { name: 'Move Post 3' })).focus();
    await user.keyboard(' {ArrowDown}');
    expect(live()).toHaveTextContent('Post 3 is at the bottom of this page, position 3 of 7. To move it to a later page, drop it and use Move to position');
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(shown()).toEqual(['Post 4', 'Post 5', 'Post 6']));
    (await screen.findByRole('button', { name: 'Move Post 5' })).focus();
    await user.keyboard(' {ArrowUp}');
    await waitFor(() => expect(shown()).toEqual(['Post 5', 'Post 4', 'Post 6']));
    await user.keyboard('{ArrowUp}');
    expect(live()).toHaveTextContent('Post 5 is at the top of this page, position 4 of 7. To move it to an earlier page, drop it and use Move to position');
    await user.keyboard('{Escape}');
    expect(fake.moveItem).not.toHaveBeenCalled();
  });

  it('at the ends of the whole list say it cannot move further', async () => {
    const user = userEvent.setup();
    open(3);
    (await screen.findByRole('button', { name: 'Move Post 1' })).focus();
    await user.keyboard(' {ArrowUp}');
    expect(live()).toHaveTextContent('Post 1 cannot move further on this page: position 1 of 3.');
  });
});

describe('readPosition', () => {
  it('takes digits from 1 to the list size only', () => {
    expect(readPosition('4', 7)).toEqual({ position: 4 });
    expect(readPosition(' 7 ', 7)).toEqual({ position: 7 });
    expect(readPosition('007', 7)).toEqual({ position: 7 });
    expect(readPosition('', 7)).toEqual({ error: 'itemList.position.range' });
    expect(readPosition('8', 7)).toEqual({ error: 'itemList.position.range' });
    expect(readPosition('0', 7)).toEqual({ error: 'itemList.position.range' });
    expect(readPosition('1e3', 7000)).toEqual({ error: 'itemList.position.digits' });
    expect(readPosition('-2', 7)).toEqual({ error: 'itemList.position.digits' });
    expect(readPosition('٣', 7)).toEqual({ error: 'itemList.position.digits' });
    expect(readPosition('1234567890', 2_000_000_000)).toEqual({ error: 'itemList.position.range' });
  });
});
