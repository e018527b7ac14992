/** The GeoPoint editor's coordinates: what the inputs let through, and how a value is rounded and shown. */
import { maps } from '../../../definitions/constants.ts';
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import type { MapPoint } from '../../map/lazy-world-map.ts';

const decimals = maps.geoDecimals;

/** A coordinate as the editor stores it: rounded to what it shows (and never −0). */
export const rounded = (n: number) => {
  const r = Number(n.toFixed(decimals));
  return r === 0 ? 0 : r;
};
export const textOf = (n: number) => rounded(n).toFixed(decimals);

export const pointOf = (value: unknown): MapPoint | null =>
  isPlainObject(value) && typeof value.lat === 'number' && typeof value.lng === 'number' && Number.isFinite(value.lat) && Number.isFinite(value.lng)
    ? { lat: value.lat, lng: value.lng }
    : null;

/** What the inputs let through while typing: a numeral, possibly unfinished ("-", "4."). */
export const typing = /^-?\d*\.?\d*$/;
const numeral = /^-?(\d+\.?\d*|\.\d+)$/;

/** The coordinate a text holds, or undefined when it is not one within ±`limit`. */
export const coordinate = (text: string, limit: number) => {
  if (!numeral.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
};
