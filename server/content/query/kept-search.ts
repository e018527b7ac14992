/**
 * Exact totals kept for the searches that would otherwise count by passing over a whole item
 * table (migration 0021, docs/content-storage.md "Listing and searching items"): a top-level list whose conditions
 * hold a short search text the word index does not serve (`ka`, in most rows). Its page already
 * walks the sort index and stops after one page; only its total needed the pass.
 *
 * The first such search of a list registers its conditions as a term: statement triggers that add
 * every later item statement's change as a delta row, then one count (the pass this search made
 * anyway) that sets the term's base. Later searches read base plus the deltas: a few rows.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { databaseCode, type Db } from '../../db/index.ts';
import type { SchemaLevel } from '../schema-tree.ts';
import { inlineStatement } from '../csv-copy.ts';
import { collectionIdOf, query, type Executor } from '../storage.ts';
import { compileCond, holdsUnservedSearch } from './compile.ts';
import type { Cond } from './conditions.ts';
import type { KeptSearchLimits } from './tuning.ts';

/** When this process last registered a term, per collection. */
const lastRegistered = new Map<string, number>();

/** What kept totals did in this process (tests check which path served a total). */
export const keptSearchStats = { served: 0, registered: 0, counted: 0, skipped: 0, spaced: 0, folded: 0, evicted: 0 };

/** A list's conditions as a kept term: its collection, its condition's SQL over one row, and that SQL's hash. */
export interface KeptSearch {
  collectionId: string;
  table: string;
  cond: string;
  key: string;
}

/**
 * The condition without the vocabulary's tokens (which change as items are written): every search
 * tested on the values; a text the word index declined keeps its mark, so it is tested as a page
 * tests it (compile.ts, a LIKE before the ILIKE).
 */
function withoutWords(c: Cond): Cond {
  switch (c.k) {
    case 'and':
    case 'or':
      return { ...c, of: c.of.map(withoutWords) };
    case 'not':
      return { ...c, of: withoutWords(c.of) };
    case 'contains':
    case 'refValue': {
      if (c.words === 'many') return c;
      const { words: _words, ...rest } = c;
      return rest;
    }
    default:
      return c;
  }
}

/** Whether a condition reads the item's own row only (a nested list's test reads another table, whose writes no trigger here sees). */
function rowLocal(c: Cond): boolean {
  switch (c.k) {
    case 'and':
    case 'or':
      return c.of.every(rowLocal);
    case 'not':
      return rowLocal(c.of);
    case 'elem':
      return false;
    default:
      return true;
  }
}

/**
 * The term a list's conditions would be kept as, or undefined when its total cannot be kept: a
 * nested list (its totals are per parent, and small), a condition on another table (whose writes no
 * trigger here sees), or one that cannot be written as literals.
 */
export function keptTermOf(level: SchemaLevel, where: Cond | undefined): KeptSearch | undefined {
  if (!where || level.parentTable || !rowLocal(where)) return undefined;
  const cond = inlineStatement(compileCond(withoutWords(where)));
  if (!cond) return undefined;
  return { collectionId: collectionIdOf(level), table: level.table, cond, key: createHash('sha256').update(cond).digest('hex') };
}

/** The kept term of a list whose conditions hold a search no index serves (its total would be a pass over the table); else undefined. */
export function keptSearchOf(level: SchemaLevel, where: Cond | undefined): KeptSearch | undefined {
  return where && holdsUnservedSearch(where) ? keptTermOf(level, where) : undefined;
}

/**
 * The conditions whose count this process found slow (longer than KeptSearchLimits.slowTotalMs), by
 * term key, with when: a list repeating such conditions gets its total kept like a search's
 * (docs/content-storage.md "Listing and searching items"). Bounded; the oldest entries go first.
 */
export class SlowTotals {
  private readonly seen = new Map<string, number>();

  constructor(private readonly limit = 1000) {}

  note(key: string, at = Date.now()): void {
    this.seen.delete(key);
    this.seen.set(key, at);
    while (this.seen.size > this.limit) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Whether the key was noted as slow within the last `withinMs`. */
  has(key: string, withinMs: number, now = Date.now()): boolean {
    const at = this.seen.get(key);
    return at !== undefined && now - at <= withinMs;
  }
}

const id = (name: string) => sql.identifier(name);

const triggerNames = (table: string, termId: string) => (['i', 'u', 'd'] as const).map((suffix) => `${table}_s${termId}_${suffix}`);

/** Drops terms (their triggers, their rows: the deltas by the cascade). */
async function dropTerms(executor: Executor, table: string, termIds: readonly string[]): Promise<void> {
  for (const termId of termIds) {
    for (const name of triggerNames(table, termId)) await executor.execute(sql`drop trigger if exists ${id(name)} on ${id(table)}`);
    await executor.execute(sql`delete from item_search_terms where id = ${termId}`);
  }
}

/** Drops every kept term of a collection: its schema changed, so their conditions may name columns no longer there. */
export async function dropKeptSearches(executor: Executor, collectionId: string, table: string): Promise<void> {
  const rows = await query<{ id: string }>(executor, sql`select id from item_search_terms where collection_id = ${collectionId}`);
  await dropTerms(
    executor,
    table,
    rows.map((row) => row.id),
  );
}

/**
 * Registers a term: its row and its three triggers, in one transaction. Making a trigger waits for
 * the table's writers in progress and holds off new ones until this commits (a lock that
 * conflicts with theirs), so every write after it adds its delta. Gives up (undefined) when the
 * writers in progress do not end within lockTimeoutMs: a long import must not hold the search up,
 * nor the writers queued behind it.
 */
async function register(db: Db, term: KeptSearch, limits: Readonly<KeptSearchLimits>): Promise<string | undefined> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('lock_timeout', ${String(limits.lockTimeoutMs)}, true)`);
      const [conforming] = await query<{ on: string }>(tx, sql`select current_setting('standard_conforming_strings') as on`);
      // The condition's literals are written for standard strings (backslashes plain).
      if (conforming?.on !== 'on') return undefined;
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('item_search_terms'), hashtext(${term.collectionId}))`);
      const [existing] = await query<{ id: string }>(tx, sql`select id from item_search_terms where collection_id = ${term.collectionId} and key = ${term.key}`);
      if (existing) return existing.id;
      const older = await query<{ id: string }>(
        tx,
        sql`select id from item_search_terms where collection_id = ${term.collectionId} order by used_at desc, created_at desc offset ${limits.termsPerCollection - 1}`,
      );
      await dropTerms(
        tx,
        term.table,
        older.map((row) => row.id),
      );
      keptSearchStats.evicted += older.length;
      const termId = randomBytes(6).toString('hex');
      await tx.execute(sql`insert into item_search_terms (id, collection_id, key, cond) values (${termId}, ${term.collectionId}, ${term.key}, ${term.cond})`);
      const args = sql.raw([termId, term.cond].map((a) => `'${a.replaceAll("'", "''")}'`).join(', '));
      const [insert, update, remove] = triggerNames(term.table, termId);
      await tx.execute(sql`create trigger ${id(insert!)} after insert on ${id(term.table)} referencing new table as new_rows for each statement execute function content_count_search(${args})`);
      await tx.execute(
        sql`create trigger ${id(update!)} after update on ${id(term.table)} referencing old table as old_rows new table as new_rows for each statement execute function content_count_search(${args})`,
      );
      await tx.execute(sql`create trigger ${id(remove!)} after delete on ${id(term.table)} referencing old table as old_rows for each statement execute function content_count_search(${args})`);
      // The table is now locked against schema changes until this commits: the condition must
      // still name its columns (a field removed since the search read the schema would make every
      // write fail in the trigger).
      await tx.execute(sql`select 1 from ${id(term.table)} where ${sql.raw(term.cond)} limit 0`);
      keptSearchStats.registered += 1;
      return termId;
    });
  } catch (error) {
    const code = databaseCode(error);
    // lock_not_available: writers in progress past the timeout; undefined column or table: the schema changed meanwhile.
    if (code === '55P03' || code === '42703' || code === '42P01') {
      keptSearchStats.skipped += 1;
      return undefined;
    }
    throw error;
  }
}

/**
 * Sets a registered term's base: the rows meeting its condition minus the deltas, both read in
 * one statement's snapshot (every write that snapshot does not see adds its delta; every delta it
 * sees is of a write it counts). Any process may do it at any time; the first to finish sets it.
 */
async function count(db: Db, read: Db, term: KeptSearch, termId: string): Promise<void> {
  const [row] = await query<{ c: string; d: string }>(
    read,
    sql`select (select count(*) from ${id(term.table)} where ${sql.raw(term.cond)})::bigint as c,
      (select coalesce(sum(n), 0) from item_search_counts where term_id = ${termId})::bigint as d`,
  );
  await db.execute(sql`update item_search_terms set base = ${String(BigInt(row!.c) - BigInt(row!.d))}::bigint where id = ${termId} and base is null`);
  keptSearchStats.counted += 1;
}

/**
 * Folds a term's deltas into its base: the deltas this statement sees are deleted and added to
 * base at once (a writer's uncommitted rows are not seen and stay). The term's row lock orders
 * folds; a second one finds the rows already gone and adds nothing for them.
 */
async function fold(db: Db, termId: string): Promise<void> {
  await db.execute(sql`with term as (select id from item_search_terms where id = ${termId} and base is not null for update),
    gone as (delete from item_search_counts where term_id in (select id from term) returning n)
    update item_search_terms set base = base + coalesce((select sum(n) from gone), 0), used_at = now() where id in (select id from term)`);
  keptSearchStats.folded += 1;
}

/** The kept total of a term, falling back to `counted` if the term is gone meanwhile (replaced, or its schema changed). */
const keptTotal = (termId: string, counted: SQL): SQL =>
  sql`coalesce((select t.base + coalesce((select sum(n) from item_search_counts where term_id = t.id), 0) from item_search_terms t where t.id = ${termId} and t.base is not null), (${counted}))`;

/**
 * The total of a list whose conditions make `term`, as SQL for the page statement: the kept total
 * once the term is counted (registering and counting it first if needed: this request then makes
 * the one pass), else `counted` (the count of the matching rows) when registering gave up.
 * `limits`: the app's (config.listQueries.keptSearch, tuning.ts).
 */
export async function keptSearchTotal(db: Db, read: Db, term: KeptSearch, counted: SQL, limits: Readonly<KeptSearchLimits>): Promise<SQL> {
  const [row] = await query<{ id: string; ready: boolean; deltas: number; stale: boolean }>(
    read,
    sql`select id, base is not null as ready, used_at < now() - ${`${limits.touchEveryMs} milliseconds`}::interval as stale,
      (select count(*) from (select 1 from item_search_counts c where c.term_id = t.id limit ${limits.foldAt + 1}) d)::integer as deltas
      from item_search_terms t where collection_id = ${term.collectionId} and key = ${term.key}`,
  );
  if (row?.ready) {
    keptSearchStats.served += 1;
    if (row.deltas > limits.foldAt) await fold(db, row.id);
    // A last use written late or not at all only changes which term is replaced first.
    else if (row.stale) void db.execute(sql`update item_search_terms set used_at = now() where id = ${row.id}`).catch(() => undefined);
    return keptTotal(row.id, counted);
  }
  let termId = row?.id;
  if (!termId) {
    const now = Date.now();
    if (now - (lastRegistered.get(term.collectionId) ?? -Infinity) < limits.registerSpacingMs) {
      keptSearchStats.spaced += 1;
      return counted;
    }
    lastRegistered.set(term.collectionId, now);
    termId = await register(db, term, limits);
  }
  if (!termId) return counted;
  await count(db, read, term, termId);
  return keptTotal(termId, counted);
}
