/**
 * Nested collections folded beside their parent item
 * over a fake content API: the preview table on the parent item (10 rows a page, `_rank`
 * descending, the nested fields' display renderers, paging, empty and error states), the two
 * messages that say why nothing can be opened yet, and the fold driven by the nested-navigation
 * machine: opening pushes a level beside the item, a nested item's own nested collection folds
 * further, closing pops, a breadcrumb pops deeper levels, and unsaved changes of every level are
 * kept while folding and asked about before they would be lost.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, useOutlet } from 'react-router';
import ItemScreen from '../../src/screens/item/ItemScreen.tsx';
import { keepsLevels, stackAtPath } from '../../src/screens/item/ItemFold.tsx';
import type { Collection, Item, ListParams } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
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

const TOP = 'a'.repeat(24);
const CHAPTER = 'c'.repeat(24);
const paragraphSchema: Collection['schema'] = [{ id: 'p1', name: 'Text', slug: 'text', type: 1, primaryField: true }];
const chapterSchema: Collection['schema'] = [
  { id: 'h1', name: 'Heading', slug: 'heading', type: 1, primaryField: true },
  { id: 'h2', name: 'Done', slug: 'done', type: 8 },
  { id: 'h3', name: 'Paragraphs', slug: 'paragraphs', type: 12, nestedCollectionSchema: paragraphSchema },
];
const books = (schema: Collection['schema'] = [
  { id: 'f1', name: 'Title', slug: 'title', type: 1, required: true, primaryField: true },
  { id: 'f2', name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: chapterSchema },
]): Collection => ({ id: 'books', name: 'Books', schema, singleItem: false, rtlDirection: false, itemCount: 1, createdDate: '2026-01-01T00:00:00.000Z' });

const stored = (id: string, values: Record<string, unknown>, rank = ''): Item => ({
  _id: id,
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: '2026-01-01T00:00:00.000Z',
  _order: 1,
  _rank: rank,
  ...values,
});
const versioned = (item: Item) => ({ item, etag: `"${item._lastUpdatedDate}"` });
const base = `/organization/${ORG}/project/${PROJECT}/collection/books`;

function ListStub() {
  const outlet = useOutlet();
  return outlet ?? <p>list page</p>;
}

function open(path: string, api: StrictContentApi) {
  const routes = collectionRoutes([
    {
      id: 'viewCollection',
      path: ':collectionID',
      element: (
        <ContentApiProvider value={api}>
          <ListStub />
        </ContentApiProvider>
      ),
      children: [
        { id: 'addItemToCollection', path: 'item', element: <ItemScreen /> },
        {
          id: 'viewItem',
          path: 'item/:itemID',
          element: <ItemScreen />,
          children: [{ id: 'viewNestedCollection', path: 'nestedID/:nestedID', element: <Outlet />, children: [{ id: 'nestedItem', path: 'item/:collectionNestedID', element: null }] }],
        },
      ],
    },
  ]);
  return renderPlatform({ routes, path, api: fakePlatformApi() });
}

const where = () => screen.getAllByTestId('where').at(-1)?.textContent;
const region = (name: string) => within(screen.getByRole('region', { name }));
const crumbs = () =>
  within(screen.getByRole('navigation', { name: 'Breadcrumbs' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

/** The list calls a nested list makes: the preview (10 a page, rank descending) and the fold's list (100 a page). */
function lists(byNestedID: Record<string, Item[]>) {
  return vi.fn(async (_scope: unknown, _collection: string, params: ListParams = {}) => {
    const all = byNestedID[params.nestedID ?? ''] ?? [];
    const perPage = params.perPage ?? 50;
    const page = params.pageNumber ?? 1;
    return { items: all.slice((page - 1) * perPage, page * perPage), total: all.length };
  });
}

describe('nested collection preview', { timeout: 40_000 }, () => {
  it('shows the first 10 nested items by rank descending, drawn by their display renderers, with paging', async () => {
    const user = userEvent.setup();
    const chapters = Array.from({ length: 12 }, (_, i) => stored(`${i}`.padStart(24, '0'), { heading: `Chapter ${12 - i}`, done: i === 0 }, `r${12 - i}`));
    const api = strictContentApi({
      collection: vi.fn(async () => books()),
      item: vi.fn(async () => versioned(stored(TOP, { title: 'Dune' }))),
      listItems: lists({ chapters }),
    });
    open(`${base}/item/${TOP}`, api);
    const table = await screen.findByRole('table');
    expect(within(table).getByText('12 items')).toBeInTheDocument();
    const call = api.listItems.mock.calls.find(([, , params]) => (params as ListParams).nestedID === 'chapters')?.[2];
    expect(call).toEqual({ parentItemID: TOP, nestedID: 'chapters', pageNumber: 1, perPage: 10, sort: '_rank', order: 'desc' });
    // Columns: the nested fields a list shows (Heading, Done); not the nested collection inside.
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Heading', 'Done']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent('Chapter 12');
    // Bool is drawn by its display renderer, not as "true".
    expect(rows[0]).not.toHaveTextContent('true');
    // At most 600 px high, scrolling inside and reachable by keyboard.
    const scroller = screen.getByRole('region', { name: '12 items' });
    expect(scroller.style.maxHeight).toBe('600px');
    expect(scroller).toHaveAttribute('tabindex', '0');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row').slice(1)).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Open Chapters' })).toBeEnabled();
  });

  it('says when there are none, when they cannot be read (and reads again), and why nothing opens yet', async () => {
    const user = userEvent.setup();
    let fail = true;
    const api = strictContentApi({
      collection: vi.fn(async () =>
        books([
          { id: 'f1', name: 'Title', slug: 'title', type: 1, primaryField: true },
          { id: 'f2', name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: chapterSchema },
          { id: 'f3', name: 'Notes', slug: 'notes', type: 12, nestedCollectionSchema: [{ id: 'm', name: 'Metadata', slug: 'metadata', type: 100 }] },
        ]),
      ),
      item: vi.fn(async () => versioned(stored(TOP, { title: 'Dune' }))),
      listItems: vi.fn(async () => {
        if (fail) throw new Error('offline');
        return { items: [], total: 0 };
      }),
    });
    open(`${base}/item/${TOP}`, api);
    // Only the metadata entry: no schema yet.
    expect(await screen.findByText('Schema must be added before creating nested items')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open Notes' })).toBeNull();
    const problem = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(problem).toHaveTextContent('Could not load Chapters.');
    fail = false;
    await user.click(within(problem).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Chapters has no items yet.')).toBeInTheDocument();
    cleanup();

    // A new item: nothing nested until it is created.
    open(`${base}/item`, api);
    expect(await screen.findByRole('heading', { name: 'New Books item' })).toBeInTheDocument();
    expect(screen.getByText('The item must first be created before adding nested items')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open Chapters' })).toBeNull();
  });
});

describe('nested collections folded beside their item', { timeout: 60_000 }, () => {
  it('opens beside the item keeping its unsaved changes, folds further from a nested item, pops by Close and by breadcrumbs', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => books()),
      item: vi.fn(async (_s, _c, at: { nestedID?: string }) => (at.nestedID ? versioned(stored(CHAPTER, { heading: 'Chapter one of the book' })) : versioned(stored(TOP, { title: 'Dune' })))),
      listItems: lists({ chapters: [stored(CHAPTER, { heading: 'Chapter one of the book' })], [`chapters.${CHAPTER}.paragraphs`]: [] }),
    });
    open(`${base}/item/${TOP}`, api);
    expect(await screen.findByRole('heading', { name: 'Dune' })).toBeInTheDocument();
    // Not folded yet: no breadcrumbs.
    expect(screen.queryByRole('navigation', { name: 'Breadcrumbs' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: /^Title/ }), ' Messiah');

    // Opening pushes a level: the address names it, the list shows beside the item, nothing is asked.
    await user.click(await screen.findByRole('button', { name: 'Open Chapters' }));
    await waitFor(() => expect(where()).toBe(`${base}/item/${TOP}/nestedID/chapters`));
    expect(await screen.findByRole('heading', { name: 'Chapters' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Dune' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('Dune Messiah');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(crumbs()).toEqual(['Books', 'Dune', 'Chapters']);
    const list = api.listItems.mock.calls.find(([, , params]) => (params as ListParams).perPage === 100)?.[2];
    expect(list).toMatchObject({ parentItemID: TOP, nestedID: 'chapters', pageNumber: 1, perPage: 100 });
    // The list's heading took the focus.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Chapters' })).toHaveFocus());

    // An item of the level, by its address (the grid's row opens the same one).
    cleanup();
    open(`${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`, api);
    const chapterTitle = await screen.findByRole('heading', { name: 'Chapter one of the book' });
    expect(chapterTitle).toBeVisible();
    expect(api.item.mock.calls.filter(([, , at]) => at.nestedID).at(-1)?.slice(1)).toEqual(['books', { itemID: TOP, nestedID: `chapters.${CHAPTER}` }]);
    await waitFor(() => expect(crumbs()).toEqual(['Books', 'Dune', 'Chapters', 'Chapter on...']));
    // The chapter's own nested collection folds further: the top item's form folds away (kept), the chapter stays beside.
    const chapter = region('Chapter one of the book');
    await user.type(chapter.getByRole('textbox', { name: /^Heading/ }), '!');
    await user.click(await chapter.findByRole('button', { name: 'Open Paragraphs' }));
    await waitFor(() => expect(where()).toBe(`${base}/item/${TOP}/nestedID/chapters.${CHAPTER}.paragraphs`));
    expect(await screen.findByRole('heading', { name: 'Paragraphs' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Chapter one of the book' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Dune', hidden: true })).not.toBeVisible();
    expect(chapter.getByRole('textbox', { name: /^Heading/ })).toHaveValue('Chapter one of the book!');
    await waitFor(() => expect(crumbs()).toEqual(['Books', 'Dune', 'Chapters', 'Chapter on...', 'Paragraphs']));
    expect(screen.getByRole('link', { name: 'Chapter on...' })).toHaveAttribute('title', 'Chapter one of the book');
    expect(screen.getByRole('link', { name: 'Chapter on...' })).toHaveAttribute('href', `${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`);
    expect(await screen.findByText('This Collection is Empty')).toBeInTheDocument();

    // Close pops the deepest level: back to the chapter, its change still there.
    await user.click(screen.getByRole('button', { name: 'Close Paragraphs' }));
    await waitFor(() => expect(where()).toBe(`${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`));
    expect(screen.queryByRole('heading', { name: 'Paragraphs' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Dune' })).toBeVisible();
    expect(region('Chapter one of the book').getByRole('textbox', { name: /^Heading/ })).toHaveValue('Chapter one of the book!');

    // A breadcrumb back to the top item would drop the chapter's change: asked first; Stay keeps everything.
    await user.click(screen.getByRole('link', { name: 'Dune' }));
    const leave = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    await user.click(within(leave).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(where()).toBe(`${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`);
    await waitFor(() => expect(crumbs()).toEqual(['Books', 'Dune', 'Chapters', 'Chapter on...']));
    // Leave: the levels under the top item are popped.
    await user.click(screen.getByRole('link', { name: 'Dune' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(where()).toBe(`${base}/item/${TOP}`));
    expect(screen.queryByRole('navigation', { name: 'Breadcrumbs' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Dune' })).toBeVisible();
  });

  it('Close on the item beside the fold lets the nested item with unsaved changes ask; Stay keeps both open', async () => {
    const user = userEvent.setup();
    const api = strictContentApi({
      collection: vi.fn(async () => books()),
      item: vi.fn(async (_s, _c, at: { nestedID?: string }) => (at.nestedID ? versioned(stored(CHAPTER, { heading: 'Arrakis' })) : versioned(stored(TOP, { title: 'Dune' })))),
      listItems: lists({ chapters: [stored(CHAPTER, { heading: 'Arrakis' })] }),
      updateItem: vi.fn(async (_s, _c, _id, values) => versioned(stored(TOP, values as Record<string, unknown>))),
    });
    open(`${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`, api);
    const chapter = within(await screen.findByRole('region', { name: 'Arrakis' }));
    await user.type(chapter.getByRole('textbox', { name: /^Heading/ }), ' dunes');
    const book = region('Dune');
    await waitFor(() => expect(book.getByRole('textbox', { name: /^Title/ })).toBeEnabled());
    await user.click(book.getByRole('button', { name: 'Close' }));
    const leave = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    await user.click(within(leave).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(where()).toBe(`${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`);
    // Both forms are still alive. The book saves and closes after saving: the way out is held
    // for the chapter's change again; Stay keeps the saved book open and editable.
    await user.type(book.getByRole('textbox', { name: /^Title/ }), '!');
    await user.click(book.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.updateItem).toHaveBeenCalledTimes(1));
    expect(api.updateItem.mock.calls[0]?.[3]).toEqual({ title: 'Dune!' });
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(where()).toBe(`${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`);
    expect(chapter.getByRole('textbox', { name: /^Heading/ })).toHaveValue('Arrakis dunes');
    await waitFor(() => expect(region('Dune').getByRole('textbox', { name: /^Title/ })).toBeEnabled());
    // Close again, and Leave: back to the list.
    await user.click(region('Dune').getByRole('button', { name: 'Close' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('list page')).toBeInTheDocument();
    expect(where()).toBe(base);
  });

  it('reads where it is from the address, and says so when the address names no nested collection', async () => {
    const api = strictContentApi({
      collection: vi.fn(async () => books()),
      item: vi.fn(async () => versioned(stored(TOP, { title: 'Dune' }))),
    });
    open(`${base}/item/${TOP}/nestedID/nope`, api);
    expect(await screen.findByRole('heading', { name: /This nested collection does not exist/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Books' })).toHaveAttribute('href', `${base}/item/${TOP}`);
  });

  it('knows which addresses keep a level shown', () => {
    const scope = { organizationID: ORG, projectID: PROJECT };
    const here = stackAtPath(`${base}/item/${TOP}/nestedID/chapters/item/${CHAPTER}`, scope)!;
    expect(here.map((level) => [level.collection, level.itemID])).toEqual([
      ['books', TOP],
      ['chapters', CHAPTER],
    ]);
    const deeper = stackAtPath(`${base}/item/${TOP}/nestedID/chapters.${CHAPTER}.paragraphs`, scope);
    expect(keepsLevels(here, deeper, 1)).toBe(true);
    expect(keepsLevels(here, stackAtPath(`${base}/item/${TOP}/nestedID/chapters`, scope), 1)).toBe(false);
    expect(keepsLevels(here, stackAtPath(`${base}/item/${TOP}/nestedID/chapters`, scope), 0)).toBe(true);
    expect(keepsLevels(here, stackAtPath(`${base}/item/${'b'.repeat(24)}`, scope), 0)).toBe(false);
    expect(stackAtPath(`${base}`, scope)).toBeUndefined();
    expect(stackAtPath(`/organization/${ORG}/project/other/collection/books/item/${TOP}`, scope)).toBeUndefined();
  });
});
