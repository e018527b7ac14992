/**
 * The one condition tree every filter form (`query`, `filter`, `find`, search) is parsed into and
 * the compiler turns into SQL. Values are already checked and typed for their key.
 */
import { parseDate } from '../../../definitions/field-types/date/index.ts';
import { unstorableText } from '../../../definitions/field-types/support.ts';
import type { SchemaLevel } from '../schema-tree.ts';
import { queryError } from './errors.ts';
import type { Target } from './targets.ts';

/** A value of a key: text (text, option ids), a number, a boolean, or a date as an ISO string. */
export type Scalar = string | number | boolean;

export type Comparison = '=' | '!=' | '>' | '>=' | '<' | '<=';

export type GeoShape = { circle: { lat: number; lng: number; meters: number } } | { box: { minLat: number; minLng: number; maxLat: number; maxLng: number } };

export type Cond =
  | { k: 'and' | 'or'; of: Cond[] }
  | { k: 'not'; of: Cond }
  | { k: 'const'; value: boolean }
  /** `=` and `!=` with null test whether the key is set; `!=` also matches items where it is not. */
  | { k: 'cmp'; t: Target; op: Comparison; v: Scalar | null }
  | { k: 'in'; t: Target; vs: Scalar[]; neg: boolean }
  | { k: 'regex'; t: Target; pattern: string; ci: boolean }
  | { k: 'exists'; t: Target; yes: boolean }
  /** ItemRef: links any of the ids (neg: none of them). */
  | { k: 'refs'; t: Target; ids: string[]; neg: boolean }
  /**
   * ItemRef: a link whose display value holds `text`, case-insensitively (search). `words`: the
   * vocabulary's tokens holding the text, when read beforehand (compile.ts resolveSearchWords).
   */
  | { k: 'refValue'; t: Target; text: string; words?: SearchWords }
  /** Case-insensitive substring (search), served by the word index (`words`) or the trigram index. */
  | { k: 'contains'; t: Target; text: string; words?: SearchWords }
  | { k: 'within'; t: Target; shape: GeoShape }
  /** A nested list (of the item) has an item matching `cond`. */
  | { k: 'elem'; parent: SchemaLevel; child: SchemaLevel; cond: Cond };

/**
 * The tokens of a field's vocabulary holding a search text (item_search_words, migration 0012), in
 * groups of a few (one word-index test each, compile.ts holdsWord); or 'many' when more than
 * SearchWordLimits.tokens (tuning.ts) hold it.
 */
export type SearchWords = readonly (readonly string[])[] | 'many';

export const and = (of: Cond[]): Cond => (of.length === 1 ? of[0]! : { k: 'and', of });

const dateCall = /^Date\((\d{4}-\d{2}-\d{2}(?:[T ][^)]*)?)\)$/;
const numeral = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A written value as the key's type compares it. Text comes from `query` and `filter` (every
 * value is a string there), JSON values from `find`. Dates take RFC 3339, `Date(YYYY-MM-DD)` or
 * epoch seconds (what the console's date filter sends).
 */
export function coerce(t: Target, raw: unknown, path: string): Scalar {
  const bad = (what: string) => queryError('invalid_query', path, `${t.key} compares ${what}`);
  switch (t.kind) {
    case 'text':
    case 'option':
    case 'refs':
      if (typeof raw === 'string') {
        // The database refuses NUL in text: say so instead of failing the query.
        const problem = unstorableText(raw);
        if (problem) throw queryError('invalid_query', path, `the value ${problem}`);
        return raw;
      }
      if (typeof raw === 'number' && t.kind === 'text') return String(raw);
      throw bad('text');
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && numeral.test(raw.trim()) ? Number(raw.trim()) : NaN;
      if (!Number.isFinite(n)) throw bad('numbers');
      return n === 0 ? 0 : n;
    }
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === 'false') return raw === 'true';
      throw bad('true or false');
    case 'date': {
      if (typeof raw === 'number' || (typeof raw === 'string' && numeral.test(raw.trim()))) {
        const ms = Number(raw) * 1000;
        const d = new Date(ms);
        if (!Number.isFinite(ms) || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) throw bad('dates between the years 1 and 9999');
        return d.toISOString();
      }
      if (typeof raw !== 'string') throw bad('dates (RFC 3339, Date(YYYY-MM-DD) or epoch seconds)');
      const text = dateCall.exec(raw.trim())?.[1] ?? raw.trim();
      const parsed = parseDate(text);
      if (!parsed.ok) throw bad('dates (RFC 3339, Date(YYYY-MM-DD) or epoch seconds)');
      return parsed.value;
    }
    default:
      throw queryError('operator_not_allowed', path, `${t.key} cannot be compared with a value`);
  }
}

/** Parses `lat,lng,meters` (a circle) or `minLat,minLng,maxLat,maxLng` (a bounding box). */
export function parseGeoShape(text: string, path: string): GeoShape {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map((part) => (numeral.test(part) ? Number(part) : NaN));
  const bad = () => queryError('invalid_query', path, 'within takes "lat,lng,meters" or "minLat,minLng,maxLat,maxLng"');
  if (numbers.some((n) => !Number.isFinite(n))) throw bad();
  const lat = (n: number) => n >= -90 && n <= 90;
  const lng = (n: number) => n >= -180 && n <= 180;
  if (numbers.length === 3) {
    const [la, ln, meters] = numbers as [number, number, number];
    if (!lat(la) || !lng(ln) || meters < 0) throw bad();
    return { circle: { lat: la, lng: ln, meters } };
  }
  if (numbers.length === 4) {
    const [minLat, minLng, maxLat, maxLng] = numbers as [number, number, number, number];
    if (![minLat, maxLat].every(lat) || ![minLng, maxLng].every(lng) || minLat > maxLat) throw bad();
    return { box: { minLat, minLng, maxLat, maxLng } };
  }
  throw bad();
}
