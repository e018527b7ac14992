/**
 * Runs compiled list queries: a page and the total matching (the kept counter when nothing
 * filters the top level), projections, and aggregation pipelines. A page and its total are one
 * statement on the read pool, whose connections carry a statement timeout (db/index.ts), so no
 * request can hold the database for long; pipelines run in a transaction that sets one. Errors
 * the database raises about people's input (a regex it refuses, the timeout) become 400s.
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { parseNestedId } from '../../../definitions/content.ts';
import { databaseCode, queryText, type Db } from '../../db/index.ts';
import { notFound } from '../../lib/errors.ts';
import { CollectionService, invalid, levelOf, type SchemaRow } from '../collections.ts';
import { childLevel, followChain, type SchemaLevel } from '../schema-tree.ts';
import { countChildren, itemJson, query, readItem, rowToItem, selectList, targetExpression, type Executor, type Item } from '../storage.ts';
import { documentStages, itemDocument, type Stage } from './aggregate.ts';
import { compileListQuery, countStatement, holdsSearch, keptOptionTotal, pageStatement, pageWithTotalStatement, type CompiledList } from './compile.ts';
import { and, type Cond, type SearchWords } from './conditions.ts';
import { queryError } from './errors.ts';
import { parseListQuery, type ListQuery, type RawListParams } from './parse.ts';
import { keptSearchOf, keptSearchTotal, keptTermOf, SlowTotals } from './kept-search.ts';
import { resolveSearchWords } from './search-words.ts';
import type { FieldIndexKeeper } from '../field-indexes.ts';
import { nestedField, type Target } from './targets.ts';
import { queryTuning, type ListTuning, type QueryTuning, type SearchWordLimits } from './tuning.ts';

/** What deep pages did in this process (tests check the anchors were used, not only that pages were right). */
export const deepPageStats = { anchored: 0, walks: 0, dropped: 0 };

/** How long one list query may run (milliseconds). */
export const listStatementTimeoutMs = 10_000;

/** A list of a level: all top-level items, or the nested items of one parent. */
export interface ListAddress {
  level: SchemaLevel;
  parentId?: string;
  /** The collection row the level belongs to (its item writes are what change the list). */
  collectionId?: string;
}

/** What deep pages need from the process's caches (server/lib/shared-cache.ts CacheRegistry). */
export interface ItemVersions {
  readonly listening: boolean;
  itemsVersion(collectionId: string): string;
  itemsChangedAt(collectionId: string): number;
  settle(): Promise<void>;
}

/** System keys are never null, so a keyset comparison on (key, _id) is exact; their SQL type. */
const anchorKeyTypes: Record<string, string> = {
  _rank: 'text',
  _id: 'text',
  _created_date: 'timestamptz',
  _last_updated_date: 'timestamptz',
  _order: 'bigint',
};

interface AnchorSet {
  version: string;
  /** keys[j] is the sort key and _id of the entry at 1-based position (j + 1) · step. */
  keys: { k: string; id: string }[];
  step: number;
  /** The list ends before the next anchor. */
  complete: boolean;
}

/**
 * Deep pages without walking the index from the start: for a list (collection, conditions, sort)
 * the process keeps every `anchorStep`-th entry's sort key, learned by the first deep read, and a
 * page at offset K starts right after the nearest anchor at or below K (a keyset condition on
 * the index) and skips fewer than `anchorStep` entries. Kept only for sorts by a system key (never
 * null, so the keyset is exact).
 *
 * Exact under concurrent writes, in every process: an anchor set is tagged with the collection's
 * item version (CacheRegistry.itemsVersion) read before the walk that found it. A read that uses
 * it checks, after the page was read, with a settle (every notification committed before the
 * settle's own is heard when it returns, and every write the page's snapshot saw committed
 * before), that the version is still the same: then no item write of the collection committed
 * between the walk's snapshot and the page's. Otherwise the anchors are dropped and the page is
 * read again without them.
 */
class ListAnchors {
  private readonly sets = new Map<string, AnchorSet>();

  constructor(private readonly tuning: Readonly<QueryTuning>) {}

  get(key: string, version: string): AnchorSet | undefined {
    const set = this.sets.get(key);
    if (!set || set.version !== version || set.step !== this.tuning.list.anchorStep) return undefined;
    // Most recently used last.
    this.sets.delete(key);
    this.sets.set(key, set);
    return set;
  }

  put(key: string, set: AnchorSet) {
    this.sets.delete(key);
    while (this.sets.size >= this.tuning.list.anchorLists) this.sets.delete(this.sets.keys().next().value!);
    this.sets.set(key, set);
  }

  drop(key: string) {
    this.sets.delete(key);
  }
}

/**
 * Pages with their totals kept in memory per process, by the text of their statement (docs/content-storage.md
 * "Pages kept in memory"). An entry carries the collection's item version read before its statement
 * ran; it is served only while the version is the same after a settle that began after the request
 * came (every item write committed before then has been heard: migration 0038 notifies every
 * statement writing an item table), so a page served from here is the one a read would give. LRU,
 * bounded in bytes.
 */
export class PageCache {
  private readonly entries = new Map<string, { version: string; total: number | undefined; json: string }>();
  private bytes = 0;
  readonly stats = { hits: 0, misses: 0, stale: 0 };

  constructor(private readonly tuning: Readonly<ListTuning>) {}

  get(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  put(key: string, version: string, total: number | undefined, json: string) {
    this.drop(key);
    const size = key.length + json.length;
    if (size > this.tuning.pageCacheBytes / 16) return;
    this.entries.set(key, { version, total, json });
    this.bytes += size;
    while (this.bytes > this.tuning.pageCacheBytes) this.drop(this.entries.keys().next().value!);
  }

  drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= key.length + entry.json.length;
  }
}

/**
 * What search texts resolved to (their tokens, or 'many') per collection, kept while no write to the
 * collection is heard (search-words.ts `known`): a text searched again, paged or sorted, does not
 * read the vocabulary again. The version is read before the vocabulary, so a write the read may
 * have missed moves it once heard; until then a search may miss a row committed in that moment, as
 * a vocabulary read a millisecond before the rows may (docs/content-storage.md "Listing and searching items").
 */
export class SearchWordMemory {
  private readonly byCollection = new Map<string, { version: string; limits: string; known: Map<string, SearchWords> }>();

  for(collectionId: string, version: string, limits: Readonly<SearchWordLimits>): Map<string, SearchWords> {
    const shape = JSON.stringify(limits);
    let entry = this.byCollection.get(collectionId);
    if (!entry || entry.version !== version || entry.limits !== shape) {
      entry = { version, limits: shape, known: new Map() };
      this.byCollection.delete(collectionId);
      while (this.byCollection.size >= 256) this.byCollection.delete(this.byCollection.keys().next().value!);
      this.byCollection.set(collectionId, entry);
    }
    if (entry.known.size >= 1000) entry.known.clear();
    return entry.known;
  }
}

export interface ListResult {
  items: Record<string, unknown>[];
  /** The total matching; undefined when the caller asked for none (`total=false`). */
  total: number | undefined;
  /**
   * The page as JSON text, when PostgreSQL wrote it (no projection, no pipeline): the route sends
   * it as it is; `items` is then empty.
   */
  json?: string;
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
export async function runList(
  db: Db,
  read: Db,
  address: ListAddress,
  q: ListQuery,
  unfilteredTotal: SQL,
  tuning: Readonly<QueryTuning>,
  deep?: { versions: ItemVersions; anchors: ListAnchors; pages: PageCache; words: SearchWordMemory },
  indexes?: FieldIndexKeeper,
): Promise<ListResult> {
  // Indexes made when needed: the ones this list reads are asked for (built meanwhile, not waited for).
  indexes?.want(address.level, q);
  // A page as PostgreSQL writes it may be served from memory (PageCache), keyed by its statement
  // before the search texts' tokens are read (they depend on the vocabulary, the rows do not).
  const pages = deep && address.collectionId && deep.versions.listening && tuning.list.pageCacheBytes > 0 && !q.projection && !q.pipeline && q.perPage > 0 ? deep : undefined;
  let cacheKey: string | undefined;
  let cachedVersion: string | undefined;
  // Compiled once for the key and the read alike, unless a search's tokens change the conditions below.
  let compiledFirst: CompiledList | undefined;
  if (pages) {
    compiledFirst = compileListQuery(address.level, q, { parentId: address.parentId });
    const page = dialect.sqlToQuery(pageStatement(compiledFirst));
    cacheKey = `${address.collectionId}\u0000${q.total === false ? 'n' : 't'}\u0000${page.sql}\u0000${JSON.stringify(page.params)}`;
    cachedVersion = pages.versions.itemsVersion(address.collectionId!);
    const kept = pages.pages.get(cacheKey);
    if (kept && kept.version === cachedVersion) {
      await pages.versions.settle();
      if (pages.versions.itemsVersion(address.collectionId!) === cachedVersion) {
        pages.pages.stats.hits += 1;
        return { items: [], total: kept.total, json: kept.json };
      }
      pages.pages.stats.stale += 1;
      cachedVersion = pages.versions.itemsVersion(address.collectionId!);
    } else pages.pages.stats.misses += 1;
  }
  // A search's texts get their tokens from the vocabularies first (search-words.ts): the word indexes then serve them.
  if (q.where && holdsSearch(q.where)) {
    compiledFirst = undefined;
    const known = deep && address.collectionId && deep.versions.listening ? deep.words.for(address.collectionId, deep.versions.itemsVersion(address.collectionId), tuning.searchWords) : undefined;
    const usable = indexes?.usableWords();
    q = { ...q, where: await onReadPool(read, (executor) => resolveSearchWords(executor, address.level.table, q.where, tuning.searchWords, known, usable)) };
  }
  if (q.pipeline) return runPipeline(db, address, q);
  const compiled = compiledFirst ?? compileListQuery(address.level, q, { parentId: address.parentId });
  // Filtered by one Option choice: the kept per-choice count; a search no index serves, or
  // conditions whose count was slow before: the total kept for them (kept-search.ts); else a count
  // of the matching rows. None when the caller asked for none.
  let total = q.total === false ? sql`null` : sql`(${unfilteredTotal})`;
  /** The term to note as slow when this count proves slow. */
  let slowKey: string | undefined;
  if (compiled.filtered && q.total !== false) {
    const count = countStatement(compiled);
    let kept = keptOptionTotal(address.level, q.where);
    let term = kept ? undefined : keptSearchOf(address.level, q.where);
    if (!kept && !term && !compiled.searched && tuning.keptSearch.slowTotalMs > 0) {
      const candidate = keptTermOf(address.level, q.where);
      if (candidate && slowTotals.has(candidate.key, tuning.keptSearch.slowRememberMs)) term = candidate;
      else slowKey = candidate?.key;
    }
    if (term) {
      const found = term;
      kept = await onReadPool(read, () => keptSearchTotal(db, read, found, count, tuning.keptSearch));
    }
    total = sql`(${kept ?? count})`;
  }
  /**
   * A page read (anchored or not) goes into the page cache, tagged with the version read before its
   * statement: a write it may have seen moves the version, so the entry is never served stale.
   */
  const keep = (result: ListResult): ListResult => {
    if (pages && cacheKey && cachedVersion !== undefined && result.json !== undefined) pages.pages.put(cacheKey, cachedVersion, result.total, result.json);
    return result;
  };
  // Without a projection each item is sent as PostgreSQL writes it (storage.ts itemJson): no row parsing, no serialising.
  const asJson = !q.projection;
  const select = asJson ? sql`${itemJson(address.level)} as __json` : compiled.select;
  if (deep && address.collectionId && q.perPage > 0 && compiled.offset >= tuning.list.anchorOffset) {
    const collectionId = address.collectionId;
    const anchored = await onReadPool(read, () => anchoredPage(read, collectionId, compiled, q, select, total, deep, tuning.list));
    if (anchored) return keep(await onReadPool(read, (executor) => finishList(executor, address, q, anchored, total, asJson)));
  }
  // A search finds its matching rows once for the page and the total; a deep page its ids in the index first.
  const statement = pageWithTotalStatement(compiled, { total, select, deferredFrom: tuning.list.deferredJoinOffset });
  return onReadPool(read, async (executor) => {
    type Row = Record<string, unknown> & { __total: number; __json?: string };
    let rows: Row[] = [];
    const started = performance.now();
    if (q.perPage > 0 && asJson) {
      // The text of an unfiltered page repeats call after call (only the paging and the scope are
      // parameters): PostgreSQL keeps it prepared.
      const built = dialect.sqlToQuery(statement);
      rows = await queryText<Row>(read, built.sql, built.params, !compiled.filtered);
    } else if (q.perPage > 0) {
      rows = await query<Row>(executor, statement);
    }
    const result = await finishList(executor, address, q, rows, total, asJson);
    if (slowKey && performance.now() - started > tuning.keptSearch.slowTotalMs) slowTotals.note(slowKey);
    return keep(result);
  });
}

/** Conditions whose count this process found slow (kept-search.ts SlowTotals). */
const slowTotals = new SlowTotals();

type PageRow = Record<string, unknown> & { __total: number; __json?: string };

/** The result of a page's rows: the total (read apart when the page is empty), the JSON or the items. */
async function finishList(executor: Executor, address: ListAddress, q: ListQuery, rows: PageRow[], total: SQL, asJson: boolean): Promise<ListResult> {
  const count =
    q.total === false ? undefined : rows.length ? Number(rows[0]!.__total) : Number((await query<{ n: number }>(executor, sql`select ${total}::integer as n`))[0]?.n ?? 0);
  if (asJson) return { items: [], total: count, json: `[${rows.map((row) => row.__json).join(',')}]` };
  const items = rows.map((row) => rowToItem(address.level, row) as Record<string, unknown>);
  await attachNested(executor, address.level, items, q);
  return { items: items.map((item) => project(item, q)), total: count };
}

/**
 * A deep page read from the nearest anchor (ListAnchors), the anchors learned on the way when
 * missing; undefined when anchors do not apply or did not hold (the caller reads it the plain way).
 */
async function anchoredPage(
  read: Db,
  collectionId: string,
  compiled: CompiledList,
  q: ListQuery,
  select: SQL,
  total: SQL,
  deep: { versions: ItemVersions; anchors: ListAnchors },
  tuning: Readonly<ListTuning>,
): Promise<PageRow[] | undefined> {
  const { versions, anchors } = deep;
  const column = q.sort ? (q.sort.sortKey?.of === 'value' ? q.sort.column : undefined) : '_rank';
  const keyType = column ? anchorKeyTypes[column] : undefined;
  if (!column || !keyType || !versions.listening) return undefined;
  if (Date.now() - versions.itemsChangedAt(collectionId) < tuning.anchorQuietMs) return undefined;
  const version = versions.itemsVersion(collectionId);
  const where = dialect.sqlToQuery(compiled.where);
  const key = JSON.stringify([collectionId, dialect.sqlToQuery(compiled.table).sql, column, q.desc, where.sql, where.params]);
  const step = tuning.anchorStep;
  const cached = anchors.get(key, version);
  const set: AnchorSet = cached ? { ...cached, keys: [...cached.keys] } : { version, keys: [], step, complete: false };
  const k = sql.identifier(column);
  const idCol = sql.identifier('_id');
  const after = (anchor: { k: string; id: string }) =>
    q.desc ? sql`(${k}, ${idCol}) < (${anchor.k}::${sql.raw(keyType)}, ${anchor.id}::text)` : sql`(${k}, ${idCol}) > (${anchor.k}::${sql.raw(keyType)}, ${anchor.id}::text)`;
  // Anchors up to the page's offset: walk on from the last one known.
  const wanted = Math.floor(compiled.offset / step);
  if (set.keys.length < wanted && !set.complete) {
    const last = set.keys[set.keys.length - 1];
    const known = set.keys.length;
    const walk = (wanted - known) * step;
    const rows = await query<{ k: string; id: string; n: number }>(
      read,
      sql`select k, id, n from (select ${k}::text as k, ${idCol} as id, row_number() over (order by ${compiled.orderBy})::integer as n from ${compiled.table}
          where ${compiled.where}${last ? sql` and ${after(last)}` : sql``} order by ${compiled.orderBy} limit ${walk}) w where n % ${step} = 0 order by n`,
    );
    deepPageStats.walks += 1;
    for (const row of rows) set.keys.push({ k: row.k, id: row.id });
    if (rows.length < wanted - known) set.complete = true;
  }
  const j = Math.min(wanted, set.keys.length);
  const anchor = j > 0 ? set.keys[j - 1] : undefined;
  const skip = compiled.offset - j * step;
  const scope = anchor ? sql`${compiled.where} and ${after(anchor)}` : compiled.where;
  const rows = await query<PageRow>(
    read,
    sql`select ${select}, ${total}::integer as __total from ${compiled.table} where ${idCol} in (select ${idCol} from ${compiled.table} where ${scope} order by ${compiled.orderBy} limit ${compiled.limit} offset ${skip}) order by ${compiled.orderBy}`,
  );
  // Every write the page's snapshot (or the walk's) saw has now been heard: the same version means none came in between.
  await versions.settle();
  if (versions.itemsVersion(collectionId) !== version) {
    anchors.drop(key);
    deepPageStats.dropped += 1;
    return undefined;
  }
  anchors.put(key, set);
  deepPageStats.anchored += 1;
  return rows;
}

const dialect = new PgDialect();

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
 * Follows a nestedID to a nested list, checking every item on the way belongs to
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
  private readonly deep: { versions: ItemVersions; anchors: ListAnchors; pages: PageCache; words: SearchWordMemory } | undefined;

  /**
   * `read` serves the lists (the read pool); `db` the rest; with `versions` deep pages keep anchors.
   * `tuning`: the app's (config.listQueries), read on every call.
   */
  constructor(
    private readonly db: Db,
    private readonly read: Db = db,
    versions?: ItemVersions,
    private readonly collections: CollectionService = new CollectionService(db),
    private readonly tuning: Readonly<QueryTuning> = queryTuning(),
    private readonly indexes?: FieldIndexKeeper,
  ) {
    this.deep = versions ? { versions, anchors: new ListAnchors(tuning), pages: new PageCache(tuning.list), words: new SearchWordMemory() } : undefined;
  }

  /** The pages this service keeps in memory (undefined when it does not listen for writes). */
  get pageCache(): PageCache | undefined {
    return this.deep?.pages;
  }

  /** The top-level list of a collection. */
  async list(projectId: string, slug: string, raw: RawListParams, defaults: { perPage?: number } = {}): Promise<ListResult> {
    const row = await this.collections.schemaRow(projectId, slug);
    const level = levelOf(row);
    const q = parseListQuery(level, raw, defaults);
    return runList(this.db, this.read, { level, collectionId: row.id }, q, sql`select item_count from content_collections where id = ${row.id}`, this.tuning, this.deep, this.indexes);
  }

  /** A nested list under a top-level item; undefined when the nestedID names an item instead. */
  /** The items of one level with the given ids (any order; missing ids are left out), from the read pool. */
  async byIds(level: SchemaLevel, ids: readonly string[]): Promise<Item[]> {
    if (ids.length === 0) return [];
    const list = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    const rows = await query(this.read, sql`select ${selectList(level)} from ${sql.identifier(level.table)} where ${sql.identifier('_id')} in (${list})`);
    return rows.map((row) => rowToItem(level, row));
  }

  async nestedList(projectId: string, slug: string, itemId: string, nestedID: string, raw: RawListParams, defaults: { perPage?: number } = {}): Promise<ListResult | undefined> {
    const row = await this.collections.schemaRow(projectId, slug);
    const steps = parseNestedId(nestedID);
    if (steps && (steps.length === 0 || steps[steps.length - 1]!.kind !== 'collection')) return undefined;
    const address = await resolveNestedList(this.db, row, itemId, nestedID);
    if (!address) return undefined;
    const q = parseListQuery(address.level, raw, defaults);
    return runList(
      this.db,
      this.read,
      { ...address, collectionId: row.id },
      q,
      sql`select count(*) from ${sql.identifier(address.level.table)} where ${sql.identifier('_parent_id')} = ${address.parentId!}`,
      this.tuning,
      this.deep,
      this.indexes,
    );
  }
}

