/**
 * `COPY (…) TO STDOUT WITH (FORMAT csv)` for the CSV export on PostgreSQL (docs/content-storage.md "Ranks and CSV").
 * COPY quotes cells in C as csv-stringify does (a comma, a quote, CR or LF: quoted, quotes
 * doubled) and sends the file's bytes as they are, which Node forwards without decoding. Three
 * differences from our format are handled by the caller's SQL: an empty string would be written
 * `""` (cells are NULL instead, which COPY writes as nothing), a lone `\.` is quoted when there is
 * a single column (such exports do not use COPY), and COPY takes no bind parameters (they are
 * written into the statement as quoted literals, here).
 *
 * Each batch is its own short read-only transaction on a pooled connection, in one snapshot
 * (REPEATABLE READ): an index probe for the batch's last row (COPY answers only the file), then
 * the COPY, read whole into memory (at most `maxBytes`) so no connection is held while the client
 * reads. Only PostgreSQL's pool has COPY streams: PGlite keeps the single-statement text batches.
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../db/index.ts';

/** The SQLSTATE `larder_csv_inexact()` (migration 0009) raises: a cell only the JavaScript codec writes exactly. */
export const inexactCellCode = 'LCSV1';

/** The pool behind a node-postgres drizzle database; undefined on PGlite. */
export function copyPoolOf(db: Db): pg.Pool | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
}

const dialect = new PgDialect();

/**
 * The statement's text with its parameters written in as literals, or undefined when one is not a
 * plain value. A parameter is sent as text of unknown type and PostgreSQL infers its type from
 * where it stands; a quoted literal is of unknown type too, so the statement means the same.
 * Quotes are doubled (the caller checks `standard_conforming_strings`, so backslashes are plain).
 */
export function inlineStatement(statement: SQL): string | undefined {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const literals: string[] = [];
  for (const value of params) {
    if (value === null || value === undefined) literals.push('NULL');
    else if (typeof value === 'string') literals.push(`'${value.replaceAll("'", "''")}'`);
    else if (typeof value === 'number' && Number.isFinite(value)) literals.push(`'${String(value)}'`);
    else if (typeof value === 'boolean') literals.push(`'${String(value)}'`);
    else return undefined;
  }
  // drizzle writes parameters as $1…$n and nothing else of ours looks like that (literals are parameters).
  return text.replace(/\$(\d+)(?!\d)/g, (_, n: string) => literals[Number(n) - 1]!);
}

export type CopyOutcome =
  | { kind: 'written'; chunks: Buffer[]; bytes: number; rows: number; boundary: Record<string, unknown> | undefined }
  /** A cell needs the JavaScript codec, the batch outgrew `maxBytes`, or the COPY failed: write this batch another way. */
  | { kind: 'elsewhere'; why: 'inexact' | 'too big' | 'failed'; error?: unknown };

/** A batch's last row as the probe reads it (its sort key as text and `_id`); undefined: the batch's start. */
export type BoundaryRow = Record<string, unknown> | undefined;

export interface CopyWork {
  timeoutMs: number;
  /** At most this many bytes held per batch: more is 'too big'. */
  maxBytes: number;
  /** How many runs of rows make a batch, each written by its own connection (COPY runs in one process each). */
  parts: number;
  /** A query for the last row of the part after `from` (nothing when the run ends within it). */
  probe: (from: BoundaryRow) => SQL;
  /** The COPY of the part after `from` (as many rows as the probe counts). */
  copy: (from: BoundaryRow) => SQL;
}

/** One COPY read whole; 'too big' stops it (its connection must then be dropped). */
async function readCopy(client: pg.PoolClient, text: string, budget: { left: number }): Promise<{ chunks: Buffer[]; rows: number } | 'too big'> {
  const stream = client.query(copyTo(text));
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      budget.left -= chunk.length;
      if (budget.left < 0) {
        stream.destroy();
        resolve('too big');
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve({ chunks, rows: stream.rowCount }));
    stream.on('error', reject);
  });
}

/** A pooled connection in a read-only REPEATABLE READ transaction with the list statement timeout and no JIT; `snapshot`: another's. */
async function begin(client: pg.PoolClient, timeoutMs: number, snapshot?: string) {
  await client.query('begin isolation level repeatable read read only');
  if (snapshot) await client.query(`set transaction snapshot '${snapshot.replaceAll("'", "''")}'`);
  // The cell expressions make a plan PostgreSQL prices high enough to JIT-compile (seconds, for milliseconds of work).
  await client.query(`select set_config('statement_timeout', $1, true), set_config('jit', 'off', true)`, [String(timeoutMs)]);
}

/**
 * One batch of up to `parts` parts. The first connection, in a read-only REPEATABLE READ
 * transaction, probes each part's last row (an index read), so the COPYs know where they end and
 * the next batch where it starts; COPY answers only the file. The other parts' connections import
 * its snapshot (`pg_export_snapshot`), so every part sees the same rows as the probes did, and
 * the parts' COPYs run at once (each PostgreSQL process uses one core). A second connection is
 * taken only when the pool has one to spare, never waited for (two exports each holding one and
 * waiting for another would wait for ever): otherwise the parts run one after the other.
 */
export async function copyBatch(pool: pg.Pool, work: CopyWork): Promise<CopyOutcome> {
  const clients: pg.PoolClient[] = [];
  let broken = false;
  try {
    const first = await pool.connect();
    clients.push(first);
    await begin(first, work.timeoutMs);
    const starts: BoundaryRow[] = [undefined];
    let last: BoundaryRow;
    for (let i = 0; i < work.parts; i += 1) {
      const probe = dialect.sqlToQuery(work.probe(starts[i]));
      last = (await first.query<Record<string, unknown>>(probe.sql, probe.params as unknown[])).rows[0];
      if (!last) break;
      if (i + 1 < work.parts) starts.push(last);
    }
    const texts = starts.map((from) => inlineStatement(work.copy(from)));
    if (texts.some((text) => text === undefined)) return { kind: 'elsewhere', why: 'failed', error: new Error('a parameter cannot be written into a COPY statement') };
    // Other connections for the other parts, when the pool can spare them now.
    const helpers: pg.PoolClient[] = [];
    if (starts.length > 1) {
      const snapshot = (await first.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
      for (let i = 1; i < starts.length && (pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10)); i += 1) {
        const helper = await pool.connect();
        clients.push(helper);
        await begin(helper, work.timeoutMs, snapshot);
        helpers.push(helper);
      }
    }
    const budget = { left: work.maxBytes };
    const results: Awaited<ReturnType<typeof readCopy>>[] = new Array(texts.length);
    // Part i on helper i-1 if there is one; the rest one after the other on the first connection.
    const onFirst = async () => {
      for (let i = 0; i < texts.length; i += 1) if (i === 0 || !helpers[i - 1]) results[i] = await readCopy(first, texts[i]!, budget);
    };
    await Promise.all([onFirst(), ...helpers.map(async (helper, j) => (results[j + 1] = await readCopy(helper, texts[j + 1]!, budget)))]);
    if (results.some((r) => r === 'too big')) {
      broken = true;
      return { kind: 'elsewhere', why: 'too big' };
    }
    const chunks = results.flatMap((r) => (r === 'too big' ? [] : r.chunks));
    return {
      kind: 'written',
      // As they came (not joined: one copy fewer of the batch in memory).
      chunks,
      bytes: chunks.reduce((n, chunk) => n + chunk.length, 0),
      rows: results.reduce((n, r) => n + (r === 'too big' ? 0 : r.rows), 0),
      boundary: last,
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { kind: 'elsewhere', why: code === inexactCellCode ? 'inexact' : 'failed', error };
  } finally {
    // Read-only transactions: ending them commits nothing. A connection left mid-COPY is closed
    // rather than returned to the pool.
    await Promise.all(
      clients.map(async (client) => {
        const end = broken ? undefined : await client.query('rollback').then(() => undefined, (error: unknown) => error as Error);
        client.release(broken ? new Error('csv copy abandoned') : end);
      }),
    );
  }
}

export const copySql = (query: SQL): SQL => sql`copy (${query}) to stdout with (format csv)`;
