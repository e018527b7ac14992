/**
 * The calendar's side list: the items whose start field is not set (`find`
 * `$exists: false`, with the list's search and filter), in pages. Each item is dragged onto a
 * date of the grid (FullCalendar's external dragging), or — the keyboard's way — given a date
 * and time with Schedule…; both save its start (and an end an hour later when the layout has
 * an end field).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Draggable } from '@fullcalendar/react/interaction';
import { useFormat } from '../../messages/use-format.ts';
import type { Item, ListParams, ProjectScope } from '../../../src/api/content.ts';
import { contentKeys } from '../../../src/api/content-keys.ts';
import { useContentApi } from '../../../src/api/content-queries.ts';
import { shouldRetry } from '../../../src/api/queries.ts';
import { fromLocalInput, itemTitle, localInputValue, unscheduledParams, unscheduledPerPage, type CalendarFields } from './calendar-model.ts';

interface UnscheduledListProps {
  scope: ProjectScope;
  collectionID: string;
  baseParams: ListParams;
  reloadKey: number;
  fields: CalendarFields;
  canUpdate: boolean;
  /** The first day of the month shown: Schedule… proposes it, at 9:00. */
  proposed: Date | null;
  /** Filled with the items shown, by id (the grid's drop handler saves them with their version). */
  known: Map<string, Item>;
  onOpenItem: (itemID: string) => void;
  onSchedule: (item: Item, start: Date, title: string) => Promise<boolean>;
}

export function UnscheduledList({ scope, collectionID, baseParams, reloadKey, fields, canUpdate, proposed, known, onOpenItem, onSchedule }: UnscheduledListProps) {
  const format = useFormat();
  const api = useContentApi();
  const headingId = useId();
  const [page, setPage] = useState(1);
  const listRef = useRef<HTMLUListElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const startKey = fields.start.slug;

  const query = useQuery({
    queryKey: [...contentKeys.items(scope, collectionID), 'calendar-unscheduled', { startKey, baseParams, page, reloadKey }] as const,
    queryFn: () => api.listItems(scope, collectionID, unscheduledParams(baseParams, startKey, page)),
    retry: shouldRetry,
    placeholderData: (previous) => previous,
  });
  const items = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / unscheduledPerPage));

  known.clear();
  for (const item of items) known.set(item._id, item);

  // Back to the last page that still has items (scheduling the last one of a page empties it).
  useEffect(() => {
    if (query.data && page > pages) setPage(pages);
  }, [query.data, page, pages]);

  // Pointer dragging onto the grid: FullCalendar's external draggable over the list's items.
  useEffect(() => {
    const list = listRef.current;
    if (!list || !canUpdate) return undefined;
    const draggable = new Draggable(list, {
      itemSelector: '.calendar-unscheduled-draggable',
      eventData: (element) => ({ title: element.dataset.title ?? '', create: false, duration: { minutes: 60 } }),
    });
    return () => draggable.destroy();
  }, [canUpdate]);

  return (
    <section className="calendar-unscheduled" aria-labelledby={headingId}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1}>{format('calendar.unscheduled')}</h3>
      <p className="muted" role="status">
        {query.data ? format('calendar.unscheduledCount', { count: total }) : ''}
      </p>
      {canUpdate && items.length ? <p className="muted">{format('calendar.unscheduledHelp')}</p> : null}
      {query.isError ? (
        <div className="callout-error" role="alert">
          <p>{format('calendar.unscheduledFailed')}</p>
          <button type="button" className="button button-small" onClick={() => void query.refetch()}>
            {format('calendar.retry')}
          </button>
        </div>
      ) : null}
      {query.data && items.length === 0 ? <p className="muted">{format('calendar.unscheduledEmpty')}</p> : null}
      <ul className="calendar-unscheduled-list" ref={listRef}>
        {items.map((item) => (
          <UnscheduledItem
            key={item._id}
            item={item}
            title={itemTitle(fields, item)}
            canUpdate={canUpdate}
            proposed={proposed}
            onOpenItem={onOpenItem}
            onSchedule={onSchedule}
            onScheduled={() => headingRef.current?.focus()}
          />
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="calendar-pager" aria-label={format('itemList.pages')}>
          <button type="button" className="button button-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {format('itemList.previous')}
          </button>
          <span>{format('calendar.page', { page, pages })}</span>
          <button type="button" className="button button-small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {format('itemList.next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}

interface UnscheduledItemProps {
  item: Item;
  title: string;
  canUpdate: boolean;
  proposed: Date | null;
  onOpenItem: (itemID: string) => void;
  onSchedule: (item: Item, start: Date, title: string) => Promise<boolean>;
  onScheduled: () => void;
}

function UnscheduledItem({ item, title, canUpdate, proposed, onOpenItem, onSchedule, onScheduled }: UnscheduledItemProps) {
  const format = useFormat();
  const inputId = useId();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);
  const scheduleRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const refocus = useRef(false);
  useEffect(() => {
    if (editing) inputRef.current?.focus();
    else if (refocus.current) {
      // Back where the keyboard was: the Schedule… button is drawn again.
      refocus.current = false;
      scheduleRef.current?.focus();
    }
  }, [editing]);

  const open = () => {
    const day = proposed ?? new Date();
    setValue(localInputValue(new Date(day.getFullYear(), day.getMonth(), day.getDate(), 9, 0)));
    setEditing(true);
  };
  const close = () => {
    refocus.current = true;
    setEditing(false);
  };
  const start = fromLocalInput(value);

  return (
    <li className={canUpdate ? 'calendar-unscheduled-item calendar-unscheduled-draggable' : 'calendar-unscheduled-item'} data-item-id={item._id} data-title={title}>
      <div className="calendar-unscheduled-row">
        <button type="button" className="calendar-unscheduled-title" aria-label={format('calendar.openItem', { title })} onClick={() => onOpenItem(item._id)}>
          {title}
        </button>
        {canUpdate && !editing ? (
          <button type="button" ref={scheduleRef} className="button button-small" aria-label={format('calendar.scheduleNamed', { title })} onClick={open}>
            {format('calendar.schedule')}
          </button>
        ) : null}
      </div>
      {editing ? (
        <form
          className="calendar-schedule-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!start || saving) return;
            setSaving(true);
            void onSchedule(item, start, title).then((ok) => {
              setSaving(false);
              // Scheduled, the item leaves the list: the keyboard goes to the list's heading.
              if (ok) onScheduled();
              else close();
            });
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <label htmlFor={inputId}>{format('calendar.startOf', { title })}</label>
          <input id={inputId} ref={inputRef} className="input" type="datetime-local" required value={value} onChange={(event) => setValue(event.target.value)} />
          <div className="calendar-schedule-actions">
            <button type="submit" className="button button-small button-primary" disabled={!start || saving}>
              {format('calendar.save')}
            </button>
            <button type="button" className="button button-small" onClick={close}>
              {format('calendar.cancel')}
            </button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
