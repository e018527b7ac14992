/**
 * `aggregationPipeline`: a safe subset of MongoDB's pipeline — $match $sort $skip $limit $project
 * $count $group (with $sum $avg $min $max). Leading $match/$sort/$skip/$limit stages are compiled
 * onto the item table like a list (typed columns, indexes); the stages after the first reshaping
 * one run in SQL over JSON documents. Any other stage is refused, naming it.
 */
import { sql, type SQL } from 'drizzle-orm';
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import type { SchemaLevel } from '../schema-tree.ts';
import { columnTypeOf } from '../storage.ts';
import { columnFields, fieldColumn } from '../schema-tree.ts';
import type { Cond } from './conditions.ts';
import { queryError } from './errors.ts';
import { checkRegex } from './regex.ts';
import { targetOf, type Target } from './targets.ts';

export const supportedStages = ['$match', '$sort', '$skip', '$limit', '$project', '$count', '$group'] as const;
const accumulators = ['$sum', '$avg', '$min', '$max'] as const;

type SortSpec = { path: string[]; desc: boolean }[];
type GroupKey = { kind: 'path'; path: string[] } | { kind: 'const'; value: unknown } | { kind: 'object'; of: [string, GroupKey][] };
type Accumulator = { name: string; op: (typeof accumulators)[number]; arg: { kind: 'path'; path: string[] } | { kind: 'const'; value: number } };

/** A document condition (after a reshaping stage): paths into JSON documents. */
export type DocCond =
  | { k: 'and' | 'or'; of: DocCond[] }
  | { k: 'cmp'; path: string[]; op: '=' | '!=' | '>' | '>=' | '<' | '<='; v: unknown }
  | { k: 'in'; path: string[]; vs: unknown[]; neg: boolean }
  | { k: 'exists'; path: string[]; yes: boolean }
  | { k: 'regex'; path: string[]; pattern: string; ci: boolean };

export type Stage =
  | { kind: 'match'; cond: Cond } // on items (before reshaping)
  | { kind: 'docMatch'; cond: DocCond }
  | { kind: 'sort'; items?: { t: Target; desc: boolean }[]; docs: SortSpec }
  | { kind: 'skip' | 'limit'; n: number }
  | { kind: 'project'; include: boolean; keys: string[]; keepId: boolean }
  | { kind: 'count'; name: string }
  | { kind: 'group'; key: GroupKey; accumulators: Accumulator[] };

const pathOf = (text: string) => text.split('.');
const dateCall = /^Date\((\d{4}-\d{2}-\d{2})\)$/;
/** JSON documents carry dates as ISO text; `Date(YYYY-MM-DD)` is that day's UTC midnight. */
const docValue = (v: unknown): unknown => (typeof v === 'string' && dateCall.test(v) ? `${dateCall.exec(v)![1]}T00:00:00.000Z` : v);

function parseDocCond(value: unknown, path: string, depth: number): DocCond {
  if (depth > 8) throw queryError('invalid_query', path, 'is nested too deeply');
  if (!isPlainObject(value)) throw queryError('invalid_query', path, 'must be an object of conditions');
  const of: DocCond[] = [];
  for (const [key, entry] of Object.entries(value)) {
    const p = `${path}.${key}`;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(entry) || !entry.length) throw queryError('invalid_query', p, 'must be a non-empty list of conditions');
      of.push({ k: key === '$and' ? 'and' : 'or', of: entry.map((e, i) => parseDocCond(e, `${p}.${i}`, depth + 1)) });
      continue;
    }
    if (key.startsWith('$')) throw queryError('invalid_query', p, `"${key}" is not supported here`);
    const docPath = pathOf(key);
    const ops = isPlainObject(entry) && Object.keys(entry).some((k) => k.startsWith('$')) ? entry : { $eq: entry };
    for (const [op, v] of Object.entries(ops)) {
      const q = `${p}.${op}`;
      if (op === '$eq' || op === '$ne') of.push({ k: 'cmp', path: docPath, op: op === '$eq' ? '=' : '!=', v: docValue(v) });
      else if (op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte') {
        of.push({ k: 'cmp', path: docPath, op: ({ $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const)[op], v: docValue(v) });
      } else if (op === '$in' || op === '$nin') {
        if (!Array.isArray(v) || v.length > 1000) throw queryError('invalid_query', q, 'must be a list of at most 1000 values');
        of.push({ k: 'in', path: docPath, vs: v.map(docValue), neg: op === '$nin' });
      } else if (op === '$exists') {
        if (typeof v !== 'boolean') throw queryError('invalid_query', q, 'must be true or false');
        of.push({ k: 'exists', path: docPath, yes: v });
      } else if (op === '$regex') {
        const options = (ops as Record<string, unknown>).$options;
        if (options !== undefined && options !== '' && options !== 'i') throw queryError('invalid_query', `${p}.$options`, 'only "i" is supported');
        of.push({ k: 'regex', path: docPath, pattern: checkRegex(v, q), ci: options === 'i' });
      } else if (op !== '$options') throw queryError('invalid_query', q, `"${op}" is not a supported operator`);
    }
  }
  return of.length === 1 ? of[0]! : { k: 'and', of };
}

function parseGroupKey(value: unknown, path: string): GroupKey {
  if (typeof value === 'string' && value.startsWith('$')) return { kind: 'path', path: pathOf(value.slice(1)) };
  if (isPlainObject(value)) return { kind: 'object', of: Object.entries(value).map(([k, v]) => [k, parseGroupKey(v, `${path}.${k}`)]) };
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return { kind: 'const', value };
  throw queryError('invalid_query', path, 'must be "$field", a constant or an object of them');
}

const count = (value: unknown, path: string, min: number) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 1_000_000_000) throw queryError('invalid_query', path, `must be a whole number of at least ${min}`);
  return value;
};

/** Parses and checks a pipeline; `level` serves the stages that run on items. */
export function parsePipeline(level: SchemaLevel, value: unknown, parseFindValue: (level: SchemaLevel, value: unknown, path: string) => Cond): Stage[] {
  if (!Array.isArray(value)) throw queryError('invalid_query', 'aggregationPipeline', 'must be a list of stages');
  if (value.length > 20) throw queryError('invalid_query', 'aggregationPipeline', 'may hold at most 20 stages');
  const stages: Stage[] = [];
  // Stages run on items (typed columns) until the first stage that cannot be written as a list's WHERE/ORDER/OFFSET/LIMIT.
  let onItems = true;
  let paged = false;
  value.forEach((stage, i) => {
    const path = `aggregationPipeline.${i}`;
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) throw queryError('invalid_query', path, 'must be an object with one stage, such as {"$match": {…}}');
    const [name, arg] = Object.entries(stage)[0]!;
    const p = `${path}.${name}`;
    if (!(supportedStages as readonly string[]).includes(name)) {
      throw queryError('unsupported_stage', path, `the stage ${name} is not supported (use ${supportedStages.join(' ')})`);
    }
    switch (name) {
      case '$match': {
        if (onItems && !paged) {
          // Items: the same checks as `find` (fields, operators allowed by their types).
          stages.push({ kind: 'match', cond: parseFindValue(level, arg, p) });
        } else stages.push({ kind: 'docMatch', cond: parseDocCond(arg, p, 0) });
        return;
      }
      case '$sort': {
        if (!isPlainObject(arg) || Object.keys(arg).length === 0 || Object.keys(arg).length > 8) throw queryError('invalid_query', p, 'must be {"field": 1 or -1, …}');
        const docs: SortSpec = Object.entries(arg).map(([key, dir]) => {
          if (dir !== 1 && dir !== -1) throw queryError('invalid_query', `${p}.${key}`, 'must be 1 or -1');
          return { path: pathOf(key), desc: dir === -1 };
        });
        if (onItems && !paged) {
          const items = Object.entries(arg).map(([key, dir]) => {
            const t = targetOf(level, key);
            if (!t || t.key !== key) throw queryError('unknown_field', `${p}.${key}`, `"${key}" is not a field of this list`);
            if (!t.sortKey) throw queryError('invalid_query', `${p}.${key}`, `${key} cannot be sorted by`);
            return { t, desc: dir === -1 };
          });
          stages.push({ kind: 'sort', items, docs });
        } else stages.push({ kind: 'sort', docs });
        return;
      }
      case '$skip':
      case '$limit':
        paged = true;
        stages.push({ kind: name === '$skip' ? 'skip' : 'limit', n: count(arg, p, name === '$skip' ? 0 : 1) });
        return;
      case '$project': {
        onItems = false;
        if (!isPlainObject(arg) || Object.keys(arg).length === 0) throw queryError('invalid_query', p, 'must be {"field": 1, …} or {"field": 0, …}');
        const entries = Object.entries(arg);
        for (const [key, v] of entries) if (![0, 1, true, false].includes(v as number)) throw queryError('invalid_query', `${p}.${key}`, 'must be 1 or 0 (expressions are not supported)');
        const others = entries.filter(([key]) => key !== '_id');
        const include = others.length ? Boolean(others[0]![1]) : true;
        if (others.some(([, v]) => Boolean(v) !== include)) throw queryError('invalid_query', p, 'cannot mix inclusion and exclusion');
        const idEntry = entries.find(([key]) => key === '_id');
        stages.push({ kind: 'project', include, keys: others.map(([key]) => key), keepId: idEntry ? Boolean(idEntry[1]) : true });
        return;
      }
      case '$count':
        onItems = false;
        if (typeof arg !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(arg)) throw queryError('invalid_query', p, 'must name the output field');
        stages.push({ kind: 'count', name: arg });
        return;
      case '$group': {
        onItems = false;
        if (!isPlainObject(arg) || !('_id' in arg)) throw queryError('invalid_query', p, 'must be {"_id": …, "name": {"$sum": …}, …}');
        const acc: Accumulator[] = [];
        for (const [out, spec] of Object.entries(arg)) {
          if (out === '_id') continue;
          const q = `${p}.${out}`;
          if (!isPlainObject(spec) || Object.keys(spec).length !== 1) throw queryError('invalid_query', q, 'must be {"$sum" | "$avg" | "$min" | "$max": …}');
          const [op, v] = Object.entries(spec)[0]!;
          if (!(accumulators as readonly string[]).includes(op)) throw queryError('invalid_query', `${q}.${op}`, `"${op}" is not supported (use ${accumulators.join(' ')})`);
          const argument =
            typeof v === 'string' && v.startsWith('$') ? { kind: 'path' as const, path: pathOf(v.slice(1)) } : typeof v === 'number' && Number.isFinite(v) ? { kind: 'const' as const, value: v } : undefined;
          if (!argument) throw queryError('invalid_query', `${q}.${op}`, 'must be "$field" or a number');
          acc.push({ name: out, op: op as Accumulator['op'], arg: argument });
        }
        stages.push({ kind: 'group', key: parseGroupKey(arg._id, `${p}._id`), accumulators: acc });
        return;
      }
    }
  });
  return stages;
}

// SQL.

const pathLiteral = (path: string[]) => sql`${`{${path.map((p) => `"${p.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;
const at = (path: string[]) => sql`(doc #> ${pathLiteral(path)})`;
const jsonParam = (v: unknown) => sql`${JSON.stringify(v ?? null)}::jsonb`;

function docCond(c: DocCond): SQL {
  switch (c.k) {
    case 'and':
    case 'or':
      return sql`(${sql.join(c.of.map(docCond), c.k === 'and' ? sql` and ` : sql` or `)})`;
    case 'cmp': {
      if (c.v === null) return c.op === '!=' ? sql`coalesce(${at(c.path)} <> 'null'::jsonb, false)` : sql`coalesce(${at(c.path)} = 'null'::jsonb, true)`;
      if (c.op === '=') return sql`coalesce(${at(c.path)} = ${jsonParam(c.v)}, false)`;
      if (c.op === '!=') return sql`(${at(c.path)} is distinct from ${jsonParam(c.v)})`;
      // Like MongoDB, ranges compare values of the same JSON type only.
      return sql`coalesce(jsonb_typeof(${at(c.path)}) = jsonb_typeof(${jsonParam(c.v)}) and ${at(c.path)} ${sql.raw(c.op)} ${jsonParam(c.v)}, false)`;
    }
    case 'in': {
      const list = sql.join(c.vs.map(jsonParam), sql`, `);
      const inList = c.vs.length ? sql`coalesce(${at(c.path)} in (${list}), false)` : sql`false`;
      return c.neg ? sql`(not ${inList})` : inList;
    }
    case 'exists':
      return c.yes ? sql`(${at(c.path)} is not null)` : sql`(${at(c.path)} is null)`;
    case 'regex':
      return sql`coalesce(jsonb_typeof(${at(c.path)}) = 'string' and (doc #>> ${pathLiteral(c.path)}) ${sql.raw(c.ci ? '~*' : '~')} ${c.pattern}::text, false)`;
  }
}

/** An item row as the JSON document the API gives (unset fields left out). */
export function itemDocument(level: SchemaLevel): SQL {
  const iso = (column: string) => sql`to_char(${sql.identifier(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const parts: SQL[] = [
    sql`jsonb_build_object('_id', ${sql.identifier('_id')}, '_createdDate', ${iso('_created_date')}, '_lastUpdatedDate', ${iso('_last_updated_date')}, '_order', ${sql.identifier('_order')}::double precision, '_rank', ${sql.identifier('_rank')})`,
  ];
  for (const field of columnFields(level)) {
    const column = fieldColumn(field.id);
    const value = columnTypeOf(field) === 'timestamptz' ? iso(column) : sql`to_jsonb(${sql.identifier(column)})`;
    parts.push(sql`case when ${sql.identifier(column)} is null then '{}'::jsonb else jsonb_build_object(${field.slug}::text, ${value}) end`);
  }
  return sql.join(parts, sql` || `);
}

const numeric = (e: SQL) => sql`(case when jsonb_typeof(${e}) = 'number' then (${e} #>> '{}')::double precision end)`;
const textual = (e: SQL) => sql`(case when jsonb_typeof(${e}) = 'string' then ${e} #>> '{}' end)`;

function groupKey(key: GroupKey): SQL {
  if (key.kind === 'path') return sql`coalesce(${at(key.path)}, 'null'::jsonb)`;
  if (key.kind === 'const') return jsonParam(key.value);
  return key.of.length ? sql`jsonb_build_object(${sql.join(key.of.map(([k, v]) => sql`${k}::text, ${groupKey(v)}`), sql`, `)})` : sql`'{}'::jsonb`;
}

function accumulate(a: Accumulator): SQL {
  if (a.arg.kind === 'const') {
    const c = a.arg.value;
    if (a.op === '$sum') return sql`to_jsonb(count(*) * ${c}::double precision)`;
    return jsonParam(c);
  }
  const e = at(a.arg.path);
  switch (a.op) {
    case '$sum':
      return sql`to_jsonb(coalesce(sum(${numeric(e)}), 0))`;
    case '$avg':
      return sql`coalesce(to_jsonb(avg(${numeric(e)})), 'null'::jsonb)`;
    case '$min':
      return sql`coalesce(to_jsonb(min(${numeric(e)})), to_jsonb(min(${textual(e)})), 'null'::jsonb)`;
    case '$max':
      return sql`coalesce(to_jsonb(max(${numeric(e)})), to_jsonb(max(${textual(e)})), 'null'::jsonb)`;
  }
}

/**
 * The pipeline over `source` (a statement yielding `doc jsonb, ord bigint`, the items after the
 * leading item stages) as a statement yielding `doc, ord` in output order.
 */
export function documentStages(source: SQL, stages: Stage[]): SQL {
  let current = source;
  stages.forEach((stage, i) => {
    const s = sql.identifier(`s${i}`);
    switch (stage.kind) {
      case 'match':
        throw new Error('item stages are compiled onto the item table');
      case 'docMatch':
        current = sql`select doc, ord from (${current}) ${s} where ${docCond(stage.cond)}`;
        return;
      case 'sort': {
        const keys = stage.docs.map((k) => sql`${at(k.path)} ${sql.raw(k.desc ? 'desc' : 'asc')}`);
        current = sql`select doc, row_number() over (order by ${sql.join(keys, sql`, `)}, ord) as ord from (${current}) ${s}`;
        return;
      }
      case 'skip':
        current = sql`select doc, ord from (${current}) ${s} order by ord offset ${stage.n}`;
        return;
      case 'limit':
        current = sql`select doc, ord from (${current}) ${s} order by ord limit ${stage.n}`;
        return;
      case 'project': {
        const keys = stage.include ? [...(stage.keepId ? ['_id'] : []), ...stage.keys.filter((k) => k !== '_id')] : stage.keys;
        const doc = stage.include
          ? keys.length
            ? sql.join(
                keys.map((k) => sql`case when doc ? ${k}::text then jsonb_build_object(${k}::text, doc -> ${k}::text) else '{}'::jsonb end`),
                sql` || `,
              )
            : sql`'{}'::jsonb`
          : sql`doc - ${`{${[...keys, ...(stage.keepId ? [] : ['_id'])].map((k) => `"${k.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;
        current = sql`select ${doc} as doc, ord from (${current}) ${s}`;
        return;
      }
      case 'count':
        current = sql`select jsonb_build_object(${stage.name}::text, count(*)) as doc, 1::bigint as ord from (${current}) ${s} having count(*) > 0`;
        return;
      case 'group': {
        const outputs = [sql`'_id', key`, ...stage.accumulators.map((a) => sql`${a.name}::text, ${accumulate(a)}`)];
        current = sql`select jsonb_build_object(${sql.join(outputs, sql`, `)}) as doc, row_number() over (order by key) as ord
          from (select ${groupKey(stage.key)} as key, doc from (${current}) ${s}) ${sql.identifier(`g${i}`)} group by key`;
        return;
      }
    }
  });
  return current;
}
