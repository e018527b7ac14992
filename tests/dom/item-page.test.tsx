/**
 * The item page over a fake content API: create with required fields,
 * update with If-Match, a 409 settled field by field, server field errors, Duplicate, Delete with
 * its confirmation, the unsaved-changes prompt (Close and a navigation from elsewhere), "Close
 * after saving", and a single-item collection shown in place of the list.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, useOutlet, type RouteObject } from 'react-router';
import ItemScreen from '../../src/screens/item/ItemScreen.tsx';
import ItemListScreen from '../../src/screens/items/ItemListScreen.tsx';
import { StaleItemError, type Collection, type Item } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { ApiError } from '../../src/api/errors.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { strictContentApi, type StrictContentApi } from './support/fake-content-api.ts';
import { fakePlatformApi, ORG, PROJECT, renderPlatform, collectionRoutes } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

afterEach(cleanup);
beforeEach(() => {
  vi.mocked(notify).mockClear();
  localStorage.clear();
});
configure({ asyncUtilTimeout: 8000 });

const schema: Collection['schema'] = [
  { id: 'f1', name: 'Title', slug: 'title', type: 1, required: true, primaryField: true },
  { id: 'f2', name: 'Body', slug: 'body', type: 1 },
];
const posts = (overrides: Partial<Collection> = {}): Collection => ({
  id: 'posts',
  name: 'Posts',
  schema,
  singleItem: false,
  rtlDirection: false,
  itemCount: 1,
  createdDate: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
const ITEM = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const stored = (values: Record<string, unknown>, updated = '2026-01-01T00:00:00.000Z'): Item => ({
  _id: ITEM,
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: updated,
  _order: 1,
  _rank: '',
  ...values,
});
const base = `/organization/${ORG}/project/${PROJECT}/collection/posts`;

function ListStub() {
  const outlet = useOutlet();
  return outlet ?? <p>list page</p>;
}

function open(path: string, api: StrictContentApi, options: { list?: 'stub' | 'real' } = {}) {
  const routes: RouteObject[] = [
    {
      id: 'viewProject',
      path: '/organization/:organizationID/project/:projectID',
      element: <Outlet />,
      children: [
        { id: 'projectHome', index: true, element: <p>project page</p> },
        {
          id: 'collection',
          path: 'collection',
          element: <Outlet />,
          children: [
            {
              id: 'viewCollection',
              path: ':collectionID',
              element: <ContentApiProvider value={api}>{options.list === 'real' ? <ItemListScreen /> : <ListStub />}</ContentApiProvider>,
              children: [
                { id: 'addItemToCollection', path: 'item', element: <ItemScreen /> },
                {
                  id: 'viewItem',
                  path: 'item/:itemID',
                  element: <ItemScreen />,
                  // As in definitions/routes.ts: the item page draws its nested collections itself.
                  children: [{ id: 'viewNestedCollection', path: 'nestedID/:nestedID', element: <Outlet />, children: [{ id: 'nestedItem', path: 'item/:collectionNestedID', element: null }] }],
                },
              ],
            },
            { id: 'editCollection', path: ':collectionID/edit', element: <p>settings page</p> },
          ],
        },
      ],
    },
  ];
  return renderPlatform({ routes, path, api: fakePlatformApi() });
}

const where = () => screen.getAllByTestId('where').at(-1)?.textContent;
const toasts = () => vi.mocked(notify).mock.calls.map(([request]) => request.title);
const field = (name: RegExp | string) => screen.getByRole('textbox', { name });

describe('item page', { timeout: 40_000 }, () => {
  it('a new item: title, required marks, Create enabled by changes, required fields refused, then created and closed', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => posts()),
      createItem: vi.fn(async (_scope, _collection, values) => ({ item: stored(values as Record<string, unknown>), etag: '"2026-01-01T00:00:00.000Z"' })),
    });
    open(`${base}/item`, api);
    expect(await screen.findByRole('heading', { name: 'New Posts item' })).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create Item' });
    expect(create).toBeDisabled();
    expect(screen.getByText('Required Field')).toBeInTheDocument();
    expect(screen.getByText('*', { exact: false, selector: '.field-required-mark' })).toBeInTheDocument();

    await user.type(field(/^Body/), 'Some words');
    await waitFor(() => expect(create).toBeEnabled());
    await user.click(create);
    expect(toasts()).toContain('Title is a required field');
    expect(api.createItem).not.toHaveBeenCalled();

    await user.type(field(/^Title/), 'Hello');
    await user.click(create);
    await waitFor(() => expect(api.createItem).toHaveBeenCalledTimes(1));
    expect(api.createItem.mock.calls[0]?.[2]).toEqual({ title: 'Hello', body: 'Some words' });
    expect(await screen.findByText('list page')).toBeInTheDocument();
    expect(toasts()).toContain('Item was created!');
  });

  it('an item: named by its primary field, updated with If-Match, and stays open with "Close after saving" off', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => posts()),
      item: vi.fn(async () => ({ item: stored({ title: 'First', body: 'One' }), etag: '"2026-01-01T00:00:00.000Z"' })),
      updateItem: vi.fn(async (_s, _c, _id, values) => ({ item: stored({ title: 'First', body: 'One', ...(values as object) }, '2026-01-02T00:00:00.000Z'), etag: '"2026-01-02T00:00:00.000Z"' })),
    });
    open(`${base}/item/${ITEM}`, api);
    expect(await screen.findByRole('heading', { name: 'First' })).toBeInTheDocument();
    const update = screen.getByRole('button', { name: 'Update' });
    expect(update).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Item menu' }));
    const keep = await screen.findByRole('menuitemcheckbox', { name: 'Close after saving' });
    expect(keep).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('menuitem', { name: 'Duplicate Item' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Delete Item' })).toBeInTheDocument();
    await user.click(keep);
    expect(localStorage.getItem('larder.item.closeAfterSaving')).toBe('false');
    await user.keyboard('{Escape}');

    await user.clear(field(/^Body/));
    await user.type(field(/^Body/), 'Two');
    await user.click(update);
    await waitFor(() => expect(api.updateItem).toHaveBeenCalledTimes(1));
    expect(api.updateItem.mock.calls[0]?.slice(2)).toEqual([{ itemID: ITEM }, { title: 'First', body: 'Two' }, { ifMatch: '"2026-01-01T00:00:00.000Z"' }]);
    await waitFor(() => expect(toasts()).toContain('Item was updated!'));
    expect(where()).toBe(`${base}/item/${ITEM}`);
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
  });

  it('a 409 shows both versions field by field; the chosen ones are saved against the current version', async () => {
    const user = userEvent.setup();
    localStorage.setItem('larder.item.closeAfterSaving', 'false');
    const current = stored({ title: 'Their title', body: 'Their body' }, '2026-01-03T00:00:00.000Z');
    const stale = new StaleItemError(new ApiError({ status: 409, code: 'stale_item', detail: 'changed' }), current, '"2026-01-03T00:00:00.000Z"');
    const api = strictContentApi({
      collection: vi.fn(async () => posts()),
      item: vi.fn(async () => ({ item: stored({ title: 'First', body: 'One' }), etag: '"2026-01-01T00:00:00.000Z"' })),
      updateItem: vi
        .fn()
        .mockRejectedValueOnce(stale)
        .mockImplementation(async (_s, _c, _id, values) => ({ item: { ...current, ...(values as object), _lastUpdatedDate: '2026-01-04T00:00:00.000Z' }, etag: '"2026-01-04T00:00:00.000Z"' })),
    });
    open(`${base}/item/${ITEM}`, api);
    await screen.findByRole('heading', { name: 'First' });
    await user.clear(field(/^Title/));
    await user.type(field(/^Title/), 'My title');
    await user.clear(field(/^Body/));
    await user.type(field(/^Body/), 'My body');
    await user.click(screen.getByRole('button', { name: 'Update' }));

    const panel = await screen.findByRole('region', { name: 'This item was changed by someone else' });
    expect(toasts()).toContain('Someone changed this item since you opened it. Choose, field by field, which version to keep, then save again.');
    const titleGroup = within(panel).getByRole('group', { name: /^Title/ });
    expect(within(titleGroup).getByText('My title')).toBeInTheDocument();
    expect(within(titleGroup).getByText('Their title')).toBeInTheDocument();
    expect(within(titleGroup).getByRole('radio', { name: 'Your version' })).toBeChecked();
    const bodyGroup = within(panel).getByRole('group', { name: /^Body/ });
    await user.click(within(bodyGroup).getByRole('radio', { name: 'Current version' }));
    await user.click(within(panel).getByRole('button', { name: 'Save the chosen versions' }));

    await waitFor(() => expect(api.updateItem).toHaveBeenCalledTimes(2));
    expect(api.updateItem.mock.calls[1]?.slice(2)).toEqual([{ itemID: ITEM }, { title: 'My title', body: 'Their body' }, { ifMatch: '"2026-01-03T00:00:00.000Z"' }]);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'This item was changed by someone else' })).toBeNull());
    expect(field(/^Title/)).toHaveValue('My title');
    expect(field(/^Body/)).toHaveValue('Their body');
  });

  it('a refused save shows the server reason under the field and keeps everything typed', async () => {
    const user = userEvent.setup();
    const refusal = new ApiError({
      status: 400,
      code: 'validation_failed',
      detail: 'invalid',
      problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'validation_failed', detail: 'invalid', errors: [{ path: 'title', message: 'must be unique' }] },
    });
    const api = strictContentApi({ collection: vi.fn(async () => posts()), createItem: vi.fn(async () => Promise.reject(refusal)) });
    open(`${base}/item`, api);
    await screen.findByRole('heading', { name: 'New Posts item' });
    await user.type(field(/^Title/), 'Taken');
    await user.type(field(/^Body/), 'Kept');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create Item' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Create Item' }));
    expect(await screen.findByText('Title must be unique')).toBeInTheDocument();
    expect(toasts()).toContain('Error with creating item');
    expect(field(/^Title/)).toHaveValue('Taken');
    expect(field(/^Body/)).toHaveValue('Kept');
    expect(where()).toBe(`${base}/item`);
  });

  it('Duplicate opens a new-item form with the copy, ready to create', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => posts()),
      item: vi.fn(async () => ({ item: stored({ title: 'First', body: 'One' }), etag: '"2026-01-01T00:00:00.000Z"' })),
    });
    open(`${base}/item/${ITEM}`, api);
    await screen.findByRole('heading', { name: 'First' });
    await user.click(screen.getByRole('button', { name: 'Item menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Duplicate Item' }));
    expect(await screen.findByRole('heading', { name: 'New Posts item' })).toBeInTheDocument();
    expect(where()).toBe(`${base}/item`);
    expect(field(/^Title/)).toHaveValue('First');
    expect(field(/^Body/)).toHaveValue('One');
    expect(screen.getByRole('button', { name: 'Create Item' })).toBeEnabled();
  });

  it('Delete asks first, then deletes with If-Match and goes back to the list', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => posts()),
      item: vi.fn(async () => ({ item: stored({ title: 'First' }), etag: '"2026-01-01T00:00:00.000Z"' })),
      deleteItem: vi.fn(async () => undefined),
    });
    open(`${base}/item/${ITEM}`, api);
    await screen.findByRole('heading', { name: 'First' });
    await user.click(screen.getByRole('button', { name: 'Item menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Item' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this item?' });
    expect(within(dialog).getByText("Are you sure you want to delete this item? You can't undo this action")).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.deleteItem).toHaveBeenCalledTimes(1));
    expect(api.deleteItem.mock.calls[0]?.slice(2)).toEqual([{ itemID: ITEM }, { ifMatch: '"2026-01-01T00:00:00.000Z"' }]);
    expect(await screen.findByText('list page')).toBeInTheDocument();
  });

  it('leaving with unsaved changes asks, by Close and by a navigation from elsewhere', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => posts()),
      item: vi.fn(async () => ({ item: stored({ title: 'First' }), etag: '"2026-01-01T00:00:00.000Z"' })),
    });
    const { router } = open(`${base}/item/${ITEM}`, api);
    await screen.findByRole('heading', { name: 'First' });
    await user.type(field(/^Body/), 'Unsaved');

    await user.click(screen.getByRole('button', { name: 'Close' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText('Do you really want to leave? You have unsaved changes!')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(field(/^Body/)).toHaveValue('Unsaved');

    void router.navigate(`${base}/edit`);
    dialog = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    expect(where()).toBe(`${base}/item/${ITEM}`);
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('settings page')).toBeInTheDocument();
  });

  it('without changes, Close goes straight back to the list', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => posts()),
      item: vi.fn(async () => ({ item: stored({ title: 'First' }), etag: '"2026-01-01T00:00:00.000Z"' })),
    });
    open(`${base}/item/${ITEM}`, api);
    await screen.findByRole('heading', { name: 'First' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('list page')).toBeInTheDocument();
  });

  it('a single-item collection shows its form in place of the list: Create without changes, then the item; its menu offers CSV and settings', async () => {
    const user = userEvent.setup();
    let saved: Item | null = null;
    const api = strictContentApi({
      collection: vi.fn(async () => posts({ singleItem: true, schema: [{ id: 'f2', name: 'Body', slug: 'body', type: 1 }] })),
      listItems: vi.fn(async () => ({ items: saved ? [saved] : [], total: saved ? 1 : 0 })),
      createItem: vi.fn(async () => {
        saved = stored({ body: null });
        return { item: saved, etag: '"2026-01-01T00:00:00.000Z"' };
      }),
      item: vi.fn(async () => ({ item: saved!, etag: '"2026-01-01T00:00:00.000Z"' })),
    });
    open(base, api, { list: 'real' });
    expect(await screen.findByRole('heading', { name: 'New Posts item' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Item menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Download CSV' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Collection Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete Item' })).toBeNull();
    await user.keyboard('{Escape}');
    const create = screen.getByRole('button', { name: 'Create Item' });
    await waitFor(() => expect(create).toBeEnabled());
    await user.click(create);
    await waitFor(() => expect(api.createItem).toHaveBeenCalledTimes(1));
    expect(await screen.findByRole('button', { name: 'Update' })).toBeDisabled();
    expect(where()).toBe(base);
    expect(screen.queryByText('This Collection is Empty')).toBeNull();
  });

  it('a nested item is read and updated through its top-level item with its nestedID; no Duplicate', async () => {
    const user = userEvent.setup();
    const nestedSchema = [{ id: 'h', name: 'Heading', slug: 'heading', type: 1, primaryField: true }];
    const api = strictContentApi({
      collection: vi.fn(async () => posts({ schema: [...schema, { id: 'f3', name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: nestedSchema }] })),
      item: vi.fn(async (_s, _c, at: { nestedID?: string }) =>
        at.nestedID
          ? { item: { ...stored({ heading: 'Chapter one' }), _id: 'n1' }, etag: '"2026-01-01T00:00:00.000Z"' }
          : { item: stored({ title: 'Top' }), etag: '"2026-01-01T00:00:00.000Z"' },
      ),
      listItems: vi.fn(async () => ({ items: [], total: 0 })),
      updateItem: vi.fn(async (_s, _c, _id, values) => ({ item: { ...stored(values as Record<string, unknown>), _id: 'n1' }, etag: '"2026-01-02T00:00:00.000Z"' })),
    });
    open(`${base}/item/top1/nestedID/chapters/item/n1`, api);
    expect(await screen.findByRole('heading', { name: 'Chapter one' })).toBeInTheDocument();
    expect(api.item.mock.calls.find(([, , at]) => at.nestedID)?.slice(1)).toEqual(['posts', { itemID: 'top1', nestedID: 'chapters.n1' }]);
    // The nested item's own panel, folded beside the top-level item's form.
    const panel = within(screen.getByRole('region', { name: 'Chapter one' }));
    await user.click(panel.getByRole('button', { name: 'Item menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Delete Item' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Duplicate Item' })).toBeNull();
    await user.keyboard('{Escape}');
    await user.clear(field(/^Heading/));
    await user.type(field(/^Heading/), 'Chapter 1');
    await waitFor(() => expect(panel.getByRole('button', { name: 'Update' })).toBeEnabled());
    await user.click(panel.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.updateItem).toHaveBeenCalledTimes(1));
    expect(api.updateItem.mock.calls[0]?.slice(1)).toEqual(['posts', { itemID: 'top1', nestedID: 'chapters.n1' }, { heading: 'Chapter 1' }, { ifMatch: '"2026-01-01T00:00:00.000Z"' }]);
    // Closed after saving: the nested list, folded beside the top-level item.
    await waitFor(() => expect(where()).toBe(`${base}/item/top1/nestedID/chapters`));
    expect(await screen.findByRole('heading', { name: 'Chapters' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Top' })).toBeVisible();
  });

  it('a new nested item (`new` in the route) is created in its list under the top-level item', async () => {
    const user = userEvent.setup();
    const nestedSchema = [{ id: 'h', name: 'Heading', slug: 'heading', type: 1 }];
    const api = strictContentApi({
      collection: vi.fn(async () => posts({ schema: [...schema, { id: 'f3', name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: nestedSchema }] })),
      createItem: vi.fn(async (_s, _c, values) => ({ item: { ...stored(values as Record<string, unknown>), _id: 'n2' }, etag: '"2026-01-01T00:00:00.000Z"' })),
      item: vi.fn(async () => ({ item: stored({ title: 'Top' }), etag: '"2026-01-01T00:00:00.000Z"' })),
      listItems: vi.fn(async () => ({ items: [], total: 0 })),
    });
    open(`${base}/item/top1/nestedID/chapters/item/new`, api);
    expect(await screen.findByRole('heading', { name: 'New Chapters item' })).toBeInTheDocument();
    await user.type(field(/^Heading/), 'Chapter two');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create Item' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Create Item' }));
    await waitFor(() => expect(api.createItem).toHaveBeenCalledTimes(1));
    expect(api.createItem.mock.calls[0]?.slice(1)).toEqual(['posts', { heading: 'Chapter two' }, { itemID: 'top1', nestedID: 'chapters' }]);
    await waitFor(() => expect(where()).toBe(`${base}/item/top1/nestedID/chapters`));
    expect(await screen.findByRole('heading', { name: 'Chapters' })).toBeVisible();
  });
});

