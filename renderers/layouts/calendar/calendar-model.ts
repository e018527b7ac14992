/**
 * The calendar layout's rules, apart from React and FullCalendar:
 * which fields it reads (settings that stopped fitting the schema are dropped), the range query
 * of the visible dates, the side list's `find`, an item's title, span and colour, and the values
 * a move or a resize writes. Pure, so the component stays thin and the rules are tested alone.
 */
import { fieldType, titleField, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { Item, ListParams } from '../../../src/api/content.ts';
import { validLayoutSettings } from '../settings.ts';
import type { LayoutSettings } from '../types.ts';

/** An event without an end lasts this long. */
export const defaultDurationMinutes = 60;
/** The colours events take in turn (CSS variables --calendar-event-0…6). */
export const colourCount = 7;
/** The list API's largest page (server listLimits.perPageMax). */
export const rangePerPage = 1000;
/** Pages read for one visible range at most: beyond, the calendar says how many it left out. */
export const rangePagesMax = 10;
/** The side list of items without a date: items per page. */
export const unscheduledPerPage = 20;

const minute = 60_000;

/** The fields the calendar reads, resolved against the schema. */
export interface CalendarFields {
  start: SchemaField;
  /** The end date-time field; never together with `duration`. */
  end?: SchemaField | undefined;
  /** The Number field with the duration in minutes; never together with `end`. */
  duration?: SchemaField | undefined;
  /** The fields an event's title is made of (never empty when the schema has a text field). */
  titles: SchemaField[];
}

const bySlug = (schema: readonly SchemaField[], slug: string | undefined) => (slug === undefined ? undefined : schema.find((field) => field.slug === slug));

/**
 * The fields the settings name, or null when no usable start field is named (the "choose a
 * field" state). Titles: the settings' title fields, else the primary field, else the first
 * plain-text field (the item's id stands in when they are all empty).
 */
export function calendarFields(schema: readonly SchemaField[], settings: LayoutSettings): CalendarFields | null {
  const usable = validLayoutSettings(schema, 'calendar', settings);
  const start = bySlug(schema, usable.startKey);
  if (!start) return null;
  const titled = (usable.titleKeys ?? []).map((slug) => bySlug(schema, slug)).filter((field): field is SchemaField => field !== undefined);
  const fallback = titleField(schema);
  return {
    start,
    end: bySlug(schema, usable.endKey),
    duration: usable.endKey === undefined ? bySlug(schema, usable.durationKey) : undefined,
    titles: titled.length ? titled : fallback ? [fallback] : [],
  };
}

/** An item's title: its title fields' display texts joined, else its id. */
export function itemTitle(fields: Pick<CalendarFields, 'titles'>, item: Item): string {
  const parts = fields.titles.map((field) => fieldType(field.type)?.display(item[field.slug], field) ?? '').filter((text) => text.trim() !== '');
  return parts.length ? parts.join(' · ') : item._id;
}

/** A stored date-time as an instant, or null when it is missing or not a date. */
export function instantOf(value: unknown): Date | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The value a Date field takes through the item API (RFC 3339, UTC, to the millisecond). */
export const dateValue = (date: Date): string => date.toISOString();

/** When an item's event ends: its end field when later than the start, else start + its duration (default 60 min). */
export function eventEnd(fields: CalendarFields, item: Item, start: Date): Date {
  if (fields.end) {
    const end = instantOf(item[fields.end.slug]);
    if (end && end.getTime() > start.getTime()) return end;
  }
  if (fields.duration) {
    const minutes = item[fields.duration.slug];
    if (typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0) return new Date(start.getTime() + minutes * minute);
  }
  return new Date(start.getTime() + defaultDurationMinutes * minute);
}

/** One event as the calendar draws it. */
export interface CalendarEvent {
  id: string;
  title: string;
  start: Date;
  end: Date;
  /** 0…6: the colour it takes (CSS --calendar-event-N). */
  colour: number;
  /** Resizing writes the end or the duration; without either field the span is fixed. */
  resizable: boolean;
}

/**
 * The events of the loaded items, in start order; colours go round the seven in that order.
 * Items whose start is not a date are left out (the side list shows them).
 */
export function calendarEvents(fields: CalendarFields, items: readonly Item[]): CalendarEvent[] {
  const dated = items
    .map((item) => ({ item, start: instantOf(item[fields.start.slug]) }))
    .filter((entry): entry is { item: Item; start: Date } => entry.start !== null)
    .sort((a, b) => a.start.getTime() - b.start.getTime() || (a.item._id < b.item._id ? -1 : a.item._id > b.item._id ? 1 : 0));
  const resizable = fields.end !== undefined || fields.duration !== undefined;
  return dated.map(({ item, start }, i) => ({
    id: item._id,
    title: itemTitle(fields, item),
    start,
    end: eventEnd(fields, item, start),
    colour: i % colourCount,
    resizable,
  }));
}

/**
 * The `query` reading items starting in [from, to): the engine's `>` is strict, so the lower
 * bound is a millisecond earlier. Dates are written in UTC (`Z`): a `+hh:mm` offset would split
 * the terms, which `+` joins.
 */
export function rangeQuery(startKey: string, from: Date, to: Date): string {
  return `${startKey}:>:${dateValue(new Date(from.getTime() - 1))}+${startKey}:<:${dateValue(to)}`;
}

/** The list parameters of one page of the visible range, on top of the list's search and filter. */
export function rangeParams(base: ListParams, startKey: string, from: Date, to: Date, pageNumber: number): ListParams {
  return { ...base, query: rangeQuery(startKey, from, to), sort: startKey, order: 'asc', perPage: rangePerPage, pageNumber };
}

/**
 * With an end field, the items that start before the visible dates and end in or after them (a
 * multi-day event begun last month): `start < from` and `end > from`.
 */
export function spillParams(base: ListParams, startKey: string, endKey: string, from: Date, pageNumber: number): ListParams {
  return { ...base, query: `${startKey}:<:${dateValue(from)}+${endKey}:>:${dateValue(from)}`, sort: startKey, order: 'asc', perPage: rangePerPage, pageNumber };
}

/** The side list's parameters: items whose start field is not set. */
export function unscheduledParams(base: ListParams, startKey: string, pageNumber: number): ListParams {
  return { ...base, find: JSON.stringify({ [startKey]: { $exists: false } }), perPage: unscheduledPerPage, pageNumber };
}

/** What a move or a resize writes: the start, and the end or the duration when the layout has one. */
export function movedValues(fields: CalendarFields, start: Date, end: Date | null, options: { resized: boolean }): Record<string, unknown> {
  const values: Record<string, unknown> = { [fields.start.slug]: dateValue(start) };
  if (fields.end) values[fields.end.slug] = dateValue(end && end.getTime() > start.getTime() ? end : new Date(start.getTime() + defaultDurationMinutes * minute));
  else if (fields.duration && options.resized && end) values[fields.duration.slug] = Math.max(1, Math.round((end.getTime() - start.getTime()) / minute));
  return values;
}

/** What scheduling an item without a date writes: its start, and an end 60 minutes later when the layout has an end field. */
export function scheduledValues(fields: CalendarFields, start: Date): Record<string, unknown> {
  const values: Record<string, unknown> = { [fields.start.slug]: dateValue(start) };
  if (fields.end) values[fields.end.slug] = dateValue(new Date(start.getTime() + defaultDurationMinutes * minute));
  return values;
}

/** A `datetime-local` input's value for a date (local time, to the minute). */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The instant a `datetime-local` value names in local time, or null when it is incomplete. */
export function fromLocalInput(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  return Number.isNaN(date.getTime()) ? null : date;
}
