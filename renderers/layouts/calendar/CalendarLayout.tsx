/**
 * The calendar layout of an item list: a month grid
 * (FullCalendar) of the items whose start field falls in the visible dates, read through a date
 * range query on top of the list's search and filter, plus a side list of the items without a
 * start, in pages. Dragging or resizing an event saves the item (If-Match its version; a refusal
 * puts the event back and says why); an item of the side list is dragged onto a date, or by
 * keyboard given a date with Schedule…. Clicking a date starts a new item with that start,
 * clicking an event opens its item. Without a usable start field it shows "choose a field".
 */
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import interactionPlugin from '@fullcalendar/react/interaction';
import classicThemePlugin from '@fullcalendar/react/themes/classic';
import type { DateClickInfo, DatesSetInfo, DropInfo, EventClickInfo, EventDropInfo, EventInput, EventResizeDoneInfo } from '@fullcalendar/react';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import { fittingFields } from '../settings.ts';
import type { LayoutProps } from '../types.ts';
import { useFormat } from '../../messages/use-format.ts';
import { notify } from '../../toasts/notify.ts';
import { isStaleItemError, type Item, type ItemPage } from '../../../src/api/content.ts';
import { contentKeys } from '../../../src/api/content-keys.ts';
import { useContentApi } from '../../../src/api/content-queries.ts';
import { itemInList } from '../../../src/api/item-address.ts';
import { shouldRetry } from '../../../src/api/queries.ts';
import { useProblemMessage } from '../../../src/hooks/use-problem-message.ts';
import { calendarEvents, calendarFields, movedValues, rangePagesMax, rangeParams, scheduledValues, spillParams, type CalendarFields } from './calendar-model.ts';
import { UnscheduledList } from './UnscheduledList.tsx';
import './calendar.css';

export default function CalendarLayout(props: LayoutProps) {
  const format = useFormat();
  const { collection, settings } = props;
  // Keyed by the settings' values, not their object: a new but equal object keeps the events as they are.
  const { startKey, endKey, durationKey } = settings;
  const titleKeys = settings.titleKeys?.join('\n');
  const fields = useMemo(
    () => calendarFields(collection.schema, { startKey, endKey, durationKey, titleKeys: titleKeys?.split('\n') }),
    [collection.schema, startKey, endKey, durationKey, titleKeys],
  );
  if (!fields) {
    const hasDateField = fittingFields(collection.schema, 'calendar', 'startKey').length > 0;
    return (
      <div className="panel empty-state calendar-choose-field">
        <h3>{format('calendar.chooseField')}</h3>
        <p className="muted">{format(hasDateField ? 'calendar.chooseFieldHint' : 'calendar.noDateField')}</p>
        <button type="button" className="button button-primary" onClick={props.onOpenSettings}>
          {format('calendar.openSettings')}
        </button>
      </div>
    );
  }
  return <Calendar {...props} fields={fields} />;
}

interface VisibleRange {
  from: Date;
  to: Date;
  /** The first day of the month shown (where Schedule… proposes a date). */
  month: Date;
}

/**
 * The items of a visible range (up to rangePagesMax pages of 1000): the first page gives the
 * total, then the pages still needed are read side by side and joined in order.
 */
async function readRange(read: (pageNumber: number) => Promise<ItemPage>): Promise<ItemPage> {
  const first = await read(1);
  const pages = Math.min(rangePagesMax, Math.ceil(first.total / Math.max(1, first.items.length || 1)));
  if (first.items.length === 0 || first.items.length >= first.total || pages <= 1) return first;
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => read(i + 2)));
  return { items: [first, ...rest].flatMap((page) => page.items), total: first.total };
}

function Calendar({ scope, collection, nested, baseParams, reloadKey, canCreate, canUpdate, onOpenItem, onNewItem, fields }: LayoutProps & { fields: CalendarFields }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const api = useContentApi();
  const queryClient = useQueryClient();
  const id = useId();
  const [range, setRange] = useState<VisibleRange | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const startKey = fields.start.slug;
  const endKey = fields.end?.slug;

  const itemsKey = contentKeys.items(scope, collection.id);
  const rangeKey = [...itemsKey, 'calendar', { startKey, endKey, from: range?.from.toISOString() ?? '', to: range?.to.toISOString() ?? '', baseParams, reloadKey }] as const;
  const rangeQuery = useQuery({
    queryKey: rangeKey,
    queryFn: async () => {
      const inRange = await readRange((pageNumber) => api.listItems(scope, collection.id, rangeParams(baseParams, startKey, range!.from, range!.to, pageNumber)));
      if (!endKey) return inRange;
      const begunBefore = await readRange((pageNumber) => api.listItems(scope, collection.id, spillParams(baseParams, startKey, endKey, range!.from, pageNumber)));
      return { items: [...begunBefore.items, ...inRange.items], total: begunBefore.total + inRange.total };
    },
    enabled: range !== null,
    retry: shouldRetry,
    placeholderData: (previous) => previous,
  });

  const loaded = rangeQuery.data?.items;
  const byId = useMemo(() => new Map((loaded ?? []).map((item) => [item._id, item])), [loaded]);
  const events = useMemo<EventInput[]>(
    () =>
      calendarEvents(fields, loaded ?? []).map((event) => ({
        id: event.id,
        title: event.title,
        start: event.start,
        end: event.end,
        allDay: false,
        color: `var(--calendar-event-${event.colour})`,
        contrastColor: 'var(--calendar-event-text)',
        className: `calendar-event calendar-event-${event.colour}`,
        durationEditable: canUpdate && event.resizable,
        startEditable: canUpdate,
        extendedProps: { colour: event.colour },
      })),
    [fields, loaded, canUpdate],
  );

  /** Every list of the collection (this one's range and side list, the table) reads again. */
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: itemsKey }), [queryClient, itemsKey]);

  /** Saves changed values of one item, If-Match the version it was read with; false when refused. */
  const save = useCallback(
    async (item: Item, values: Record<string, unknown>, title: string): Promise<boolean> => {
      const ifMatch = `"${item._lastUpdatedDate}"`;
      try {
        await api.updateItem(scope, collection.id, itemInList(nested, item._id), values, { ifMatch });
        const start = values[startKey];
        if (typeof start === 'string') setAnnouncement(format('calendar.saved', { title, date: new Date(start).toLocaleString() }));
        return true;
      } catch (error) {
        void notify(
          isStaleItemError(error)
            ? { kind: 'error', title: format('calendar.stale', { title }) }
            : { kind: 'error', title: format('calendar.saveFailed', { title }), description: problemMessage(error) },
        );
        return false;
      } finally {
        refresh();
      }
    },
    [api, scope, collection.id, nested, startKey, format, problemMessage, refresh],
  );

  const changed = (info: EventDropInfo | EventResizeDoneInfo, resized: boolean) => {
    const item = byId.get(info.event.id);
    if (!canUpdate || !item || !info.event.start) {
      info.revert();
      return;
    }
    void save(item, movedValues(fields, info.event.start, info.event.end, { resized }), info.event.title).then((ok) => {
      if (!ok) info.revert();
    });
  };

  /** The side list's items, as read (to save a dropped one with its version). */
  const unscheduled = useRef(new Map<string, Item>());
  const schedule = useCallback(
    (item: Item, start: Date, title: string) => save(item, scheduledValues(fields, start), title),
    [save, fields],
  );

  const onDatesSet = useCallback((info: DatesSetInfo) => {
    setRange((previous) =>
      previous && previous.from.getTime() === info.start.getTime() && previous.to.getTime() === info.end.getTime()
        ? previous
        : { from: info.start, to: info.end, month: info.view.currentStart },
    );
  }, []);

  const partial = rangeQuery.data && rangeQuery.data.total > rangeQuery.data.items.length;
  return (
    <div className="calendar-layout">
      <section className="calendar-grid" aria-label={format('calendar.label', { collection: collection.name })} aria-busy={rangeQuery.isFetching || undefined}>
        {rangeQuery.isError ? (
          <div className="callout-error calendar-status" role="alert">
            <p>{format('calendar.loadFailed')}</p>
            <button type="button" className="button button-small" onClick={() => void rangeQuery.refetch()}>
              {format('calendar.retry')}
            </button>
          </div>
        ) : null}
        {partial ? (
          <p className="callout-info calendar-status" role="status">
            {format('calendar.partial', { shown: rangeQuery.data!.items.length, total: rangeQuery.data!.total })}
          </p>
        ) : null}
        {rangeQuery.isPending && range ? (
          <p className="muted calendar-status" role="status">
            {format('calendar.loading')}
          </p>
        ) : null}
        <FullCalendar
          plugins={[dayGridPlugin, interactionPlugin, classicThemePlugin]}
          initialView="dayGridMonth"
          headerToolbar={{ start: 'prev,next today', center: 'title', end: '' }}
          todayText={format('calendar.today')}
          prevHint={format('calendar.previousMonth')}
          nextHint={format('calendar.nextMonth')}
          height="auto"
          eventDisplay="block"
          eventInteractive
          dayMaxEvents={4}
          events={events}
          editable={canUpdate}
          droppable={canUpdate}
          datesSet={onDatesSet}
          dateClick={(info: DateClickInfo) => {
            if (canCreate) onNewItem({ [startKey]: info.date.toISOString() });
          }}
          eventClick={(info: EventClickInfo) => {
            info.jsEvent.preventDefault();
            onOpenItem(info.event.id);
          }}
          eventDrop={(info: EventDropInfo) => changed(info, false)}
          eventResize={(info: EventResizeDoneInfo) => changed(info, true)}
          drop={(info: DropInfo) => {
            const item = unscheduled.current.get(info.draggedEl.dataset.itemId ?? '');
            if (canUpdate && item) void schedule(item, info.date, info.draggedEl.dataset.title ?? item._id);
          }}
        />
        <p className="visually-hidden" aria-live="polite" id={`${id}-announce`}>
          {announcement}
        </p>
      </section>
      <UnscheduledList
        scope={scope}
        collectionID={collection.id}
        baseParams={baseParams}
        reloadKey={reloadKey}
        fields={fields}
        canUpdate={canUpdate}
        proposed={range?.month ?? null}
        known={unscheduled.current}
        onOpenItem={onOpenItem}
        onSchedule={schedule}
      />
    </div>
  );
}
