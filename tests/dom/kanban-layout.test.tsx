/**
 * The kanban layout: an Unset column plus one per option, each loading
 * its own page through the list's search, filter and nested path plus its own term (a choice's
 * `query`; Unset a `find` for no option or one the field no longer has), counts from the total,
 * "Load more"; a card moved with the keyboard saves the option with If-Match (a nested item
 * through its top-level item) and shows in its new column; a refused save puts it back with a
 * notice; "+ New Item" prefills the column's option; "choose a field"; and the settings dialog
 * offering only fitting fields, end and duration exclusive.
 *
 * jsdom lays nothing out: columns and cards (and the drag overlay, where its card is) get
 * rectangles side by side so dnd-kit's keyboard moves and collisions see a real board.
 */
import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { ApiError } from '../../src/api/errors.ts';
import { StaleItemError, type Collection, type Item, type ItemPage, type ListParams } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import KanbanLayout from '../../renderers/layouts/kanban/KanbanLayout.tsx';
import { LayoutSettingsDialog } from '../../renderers/layouts/LayoutSettingsDialog.tsx';
import type { LayoutProps, LayoutSettings } from '../../renderers/layouts/types.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { strictContentApi } from './support/fake-content-api.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

const realRect = Element.prototype.getBoundingClientRect;
beforeAll(() => {
  // Columns 300 px apart; a card sits in its column, 50 px per card down.
  Element.prototype.getBoundingClientRect = function rect(this: Element): DOMRect {
    // The drag overlay starts where its card is.
    const overlayOf = this.getAttribute('data-overlay-of');
    const original = overlayOf ? document.querySelector(`.kanban-column [data-item="${overlayOf}"]`) : null;
    if (original) return original.getBoundingClientRect();
    const column = this.closest('.kanban-column');
    if (!column) return realRect.call(this);
    const index = [...(column.parentElement?.children ?? [])].indexOf(column);
    const left = index * 300;
    const box = (x: number, y: number, width: number, height: number) => ({ x, y, left: x, top: y, width, height, right: x + width, bottom: y + height, toJSON: () => ({}) }) as DOMRect;
    if (this === column) return box(left, 0, 280, 800);
    const card = this.closest('.kanban-card');
    if (!card) return box(left + 10, 10, 260, 30);
    const position = [...(card.parentElement?.children ?? [])].indexOf(card);
    return box(left + 10, 80 + position * 50, 260, 40);
  };
});
afterAll(() => {
  Element.prototype.getBoundingClientRect = realRect;
});
beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

const title: SchemaField = { id: 'f1', name: 'Title', slug: 'title', type: 1, primaryField: true };
const note: SchemaField = { id: 'f2', name: 'Note', slug: 'note', type: 1 };
const status: SchemaField = {
  id: 'f3',
  name: 'Status',
  slug: 'status',
  type: 7,
  options: [
    { _id: 'todo', value: 'To do' },
    { _id: 'done', value: 'Done' },
  ],
};
const when: SchemaField = { id: 'f4', name: 'When', slug: 'when', type: 10 };
const minutes: SchemaField = { id: 'f5', name: 'Minutes', slug: 'minutes', type: 3 };
const place: SchemaField = { id: 'f6', name: 'Place', slug: 'place', type: 13 };
const schema = [title, note, status, when, minutes, place];

const collection: Collection = { id: 'tasks', name: 'Tasks', schema, singleItem: false, rtlDirection: false, itemCount: 3, createdDate: '2026-01-01T00:00:00.000Z' };
const item = (id: string, values: Record<string, unknown>): Item => ({ _id: id, _createdDate: '', _lastUpdatedDate: `2026-01-0${id.length}T00:00:00.000Z`, _order: 1, _rank: 'a', ...values });

type Columns = Record<string, Item[]>;

/** Answers a column's list from `columns` (by the option its term names, `unset` for the find), 20 a page. */
function lister(columns: Columns) {
  return vi.fn(async (_scope: unknown, _collection: string, params: ListParams) => {
    const key = params.query ? params.query.split(':=:')[1]! : params.find ? 'unset' : 'other';
    const all = columns[key] ?? [];
    const page = params.pageNumber ?? 1;
    const perPage = params.perPage ?? 20;
    return { items: all.slice((page - 1) * perPage, page * perPage), total: all.length } satisfies ItemPage;
  });
}

function renderKanban({ columns, settings = { activeField: 'status' }, updateItem, ...props }: { columns: Columns; settings?: LayoutSettings; updateItem?: Mock } & Partial<LayoutProps>) {
  const listItems = lister(columns);
  const api = strictContentApi({ listItems, ...(updateItem ? { updateItem } : {}) });
  const layoutProps: LayoutProps = {
    scope: { organizationID: 'org', projectID: 'proj' },
    collection,
    settings,
    onSettingsChange: vi.fn(),
    onOpenSettings: vi.fn(),
    baseParams: { search: 'milk', filter: '{"key":"note"}' },
    reloadKey: 0,
    canCreate: true,
    canUpdate: true,
    onOpenItem: vi.fn(),
    onNewItem: vi.fn(),
    ...props,
  };
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ContentApiProvider value={api}>
        <KanbanLayout {...layoutProps} />
      </ContentApiProvider>
    </QueryClientProvider>,
  );
  return { ...view, listItems, props: layoutProps, queryClient };
}

const column = (name: string) => screen.getByRole('region', { name: /kanban/i }).querySelector(`[data-column="${name}"]`) as HTMLElement;
const cardsIn = (name: string) => [...column(name).querySelectorAll('.kanban-card-title')].map((node) => node.textContent);
const tick = () => act(async () => void (await new Promise((resolve) => setTimeout(resolve, 0))));

describe('kanban layout', () => {
  it('shows an Unset column and one per option, each read with its own term through the list’s search and filter', async () => {
    const { listItems } = renderKanban({
      columns: { unset: [item('u1', { title: 'Loose' }), item('u22', { title: 'Stray', status: { _id: 'gone', value: 'Gone' } })], todo: [item('t1', { title: 'Buy milk' })], done: [] },
    });
    await waitFor(() => expect(cardsIn('To do')).toEqual(['Buy milk']));
    expect(cardsIn('unset')).toEqual(['Loose', 'Stray']);
    expect(within(column('Done')).getByText('No items')).toBeInTheDocument();
    expect(within(column('unset')).getByText('2 items')).toBeInTheDocument();
    const headings = screen.getAllByRole('heading', { level: 3 }).map((node) => node.textContent);
    expect(headings).toEqual(['Unset', 'To do', 'Done']);
    const params = listItems.mock.calls.map((call) => call[2] as ListParams);
    expect(params.find((p) => p.query === 'status:=:todo')).toMatchObject({ search: 'milk', filter: '{"key":"note"}', pageNumber: 1, perPage: 20 });
    const unset = params.find((p) => p.find !== undefined)!;
    expect(JSON.parse(unset.find!)).toEqual({ $or: [{ status: { $exists: false } }, { 'status._id': { $nin: ['todo', 'done'] } }] });
    expect(unset).toMatchObject({ search: 'milk', filter: '{"key":"note"}' });
    expect(unset.projectOn!.split(',')).toEqual(expect.arrayContaining(['status', 'title', '_lastUpdatedDate']));
  });

  it('titles cards by the chosen title fields, and loads a column’s next page on "Load more"', async () => {
    const many = Array.from({ length: 25 }, (_, i) => item(`t${i}`, { title: `Task ${i}`, note: `N${i}` }));
    const { listItems } = renderKanban({ columns: { todo: many }, settings: { activeField: 'status', titleKeys: ['note', 'title'] } });
    await waitFor(() => expect(cardsIn('To do')).toHaveLength(20));
    expect(cardsIn('To do')[0]).toBe('N0 · Task 0');
    expect(within(column('To do')).getByText('25 items')).toBeInTheDocument();
    fireEvent.click(within(column('To do')).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cardsIn('To do')).toHaveLength(25));
    expect(listItems.mock.calls.some((call) => (call[2] as ListParams).query === 'status:=:todo' && (call[2] as ListParams).pageNumber === 2)).toBe(true);
    expect(within(column('To do')).queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('moves a card to the next column with the keyboard, saving the option with If-Match', async () => {
    const columns: Columns = { todo: [item('t1', { title: 'Buy milk', status: { _id: 'todo', value: 'To do' } })], done: [] };
    const updateItem = vi.fn(async (_scope: unknown, _collection: string, { itemID }: { itemID: string }, values: Record<string, unknown>) => {
      const moved = columns.todo!.find((entry) => entry._id === itemID)!;
      columns.todo = columns.todo!.filter((entry) => entry !== moved);
      columns.done = [{ ...moved, ...values }];
      return { item: moved, etag: null };
    });
    renderKanban({ columns, updateItem });
    const handle = await screen.findByRole('button', { name: 'Move Buy milk' });
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await tick();
    fireEvent.keyDown(handle, { code: 'ArrowRight', key: 'ArrowRight' });
    await tick();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await waitFor(() => expect(updateItem).toHaveBeenCalledTimes(1));
    expect(updateItem).toHaveBeenCalledWith({ organizationID: 'org', projectID: 'proj' }, 'tasks', { itemID: 't1' }, { status: { _id: 'done' } }, { ifMatch: '"2026-01-02T00:00:00.000Z"' });
    await waitFor(() => expect(cardsIn('Done')).toEqual(['Buy milk']));
    expect(cardsIn('To do')).toEqual([]);
    expect(await screen.findByText('Buy milk was moved to column Done.')).toBeInTheDocument();
  });

  it('moves a nested item through its top-level item, and puts a card back when the save is refused', async () => {
    const columns: Columns = { todo: [], done: [item('d1', { title: 'Paint', status: { _id: 'done', value: 'Done' } })] };
    const updateItem = vi.fn(async () => {
      throw new StaleItemError(new ApiError({ status: 409, code: 'stale_item', detail: 'changed' }), null, null);
    });
    renderKanban({ columns, updateItem, nested: { itemID: 'p1', nestedID: 'steps' }, baseParams: { parentItemID: 'p1', nestedID: 'steps' } });
    const handle = await screen.findByRole('button', { name: 'Move Paint' });
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Enter', key: 'Enter' });
    await tick();
    fireEvent.keyDown(handle, { code: 'ArrowLeft', key: 'ArrowLeft' });
    await tick();
    fireEvent.keyDown(handle, { code: 'ArrowLeft', key: 'ArrowLeft' });
    await tick();
    fireEvent.keyDown(handle, { code: 'Enter', key: 'Enter' });
    await waitFor(() => expect(updateItem).toHaveBeenCalledTimes(1));
    // Two columns left of Done is Unset: the option is cleared.
    expect(updateItem).toHaveBeenCalledWith(expect.anything(), 'tasks', { itemID: 'p1', nestedID: 'steps.d1' }, { status: null }, { ifMatch: '"2026-01-02T00:00:00.000Z"' });
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'error' })));
    await waitFor(() => expect(cardsIn('Done')).toEqual(['Paint']));
    expect(cardsIn('unset')).toEqual([]);
  });

  it('starts a new item with the column’s option, opens a card’s item, and hides moves and New Item without the permissions', async () => {
    const { props, unmount } = renderKanban({ columns: { done: [item('d1', { title: 'Paint' })] } });
    fireEvent.click(await screen.findByRole('button', { name: 'New item in Done' }));
    expect(props.onNewItem).toHaveBeenCalledWith({ status: { _id: 'done', value: 'Done' } });
    fireEvent.click(screen.getByRole('button', { name: 'New item in Unset' }));
    expect(props.onNewItem).toHaveBeenLastCalledWith({});
    fireEvent.click(await screen.findByRole('button', { name: 'Paint' }));
    expect(props.onOpenItem).toHaveBeenCalledWith('d1');
    unmount();
    renderKanban({ columns: { done: [item('d1', { title: 'Paint' })] }, canCreate: false, canUpdate: false });
    await screen.findByRole('button', { name: 'Paint' });
    expect(screen.queryByRole('button', { name: /New item in/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move Paint' })).toBeNull();
  });

  it('asks for a field when the setting names none, a missing field or one of another type', async () => {
    for (const settings of [{}, { activeField: 'gone' }, { activeField: 'title' }] as LayoutSettings[]) {
      const { props, listItems, unmount } = renderKanban({ columns: {}, settings });
      expect(screen.getByRole('heading', { name: 'Choose an Option field' })).toBeInTheDocument();
      expect(screen.getByText(settings.activeField ? /no longer exists or is no longer an Option field/ : /one column per option/)).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Layout Settings' }));
      expect(props.onOpenSettings).toHaveBeenCalled();
      expect(listItems).not.toHaveBeenCalled();
      unmount();
    }
  });
});

describe('layout settings dialog', () => {
  const open = (kind: 'calendar' | 'kanban' | 'map', settings: LayoutSettings) => {
    const onSave = vi.fn();
    render(<LayoutSettingsDialog open onOpenChange={vi.fn()} kind={kind} schema={schema} settings={settings} onSave={onSave} />);
    return onSave;
  };
  const options = (label: string) => [...(screen.getByLabelText(label, { selector: 'select' }) as HTMLSelectElement).options].map((option) => option.textContent);

  it('offers only Option fields for the kanban and saves the choice and the title fields', () => {
    const onSave = open('kanban', { activeField: 'gone', titleKeys: ['title'] });
    expect(options('Option field (one column per option)')).toEqual(['None', 'Status']);
    expect((screen.getByLabelText('Option field (one column per option)') as HTMLSelectElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('Option field (one column per option)'), { target: { value: 'status' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Note' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({ activeField: 'status', titleKeys: ['title', 'note'] });
  });

  it('keeps the calendar’s end and duration fields exclusive', () => {
    const onSave = open('calendar', { startKey: 'when', endKey: 'when' });
    expect(options('Start date field')).toEqual(['None', 'When']);
    expect(screen.getByLabelText('End date field', { selector: 'select' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Duration field' }));
    expect(screen.queryByLabelText('End date field', { selector: 'select' })).toBeNull();
    expect(options('Duration field')).toEqual(['None', 'Minutes']);
    fireEvent.change(screen.getByLabelText('Duration field', { selector: 'select' }), { target: { value: 'minutes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({ endKey: null, durationKey: 'minutes' });
  });

  it('offers GeoPoint fields and checks the map’s centre', () => {
    const onSave = open('map', {});
    expect(options('Location field')).toEqual(['None', 'Place']);
    fireEvent.change(screen.getByLabelText('Latitude'), { target: { value: '95' } });
    fireEvent.change(screen.getByLabelText('Longitude'), { target: { value: '16' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/latitude from -90 to 90/);
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Latitude'), { target: { value: '48.2' } });
    fireEvent.change(screen.getByLabelText('Location field'), { target: { value: 'place' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({ activeField: 'place', center: { lat: 48.2, lng: 16 } });
  });
});
