/**
 * Indexes made when needed (FIELD_INDEXES=lazy; docs/content-storage.md "Indexes made when
 * needed"). A collection's table then starts with its primary key, its rank index, its fields'
 * unique indexes and its kept counts only. The first list that sorts by a field, compares it,
 * searches it or asks for places in it asks the keeper for the indexes serving that (`want`); the
 * list itself runs at once without them. The keeper builds each in the background, once across
 * processes (a row of item_lazy_indexes claimed in a transaction), on PostgreSQL with
 * `create index concurrently` (writes go on meanwhile), on PGlite with a plain `create index`
 * (its one connection serves nothing else meanwhile). A word index is usable only once its
 * field's vocabulary holds the words of every row: its triggers are made first, then the index,
 * then the vocabulary is filled from the rows in short batches. Until then a search of the field
 * is read as a search the word index declines (a walk of the sort index with `ilike`).
 *
 * An index no list used for `idleDays` is dropped (checked every `sweepMs`), and made again when
 * wanted. With FIELD_INDEXES=eager (the default) every index is made with its field, as before,
 * and this does nothing.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/index.ts';
import type { Cond } from './query/conditions.ts';
import type { ListQuery } from './query/parse.ts';
import { columnFields, fieldColumn, type SchemaLevel } from './schema-tree.ts';
import { fieldIndexes, forgetSearchWords, keepSearchWords, query, systemIndexes, wordIndexName, type Executor, type FieldIndex } from './storage.ts';

export type IndexMode = 'eager' | 'lazy';

export interface FieldIndexOptions {
  mode: IndexMode;
  /** Days after which an index no list used is dropped. */
  idleDays: number;
  /** How often unused indexes are looked for. */
  sweepMs: number;
  /** Rows read per statement when a vocabulary is filled. */
  wordBatch?: number;
  log?: FastifyBaseLogger;
}

/** A claim older than this is taken as its builder's death (its process gone mid-build). */
const claimLapseS = 6 * 3600;
/** How often one index's last use is written (at most). */
const touchEveryMs = 3600_000;
/** The longest a build makes the table's writes wait (while it makes a vocabulary's triggers). */
export const triggerLockMs = 500;
/** How often a process reads which indexes are ready. */
const refreshMs = 60_000;
/** How long an index marked for dropping is kept (every process stops using it meanwhile). */
const dropDelayMs = 5 * 60_000;
/** When another process is building an index, how soon this one asks again whether it is ready. */
const othersBuildMs = 30_000;
/** After a failed build, how long before it is tried again. */
const retryAfterMs = 10 * 60_000;

type Known = { state: 'ready' } | { state: 'building' | 'failed'; until: number };

export class FieldIndexKeeper {
  /** What this process knows of each lazy index: ready, being built (by anyone) or failed lately. */
  private readonly known = new Map<string, Known>();
  private readonly touched = new Map<string, number>();
  private readonly builds = new Set<Promise<void>>();
  /** Indexes this process has queued or is building. */
  private readonly ownBuilds = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private refresher: NodeJS.Timeout | undefined;
  private stopped = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly options: FieldIndexOptions,
  ) {}

  get lazy(): boolean {
    return this.options.mode === 'lazy';
  }

  async start(): Promise<void> {
    if (!this.lazy) return;
    await this.refresh();
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.options.log?.warn({ err: error }, 'dropping unused indexes failed; tried again later')), this.options.sweepMs);
    this.timer.unref();
    // What other processes made ready or marked for dropping (a word index then stops serving here within the minute).
    this.refresher = setInterval(() => void this.refresh().catch(() => undefined), refreshMs);
    this.refresher.unref();
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.refresher) clearInterval(this.refresher);
    await Promise.allSettled([...this.builds]);
  }

  /** Reads which lazy indexes are ready (at start, and after a drop another process may have made). */
  async refresh(): Promise<void> {
    const rows = await query<{ name: string }>(this.database.db, sql`select name from item_lazy_indexes where state = 'ready'`);
    // Forgotten: what was ready, and builds of other processes (asked about again at the next want); kept: this process's own builds and failures.
    for (const [name, known] of this.known) if (known.state === 'ready' || (known.state === 'building' && !this.ownBuilds.has(name))) this.known.delete(name);
    for (const row of rows) this.known.set(row.name, { state: 'ready' });
  }

  /**
   * What a search's word resolution asks of each field (search-words.ts `usable`): undefined when
   * indexes are eager (every word index serves). Every reader of search words passes it — a list,
   * an export — or it would read a vocabulary still being filled.
   */
  usableWords(): ((table: string, column: string) => boolean) | undefined {
    return this.lazy ? (table, column) => this.wordsReady(table, column) : undefined;
  }

  /** Whether a word index may serve searches (always, when indexes are eager). */
  wordsReady(table: string, column: string): boolean {
    if (!this.lazy) return true;
    return this.known.get(wordIndexName(table, column.slice('f_'.length)))?.state === 'ready';
  }

  /**
   * Notes that a list of `level` reads these indexes: the missing ones are built in the background
   * (the list does not wait), the ready ones marked used.
   */
  want(level: SchemaLevel, q: Pick<ListQuery, 'sort' | 'where'>): void {
    if (!this.lazy || this.stopped) return;
    // Each index is built with its own level: a condition on a nested list's elements names the nested table's.
    for (const { index, level: at } of indexesServing(level, q)) {
      const known = this.known.get(index.name);
      if (known?.state === 'ready') {
        this.touch(index.name);
        continue;
      }
      if (known && Date.now() < known.until) continue;
      this.known.set(index.name, { state: 'building', until: Date.now() + retryAfterMs });
      // One build at a time per process: two on one table would make their triggers wait on each other's builds.
      this.ownBuilds.add(index.name);
      const run = this.queue.then(() => (this.stopped ? undefined : this.build(at, index))).finally(() => this.ownBuilds.delete(index.name));
      this.queue = run.catch(() => undefined);
      const build = run
        .catch((error: unknown) => {
          this.known.set(index.name, { state: 'failed', until: Date.now() + retryAfterMs });
          if (!this.stopped) this.options.log?.warn({ err: error, index: index.name }, 'an index could not be made; the lists go on without it');
        })
        .finally(() => this.builds.delete(build));
      this.builds.add(build);
    }
  }

  /** Waits for the builds under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.builds.size) await Promise.allSettled([...this.builds]);
  }

  private touch(name: string) {
    const now = Date.now();
    if (now - (this.touched.get(name) ?? 0) < touchEveryMs) return;
    this.touched.set(name, now);
    void this.database.db.execute(sql`update item_lazy_indexes set used_at = now() where name = ${name}`).catch(() => this.touched.delete(name));
  }

  /** Builds one index, unless another process is (its claim is recent) or it is ready. */
  private async build(level: SchemaLevel, index: FieldIndex): Promise<void> {
    const { db, kind } = this.database;
    const [claim] = await query<{ state: string }>(
      db,
      sql`insert into item_lazy_indexes as l (name, table_name, state) values (${index.name}, ${index.table}, 'building')
          on conflict (name) do update set state = case when l.state = 'dropping' then 'ready' else 'building' end, claimed_at = now(), used_at = now()
            where (l.state in ('building', 'removing') and l.claimed_at < now() - make_interval(secs => ${claimLapseS})) or l.state = 'dropping'
          returning state`,
    );
    // Marked for dropping and wanted again: kept (its triggers and vocabulary are still whole).
    if (claim?.state === 'ready') {
      this.known.set(index.name, { state: 'ready' });
      return;
    }
    if (!claim) {
      // Someone else's: ready already, or being built (heard of at the next want after a refresh).
      const [row] = await query<{ state: string }>(db, sql`select state from item_lazy_indexes where name = ${index.name}`);
      this.known.set(index.name, row?.state === 'ready' ? { state: 'ready' } : { state: 'building', until: Date.now() + othersBuildMs });
      return;
    }
    try {
      const field = index.words ? columnFields(level).find((f) => fieldColumn(f.id) === index.column) : undefined;
      // A word index without its triggers and vocabulary would find nothing: never marked ready.
      if (index.words && !field) throw new Error(`no field of ${level.table} has the column ${index.column}`);
      // Words written from here on reach the vocabulary; the rows already there are read below.
      // Making the triggers waits for the table's writes under way and holds new ones meanwhile:
      // at most `triggerLockMs` (another process's index build on the table would hold it longer).
      if (field) {
        await db.transaction(async (tx) => {
          if (kind === 'postgres') await tx.execute(sql`select set_config('lock_timeout', ${`${triggerLockMs}ms`}, true)`);
          await keepSearchWords(tx, level, field);
        });
      }
      if (kind === 'postgres') {
        // An earlier build cut short leaves an invalid index that `if not exists` would keep.
        const invalid = await query(db, sql`select 1 from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ${index.name} and not i.indisvalid`);
        if (invalid.length) await db.execute(sql`drop index concurrently if exists ${sql.identifier(index.name)}`);
        await db.execute(index.create(true));
      } else await db.execute(index.create(false, true));
      if (field) await this.fillVocabulary(index, field.id);
      // The planner and the search (its share of rows per word: search-words.ts) read the new
      // index's statistics, which only ANALYZE makes; autovacuum would wait for 10 % of the rows to change.
      await db.execute(sql`analyze ${sql.identifier(index.table)}`);
      await db.execute(sql`update item_lazy_indexes set state = 'ready', ready_at = now(), used_at = now() where name = ${index.name}`);
      this.known.set(index.name, { state: 'ready' });
    } catch (error) {
      await db.execute(sql`delete from item_lazy_indexes where name = ${index.name} and state = 'building'`).catch(() => undefined);
      throw error;
    }
  }

  /** Adds the words of every row of the index's table to its field's vocabulary, a batch of rows at a time. */
  private async fillVocabulary(index: FieldIndex, fieldId: string): Promise<void> {
    const batch = this.options.wordBatch ?? 5000;
    const table = sql.identifier(index.table);
    const column = sql.identifier(index.column);
    const fn = sql.identifier(index.words!.fn);
    let after = '';
    for (;;) {
      if (this.stopped) throw new Error('stopped');
      const [row] = await query<{ last: string | null }>(
        this.database.db,
        sql`with rows as (select _id, ${column} as v from ${table} where _id > ${after} order by _id limit ${batch}),
            kept as (insert into item_search_words (field_column, word)
              select distinct ${fieldColumn(fieldId)}::text, w from rows, unnest(${fn}(rows.v)) w where rows.v is not null and w <> ''
              on conflict do nothing)
            select max(_id) as last from rows`,
      );
      if (!row?.last) return;
      after = row.last;
    }
  }

  /**
   * Drops the lazy indexes no list used for `idleDays`, in two steps a sweep apart: first they are
   * marked (every process stops using them within `refreshMs`: a word index's vocabulary must not
   * vanish under a search), then, once marked for `dropDelayMs`, a word index's triggers and
   * vocabulary and the index go. Returns the names dropped by this call.
   */
  async sweep(now: Date = new Date()): Promise<string[]> {
    if (!this.lazy) return [];
    const { db, kind } = this.database;
    const due = await query<{ name: string; table_name: string }>(
      db,
      sql`select name, table_name from item_lazy_indexes
          where state = 'dropping' and claimed_at < ${now.toISOString()}::timestamptz - make_interval(secs => ${dropDelayMs / 1000})`,
    );
    const dropped: string[] = [];
    for (const row of due) {
      // Taken for removal in one statement: a list wanting it from now on waits for it to go (its claim cannot revive a 'removing' row).
      const taken = await query(db, sql`update item_lazy_indexes set state = 'removing', claimed_at = now() where name = ${row.name} and state = 'dropping' returning name`);
      if (!taken.length) continue;
      const exists = (await query<{ t: string | null }>(db, sql`select to_regclass(${`"${row.table_name}"`}) as t`))[0]?.t;
      // The word index of field `<table>_<field id>_w` (wordIndexName): its triggers and vocabulary go with it.
      const fieldId = row.name.slice(row.table_name.length + 1, -'_w'.length);
      if (exists && row.name === wordIndexName(row.table_name, fieldId)) await forgetSearchWords(db, row.table_name, fieldId);
      await db.execute(sql`drop index ${sql.raw(kind === 'postgres' ? 'concurrently ' : '')}if exists ${sql.identifier(row.name)}`);
      await db.execute(sql`delete from item_lazy_indexes where name = ${row.name} and state = 'removing'`);
      this.known.delete(row.name);
      dropped.push(row.name);
    }
    const marked = await query<{ name: string }>(
      db,
      sql`update item_lazy_indexes set state = 'dropping', claimed_at = now()
          where state = 'ready' and used_at < ${now.toISOString()}::timestamptz - make_interval(days => ${this.options.idleDays})
          returning name`,
    );
    for (const row of marked) this.known.delete(row.name);
    return dropped;
  }
}

/**
 * Stops the index builds (and the ANALYZE after them) under way on these tables, from any process:
 * a schema change (a column added or dropped, a unique index, a table dropped) would wait for the
 * whole build, and every read and write of the collection would queue behind it. Called in the
 * schema change's transaction, before its DDL; a stopped build fails, leaves at most an invalid
 * index, and is made again when a list next wants it (after `retryAfterMs` in the process that
 * built it). PGlite runs one statement at a time: nothing to stop.
 */
export async function stopIndexBuilds(executor: Executor, tables: readonly string[]): Promise<void> {
  if (!tables.length) return;
  const patterns = sql.join(
    tables.map((table) => sql`${`%"${table}"%`}::text`),
    sql`, `,
  );
  await executor.execute(sql`select pg_cancel_backend(pid) from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()
      and query ~* '^\\s*(create index concurrently|analyze)' and query like any (array[${patterns}])`);
}

/**
 * The indexes that serve a list: its sort key's, and each condition's field's by what it asks
 * (comparisons the btree, searches the trigram and word indexes, places the gist), nested levels
 * included. The rank index (every default list) is always there.
 */
export function indexesServing(level: SchemaLevel, q: Pick<ListQuery, 'sort' | 'where'>): { index: FieldIndex; level: SchemaLevel }[] {
  const out = new Map<string, { index: FieldIndex; level: SchemaLevel }>();
  const of = (at: SchemaLevel, column: string, uses: readonly FieldIndex['use'][]) => {
    const field = columnFields(at).find((f) => fieldColumn(f.id) === column);
    const all = field ? fieldIndexes(at, field) : systemIndexes(at).filter((index) => index.column === column);
    for (const index of all) if (uses.includes(index.use)) out.set(index.name, { index, level: at });
  };
  if (q.sort) of(level, q.sort.column, ['order']);
  const walk = (at: SchemaLevel, c: Cond) => {
    switch (c.k) {
      case 'and':
      case 'or':
        for (const inner of c.of) walk(at, inner);
        return;
      case 'not':
        walk(at, c.of);
        return;
      case 'elem':
        walk(c.child, c.cond);
        return;
      case 'cmp':
      case 'in':
      case 'exists':
        of(at, c.t.column, ['order', 'json']);
        return;
      case 'refs':
        of(at, c.t.column, ['json', 'order']);
        return;
      case 'contains':
      case 'refValue':
      case 'regex':
        of(at, c.t.column, ['text']);
        return;
      case 'within':
        of(at, c.t.column, ['geo']);
        return;
      default:
        return;
    }
  };
  if (q.where) walk(level, q.where);
  // The rank index is made with the table.
  out.delete(`${level.table}_rank`);
  return [...out.values()];
}
