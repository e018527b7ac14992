/**
 * An in-memory reference evaluator of list queries, written from the documented semantics (docs/content-storage.md
 * "Listing and searching items") and independent of the SQL compiler: the property tests compare
 * the engine's answers with it over random items and random filters.
 */

export type Doc = Record<string, any>;
/** How a key's values compare (mirrors the field types' storage). */
export type Kind = 'text' | 'number' | 'bool' | 'date' | 'option' | 'refs' | 'geo';

export interface Term {
  key: string;
  kind: Kind;
  op: string;
  /** As written on the wire (query/filter): text; refs: ids; geo: numbers. */
  value: string;
}

const dateOf = (v: string) => {
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  return Date.parse(v);
};
const valueOf = (doc: Doc, key: string) => doc[key.split('.')[0]!];

export const earthRadius = 6_371_008.8;
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number) {
  const r = (x: number) => (x * Math.PI) / 180;
  const h = Math.sin((r(lat2) - r(lat1)) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin((r(lng2) - r(lng1)) / 2) ** 2;
  return earthRadius * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A `query` or `filter` term: `=` `!=` `>` `<` `regex` `within`. */
export function matchTerm(doc: Doc, term: Term): boolean {
  const v = valueOf(doc, term.key);
  const { op, value } = term;
  switch (term.kind) {
    case 'text':
      if (op === '=') return v === value;
      if (op === '!=') return v !== value;
      if (op === 'regex') return typeof v === 'string' && new RegExp(value, 'is').test(v);
      if (op === '>') return typeof v === 'string' && v > value;
      if (op === '<') return typeof v === 'string' && v < value;
      break;
    case 'number':
      if (op === '=') return v === Number(value);
      if (op === '!=') return v !== Number(value);
      if (op === '>') return typeof v === 'number' && v > Number(value);
      if (op === '<') return typeof v === 'number' && v < Number(value);
      break;
    case 'bool':
      if (op === '=') return v === (value === 'true');
      if (op === '!=') return v !== (value === 'true');
      break;
    case 'date': {
      const x = dateOf(value);
      const d = typeof v === 'string' ? Date.parse(v) : undefined;
      if (op === '=') return d === x;
      if (op === '!=') return d !== x;
      if (op === '>') return d !== undefined && d > x;
      if (op === '<') return d !== undefined && d < x;
      break;
    }
    case 'option':
      if (op === '=') return v?._id === value;
      if (op === '!=') return v?._id !== value;
      break;
    case 'refs': {
      const ids = value.split(',');
      const any = Array.isArray(v) && v.some((ref: { itemRefID: string }) => ids.includes(ref.itemRefID));
      if (op === '=') return any;
      if (op === '!=') return !any;
      break;
    }
    case 'geo': {
      if (!v) return false;
      const n = value.split(',').map(Number);
      if (n.length === 3) return haversine(v.lat, v.lng, n[0]!, n[1]!) <= n[2]!;
      const [minLat, minLng, maxLat, maxLng] = n as [number, number, number, number];
      const lngIn = minLng <= maxLng ? v.lng >= minLng && v.lng <= maxLng : v.lng >= minLng || v.lng <= maxLng;
      return v.lat >= minLat && v.lat <= maxLat && lngIn;
    }
  }
  throw new Error(`reference: no ${term.op} on ${term.kind}`);
}

/** A `find` document (the supported MongoDB subset). `kinds` gives each key's kind; `nested` each nested slug's kinds. */
export function matchFind(doc: Doc, filter: Record<string, any>, kinds: Record<string, Kind>, nested: Record<string, Record<string, Kind>> = {}): boolean {
  return Object.entries(filter).every(([key, cond]) => {
    if (key === '$and') return (cond as any[]).every((c) => matchFind(doc, c, kinds, nested));
    if (key === '$or') return (cond as any[]).some((c) => matchFind(doc, c, kinds, nested));
    if (nested[key]) return ((doc[key] ?? []) as Doc[]).some((child) => matchFind(child, cond.$elemMatch, nested[key]!));
    const kind = kinds[key]!;
    const ops = cond !== null && typeof cond === 'object' && !Array.isArray(cond) && Object.keys(cond).some((k) => k.startsWith('$')) ? cond : { $eq: cond };
    const v = valueOf(doc, key);
    const comparable = (x: unknown): unknown => {
      if (kind === 'date') return typeof x === 'string' ? Date.parse(/^Date\(/.test(x) ? x.slice(5, -1) : x) : x === undefined ? undefined : Number(x) * 1000;
      return x;
    };
    const own = kind === 'option' ? v?._id : kind === 'date' ? (v === undefined ? undefined : Date.parse(v)) : v;
    const eq = (x: unknown) => {
      if (x === null) return v === undefined;
      if (kind === 'refs') return Array.isArray(v) && v.some((ref: { itemRefID: string }) => ref.itemRefID === x);
      return own !== undefined && own === comparable(x);
    };
    return Object.entries(ops).every(([op, x]: [string, any]) => {
      switch (op) {
        case '$eq':
          return eq(x);
        case '$ne':
          return !eq(x);
        case '$in':
          return (x as unknown[]).some(eq);
        case '$nin':
          return !(x as unknown[]).some(eq);
        case '$gt':
          return own !== undefined && (own as number) > (comparable(x) as number);
        case '$gte':
          return own !== undefined && (own as number) >= (comparable(x) as number);
        case '$lt':
          return own !== undefined && (own as number) < (comparable(x) as number);
        case '$lte':
          return own !== undefined && (own as number) <= (comparable(x) as number);
        case '$regex':
          return typeof v === 'string' && new RegExp(x, ops.$options === 'i' ? 'is' : 's').test(v);
        case '$options':
          return true;
        case '$exists':
          return (v !== undefined) === x;
      }
      throw new Error(`reference: no ${op}`);
    });
  });
}

/** The text search: any term matches _id exactly, a text field or a linked item's display value as a case-insensitive substring, or a number. */
export function matchSearch(doc: Doc, search: string, fields: { text: string[]; numbers: string[]; refs: string[] }): boolean {
  const terms = search.split('|').map((t) => t.trim()).filter(Boolean);
  if (!terms.length) return true;
  return terms.some(
    (term) =>
      doc._id === term ||
      fields.text.some((key) => typeof doc[key] === 'string' && doc[key].toLowerCase().includes(term.toLowerCase())) ||
      fields.numbers.some((key) => /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(term) && doc[key] === Number(term)) ||
      fields.refs.some((key) => Array.isArray(doc[key]) && doc[key].some((ref: { value: string }) => ref.value.toLowerCase().includes(term.toLowerCase()))),
  );
}

/** The list order: by the key (unset last ascending, first descending), ties by _id the same way; rank order by default. */
export function sortDocs(docs: Doc[], key: string | undefined, desc: boolean, kind: Kind | 'system' = 'system'): Doc[] {
  const k = key ?? '_rank';
  const value = (doc: Doc) => {
    const v = doc[k];
    if (v === undefined || v === null) return undefined;
    if (kind === 'date' || k === '_createdDate' || k === '_lastUpdatedDate') return Date.parse(v);
    if (kind === 'text') return (v as string).slice(0, 128);
    return v;
  };
  const cmp = (a: Doc, b: Doc) => {
    const [x, y] = [value(a), value(b)];
    let c = 0;
    if (x === undefined && y !== undefined) c = 1;
    else if (x !== undefined && y === undefined) c = -1;
    else if (x !== undefined && y !== undefined) c = x < y ? -1 : x > y ? 1 : 0;
    if (c === 0) c = a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
    return desc ? -c : c;
  };
  return [...docs].sort(cmp);
}
