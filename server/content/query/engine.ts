/**
 * Runs compiled list queries: a page and the total matching (the kept counter when nothing
 * filters the top level), projections, and aggregation pipelines. A page and its total are one
 * statement on the read pool, whose connections carry a statement timeout (db/index.ts), so no
 * request can hold the database for long; pipelines run in a transaction that sets one. Errors
 * the database raises about people's input (a regex it refuses, the timeout) become 400s.
 */
import { sql, type SQL } from 'drizzle-orm';
import { parseNestedId } from '../../../definitions/content.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../lib/errors.ts';
import { CollectionService, invalid, levelOf, type SchemaRow } from '../collections.ts';
import { childLevel, followChain, type SchemaLevel } from '../schema-tree.ts';
import { countChildren, query, readItem, rowToItem, selectList, targetExpression, type Executor } from '../storage.ts';
import { documentStages, itemDocument, type Stage } from './aggregate.ts';
import { compileListQuery, countStatement, pageStatement, type CompiledList } from './compile.ts';
import { and, type Cond } from './conditions.ts';
import { queryError } from './errors.ts';
import { parseListQuery, type ListQuery, type RawListParams } from './parse.ts';
import { nestedField, type Target } from './targets.ts';

/** Tuning of list reads; tests lower the threshold to exercise both paths on small lists. */
export const listTuning = {
  /** From this offset on, a page is found by its ids first (a deferred join). */
  deferredJoinOffset: 1000,
};

/** How long one list query may run (milliseconds). */
export const listStatementTimeoutMs = 10_000;

/** A list of a level: all top-level items, or the nested items of one parent. */
export interface ListAddress {
  level: SchemaLevel;
  parentId?: string;
}

export interface ListResult {
  items: Record<string, unknown>[];
  total: number;
}

function databaseCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** The database's refusals caused by people's input, as 400s; anything else as it was. */
function inputError(error: unknown): unknown {
  const code = databaseCode(error);
  if (code === '57014') return queryError('query_timeout', 'query', 'took too long; narrow the filter or the search');
  if (code === '2201B' || code === '54001') return queryError('invalid_regex', 'query', 'the database refused a regular expression as invalid or too complex');
  return error;
}

/** Runs `work` in a read transaction with the list statement timeout; maps input-caused database errors to 400. */
export async function guarded<T>(db: Db, work: (executor: Executor) => Promise<T>, timeoutMs = listStatementTimeoutMs): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      // PostgreSQL enforces it; PGlite (one in-process backend, no timer signals) does not.
      await tx.execute(sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`);
      return work(tx);
    });
  } catch (error) {
    throw inputError(error);
  }
}

/** Runs `work` on the read pool (its connections carry the statement timeout); maps input-caused errors to 400. */
async function onReadPool<T>(read: Db, work: (executor: Executor) => Promise<T>): Promise<T> {
  try {
    return await work(read);
  } catch (error) {
    throw inputError(error);
  }
}

function project(item: Record<string, unknown>, q: ListQuery): Record<string, unknown> {
  if (!q.projection) return item;
  if ('on' in q.projection) {
    const out: Record<string, unknown> = { _id: item._id };
    for (const key of q.projection.on) if (key in item) out[key] = item[key];
    return out;
  }
  const out = { ...item };
  for (const key of q.projection.off) delete out[key];
  return out;
}

/** The nested lists `projectOn` names, read for a page of items in one query each. */
async function attachNested(executor: Executor, level: SchemaLevel, items: Record<string, unknown>[], q: ListQuery) {
  if (!q.projection || !('on' in q.projection) || items.length === 0) return;
  for (const key of q.projection.on) {
    const field = nestedField(level, key);
    if (!field) continue;
    const child = childLevel(level, field);
    const ids = sql.join(
      items.map((item) => sql`${item._id as string}`),
      sql`, `,
    );
    const rows = await query(
      executor,
      sql`select ${selectList(child)}, ${sql.identifier('_parent_id')} from ${sql.identifier(child.table)} where ${sql.identifier('_parent_id')} in (${ids}) order by ${sql.identifier('_parent_id')}, ${sql.identifier('_rank')}, ${sql.identifier('_id')}`,
    );
    const byParent = new Map<string, unknown[]>();
    for (const row of rows) {
      const list = byParent.get(row._parent_id as string) ?? [];
      list.push(rowToItem(child, row));
      byParent.set(row._parent_id as string, list);
    }
    for (const item of items) item[key] = byParent.get(item._id as string) ?? [];
  }
}

/** The leading pipeline stages that run on the item table, and the rest. */
function splitPipeline(stages: Stage[]) {
  const conds: Cond[] = [];
  let sort: { t: { t: Target; desc: boolean }[] } | undefined;
  let offset = 0;
  let limit: number | undefined;
  let i = 0;
  for (; i < stages.length; i++) {
    const stage = stages[i]!;
    if (stage.kind === 'match') conds.push(stage.cond);
    else if (stage.kind === 'sort' && stage.items) sort = { t: stage.items };
    else if (stage.kind === 'skip') {
      offset += stage.n;
      if (limit !== undefined) limit = Math.max(0, limit - stage.n);
    } else if (stage.kind === 'limit') limit = limit === undefined ? stage.n : Math.min(limit, stage.n);
    else break;
  }
  return { conds, sort: sort?.t, offset, limit, rest: stages.slice(i) };
}

/**
 * Runs a parsed list query on a list: the page and its total in one statement (the total as an
 * uncorrelated subquery PostgreSQL computes once), a second only when the page is empty.
 * `unfilteredTotal` is the SQL of the total when nothing filters (the kept counter, or the
 * parent's count).
 */
export async function runList(db: Db, read: Db, address: ListAddress, q: ListQuery, unfilteredTotal: SQL): Promise<ListResult> {
  if (q.pipeline) return runPipeline(db, address, q);
  const compiled = compileListQuery(address.level, q, { parentId: address.parentId });
  const total = compiled.filtered ? sql`(${countStatement(compiled)})` : sql`(${unfilteredTotal})`;
  return onReadPool(read, async (executor) => {
    const rows =
      q.perPage === 0
        ? []
        : await query<Record<string, unknown> & { __total: number }>(
            executor,
            compiled.offset >= listTuning.deferredJoinOffset
              ? // A deep page: skip the first rows in the index alone (an index-only scan where the sort key is a
                // column), then read the page's rows. The rows skipped are never fetched from the table.
                sql`select ${compiled.select}, ${total}::integer as __total from ${compiled.table} where ${sql.identifier('_id')} in (select ${sql.identifier('_id')} from ${compiled.table} where ${compiled.where} order by ${compiled.orderBy} limit ${compiled.limit} offset ${compiled.offset}) order by ${compiled.orderBy}`
              : sql`select ${compiled.select}, ${total}::integer as __total from ${compiled.table} where ${compiled.where} order by ${compiled.orderBy} limit ${compiled.limit} offset ${compiled.offset}`,
          );
    const items = rows.map((row) => rowToItem(address.level, row) as Record<string, unknown>);
    await attachNested(executor, address.level, items, q);
    const count = rows.length ? Number(rows[0]!.__total) : ((await query<{ n: number }>(executor, sql`select ${total}::integer as n`))[0]?.n ?? 0);
    return { items: items.map((item) => project(item, q)), total: Number(count) };
  });
}

async function runPipeline(db: Db, address: ListAddress, q: ListQuery): Promise<ListResult> {
  const { level } = address;
  const split = splitPipeline(q.pipeline!);
  const where = [q.where, ...split.conds].filter((c): c is Cond => c !== undefined);
  const base: CompiledList = compileListQuery(level, { ...q, where: where.length ? and(where) : undefined, pipeline: undefined }, { parentId: address.parentId });
  const orderBy = split.sort
    ? sql.join([...split.sort.map((s) => sql`${sortExpression(s.t)} ${sql.raw(s.desc ? 'desc' : 'asc')}`), sql`${sql.identifier('_id')} asc`], sql`, `)
    : base.orderBy;
  const paging = sql`${split.limit === undefined ? sql`` : sql` limit ${split.limit}`}${split.offset ? sql` offset ${split.offset}` : sql``}`;
  const source = sql`select ${itemDocument(level)} as doc, row_number() over (order by ${orderBy}) as ord from ${base.table} where ${base.where} order by ${orderBy}${paging}`;
  const final = documentStages(source, split.rest);
  return guarded(db, async (executor) => {
    const docs =
      q.perPage === 0
        ? []
        : await query<{ doc: unknown }>(executor, sql`select doc from (${final}) f order by ord limit ${q.perPage} offset ${(q.pageNumber - 1) * q.perPage}`);
    const [count] = await query<{ n: number }>(executor, sql`select count(*)::integer as n from (${final}) f`);
    return { items: docs.map((row) => (typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc) as Record<string, unknown>), total: count?.n ?? 0 };
  });
}

const sortExpression = (t: Target): SQL => targetExpression(t.column, t.sortKey ?? { of: 'value' });

/**
 * Follows a nestedID to a nested list (contract §5), checking every item on the way belongs to
 * the one before it. Undefined when the chain ends in an item (not a list).
 */
export async function resolveNestedList(db: Db, row: SchemaRow, itemId: string, nestedID: string): Promise<ListAddress | undefined> {
  const steps = parseNestedId(nestedID);
  if (!steps) throw invalid([{ path: 'nestedID', message: 'must alternate nested collection slugs and item ids, joined by dots' }]);
  if (steps.length === 0 || steps[steps.length - 1]!.kind !== 'collection') return undefined;
  const end = await followChain((level, id, parent) => readItem(db, level, id, parent), levelOf(row), itemId, steps, {
    missingItem: () => notFound('item_not_found', 'Could not find item'),
    missingCollection: (slug) => notFound('nested_collection_not_found', `There is no nested collection "${slug}" here.`),
  });
  return { level: end.level, parentId: end.current };
}

/** Lists and searches of a project's collections, by the API's parameters. */
export class ItemQueryService {
  private readonly collections: CollectionService;

  /** `read` serves the lists (the read pool); `db` the rest. */
  constructor(
    private readonly db: Db,
    private readonly read: Db = db,
  ) {
    this.collections = new CollectionService(db);
  }

  /** The top-level list of a collection. */
  async list(projectId: string, slug: string, raw: RawListParams, defaults: { perPage?: number } = {}): Promise<ListResult> {
    const row = await this.collections.schemaRow(projectId, slug);
    const level = levelOf(row);
    const q = parseListQuery(level, raw, defaults);
    return runList(this.db, this.read, { level }, q, sql`select item_count from content_collections where id = ${row.id}`);
  }

  /** A nested list under a top-level item; undefined when the nestedID names an item instead. */
  async nestedList(projectId: string, slug: string, itemId: string, nestedID: string, raw: RawListParams, defaults: { perPage?: number } = {}): Promise<ListResult | undefined> {
    const row = await this.collections.schemaRow(projectId, slug);
    const steps = parseNestedId(nestedID);
    if (steps && (steps.length === 0 || steps[steps.length - 1]!.kind !== 'collection')) return undefined;
    const address = await resolveNestedList(this.db, row, itemId, nestedID);
    if (!address) return undefined;
    const q = parseListQuery(address.level, raw, defaults);
    return runList(this.db, this.read, address, q, sql`select count(*) from ${sql.identifier(address.level.table)} where ${sql.identifier('_parent_id')} = ${address.parentId!}`);
  }
}

