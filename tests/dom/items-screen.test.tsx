/** The item list screen: header, empty states, New Item rules, search debounce and the table. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ItemListScreen from '../../src/screens/items/ItemListScreen.tsx';
import type { Collection, ContentApi, Item, ListParams } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { fakePlatformApi, ORG, PROJECT, renderPlatform, collectionRoutes } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

afterEach(cleanup);
// ag-grid draws its rows in a few frames; on a busy machine that takes more than the default second.
configure({ asyncUtilTimeout: 8000 });

const metadata = { id: 'meta', name: 'Metadata', slug: 'metadata', type: 100 };
const collection = (schema: Collection['schema'], itemCount = 0): Collection => ({ id: 'posts', name: 'Posts', schema, singleItem: false, rtlDirection: false, itemCount, createdDate: '2026-01-01T00:00:00.000Z' });
const item = (n: number): Item => ({ _id: `id${n}`, _createdDate: '2026-01-01T00:00:00.000Z', _lastUpdatedDate: '2026-01-01T00:00:00.000Z', _order: n, _rank: `a${n}`, title: `Post ${n}` });

function open(found: Collection, listItems: ContentApi['listItems']) {
  const api = { collection: vi.fn(async () => found), listItems: vi.fn(listItems) } as unknown as ContentApi;
  const routes = collectionRoutes([
    {
      id: 'viewCollection',
      path: ':collectionID',
      element: (
        <ContentApiProvider value={api}>
          <ItemListScreen />
        </ContentApiProvider>
      ),
      children: [
        { id: 'addItemToCollection', path: 'item', element: <p>new item page</p> },
        { id: 'viewItem', path: 'item/:itemID', element: <p>item page</p> },
      ],
    },
    { id: 'editCollection', path: ':collectionID/edit', element: <p>settings page</p> },
  ]);
  renderPlatform({ routes, path: `/organization/${ORG}/project/${PROJECT}/collection/posts`, api: fakePlatformApi() });
  return api as ContentApi & { listItems: ReturnType<typeof vi.fn> };
}

describe('ItemListScreen', { timeout: 40_000 }, () => {
  it('a schema of only Metadata says so, offers the settings and no New Item', async () => {
    const api = open(collection([metadata]), async () => ({ items: [], total: 0 }));
    expect(await screen.findByText('Your collection schema is not set')).toBeInTheDocument();
    expect(screen.getByText('Click the settings icons to set up your schema')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Collection Settings' })).toHaveAttribute('href', expect.stringMatching(/\/collection\/posts\/edit$/));
    expect(screen.queryByRole('link', { name: 'New Item' })).toBeNull();
    expect(api.listItems).not.toHaveBeenCalled();
  });

  it('an empty collection says "This Collection is Empty"', async () => {
    open(collection([metadata, { id: 't', name: 'Title', slug: 'title', type: 1 }]), async () => ({ items: [], total: 0 }));
    expect(await screen.findByText('This Collection is Empty')).toBeInTheDocument();
    expect(screen.getByText('0 items')).toBeInTheDocument();
  });

  it('shows the name and count, asks page 1 of 50, and searches 500 ms after typing, from page 1', async () => {
    const user = userEvent.setup();
    const seen: ListParams[] = [];
    open(collection([metadata, { id: 't', name: 'Title', slug: 'title', type: 1 }], 3), async (_scope, _id, params = {}) => {
      seen.push(params);
      const items = params.search ? [item(2)] : [item(1), item(2), item(3)];
      return { items, total: items.length };
    });
    expect(await screen.findByRole('heading', { name: 'Posts' })).toBeInTheDocument();
    await waitFor(() => expect(seen[0]).toEqual({ pageNumber: 1, perPage: 50 }));
    expect(await screen.findByText('3 items')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Item' })).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'Search items' });
    expect(search).toHaveAttribute('maxLength', '256');
    await user.type(search, 'Post 2|x');
    expect(seen.some((params) => params.search)).toBe(false);
    await waitFor(() => expect(seen.at(-1)).toEqual({ pageNumber: 1, perPage: 50, search: 'Post 2|x' }), { timeout: 8000 });
    expect(await screen.findByText('1 item')).toBeInTheDocument();
  });

  it('reads a page again when an item comes back with fewer than 2 keys', async () => {
    let calls = 0;
    open(collection([metadata, { id: 't', name: 'Title', slug: 'title', type: 1 }], 2), async () => {
      calls += 1;
      return calls === 1 ? { items: [item(1), { _id: 'broken' } as Item], total: 2 } : { items: [item(1), item(2)], total: 2 };
    });
    await waitFor(() => expect(calls).toBe(2));
    expect(await screen.findByText('2 items')).toBeInTheDocument();
  });
});
