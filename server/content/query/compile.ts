/**
 * Compiles a parsed list query to SQL against the level's table (drizzle `sql` templates: every
 * value is a bound parameter, every identifier a server-made name). Comparisons are written on
 * the expressions the field types' indexes cover, so PostgreSQL can serve them from the index.
 */
import { sql, type SQL } from 'drizzle-orm';
import { fieldType, type ColumnType } from '../../../definitions/field-types/index.ts';
import type { SchemaLevel } from '../schema-tree.ts';
import { collectionIdOf, countedMember, selectList, targetExpression, wordsFunction } from '../storage.ts';
import type { Cond, GeoShape, Scalar } from './conditions.ts';
import type { ListQuery } from './parse.ts';
import type { Target } from './targets.ts';

const id = (name: string) => sql.identifier(name);

const columnTypes: Record<Target['kind'], ColumnType> = {
  text: 'text',
  option: 'text',
  refs: 'jsonb',
  number: 'double precision',
  bool: 'boolean',
  date: 'timestamptz',
  geo: 'jsonb',
  json: 'json',
};

/** A compared value as a typed parameter. */
function param(t: Target, v: Scalar): SQL {
  switch (columnTypes[t.kind]) {
    case 'double precision':
      return sql`${v}::double precision`;
    case 'boolean':
      return sql`${v}::boolean`;
    case 'timestamptz':
      return sql`${v}::timestamptz`;
    default:
      return sql`${String(v)}::text`;
  }
}

/** The expression holding a key's comparable value. */
function expr(t: Target): SQL {
  if (t.member) return targetExpression(t.column, { of: 'member', member: t.member });
  return sql`${id(t.column)}`;
}

function equals(t: Target, v: Scalar): SQL {
  const e = expr(t);
  // PlainText's btree covers its first characters: test them too, so the index finds the rows.
  if (t.equalityPrefix) return sql`(left(${e}, ${sql.raw(String(t.equalityPrefix))}) = left(${param(t, v)}, ${sql.raw(String(t.equalityPrefix))}) and ${e} = ${param(t, v)})`;
  return sql`${e} = ${param(t, v)}`;
}

const refsJson = (member: 'itemRefID', value: string) => sql`${JSON.stringify([{ [member]: value }])}::jsonb`;

const lat = (t: Target) => sql`((${id(t.column)} ->> 'lat')::double precision)`;
const lng = (t: Target) => sql`((${id(t.column)} ->> 'lng')::double precision)`;

/** The mean Earth radius the `within` distance uses (metres). */
export const earthRadius = 6_371_008.8;

type Box = { minLat: number; minLng: number; maxLat: number; maxLng: number };

/** The exact `within` test: inclusive bounds (a box crossing the antimeridian when minLng > maxLng), or the haversine distance. */
function withinExact(t: Target, shape: GeoShape): SQL {
  if ('box' in shape) {
    const { minLat, minLng, maxLat, maxLng } = shape.box;
    const lngTest =
      minLng <= maxLng
        ? sql`${lng(t)} between ${minLng}::double precision and ${maxLng}::double precision`
        : sql`(${lng(t)} >= ${minLng}::double precision or ${lng(t)} <= ${maxLng}::double precision)`;
    return sql`(${lat(t)} between ${minLat}::double precision and ${maxLat}::double precision and ${lngTest})`;
  }
  const { lat: la, lng: ln, meters } = shape.circle;
  const rad = (x: SQL) => sql`radians(${x})`;
  const dLat = sql`(${rad(lat(t))} - radians(${la}::double precision))`;
  const dLng = sql`(${rad(lng(t))} - radians(${ln}::double precision))`;
  const h = sql`(sin(${dLat} / 2) ^ 2 + cos(radians(${la}::double precision)) * cos(${rad(lat(t))}) * sin(${dLng} / 2) ^ 2)`;
  // Rounding can put sqrt(h) just above 1. Not least(): it skips nulls, which would put an item with
  // no place within a circle covering the globe.
  const root = sql`sqrt(${h})`;
  return sql`(${earthRadius}::double precision * 2 * asin(case when ${root} > 1 then 1::double precision else ${root} end) <= ${meters}::double precision)`;
}

/** Degrees added around a circle's bounding box, against rounding in the distance and in the box. */
const boxMargin = 1e-5;

/**
 * A circle's longitude range (`from` to `to`, the centre ± less than 180) as boxes, split at the
 * antimeridian (reaching it takes both -180 and 180: they are one meridian).
 */
function lngBoxes(minLat: number, maxLat: number, from: number, to: number): Box[] {
  if (from <= -180) return [{ minLat, maxLat, minLng: Math.min(from + 360, 180), maxLng: 180 }, { minLat, maxLat, minLng: -180, maxLng: to }];
  if (to >= 180) return [{ minLat, maxLat, minLng: from, maxLng: 180 }, { minLat, maxLat, minLng: -180, maxLng: Math.max(to - 360, -180) }];
  return [{ minLat, maxLat, minLng: from, maxLng: to }];
}

/**
 * Boxes (in degrees) holding every point a `within` shape holds: a box itself (two when it crosses
 * the antimeridian), or a circle's bounding box (the latitude ± the angular radius; the longitude ±
 * asin(sin(d) / cos(lat)) unless the circle reaches a pole, then every longitude), with a margin;
 * `all` when that box would be the whole globe (no index helps: the exact test alone).
 */
function withinBoxes(shape: GeoShape): Box[] | 'all' {
  if ('box' in shape) {
    const { minLat, minLng, maxLat, maxLng } = shape.box;
    if (minLng <= maxLng) return [shape.box];
    return [
      { minLat, maxLat, minLng, maxLng: 180 },
      { minLat, maxLat, minLng: -180, maxLng },
    ];
  }
  const { lat: la, lng: ln, meters } = shape.circle;
  const d = meters / earthRadius;
  if (d >= Math.PI) return 'all';
  const degrees = (d * 180) / Math.PI;
  const minLat = la - degrees - boxMargin;
  const maxLat = la + degrees + boxMargin;
  if (minLat <= -90 && maxLat >= 90) return 'all';
  const ratio = Math.sin(d) / Math.cos((la * Math.PI) / 180);
  if (minLat <= -90 || maxLat >= 90 || !(ratio < 1)) return [{ minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90), minLng: -180, maxLng: 180 }];
  const spread = (Math.asin(ratio) * 180) / Math.PI + boxMargin;
  return lngBoxes(minLat, maxLat, ln - spread, ln + spread);
}

/** The point expression a GeoPoint's GiST index covers (the same text, so the planner uses the index). */
function indexedPoint(t: Target): SQL | undefined {
  const type = t.field && fieldType(t.field.type);
  const spec = type?.storage.kind === 'column' ? type.storage.indexes.find((index) => index.kind === 'gist' && index.on.of === 'point') : undefined;
  return spec && targetExpression(t.column, spec.on);
}

/** Search text shorter than this has no trigram. */
export const trigramLength = 3;

/**
 * The expression a substring search compares when the word index cannot serve it: the indexed one,
 * or for text with no trigram a copy no index covers. A trigram index asked for such text returns
 * every row it holds, each then rechecked on the table — more reading than one pass over the
 * table, which this leaves the planner (docs/content-storage.md "Listing and searching items").
 */
const trigramOperand = (expression: SQL, text: string): SQL => ([...text].length < trigramLength ? sql`(${expression} || '')` : expression);

/**
 * The case forms of each character of a short search text, when every character is ASCII: the
 * character, its other ASCII case, and the two characters outside ASCII that lower-case to an ASCII
 * letter (U+212A KELVIN SIGN to k, U+0130 capital I with dot to i). undefined for other text.
 */
function caseForms(text: string): string[][] | undefined {
  const forms: string[][] = [];
  for (const char of text) {
    if (char > '\u007f') return undefined;
    const lower = char.toLowerCase();
    const set = new Set([lower, char.toUpperCase()]);
    if (lower === 'k') set.add('\u212a');
    if (lower === 'i') set.add('\u0130');
    forms.push([...set]);
  }
  return forms;
}

/** Every spelling of a short text that ILIKE would match (caseForms' product); undefined when not all ASCII. */
export function caseVariants(text: string): string[] | undefined {
  const forms = caseForms(text);
  if (!forms) return undefined;
  return forms.reduce<string[]>((spellings, set) => spellings.flatMap((start) => set.map((char) => start + char)), ['']);
}

/**
 * The spellings a short search text (no trigram) the word index does not serve is tested with;
 * undefined for any other condition. A short search text: ILIKE lower-cases every row's
 * whole value before it compares, about 5 times the work of a case-sensitive LIKE, so an ASCII text
 * is tested as LIKE of each of its spellings (`ka`: `ka`, `kA`, `Ka`, `KA`, `\u212aa`, `\u212aA`) —
 * one pass over the table that a common term ends at the first spelling. See docs/content-storage.md
 * "Listing and searching items".
 */
function shortScanVariants(c: Cond): string[] | undefined {
  if (c.k !== 'contains' || (Array.isArray(c.words) && wordSearch(c)) || [...c.text].length >= trigramLength) return undefined;
  return caseVariants(c.text);
}

/** Whether a search condition is a short scan (shortScanVariants). */
export const shortScan = (c: Cond): boolean => shortScanVariants(c) !== undefined;

/**
 * Whether the word index declined a search condition: its text is held by too many tokens, or its
 * tokens are in too many rows (search-words.ts marks it 'many'). Such a text is in a large share of
 * the rows (at least 2 % by the statistics), so a page finds its rows sooner by walking the sort
 * index and testing each row than by collecting every match first.
 */
export const declinedSearch = (c: Cond): boolean => (c.k === 'contains' || c.k === 'refValue') && c.words === 'many';

/**
 * Whether no index serves a search condition's rows: a short scan or a search the word index
 * declined. Its page walks the sort index and stops after one page; its total is kept
 * (kept-search.ts). docs/content-storage.md "Listing and searching items".
 */
export const unservedSearch = (c: Cond): boolean => declinedSearch(c) || shortScan(c);

/** The whitespace the word index splits values at (content_words, migration 0012): ASCII's six. */
const wordBreak = /[ \t\n\r\f\v]/;

/** How the word index serves a search condition: the words function and the column; undefined when it cannot (text with whitespace, a field without a word index). */
export function wordSearch(c: Cond): { words: 'content_words' | 'content_ref_words'; column: string } | undefined {
  if (c.k !== 'contains' && c.k !== 'refValue') return undefined;
  if (!c.t.field || wordBreak.test(c.text)) return undefined;
  const words = wordsFunction(c.t.field);
  if (!words || (c.k === 'contains') !== (words === 'content_words')) return undefined;
  return { words, column: c.t.column };
}

/**
 * The rows whose words (`content_words`/`content_ref_words` of the column, covered by the field's
 * GIN word index) include one of the tokens: exactly the rows whose value holds the text the tokens
 * were read for (resolveSearchWords), case-insensitively, no row rechecked on the table. One `&&`
 * test per group of tokens (tuning.ts SearchWordLimits.perTest), the tests ORed.
 */
function holdsWord(words: string, column: string, groups: readonly (readonly string[])[]): SQL {
  if (groups.length === 0) return sql`false`;
  const tests = groups.map((tokens) => sql`${id(words)}(${id(column)}) && ${arrayLiteral(tokens)}::text[]`);
  return tests.length === 1 ? tests[0]! : sql`(${sql.join(tests, sql` or `)})`;
}

/**
 * A text array as PostgreSQL's array literal, sent as one text parameter: every element quoted,
 * with `\` and `"` escaped. A text parameter can also be written into a COPY statement as a
 * literal (csv-copy.ts inlineStatement), which an array parameter cannot.
 */
const arrayLiteral = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/** Escapes text for LIKE (backslash is the escape character). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function compileCond(c: Cond): SQL {
  switch (c.k) {
    case 'and':
    case 'or':
      return sql`(${sql.join(
        c.of.map(compileCond),
        c.k === 'and' ? sql` and ` : sql` or `,
      )})`;
    case 'not':
      // A condition on an unset value is unknown (null); "not" must still hold there.
      return sql`(not coalesce(${compileCond(c.of)}, false))`;
    case 'const':
      return c.value ? sql`true` : sql`false`;
    case 'cmp': {
      const e = expr(c.t);
      if (c.v === null) return c.op === '!=' ? sql`${e} is not null` : sql`${e} is null`;
      switch (c.op) {
        case '=':
          return equals(c.t, c.v);
        case '!=':
          return sql`${e} is distinct from ${param(c.t, c.v)}`;
        default:
          return sql`${e} ${sql.raw(c.op)} ${param(c.t, c.v)}`;
      }
    }
    case 'in': {
      const list = sql`(${e_in(c.t, c.vs)})`;
      return c.neg ? sql`(${expr(c.t)} is null or ${expr(c.t)} not in ${list})` : sql`${expr(c.t)} in ${list}`;
    }
    case 'regex':
      return sql`${expr(c.t)} ${sql.raw(c.ci ? '~*' : '~')} ${c.pattern}::text`;
    case 'exists':
      return c.yes ? sql`${expr(c.t)} is not null` : sql`${expr(c.t)} is null`;
    case 'refs': {
      const any = sql`(${sql.join(
        c.ids.map((ref) => sql`${id(c.t.column)} @> ${refsJson('itemRefID', ref)}`),
        sql` or `,
      )})`;
      return c.neg ? sql`(${id(c.t.column)} is null or not ${any})` : any;
    }
    case 'refValue': {
      // As text fields: some link's display value holds the text, case-insensitively.
      const served = wordSearch(c);
      if (served && Array.isArray(c.words)) return holdsWord(served.words, served.column, c.words);
      const member = c.t.searchMembers ?? 'value';
      const values = sql`jsonb_path_query(${id(c.t.column)}, ${sql.raw(`'$[*]."${member.replace(/\W/g, '')}"'`)})`;
      const exact = sql`exists (select 1 from ${values} as ${id('v')} where ${id('v')} #>> '{}' ilike ${`%${likeLiteral(c.text)}%`}::text)`;
      if (!c.t.searchMembers) return exact;
      // The trigram index covers the JSON text of the list of display values. JSON escapes each
      // character on its own (PostgreSQL writes what JSON.stringify writes), so a value holding the
      // text puts the escaped text in the list's JSON: a test the index serves, which the exact test
      // then decides (the list's JSON also holds quotes and commas between the values).
      const listed = targetExpression(c.t.column, { of: 'members', member: c.t.searchMembers });
      const escaped = JSON.stringify(c.text).slice(1, -1);
      return sql`(${trigramOperand(listed, escaped)} ilike ${`%${likeLiteral(escaped)}%`}::text and ${exact})`;
    }
    case 'contains': {
      // Text without whitespace whose tokens were read: the word index (exact). Otherwise (text with
      // whitespace, at least 3 characters as terms are trimmed; a text too many tokens hold; a
      // statement built without reading the tokens) the trigram index, each candidate rechecked.
      const served = wordSearch(c);
      if (served && Array.isArray(c.words)) return holdsWord(served.words, served.column, c.words);
      const variants = shortScanVariants(c);
      if (variants) {
        const operand = trigramOperand(sql`${id(c.t.column)}`, c.text);
        return sql`(${sql.join(
          variants.map((variant) => sql`${operand} like ${`%${likeLiteral(variant)}%`}::text`),
          sql` or `,
        )})`;
      }
      if (c.words === 'many') {
        // A declined text is in many rows: tested row by row as the sort index is walked (an operand
        // no index covers, so the planner does not collect every match through the trigram index).
        // Most values holding it hold it as typed in lower case: a LIKE, which stops at the first
        // occurrence, decides those; ILIKE (which lower-cases the whole value first, several times the
        // cost) only the rest. An ASCII text's lower case is the same in JavaScript and PostgreSQL,
        // and a value holding it holds the text in ILIKE's sense, so the test is ILIKE's exactly.
        const operand = sql`(${id(c.t.column)} || '')`;
        const ilike = sql`${operand} ilike ${`%${likeLiteral(c.text)}%`}::text`;
        return [...c.text].every((char) => char <= '\u007f') ? sql`(${operand} like ${`%${likeLiteral(c.text.toLowerCase())}%`}::text or ${ilike})` : ilike;
      }
      return sql`${trigramOperand(sql`${id(c.t.column)}`, c.text)} ilike ${`%${likeLiteral(c.text)}%`}::text`;
    }
    case 'within': {
      const exact = withinExact(c.t, c.shape);
      const boxes = withinBoxes(c.shape);
      const point = indexedPoint(c.t);
      if (!point || boxes === 'all') return exact;
      // The GiST index over the point finds the rows in the boxes (a superset); the exact test decides.
      const inBox = (b: Box) =>
        sql`${point} <@ box(point(${b.minLng}::double precision, ${b.minLat}::double precision), point(${b.maxLng}::double precision, ${b.maxLat}::double precision))`;
      const served = boxes.length === 1 ? inBox(boxes[0]!) : sql`(${sql.join(boxes.map(inBox), sql` or `)})`;
      return sql`(${served} and ${exact})`;
    }
    case 'elem':
      return sql`exists (select 1 from ${id(c.child.table)} where ${id(c.child.table)}.${id('_parent_id')} = ${id(c.parent.table)}.${id('_id')} and ${compileCond(c.cond)})`;
  }
}

const e_in = (t: Target, values: Scalar[]) =>
  sql.join(
    values.map((v) => param(t, v)),
    sql`, `,
  );

/** The pieces of a list statement, so a caller (a page, a count, a CSV export in batches) can assemble its own. */
export interface CompiledList {
  table: SQL;
  select: SQL;
  /** Every condition, the parent scope of a nested list included (`true` when none). */
  where: SQL;
  orderBy: SQL;
  limit: number;
  offset: number;
  /** Whether conditions beyond the parent scope apply (otherwise the kept counts serve the total). */
  filtered: boolean;
  /** The sort expression (before the `_id` tie-break) and its direction. */
  sortExpression: SQL;
  desc: boolean;
  /**
   * Whether the conditions hold a text search (`contains`, linked items' display values), whose
   * rows come from the trigram indexes with every candidate rechecked on the table: a page with its
   * total then finds the matching rows once (`pageWithTotalStatement`).
   */
  searched: boolean;
}

/** Whether a condition tree holds a text search condition that passes `test`. */
function someSearch(c: Cond, test: (search: Cond) => boolean): boolean {
  switch (c.k) {
    case 'contains':
    case 'refValue':
      return test(c);
    case 'and':
    case 'or':
      return c.of.some((inner) => someSearch(inner, test));
    case 'not':
      return someSearch(c.of, test);
    default:
      return false;
  }
}

/** Whether a condition tree holds a text search condition. */
export const holdsSearch = (c: Cond): boolean => someSearch(c, () => true);

/**
 * Whether a condition tree holds a text search an index serves (the word or trigram indexes), whose
 * matching rows a page with its total finds once; a tree whose searches no index serves
 * (unservedSearch) is read as any filter is: the page on the sort index, the total kept.
 */
export const holdsIndexedSearch = (c: Cond): boolean => someSearch(c, (search) => !unservedSearch(search));

/** Whether a condition tree holds a search no index serves (its total is kept: kept-search.ts). */
export const holdsUnservedSearch = (c: Cond): boolean => someSearch(c, unservedSearch);

/** Compiles the list of a level (of one parent, for a nested level). */
export function compileListQuery(level: SchemaLevel, q: ListQuery, scope: { parentId?: string | undefined } = {}): CompiledList {
  const conds: SQL[] = [];
  if (level.parentTable) conds.push(sql`${id('_parent_id')} = ${scope.parentId ?? ''}::text`);
  if (q.where) conds.push(compileCond(q.where));
  const direction = sql.raw(q.desc ? 'desc' : 'asc');
  const sortExpression = q.sort ? targetExpression(q.sort.column, q.sort.sortKey!) : sql`${id('_rank')}`;
  return {
    table: sql`${id(level.table)}`,
    select: selectList(level),
    where: conds.length ? sql.join(conds, sql` and `) : sql`true`,
    // Ties are broken by _id in the same direction, so the (value, _id) index serves both ways.
    orderBy: sql`${sortExpression} ${direction}, ${id('_id')} ${direction}`,
    limit: q.perPage,
    offset: (q.pageNumber - 1) * q.perPage,
    filtered: q.where !== undefined,
    sortExpression,
    desc: q.desc,
    // A search no index serves makes the matches many: the page then walks the sort index instead.
    searched: q.where !== undefined && holdsIndexedSearch(q.where) && !holdsUnservedSearch(q.where),
  };
}

/**
 * A page with the total matching (`total`, a scalar subquery: the count, or a kept counter) in
 * one statement, in one of three forms:
 * - a search: the matching rows' ids and sort values are found once (a materialized CTE), the
 *   total counts them and the page is sorted from them, so the trigram indexes are read and every
 *   candidate rechecked once instead of twice (`countStatement`'s WHERE is the CTE's);
 * - a deep page (`deferredFrom` and on): the page's ids are found in the index alone first, then
 *   their rows read (a deferred join), so the rows skipped are never fetched from the table;
 * - otherwise the page with the total as an uncorrelated subquery PostgreSQL computes once.
 */
export function pageWithTotalStatement(c: CompiledList, parts: { total: SQL; deferredFrom: number; select?: SQL }): SQL {
  const { total, deferredFrom } = parts;
  const select = parts.select ?? c.select;
  const _id = id('_id');
  if (c.searched && c.filtered) {
    const direction = sql.raw(c.desc ? 'desc' : 'asc');
    const matches = id('__matches');
    return sql`with ${matches} as materialized (select ${_id}, ${c.sortExpression} as ${id('__sort')} from ${c.table} where ${c.where})
      select ${select}, (select count(*) from ${matches})::integer as __total from ${c.table}
      where ${_id} in (select ${_id} from ${matches} order by ${id('__sort')} ${direction}, ${_id} ${direction} limit ${c.limit} offset ${c.offset})
      order by ${c.orderBy}`;
  }
  if (c.offset >= deferredFrom) {
    return sql`select ${select}, ${total}::integer as __total from ${c.table} where ${_id} in (select ${_id} from ${c.table} where ${c.where} order by ${c.orderBy} limit ${c.limit} offset ${c.offset}) order by ${c.orderBy}`;
  }
  return sql`select ${select}, ${total}::integer as __total from ${c.table} where ${c.where} order by ${c.orderBy} limit ${c.limit} offset ${c.offset}`;
}

export const pageStatement = (c: CompiledList): SQL =>
  sql`select ${c.select} from ${c.table} where ${c.where} order by ${c.orderBy} limit ${c.limit} offset ${c.offset}`;

export const countStatement = (c: CompiledList): SQL => sql`select count(*)::integer as n from ${c.table} where ${c.where}`;

/**
 * The total of a top-level list whose only condition is an Option field equal to a choice (or to
 * any of several), read from the counts kept per choice (migration 0010: delta rows summed) instead
 * of counting the matching index entries; undefined for any other list.
 *
 * Also the total of none of several choices (`$nin`, which holds the items without a choice too),
 * alone or or-ed with `$exists: false` on the same field (the kanban's Unset column):
 * the collection's item count minus those choices' kept counts, where counting the rows would scan
 * the whole table (no index serves `not in`).
 */
export function keptOptionTotal(level: SchemaLevel, where: Cond | undefined): SQL | undefined {
  if (!where || level.parentTable) return undefined;
  let t: Target;
  let values: Scalar[];
  let none = false;
  // `$nin` is parsed as `not` of an `in`, which (compiled with coalesce) also holds the items without a value.
  const noneOf = (c: Cond | undefined) => (c?.k === 'in' && c.neg ? c : c?.k === 'not' && c.of.k === 'in' && !c.of.neg ? c.of : undefined);
  const orNone = where.k === 'or' && where.of.length === 2 ? where.of.findIndex((c) => noneOf(c)) : -1;
  const unsetOr = where.k === 'or' && orNone >= 0 ? { none: noneOf(where.of[orNone])!, other: where.of[1 - orNone]! } : undefined;
  if (where.k === 'cmp' && where.op === '=' && where.v !== null) [t, values] = [where.t, [where.v]];
  else if (where.k === 'in' && !where.neg) [t, values] = [where.t, where.vs];
  else if (noneOf(where)) [t, values, none] = [noneOf(where)!.t, noneOf(where)!.vs, true];
  else if (unsetOr && unsetOr.other.k === 'exists' && !unsetOr.other.yes && unsetOr.other.t.column === unsetOr.none.t.column) [t, values, none] = [unsetOr.none.t, unsetOr.none.vs, true];
  else return undefined;
  if (t.kind !== 'option' || !t.field || !t.member || countedMember(level, t.field) !== t.member || !values.every((v) => typeof v === 'string')) return undefined;
  const collection = collectionIdOf(level);
  const keys = values.length
    ? sql.join(
        values.map((v) => sql`${v}::text`),
        sql`, `,
      )
    : sql`null::text`;
  const chosen = sql`select coalesce(sum(n), 0)::integer from item_option_counts where collection_id = ${collection}::text and field_column = ${t.column}::text and option_id in (${keys})`;
  return none ? sql`select (select item_count from content_collections where id = ${collection}::text)::integer - (${chosen})` : chosen;
}
