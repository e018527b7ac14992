/**
 * Layout settings: which fields the calendar, kanban and map layouts of an
 * item list read. Shared by the server (which refuses settings naming unfit fields) and the console
 * (which treats settings that stopped fitting — a field deleted or its type changed — as unset, so
 * the layout shows its "choose a field" state). Fields are matched by slug and by what their type
 * can drive (`layoutUses` in its definition).
 */
import { fieldType, fieldTypes, type LayoutUse, type SchemaField } from './field-types/index.ts';

export const layoutKinds = ['table', 'calendar', 'kanban', 'map'] as const;
export type LayoutKind = (typeof layoutKinds)[number];

/**
 * Layout settings, saved on the server with the collection per nested path and shared by the
 * team. Field slugs; a setting naming a field that no longer fits is ignored.
 */
export interface LayoutSettings {
  /** The layout chosen last (the `layout` query parameter wins over it). */
  layout?: LayoutKind;
  /** Calendar: the start date-time field. */
  startKey?: string;
  /** Calendar: the end date-time field (never together with durationKey). */
  endKey?: string;
  /** Calendar: a Number field holding the duration in minutes (never together with endKey). */
  durationKey?: string;
  /** Calendar, kanban and map: the fields whose values make an item's title. */
  titleKeys?: string[];
  /** Map: where the map opens, and its zoom (default 6). */
  center?: { lat: number; lng: number; zoom?: number };
  /** Kanban: the Option field; map: the GeoPoint field. */
  activeField?: string;
}

/** The single-field setting keys and what the field each names must drive, per layout. */
export type LayoutFieldKey = 'startKey' | 'endKey' | 'durationKey' | 'activeField';
const calendarUses = { startKey: 'calendarTime', endKey: 'calendarTime', durationKey: 'calendarDuration' } as const;
const activeFieldUses = { kanban: 'kanbanColumns', map: 'mapPlaces' } as const;

/** What a setting key's field drives in this layout (undefined: the key takes no field there). */
export function layoutUseOf(kind: LayoutKind, key: LayoutFieldKey): LayoutUse | undefined {
  if (key === 'activeField') return kind === 'kanban' || kind === 'map' ? activeFieldUses[kind] : undefined;
  return kind === 'calendar' ? calendarUses[key] : undefined;
}

const drives = (field: SchemaField, use: LayoutUse | undefined): boolean => use !== undefined && fieldType(field.type)?.layoutUses?.includes(use) === true;

/** The schema's fields that can be named by `key` in the layout `kind` (in the schema's order). */
export function fittingFields(schema: readonly SchemaField[], kind: LayoutKind, key: LayoutFieldKey): SchemaField[] {
  const use = layoutUseOf(kind, key);
  return schema.filter((field) => drives(field, use));
}

/** True when `slug` names a field whose type can drive `use`. */
function fieldFits(schema: readonly SchemaField[], slug: string | undefined, use: LayoutUse | undefined): boolean {
  if (!slug) return false;
  const field = schema.find((candidate) => candidate.slug === slug);
  return field !== undefined && drives(field, use);
}

/** The names of the types that can drive any of `uses`, joined by "or", for messages. */
const typeNamesFor = (...uses: LayoutUse[]) =>
  fieldTypes
    .filter((type) => uses.some((use) => type.layoutUses?.includes(use)))
    .map((type) => type.name)
    .join(' or ');

/** Fields a title may be made of: any field holding a value (not nested collections, which keep a table of their own). */
export const titleFieldFits = (schema: readonly SchemaField[], slug: string): boolean =>
  schema.some((field) => field.slug === slug && fieldType(field.type)?.storage.kind !== 'table');

const validCenter = (center: LayoutSettings['center']): boolean =>
  center !== undefined &&
  Number.isFinite(center.lat) && center.lat >= -90 && center.lat <= 90 &&
  Number.isFinite(center.lng) && center.lng >= -180 && center.lng <= 180 &&
  (center.zoom === undefined || (Number.isInteger(center.zoom) && center.zoom >= 0 && center.zoom <= 20));

/**
 * The usable part of `settings` for the layout `kind`: keys naming fields that still exist with a
 * fitting type, title keys naming existing fields, and a center within range. `layout` is kept as
 * it is. With both an end and a duration field set, the end field wins.
 */
export function validLayoutSettings(schema: readonly SchemaField[], kind: LayoutKind, settings: LayoutSettings): LayoutSettings {
  const usable: LayoutSettings = {};
  if (settings.layout !== undefined) usable.layout = settings.layout;
  for (const key of ['startKey', 'endKey', 'durationKey', 'activeField'] as const) {
    const slug = settings[key];
    if (fieldFits(schema, slug, layoutUseOf(kind, key))) usable[key] = slug;
  }
  if (usable.endKey !== undefined) delete usable.durationKey;
  const titleKeys = (settings.titleKeys ?? []).filter((slug) => titleFieldFits(schema, slug));
  if (titleKeys.length) usable.titleKeys = titleKeys;
  if (kind === 'map' && validCenter(settings.center)) usable.center = settings.center;
  return usable;
}

/**
 * Why stored settings are refused (server): each problem as [key, message]. Unlike
 * `validLayoutSettings` it checks every key against every layout taking it, since one stored
 * record serves all layouts of a list.
 */
export function layoutSettingsProblems(schema: readonly SchemaField[], settings: LayoutSettings): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const key of ['startKey', 'endKey', 'durationKey'] as const) {
    const slug = settings[key];
    if (slug !== undefined && !fieldFits(schema, slug, calendarUses[key])) problems.push({ path: key, message: `must name a ${typeNamesFor(calendarUses[key])} field` });
  }
  if (settings.endKey !== undefined && settings.durationKey !== undefined) problems.push({ path: 'durationKey', message: 'cannot be set together with endKey' });
  if (settings.activeField !== undefined && !fieldFits(schema, settings.activeField, activeFieldUses.kanban) && !fieldFits(schema, settings.activeField, activeFieldUses.map)) {
    problems.push({ path: 'activeField', message: `must name an ${typeNamesFor(activeFieldUses.kanban, activeFieldUses.map)} field` });
  }
  (settings.titleKeys ?? []).forEach((slug, i) => {
    if (!titleFieldFits(schema, slug)) problems.push({ path: `titleKeys.${i}`, message: 'must name a field of the collection' });
  });
  if (settings.center !== undefined && !validCenter(settings.center)) problems.push({ path: 'center', message: 'lat must be -90…90, lng -180…180, zoom 0…20' });
  return problems;
}
