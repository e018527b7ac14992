/**
 * Parses and checks the parameters of a list: pure,
 * against the schema level only. Every refusal is a 400 naming the parameter and its bad part.
 */
import { isPlainObject, unstorableJson, unstorableText } from '../../../definitions/field-types/support.ts';
import type { FilterOperator } from '../../../definitions/field-types/index.ts';
import { childLevel, type SchemaLevel } from '../schema-tree.ts';
import { parsePipeline, type Stage } from './aggregate.ts';
import { and, coerce, parseGeoShape, type Cond, type Scalar } from './conditions.ts';
import { queryError } from './errors.ts';
import { checkRegex } from './regex.ts';
import { nestedField, projectableKeys, searchTargets, targetOf, type Target } from './targets.ts';
import { paging } from '../../../definitions/constants.ts';
import type { ListParams } from '../../../definitions/schemas/list-params.ts';

/** The list parameters (definitions/schemas/list-params.ts) as they arrive: strings from a query string, numbers after coercion. */
export type RawListParams = { [K in Exclude<keyof ListParams, 'download' | 'pagination'>]?: unknown };

export interface ListQuery {
  pageNumber: number;
  /** 0 asks for the count only. */
  perPage: number;
  /** The key sorted by; undefined means rank order. */
  sort: Target | undefined;
  desc: boolean;
  /** Every condition together; undefined when the list is unfiltered. */
  where: Cond | undefined;
  projection: { on: string[] } | { off: string[] } | undefined;
  pipeline: Stage[] | undefined;
  /** false: the caller asked for no total (`total=false`); nothing is counted. */
  total?: boolean;
}

export const listLimits = {
  defaultPerPage: paging.defaultPageSize,
  perPageMax: paging.perPageMax,
  pageNumberMax: paging.pageNumberMax,
  /** find, filter and aggregationPipeline, as JSON text. */
  jsonMax: 20_000,
  jsonDepthMax: 8,
  conditionsMax: 200,
  inValuesMax: 1000,
  queryTermsMax: 50,
  searchMax: paging.searchMaxChars,
  searchTermsMax: 16,
} as const;

const operators: readonly FilterOperator[] = ['=', '!=', '>', '<', 'regex', 'within'];

const integerText = /^\s*\d+\s*$/;

function integer(raw: unknown, path: string, min: number, max: number, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && integerText.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw queryError('invalid_query', path, `must be a whole number from ${min} to ${max}`);
  return n;
}

const text = (raw: unknown, path: string): string | undefined => {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw queryError('invalid_query', path, 'must be given once, as text');
  return raw;
};

export function requireOperator(t: Target, op: FilterOperator, path: string) {
  if (!t.operators.includes(op)) {
    const allowed = t.operators.length ? `it takes ${t.operators.join(' ')}` : 'it cannot be filtered';
    throw queryError('operator_not_allowed', path, `${t.key} does not take the operator ${op}: ${allowed}`);
  }
}

function target(level: SchemaLevel, key: string, path: string): Target {
  const t = targetOf(level, key);
  if (!t) throw queryError('unknown_field', path, `"${key}" is not a field of this list`);
  return t;
}

const refIds = (values: unknown[], path: string): string[] => {
  const ids = values.map((v) => (isPlainObject(v) ? v.itemRefID : v));
  if (ids.length === 0 || ids.length > listLimits.inValuesMax || ids.some((id) => typeof id !== 'string' || id === '' || unstorableText(id) !== undefined)) {
    throw queryError('invalid_query', path, `must name 1 to ${listLimits.inValuesMax} item ids`);
  }
  return ids as string[];
};

/** One `key operator value` condition, shared by `query` and `filter` (values are text or JSON scalars). */
function termCond(level: SchemaLevel, key: string, op: string, value: unknown, path: string): Cond {
  const t = target(level, key, path);
  if (!(operators as readonly string[]).includes(op)) throw queryError('invalid_query', path, `"${op}" is not an operator (use = != > < regex within)`);
  const operator = op as FilterOperator;
  requireOperator(t, operator, path);
  if (t.kind === 'refs') {
    const ids = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((id) => id.trim()).filter(Boolean) : [value];
    return { k: 'refs', t, ids: refIds(ids, path), neg: operator === '!=' };
  }
  if (operator === 'within') {
    if (typeof value !== 'string') throw queryError('invalid_query', path, 'within takes "lat,lng,meters" or "minLat,minLng,maxLat,maxLng"');
    return { k: 'within', t, shape: parseGeoShape(value, path) };
  }
  if (operator === 'regex') return { k: 'regex', t, pattern: checkRegex(value, path), ci: true };
  return { k: 'cmp', t, op: operator, v: coerce(t, value, path) };
}

/** `query`: `key:operator:value` terms joined by `+` (the value may hold `:`). */
export function parseQueryTerms(level: SchemaLevel, raw: string): Cond[] {
  const terms = raw.split('+').filter((term) => term.trim() !== '');
  if (terms.length > listLimits.queryTermsMax) throw queryError('invalid_query', 'query', `may hold at most ${listLimits.queryTermsMax} terms`);
  return terms.map((term, i) => {
    const first = term.indexOf(':');
    const second = first < 0 ? -1 : term.indexOf(':', first + 1);
    if (second < 0) throw queryError('invalid_query', `query.${i}`, `"${term}" is not key:operator:value`);
    return termCond(level, term.slice(0, first).trim(), term.slice(first + 1, second).trim(), term.slice(second + 1), `query.${i}`);
  });
}

function parseJson(raw: string, path: string): unknown {
  if (raw.length > listLimits.jsonMax) throw queryError('invalid_query', path, `must be at most ${listLimits.jsonMax} characters`);
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch (error) {
    throw queryError('malformed_json', path, `is not valid JSON (${(error as Error).message})`);
  }
  const problem = unstorableJson(value);
  if (problem) throw queryError('invalid_query', path, `holds a value that ${problem}`);
  return value;
}

const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * `filter`: the console's filter control state, JSON: one Filter entity or a list of them (all
 * must hold), each `{fieldName?, key, operator, filterValue?, refFilterVal?}`. `key` is the
 * field's slug (or a system key), `fieldName` is shown only; ItemRef filters take `refFilterVal`,
 * a list of item ids or `{itemRefID}` entries. An entry with nothing set is ignored.
 */
export function parseFilter(level: SchemaLevel, raw: string): Cond[] {
  const value = parseJson(raw, 'filter');
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length > listLimits.queryTermsMax) throw queryError('invalid_query', 'filter', `may hold at most ${listLimits.queryTermsMax} filters`);
  const conds: Cond[] = [];
  entries.forEach((entry, i) => {
    const path = `filter.${i}`;
    if (!isPlainObject(entry)) throw queryError('invalid_query', path, 'must be {key, operator, filterValue}');
    const known = ['fieldName', 'key', 'operator', 'filterValue', 'refFilterVal', 'field'];
    const extra = Object.keys(entry).find((k) => !known.includes(k));
    if (extra) throw queryError('invalid_query', `${path}.${extra}`, 'is not a property of a filter');
    const hasValue = !blank(entry.filterValue) || !blank(entry.refFilterVal);
    if (blank(entry.key) || blank(entry.operator)) {
      if (hasValue) throw queryError('invalid_query', path, 'Please select a field and operator');
      return;
    }
    if (typeof entry.key !== 'string' || typeof entry.operator !== 'string') throw queryError('invalid_query', path, 'key and operator must be text');
    if (!hasValue) return;
    const given = blank(entry.refFilterVal) ? entry.filterValue : entry.refFilterVal;
    if (!['string', 'number', 'boolean'].includes(typeof given) && !(Array.isArray(given) && targetOf(level, entry.key)?.kind === 'refs')) {
      throw queryError('invalid_query', `${path}.filterValue`, 'must be text, a number or true/false');
    }
    conds.push(termCond(level, entry.key, entry.operator, given, path));
  });
  return conds;
}

const findOperators = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$regex', '$options', '$exists', '$elemMatch'];

interface FindState {
  conditions: number;
}

function findOperator(t: Target, op: string, value: unknown, all: Record<string, unknown>, path: string): Cond | undefined {
  const p = `${path}.${op}`;
  switch (op) {
    case '$eq':
    case '$ne': {
      const negate = op === '$ne';
      if (value === null) return { k: 'exists', t, yes: negate };
      requireOperator(t, negate ? '!=' : '=', p);
      if (t.kind === 'refs') return { k: 'refs', t, ids: refIds([value], p), neg: negate };
      return { k: 'cmp', t, op: negate ? '!=' : '=', v: coerce(t, value, p) };
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      requireOperator(t, op.startsWith('$g') ? '>' : '<', p);
      return { k: 'cmp', t, op: ({ $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const)[op], v: coerce(t, value, p) };
    case '$in':
    case '$nin': {
      const negate = op === '$nin';
      requireOperator(t, negate ? '!=' : '=', p);
      if (!Array.isArray(value) || value.length > listLimits.inValuesMax) throw queryError('invalid_query', p, `must be a list of at most ${listLimits.inValuesMax} values`);
      if (t.kind === 'refs') return value.length ? { k: 'refs', t, ids: refIds(value, p), neg: negate } : { k: 'const', value: negate };
      const values: Scalar[] = value.filter((v) => v !== null).map((v, i) => coerce(t, v, `${p}.${i}`));
      const withNull = value.includes(null);
      const inList: Cond = values.length ? { k: 'in', t, vs: values, neg: false } : { k: 'const', value: false };
      const matched: Cond = withNull ? { k: 'or', of: [inList, { k: 'exists', t, yes: false }] } : inList;
      return negate ? { k: 'not', of: matched } : matched;
    }
    case '$regex': {
      requireOperator(t, 'regex', p);
      const options = all.$options;
      if (options !== undefined && options !== '' && options !== 'i') throw queryError('invalid_query', `${path}.$options`, 'only "i" (ignore case) is supported');
      return { k: 'regex', t, pattern: checkRegex(value, p), ci: options === 'i' };
    }
    case '$options':
      if (all.$regex === undefined) throw queryError('invalid_query', p, 'goes with $regex');
      return undefined;
    case '$exists':
      if (typeof value !== 'boolean') throw queryError('invalid_query', p, 'must be true or false');
      return { k: 'exists', t, yes: value };
    case '$elemMatch':
      throw queryError('invalid_query', p, `${t.key} is not a nested collection`);
    default:
      throw queryError('invalid_query', p, `"${op}" is not a supported operator (${findOperators.filter((o) => o !== '$options').join(' ')})`);
  }
}

function parseFindObject(level: SchemaLevel, value: unknown, path: string, depth: number, state: FindState): Cond {
  if (depth > listLimits.jsonDepthMax) throw queryError('invalid_query', path, `is nested more than ${listLimits.jsonDepthMax} levels deep`);
  if (!isPlainObject(value)) throw queryError('invalid_query', path, 'must be an object of conditions');
  const conds: Cond[] = [];
  for (const [key, entry] of Object.entries(value)) {
    const p = path ? `${path}.${key}` : key;
    if (++state.conditions > listLimits.conditionsMax) throw queryError('invalid_query', p, `find may hold at most ${listLimits.conditionsMax} conditions`);
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(entry) || entry.length === 0) throw queryError('invalid_query', p, 'must be a non-empty list of conditions');
      const parts = entry.map((part, i) => parseFindObject(level, part, `${p}.${i}`, depth + 1, state));
      conds.push(key === '$and' ? and(parts) : { k: 'or', of: parts });
      continue;
    }
    if (key.startsWith('$')) throw queryError('invalid_query', p, `"${key}" is not supported here (use $and, $or or a field)`);
    const nested = nestedField(level, key);
    if (nested) {
      if (!isPlainObject(entry) || Object.keys(entry).length !== 1 || !isPlainObject(entry.$elemMatch)) {
        throw queryError('invalid_query', p, 'a nested collection is matched with {"$elemMatch": {…}}');
      }
      const child = childLevel(level, nested);
      conds.push({ k: 'elem', parent: level, child, cond: parseFindObject(child, entry.$elemMatch, `${p}.$elemMatch`, depth + 1, state) });
      continue;
    }
    const t = target(level, key, p);
    const isOperators = isPlainObject(entry) && Object.keys(entry).some((k) => k.startsWith('$'));
    if (isOperators) {
      const ops = entry as Record<string, unknown>;
      if (Object.keys(ops).some((k) => !k.startsWith('$'))) throw queryError('invalid_query', p, 'mixes operators and values');
      for (const [op, v] of Object.entries(ops)) {
        const cond = findOperator(t, op, v, ops, p);
        if (cond) conds.push(cond);
      }
    } else {
      conds.push(findOperator(t, '$eq', entry, {}, p)!);
    }
  }
  return conds.length ? and(conds) : { k: 'const', value: true };
}

/** `find`: a safe subset of MongoDB's filter JSON (see docs/content-storage.md "Listing and searching items"). */
export function parseFind(level: SchemaLevel, raw: string): Cond {
  return parseFindObject(level, parseJson(raw, 'find'), 'find', 0, { conditions: 0 });
}

/**
 * The text search: terms separated by `|`, any of which may match `_id` exactly, a text field
 * (PlainText, RichText, Phone, Link) as a case-insensitive substring, a number by equality or an
 * ItemRef by a linked item's display value.
 */
export function parseSearch(level: SchemaLevel, raw: string, path = 'search'): Cond | undefined {
  if (raw.length > listLimits.searchMax) throw queryError('invalid_query', path, `must be at most ${listLimits.searchMax} characters`);
  const problem = unstorableText(raw);
  if (problem) throw queryError('invalid_query', path, problem);
  const terms = [...new Set(raw.split('|').map((term) => term.trim()).filter(Boolean))];
  if (terms.length === 0) return undefined;
  if (terms.length > listLimits.searchTermsMax) throw queryError('invalid_query', path, `may hold at most ${listLimits.searchTermsMax} terms`);
  const idTarget = targetOf(level, '_id')!;
  const targets = searchTargets(level);
  const conds: Cond[] = [];
  for (const term of terms) {
    conds.push({ k: 'cmp', t: idTarget, op: '=', v: term });
    for (const t of targets) {
      if (t.kind === 'text' && t.search === 'regex') conds.push({ k: 'contains', t, text: term });
      else if (t.kind === 'refs') conds.push({ k: 'refValue', t, text: term });
      else if (t.kind === 'number' && t.search === 'equals') {
        const n = Number(term);
        if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(term) && Number.isFinite(n)) conds.push({ k: 'cmp', t, op: '=', v: n === 0 ? 0 : n });
      }
    }
  }
  return { k: 'or', of: conds };
}

function keyList(level: SchemaLevel, raw: string, path: string): string[] {
  const keys = raw.split(',').map((key) => key.trim()).filter(Boolean);
  const known = projectableKeys(level);
  const unknown = keys.find((key) => !known.includes(key));
  if (unknown !== undefined) throw queryError('unknown_field', path, `"${unknown}" is not a field of this list`);
  return keys;
}

/** Parses every list parameter against a schema level. */
export function parseListQuery(level: SchemaLevel, raw: RawListParams, defaults: { perPage?: number } = {}): ListQuery {
  const pageNumber = integer(raw.pageNumber, 'pageNumber', 1, listLimits.pageNumberMax, 1);
  const perPage = integer(raw.perPage, 'perPage', 0, listLimits.perPageMax, defaults.perPage ?? listLimits.defaultPerPage);

  const sortKey = text(raw.sort, 'sort');
  let sort: Target | undefined;
  if (sortKey) {
    sort = target(level, sortKey, 'sort');
    if (!sort.sortKey || sort.key !== sortKey) throw queryError('invalid_query', 'sort', `${sortKey} cannot be sorted by`);
  }
  const order = text(raw.order, 'order')?.trim().toLowerCase();
  if (order && order !== 'asc' && order !== 'desc') throw queryError('invalid_query', 'order', 'must be asc or desc');

  const conds: Cond[] = [];
  const query = text(raw.query, 'query');
  if (query) conds.push(...parseQueryTerms(level, query));
  const filter = text(raw.filter, 'filter');
  if (filter && filter.trim()) conds.push(...parseFilter(level, filter));
  const find = text(raw.find, 'find');
  if (find && find.trim()) conds.push(parseFind(level, find));
  const search = text(raw.search, 'search');
  const searched = search === undefined ? undefined : parseSearch(level, search);
  if (searched) conds.push(searched);

  const on = text(raw.projectOn, 'projectOn');
  const off = text(raw.projectOff, 'projectOff');
  if (on && off) throw queryError('invalid_query', 'projectOn', 'cannot be combined with projectOff');
  const projection = on ? { on: keyList(level, on, 'projectOn') } : off ? { off: keyList(level, off, 'projectOff') } : undefined;

  const pipelineText = text(raw.aggregationPipeline, 'aggregationPipeline');
  const pipeline = pipelineText && pipelineText.trim() ? parsePipeline(level, parseJson(pipelineText, 'aggregationPipeline'), (lvl, v, p) => parseFindObject(lvl, v, p, 1, { conditions: 0 })) : undefined;

  const totalText = text(raw.total, 'total')?.trim().toLowerCase();
  if (totalText !== undefined && totalText !== 'true' && totalText !== 'false') throw queryError('invalid_query', 'total', 'must be true or false');

  const where = conds.filter((c) => !(c.k === 'const' && c.value));
  return {
    ...(totalText === 'false' ? { total: false } : {}),
    pageNumber,
    perPage,
    sort,
    desc: order === 'desc',
    where: where.length ? and(where) : undefined,
    projection,
    pipeline,
  };
}
