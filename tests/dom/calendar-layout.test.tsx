/**
 * The calendar layout: it reads the visible month through
 * a date range query on top of the list's search and filter (page after page), lists the items
 * without a start (`$exists: false`), colours events in turn, shows "choose a field" for unusable
 * settings, spans events by their end or duration field (60 minutes by default), and saves moves,
 * resizes, drops and keyboard scheduling If-Match the item's version, putting a refused move back.
 * FullCalendar renders for real; its props are captured so a test can play a drop or a date click
 * (jsdom has no layout to hit-test pointer positions).
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentProps } from 'react';
import CalendarLayout from '../../renderers/layouts/calendar/CalendarLayout.tsx';
import type { LayoutProps, LayoutSettings } from '../../renderers/layouts/types.ts';
import { ApiError } from '../../src/api/errors.ts';
import { StaleItemError, type Collection, type ContentApi, type Item, type ListParams } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { notify } from '../../renderers/toasts/notify.ts';

type CalendarProps = ComponentProps<typeof import('@fullcalendar/react').default>;
const captured = vi.hoisted(() => ({ props: null as unknown }));
vi.mock('@fullcalendar/react', async (importOriginal) => {
  const real = await importOriginal<typeof import('@fullcalendar/react')>();
  const Real = real.default;
  return {
    ...real,
    default: (props: CalendarProps) => {
      captured.props = props;
      return <Real {...props} />;
    },
  };
});
vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const props = () => captured.props as CalendarProps;

beforeEach(() => {
  // Only Date is faked: the month shown is March 2026 (in the machine's time zone).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-10T12:00:00Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.mocked(notify).mockClear();
});

const schema = [
  { id: 'f1', name: 'Title', slug: 'title', type: 1 },
  { id: 'f2', name: 'When', slug: 'when', type: 10 },
  { id: 'f3', name: 'Until', slug: 'until', type: 10 },
  { id: 'f4', name: 'Minutes', slug: 'minutes', type: 3 },
  { id: 'f5', name: 'Place', slug: 'place', type: 1 },
  { id: 'meta', name: 'Metadata', slug: 'metadata', type: 100 },
];
const events: Collection = { id: 'events', name: 'Events', schema, singleItem: false, rtlDirection: false, itemCount: 0, createdDate: '2026-01-01T00:00:00.000Z' };

const item = (id: string, values: Record<string, unknown>): Item => ({
  _id: id,
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: `2026-01-02T00:00:00.${id.length.toString().padStart(3, '0')}Z`,
  _order: 0,
  _rank: 'a',
  ...values,
});

interface Setup {
  settings?: LayoutSettings;
  /** The items of the range query (every page, sliced by perPage). */
  dated?: Item[];
  undated?: Item[];
  /** Items of the end field's query (begun before the visible dates). */
  begun?: Item[];
  /** While `current`, every list call fails. */
  down?: { current: boolean };
  collection?: Collection;
  nested?: LayoutProps['nested'];
  baseParams?: LayoutProps['baseParams'];
  updateItem?: ContentApi['updateItem'];
  canUpdate?: boolean;
  canCreate?: boolean;
}

function setup(options: Setup = {}) {
  const dated = options.dated ?? [];
  const undated = options.undated ?? [];
  const begun = options.begun ?? [];
  const listItems = vi.fn(async (_scope: unknown, _collection: string, params: ListParams = {}) => {
    if (options.down?.current) throw new ApiError({ status: 400, code: 'invalid_query', detail: 'refused' });
    // The range query (`start:>:…`), the end field's query of events begun before (`start:<:…`), the side list (`find`).
    const all = params.find ? undated : /^\w+:<:/.test(params.query ?? '') ? begun : dated;
    const perPage = params.perPage ?? 50;
    const from = ((params.pageNumber ?? 1) - 1) * perPage;
    return { items: all.slice(from, from + perPage), total: all.length };
  });
  const updateItem = vi.fn(options.updateItem ?? (async (_scope, _collection, { itemID }: { itemID: string }, values) => ({ item: item(itemID, values), etag: '"x"' })));
  const api = { listItems, updateItem } as unknown as ContentApi;
  const onOpenItem = vi.fn();
  const onNewItem = vi.fn();
  const onOpenSettings = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const layoutProps: LayoutProps = {
    scope: { organizationID: 'org', projectID: 'proj' },
    collection: options.collection ?? events,
    nested: options.nested,
    settings: options.settings ?? { startKey: 'when' },
    onSettingsChange: vi.fn(),
    onOpenSettings,
    baseParams: options.baseParams ?? {},
    reloadKey: 0,
    canCreate: options.canCreate ?? true,
    canUpdate: options.canUpdate ?? true,
    onOpenItem,
    onNewItem,
  };
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ContentApiProvider value={api}>
        <CalendarLayout {...layoutProps} />
      </ContentApiProvider>
    </QueryClientProvider>,
  );
  const rerender = (next: Partial<LayoutProps>) =>
    view.rerender(
      <QueryClientProvider client={queryClient}>
        <ContentApiProvider value={api}>
          <CalendarLayout {...layoutProps} {...next} />
        </ContentApiProvider>
      </QueryClientProvider>,
    );
  return { listItems, updateItem, onOpenItem, onNewItem, onOpenSettings, rerender };
}

const rangeCalls = (listItems: ReturnType<typeof setup>['listItems']) => listItems.mock.calls.map((call) => call[2] ?? {}).filter((params) => params.query !== undefined);
const eventInputs = () => (props().events as { id: string; title: string; start: Date; end: Date; className: string }[]) ?? [];
const at = (iso: string) => new Date(iso);
/** An instant given in local time (the grid's days and the date input are local). */
const local = (month: number, day: number, hours = 0, minutes = 0) => new Date(2026, month - 1, day, hours, minutes).toISOString();
const justBefore = (iso: string) => new Date(new Date(iso).getTime() - 1).toISOString();

describe('reading the visible month', () => {
  it('asks for the items starting in the visible dates, with the list search and filter, page after page', async () => {
    const many = Array.from({ length: 1500 }, (_, i) => item(`e${i}`, { title: `Event ${i}`, when: '2026-03-11T09:00:00.000Z' }));
    const fake = setup({ dated: many, baseParams: { search: 'jam', filter: '{"field":"title"}' } });
    await waitFor(() => expect(rangeCalls(fake.listItems)).toHaveLength(2));
    const [first, second] = rangeCalls(fake.listItems);
    // March 2026 shows 1 March to 11 April (six weeks from Sunday 1 March).
    expect(first).toEqual({
      search: 'jam',
      filter: '{"field":"title"}',
      query: `when:>:${justBefore(local(3, 1))}+when:<:${local(4, 12)}`,
      sort: 'when',
      order: 'asc',
      perPage: 1000,
      pageNumber: 1,
    });
    expect(second).toMatchObject({ pageNumber: 2, perPage: 1000, query: first!.query });
    await waitFor(() => expect(eventInputs()).toHaveLength(1500));
  });

  it('reads the next month when the grid moves on, and again when reloadKey changes', async () => {
    const user = userEvent.setup();
    const fake = setup({ dated: [] });
    await waitFor(() => expect(rangeCalls(fake.listItems)).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    // April 2026 shows 29 March to 9 May.
    await waitFor(() => expect(rangeCalls(fake.listItems).at(-1)?.query).toBe(`when:>:${justBefore(local(3, 29))}+when:<:${local(5, 10)}`));
    const before = rangeCalls(fake.listItems).length;
    fake.rerender({ reloadKey: 1 });
    await waitFor(() => expect(rangeCalls(fake.listItems).length).toBe(before + 1));
  });

  it('with an end field, also reads the events begun before the visible dates that end in them', async () => {
    const long = item('long', { title: 'Harvest week', when: '2026-02-26T09:00:00.000Z', until: '2026-03-03T17:00:00.000Z' });
    const fake = setup({ settings: { startKey: 'when', endKey: 'until' }, begun: [long], dated: [item('e1', { title: 'Jam day', when: '2026-03-11T09:00:00.000Z' })] });
    await waitFor(() => expect(eventInputs().map((event) => event.title)).toEqual(['Harvest week', 'Jam day']));
    expect(rangeCalls(fake.listItems).map((params) => params.query)).toEqual([
      `when:>:${justBefore(local(3, 1))}+when:<:${local(4, 12)}`,
      `when:<:${local(3, 1)}+until:>:${local(3, 1)}`,
    ]);
    expect(eventInputs()[0]?.end.toISOString()).toBe('2026-03-03T17:00:00.000Z');
  });

  it('says when the items could not be read, and reads again on Try again', async () => {
    const user = userEvent.setup();
    const down = { current: true };
    const fake = setup({ down, dated: [item('e1', { title: 'Jam day', when: '2026-03-11T09:00:00.000Z' })] });
    expect(await screen.findByText("Could not load the calendar's items")).toBeInTheDocument();
    expect(await screen.findByText('Could not load the items without a date')).toBeInTheDocument();
    down.current = false;
    const calls = rangeCalls(fake.listItems).length;
    await user.click(within(screen.getByRole('region', { name: 'Calendar of Events' })).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rangeCalls(fake.listItems).length).toBe(calls + 1));
    await waitFor(() => expect(screen.queryByText("Could not load the calendar's items")).toBeNull());
    expect(eventInputs().map((event) => event.title)).toEqual(['Jam day']);
  });

  it('reads a nested list through its top-level item', async () => {
    const fake = setup({ nested: { itemID: 'top1', nestedID: 'sessions' }, baseParams: { parentItemID: 'top1', nestedID: 'sessions' } });
    await waitFor(() => expect(rangeCalls(fake.listItems)).toHaveLength(1));
    expect(rangeCalls(fake.listItems)[0]).toMatchObject({ parentItemID: 'top1', nestedID: 'sessions' });
    expect(fake.listItems.mock.calls.find((call) => call[2]?.find)?.[2]).toMatchObject({ parentItemID: 'top1', nestedID: 'sessions' });
  });
});

describe('events', () => {
  it('take the seven colours in turn, in start order, and are titled by the title fields', async () => {
    const dated = Array.from({ length: 8 }, (_, i) => item(`e${i}`, { title: `Event ${i}`, place: i === 0 ? 'Hall' : '', when: `2026-03-${String(20 - i).padStart(2, '0')}T09:00:00.000Z` }));
    setup({ dated, settings: { startKey: 'when', titleKeys: ['title', 'place'] } });
    await waitFor(() => expect(eventInputs()).toHaveLength(8));
    // Event 7 starts first (13 March): colours follow the start order.
    expect(eventInputs().map((event) => [event.title, event.className])).toEqual([
      ['Event 7', 'calendar-event calendar-event-0'],
      ['Event 6', 'calendar-event calendar-event-1'],
      ['Event 5', 'calendar-event calendar-event-2'],
      ['Event 4', 'calendar-event calendar-event-3'],
      ['Event 3', 'calendar-event calendar-event-4'],
      ['Event 2', 'calendar-event calendar-event-5'],
      ['Event 1', 'calendar-event calendar-event-6'],
      ['Event 0 · Hall', 'calendar-event calendar-event-0'],
    ]);
    // Drawn on the grid with the colour's variable.
    const drawn = await screen.findByText('Event 0 · Hall');
    expect(drawn.closest('.calendar-event')).toHaveClass('calendar-event-0');
    expect(drawn.closest('.calendar-event')?.getAttribute('style')).toContain('var(--calendar-event-0)');
  });

  it('falls back to the primary or first text field, then the id, for titles', async () => {
    setup({ dated: [item('e1', { title: 'Jam day', when: '2026-03-11T09:00:00.000Z' }), item('e2', { when: '2026-03-12T09:00:00.000Z' })], settings: { startKey: 'when', titleKeys: ['gone'] } });
    await waitFor(() => expect(eventInputs().map((event) => event.title)).toEqual(['Jam day', 'e2']));
  });

  it('last 60 minutes by default, until the end field with endKey, or the duration field with durationKey', async () => {
    const dated = [
      item('a', { when: '2026-03-11T09:00:00.000Z', until: '2026-03-11T12:30:00.000Z', minutes: 15 }),
      item('b', { when: '2026-03-12T09:00:00.000Z', until: '2026-03-12T08:00:00.000Z', minutes: 'x' }),
    ];
    const fake = setup({ dated });
    await waitFor(() => expect(eventInputs()).toHaveLength(2));
    expect(eventInputs().map((event) => event.end.toISOString())).toEqual(['2026-03-11T10:00:00.000Z', '2026-03-12T10:00:00.000Z']);
    fake.rerender({ settings: { startKey: 'when', endKey: 'until' } });
    // An end before the start is ignored: the default hour.
    await waitFor(() => expect(eventInputs().map((event) => event.end.toISOString())).toEqual(['2026-03-11T12:30:00.000Z', '2026-03-12T10:00:00.000Z']));
    fake.rerender({ settings: { startKey: 'when', durationKey: 'minutes' } });
    await waitFor(() => expect(eventInputs().map((event) => event.end.toISOString())).toEqual(['2026-03-11T09:15:00.000Z', '2026-03-12T10:00:00.000Z']));
    // Both set: the end field wins (they are mutually exclusive).
    fake.rerender({ settings: { startKey: 'when', endKey: 'until', durationKey: 'minutes' } });
    await waitFor(() => expect(eventInputs()[0]?.end.toISOString()).toBe('2026-03-11T12:30:00.000Z'));
  });

  it('clicking a date starts a new item with its start; clicking an event opens it', async () => {
    const fake = setup({ dated: [item('e1', { title: 'Jam day', when: '2026-03-11T09:00:00.000Z' })] });
    await waitFor(() => expect(eventInputs()).toHaveLength(1));
    props().dateClick!({ date: at('2026-03-18T00:00:00.000Z') } as never);
    expect(fake.onNewItem).toHaveBeenCalledWith({ when: '2026-03-18T00:00:00.000Z' });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Jam day'));
    expect(fake.onOpenItem).toHaveBeenCalledWith('e1');
    // By keyboard: the event takes the focus and Enter opens it.
    const event = screen.getByText('Jam day').closest<HTMLElement>('.calendar-event')!;
    expect(event).toHaveAttribute('tabindex', '0');
    event.focus();
    await user.keyboard('{Enter}');
    expect(fake.onOpenItem).toHaveBeenCalledTimes(2);
  });

  it('without the right to create, clicking a date does nothing', async () => {
    const fake = setup({ canCreate: false });
    await waitFor(() => expect(props().dateClick).toBeDefined());
    props().dateClick!({ date: at('2026-03-18T00:00:00.000Z') } as never);
    expect(fake.onNewItem).not.toHaveBeenCalled();
  });
});

/** A FullCalendar drop or resize as the grid reports it. */
function change(id: string, start: string, end: string) {
  const revert = vi.fn();
  return { info: { event: { id, title: 'Jam day', start: at(start), end: at(end) }, revert } as never, revert };
}

describe('moving and resizing', () => {
  const jam = item('e1', { title: 'Jam day', when: '2026-03-11T09:00:00.000Z', until: '2026-03-11T11:00:00.000Z', minutes: 30 });

  it('a move saves the start (and the end with endKey) If-Match the item version', async () => {
    const fake = setup({ dated: [jam], settings: { startKey: 'when', endKey: 'until' } });
    await waitFor(() => expect(eventInputs()).toHaveLength(1));
    const { info, revert } = change('e1', '2026-03-13T09:00:00.000Z', '2026-03-13T11:00:00.000Z');
    props().eventDrop!(info);
    await waitFor(() => expect(fake.updateItem).toHaveBeenCalledTimes(1));
    expect(fake.updateItem.mock.calls[0]?.slice(1)).toEqual([
      'events',
      { itemID: 'e1' },
      { when: '2026-03-13T09:00:00.000Z', until: '2026-03-13T11:00:00.000Z' },
      { ifMatch: `"${jam._lastUpdatedDate}"` },
    ]);
    // Saved: the range is read again, nothing is put back.
    await waitFor(() => expect(rangeCalls(fake.listItems).length).toBeGreaterThan(1));
    expect(revert).not.toHaveBeenCalled();
  });

  it('a resize saves the duration in minutes with durationKey; moves keep it', async () => {
    const fake = setup({ dated: [jam], settings: { startKey: 'when', durationKey: 'minutes' } });
    await waitFor(() => expect(eventInputs()).toHaveLength(1));
    props().eventResize!(change('e1', '2026-03-11T09:00:00.000Z', '2026-03-12T09:30:00.000Z').info);
    await waitFor(() => expect(fake.updateItem).toHaveBeenCalledTimes(1));
    expect(fake.updateItem.mock.calls[0]?.[3]).toEqual({ when: '2026-03-11T09:00:00.000Z', minutes: 1470 });
    props().eventDrop!(change('e1', '2026-03-12T09:00:00.000Z', '2026-03-12T09:30:00.000Z').info);
    await waitFor(() => expect(fake.updateItem).toHaveBeenCalledTimes(2));
    expect(fake.updateItem.mock.calls[1]?.[3]).toEqual({ when: '2026-03-12T09:00:00.000Z' });
  });

  it('without an end or duration field events cannot be resized; without update rights not moved', async () => {
    const fake = setup({ dated: [jam] });
    await waitFor(() => expect(eventInputs()).toHaveLength(1));
    expect(eventInputs()[0]).toMatchObject({ durationEditable: false, startEditable: true });
    fake.rerender({ canUpdate: false });
    await waitFor(() => expect(eventInputs()[0]).toMatchObject({ durationEditable: false, startEditable: false }));
    expect(props().editable).toBe(false);
  });

  it('a refused move (409) is put back and a toast says someone else changed the item', async () => {
    const stale = new StaleItemError(new ApiError({ status: 409, code: 'stale_item', detail: 'changed' }), null, null);
    const fake = setup({ dated: [jam], updateItem: async () => Promise.reject(stale) });
    await waitFor(() => expect(eventInputs()).toHaveLength(1));
    const { info, revert } = change('e1', '2026-03-13T09:00:00.000Z', '2026-03-13T10:00:00.000Z');
    props().eventDrop!(info);
    await waitFor(() => expect(revert).toHaveBeenCalledTimes(1));
    expect(fake.updateItem).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Jam day was changed by someone else meanwhile; it was put back' });
  });

  it('any other failure is put back too, with the server problem', async () => {
    const failure = new ApiError({ status: 400, code: 'validation_failed', detail: 'when must be a date-time' });
    setup({ dated: [jam], updateItem: async () => Promise.reject(failure) });
    await waitFor(() => expect(eventInputs()).toHaveLength(1));
    const { info, revert } = change('e1', '2026-03-13T09:00:00.000Z', '2026-03-13T10:00:00.000Z');
    props().eventResize!(info);
    await waitFor(() => expect(revert).toHaveBeenCalledTimes(1));
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'error', title: 'Could not save Jam day; it was put back' }));
  });

  it('a nested item is saved through its top-level item', async () => {
    const fake = setup({ dated: [jam], nested: { itemID: 'top1', nestedID: 'sessions' }, baseParams: { parentItemID: 'top1', nestedID: 'sessions' } });
    await waitFor(() => expect(eventInputs()).toHaveLength(1));
    props().eventDrop!(change('e1', '2026-03-13T09:00:00.000Z', '2026-03-13T10:00:00.000Z').info);
    await waitFor(() => expect(fake.updateItem).toHaveBeenCalledTimes(1));
    expect(fake.updateItem.mock.calls[0]?.slice(1)).toEqual(['events', { itemID: 'top1', nestedID: 'sessions.e1' }, { when: '2026-03-13T09:00:00.000Z' }, { ifMatch: `"${jam._lastUpdatedDate}"` }]);
  });
});

describe('items without a date', () => {
  const undated = Array.from({ length: 23 }, (_, i) => item(`u${i}`, { title: `Loose ${i}` }));

  it('are listed from a $exists:false find, in pages, with the list search', async () => {
    const user = userEvent.setup();
    const fake = setup({ undated, baseParams: { search: 'jam' } });
    const list = await screen.findByRole('region', { name: 'No date' });
    expect(await within(list).findByText('23 items without a date')).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Open Loose 0' })).toBeInTheDocument();
    expect(within(list).getAllByRole('button', { name: /^Open / })).toHaveLength(20);
    const findCall = fake.listItems.mock.calls.find((call) => call[2]?.find)?.[2];
    expect(findCall).toEqual({ search: 'jam', find: '{"when":{"$exists":false}}', perPage: 20, pageNumber: 1 });
    await user.click(within(list).getByRole('button', { name: 'Next page' }));
    expect(await within(list).findByRole('button', { name: 'Open Loose 20' })).toBeInTheDocument();
    expect(within(list).getByText('Page 2 of 2')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Open Loose 21' }));
    expect(fake.onOpenItem).toHaveBeenCalledWith('u21');
  });

  it('are scheduled by keyboard: Schedule…, a date and time, Save (with an end an hour later with endKey)', async () => {
    const user = userEvent.setup();
    const fake = setup({ undated: undated.slice(0, 2), settings: { startKey: 'when', endKey: 'until' } });
    const schedule = await screen.findByRole('button', { name: 'Schedule Loose 1' });
    schedule.focus();
    await user.keyboard('{Enter}');
    const input = screen.getByLabelText('Start of Loose 1');
    expect(input).toHaveFocus();
    // Proposed: the first day of the month shown, at 9:00.
    expect(input).toHaveValue('2026-03-01T09:00');
    await user.clear(input);
    await user.type(input, '2026-03-20T14:30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.updateItem).toHaveBeenCalledTimes(1));
    expect(fake.updateItem.mock.calls[0]?.slice(1)).toEqual([
      'events',
      { itemID: 'u1' },
      { when: local(3, 20, 14, 30), until: local(3, 20, 15, 30) },
      { ifMatch: `"${undated[1]!._lastUpdatedDate}"` },
    ]);
    // Escape closes another item's form and gives the keyboard back to its button.
    await user.click(screen.getByRole('button', { name: 'Schedule Loose 0' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Schedule Loose 0' })).toHaveFocus());
  });

  it('dropped onto a date, an item is saved with that start', async () => {
    const fake = setup({ undated: undated.slice(0, 2) });
    const row = (await screen.findByRole('button', { name: 'Open Loose 0' })).closest('li')!;
    expect(row).toHaveClass('calendar-unscheduled-draggable');
    props().drop!({ date: at('2026-03-05T00:00:00.000Z'), draggedEl: row } as never);
    await waitFor(() => expect(fake.updateItem).toHaveBeenCalledTimes(1));
    expect(fake.updateItem.mock.calls[0]?.slice(1)).toEqual(['events', { itemID: 'u0' }, { when: '2026-03-05T00:00:00.000Z' }, { ifMatch: `"${undated[0]!._lastUpdatedDate}"` }]);
  });

  it('cannot be scheduled without update rights', async () => {
    setup({ undated: undated.slice(0, 2), canUpdate: false });
    const row = (await screen.findByRole('button', { name: 'Open Loose 0' })).closest('li')!;
    expect(row).not.toHaveClass('calendar-unscheduled-draggable');
    expect(screen.queryByRole('button', { name: /^Schedule/ })).toBeNull();
  });
});

describe('choose a field', () => {
  it('shows when no start field is set, offering the settings', async () => {
    const user = userEvent.setup();
    const fake = setup({ settings: {} });
    expect(screen.getByRole('heading', { name: 'Choose a date field for the calendar' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose a field' }));
    expect(fake.onOpenSettings).toHaveBeenCalledTimes(1);
    expect(fake.listItems).not.toHaveBeenCalled();
  });

  it('shows when the start field was deleted or changed type', () => {
    const fake = setup({ settings: { startKey: 'minutes' } });
    expect(screen.getByRole('heading', { name: 'Choose a date field for the calendar' })).toBeInTheDocument();
    fake.rerender({ settings: { startKey: 'gone' } });
    expect(screen.getByRole('heading', { name: 'Choose a date field for the calendar' })).toBeInTheDocument();
    expect(fake.listItems).not.toHaveBeenCalled();
  });

  it('says to add a Date field when the schema has none', () => {
    setup({ settings: { startKey: 'when' }, collection: { ...events, schema: schema.filter((field) => field.type !== 10) } });
    expect(screen.getByText(/has no Date field yet/)).toBeInTheDocument();
  });
});
