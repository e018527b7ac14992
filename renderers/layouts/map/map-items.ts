/**
 * The map layout's pure rules: which GeoPoint field it draws, what it asks
 * the list for (the visible area as a `within` box, the items with no place as `$exists: false`),
 * which values are places, and how a marker is named. Kept apart from the components so they are
 * tested without a map.
 */
import { maps } from '../../../definitions/constants.ts';
import { fieldType, titleField, type SchemaField } from '../../../definitions/field-types/index.ts';
import { fittingFields, validLayoutSettings } from '../settings.ts';
import type { LayoutSettings } from '../types.ts';

export interface MapPoint {
  lat: number;
  lng: number;
}

/** The visible area as Leaflet gives it: longitudes may run past ±180 (the world repeats). */
export interface ViewBounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/**
 * The field the map draws: `activeField` when it names a GeoPoint field; the first GeoPoint field
 * when none is chosen (or when it names the kanban's Option field: one record serves every layout
 * of a list); otherwise the "choose a field" state — `stale` when the setting names a field that
 * is gone or is of another type, `none` when the schema has no GeoPoint field. The fit itself is
 * the shared rule (`validLayoutSettings`), the server's too.
 */
export type MapFieldChoice = { field: SchemaField } | { choose: 'stale' | 'none' };

export function mapFieldOf(schema: readonly SchemaField[], settings: LayoutSettings): MapFieldChoice {
  const usable = validLayoutSettings(schema, 'map', settings).activeField;
  if (usable !== undefined) return { field: schema.find((field) => field.slug === usable)! };
  const named = settings.activeField;
  if (named !== undefined && named !== '' && !fittingFields(schema, 'kanban', 'activeField').some((field) => field.slug === named)) return { choose: 'stale' };
  const [first] = fittingFields(schema, 'map', 'activeField');
  return first ? { field: first } : { choose: 'none' };
}

/** The settings the map may use: fields that still fit, a centre within range (the shared rule). */
export const usableMapSettings = (schema: readonly SchemaField[], settings: LayoutSettings) => validLayoutSettings(schema, 'map', settings);

/** A place as the item API holds it: finite numbers within −90..90 and −180..180; anything else is no place. */
export function pointOf(value: unknown): MapPoint | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { lat, lng } = value as { lat?: unknown; lng?: unknown };
  if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

/** A point picked on the map as the GeoPoint editor stores it: 4 decimals, never −0. */
export function geoValueAt(point: MapPoint): MapPoint {
  const round = (n: number) => {
    const r = Number(n.toFixed(maps.geoDecimals));
    return r === 0 ? 0 : r;
  };
  return { lat: round(point.lat), lng: round(point.lng) };
}

const precision = 1e6;
/** Outward to 6 decimals (about 0.1 m), written without an exponent. */
const down = (n: number) => String(Math.floor(n * precision) / precision + 0);
const up = (n: number) => String(Math.ceil(n * precision) / precision + 0);
const clamp = (n: number, limit: number) => Math.min(limit, Math.max(-limit, n));
/** A longitude brought into −180..180 (180 itself becomes −180: the same meridian). */
const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

/**
 * The `within` box of a view: `minLat,minLng,maxLat,maxLng`. A view wider than the world asks for
 * every longitude; one whose edges wrap across the antimeridian gives `minLng > maxLng`, which the
 * server reads as a box crossing it (docs/content-storage.md).
 */
export function withinBox(bounds: ViewBounds): string {
  const south = clamp(Math.min(bounds.south, bounds.north), 90);
  const north = clamp(Math.max(bounds.south, bounds.north), 90);
  let west = -180;
  let east = 180;
  if (bounds.east - bounds.west < 360) {
    west = wrap(bounds.west);
    east = wrap(bounds.east);
    // An east edge on the antimeridian is 180, not −180 (the box would otherwise hold one meridian).
    if (east === -180 && bounds.east > bounds.west) east = 180;
  }
  return `${down(south)},${down(west)},${up(north)},${up(east)}`;
}

/**
 * A place's longitude in the copy of the world a view shows (Leaflet draws a marker at its literal
 * longitude): near the antimeridian, a place at −170 is drawn at 190 when the view spans 170..190.
 */
export function inViewLng(lng: number, bounds: ViewBounds | null): number {
  if (!bounds || bounds.east - bounds.west >= 360) return lng;
  const centre = (bounds.west + bounds.east) / 2;
  return lng + 360 * Math.round((centre - lng) / 360);
}

/** The list's `query` term for the items placed in a view. */
export const withinTerm = (slug: string, bounds: ViewBounds) => `${slug}:within:${withinBox(bounds)}`;

/** The list's `find` for the items with no place. */
export const unsetFind = (slug: string) => JSON.stringify({ [slug]: { $exists: false } });

/** The list's `find` for the items with a place (the first one centres a map with no centre set). */
export const placedFind = (slug: string) => JSON.stringify({ [slug]: { $exists: true } });

/**
 * The fields a marker's title is made of: `titleKeys` that still exist; without any, the primary
 * field or else the first PlainText field.
 */
export function titleFieldsOf(schema: readonly SchemaField[], titleKeys: readonly string[] | undefined): SchemaField[] {
  const chosen = (titleKeys ?? []).map((slug) => schema.find((field) => field.slug === slug)).filter((field): field is SchemaField => field !== undefined);
  if (chosen.length) return chosen;
  const fallback = titleField(schema);
  return fallback ? [fallback] : [];
}

/** The longest title a marker or an Unset Markers entry shows. */
const titleMax = 120;

/** An item's title: the display texts of the title fields, else its id. */
export function itemTitleOf(item: Record<string, unknown>, titleFields: readonly SchemaField[]): string {
  const parts = titleFields
    .map((field) => {
      const value = item[field.slug];
      if (value === undefined || value === null) return '';
      return (fieldType(field.type)?.display(value, field) ?? '').replace(/\s+/g, ' ').trim();
    })
    .filter((text) => text !== '');
  const text = parts.join(' · ');
  if (!text) return String(item._id ?? '');
  return text.length > titleMax ? `${text.slice(0, titleMax - 1)}…` : text;
}

/** `settings.center` when it is a usable place; its zoom when a whole number from 1 to 19. */
export function centerOf(settings: Pick<LayoutSettings, 'center'>): { center: MapPoint; zoom: number } | null {
  const center = settings.center ? pointOf(settings.center) : null;
  if (!center) return null;
  const zoom = settings.center?.zoom;
  return { center, zoom: typeof zoom === 'number' && Number.isInteger(zoom) && zoom >= 1 && zoom <= 19 ? zoom : maps.defaultZoom };
}
