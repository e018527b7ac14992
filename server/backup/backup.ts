/**
 * `larder backup <file>` (docs/cli.md "Backups and restores"): one gzip tar archive with every row
 * of every table of `public` and every stored file, read from one snapshot of the database.
 *
 * The rows are read in one `repeatable read, read only` transaction (one connection on PostgreSQL,
 * so writers carry on; on PGlite the server's one connection, so its writers wait until the rows
 * are read), through a cursor a batch at a time, so memory does not grow with a table. Tables are
 * found in the catalog, so collections made at run time are in without a list of them. The
 * archive is written to `<file>.partial` and renamed at the end: a file at `<file>` is whole.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import * as tar from 'tar';
import { copyPoolOf } from '../content/csv-copy.ts';
import type { Database } from '../db/index.ts';
import type { FileStorage } from '../files/storage.ts';
import { isSafeKey } from '../files/storage.ts';
import type { Progress } from '../cli/operation.ts';
import { publicSequences, publicTables, qualified, run, tableShape, type Executor } from './catalog.ts';
import { backupFormatVersion, fileEntry, larderVersion, skippedTables, type BackupManifest, type FileManifest, type TableManifest } from './manifest.ts';
import { appliedMigrations, knownMigrations } from './migrations.ts';

/** Rows fetched from the cursor at a time. */
const fetchRows = 2000;

export interface BackupOptions {
  database: Database;
  storage: FileStorage;
  /** Where the archive goes (an absolute path: the command resolves it). */
  file: string;
  progress(label: string, total?: number): Progress;
}

export interface BackupSummary {
  file: string;
  /** Size of the archive. */
  bytes: number;
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
  missingFiles: number;
  migrations: number;
  durationMs: number;
}

export async function createBackup(options: BackupOptions): Promise<BackupSummary> {
  const started = performance.now();
  const target = path.resolve(options.file);
  const partial = `${target}.partial`;
  const staging = `${target}.${randomBytes(6).toString('hex')}.partial.d`;
  try {
    await mkdir(path.join(staging, 'db'), { recursive: true });
    await mkdir(path.join(staging, 'files'), { recursive: true });
    const pool = copyPoolOf(options.database.db);
    const snapshot = pool
      ? await inPostgresSnapshot(pool, (tx, client) => readSnapshot(tx, staging, options.progress, client))
      : await options.database.db.transaction((tx) => readSnapshot(tx, staging, options.progress), { isolationLevel: 'repeatable read', accessMode: 'read only' });
    const { files, missing } = await copyFiles(options.storage, snapshot.fileKeys, staging, options.progress);
    const manifest: BackupManifest = {
      format: 'larder-backup',
      formatVersion: backupFormatVersion,
      larderVersion: larderVersion(),
      createdAt: snapshot.at,
      database: options.database.kind,
      migrations: snapshot.migrations,
      tables: snapshot.tables,
      skippedTables: [...skippedTables],
      sequences: snapshot.sequences,
      files,
      missingFiles: missing,
    };
    await writeFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 1));
    // The manifest first, so a reader meets it before the data.
    // Entries read 1 MB at a time (tar's default is 16 MB: a buffer that size per large table, several of them waiting for gzip).
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true, maxReadSize: 1024 * 1024 }, ['manifest.json', 'db', 'files']);
    await rename(partial, target);
    const bytes = (await stat(target)).size;
    return {
      file: target,
      bytes,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0),
      files: files.length,
      fileBytes: files.reduce((sum, f) => sum + f.size, 0),
      missingFiles: missing.length,
      migrations: manifest.migrations.length,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

interface Snapshot {
  at: string;
  migrations: BackupManifest['migrations'];
  tables: TableManifest[];
  sequences: BackupManifest['sequences'];
  fileKeys: string[];
}

/**
 * On PostgreSQL: one connection of the pool, in one `repeatable read, read only` transaction,
 * given both as drizzle (for the catalog's queries) and as the driver's client (for COPY). A
 * connection left in the middle of a COPY that failed is closed rather than put back.
 */
async function inPostgresSnapshot<T>(pool: pg.Pool, work: (tx: Executor, client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin isolation level repeatable read, read only');
    const result = await work(drizzle(client), client);
    await client.query('commit');
    return result;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

async function readSnapshot(tx: Executor, staging: string, progress: BackupOptions['progress'], client?: pg.PoolClient): Promise<Snapshot> {
  const [now] = await run<{ at: string }>(tx, `select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`);
  const tags = new Map(knownMigrations().map((m) => [m.when, m.tag]));
  const migrations = (await appliedMigrations(tx)).map((m) => ({ tag: tags.get(m.createdAt) ?? null, createdAt: m.createdAt, hash: m.hash }));
  const names = (await publicTables(tx)).filter((name) => !skippedTables.includes(name));
  const [estimate] = await run<{ rows: string }>(
    tx,
    `select coalesce(sum(greatest(c.reltuples, 0)), 0)::bigint::text as rows from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`,
  );
  const bar = progress('rows', Number(estimate?.rows ?? 0));
  const tables: TableManifest[] = [];
  let total = 0;
  try {
    for (const [i, name] of names.entries()) {
      const shape = await tableShape(tx, name);
      const entry = `db/${String(i).padStart(5, '0')}.jsonl`;
      const target = path.join(staging, entry);
      const dumped = client ? await copyRows(client, name, target, (n) => bar.tick(n)) : await dumpRows(tx, name, target, (n) => bar.tick(n));
      total += dumped.rows;
      tables.push({ ...shape, rows: dumped.rows, entry, bytes: dumped.bytes, sha256: dumped.sha256 });
    }
    bar.total(total);
  } finally {
    bar.done();
  }
  const sequences = await publicSequences(tx);
  const fileKeys = names.includes('stored_files') ? (await run<{ key: string }>(tx, 'select key from public.stored_files order by key')).map((r) => r.key) : [];
  return { at: now!.at, migrations, tables, sequences, fileKeys };
}

/**
 * A table's rows as JSON text, one a line. A `json` column keeps the text it was given, which
 * may hold line breaks between its tokens (never inside a string: PostgreSQL refuses raw control
 * characters there); they become spaces, so every row stays on one line.
 */
const rowsAsJson = (table: string) => `select translate(row_to_json(t)::text, E'\\n\\r', '  ') as r from ${qualified(table)} t`;

/**
 * On PostgreSQL: the rows as one COPY stream, bytes from the socket to the file with no object
 * per row (reading them as query results made ~300 bytes of garbage per row, enough to make the
 * process's heap grow with the table). CSV with a quote and a delimiter that JSON text never holds
 * raw (control characters 1 and 2) writes each line exactly as it is.
 */
async function copyRows(client: pg.PoolClient, table: string, file: string, onRows: (n: number) => void) {
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      let lines = 0;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines += 1;
      rows += lines;
      if (lines > 0) onRows(lines);
      done(null, chunk);
    },
  });
  const copy = client.query(copyTo(`copy (${rowsAsJson(table)}) to stdout with (format csv, quote e'\\x01', delimiter e'\\x02')`));
  await pipeline(copy, count, createWriteStream(file));
  return { rows, bytes, sha256: hash.digest('hex') };
}

/** Writes a table's rows as JSON lines through a cursor (PGlite); returns the count, size and hash of what it wrote. */
async function dumpRows(tx: Executor, table: string, file: string, onRows: (n: number) => void) {
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  const cursor = 'larder_backup_rows';
  try {
    await run(tx, `declare ${cursor} no scroll cursor for ${rowsAsJson(table)}`);
    for (;;) {
      const batch = await run<{ r: string }>(tx, `fetch forward ${fetchRows} from ${cursor}`);
      if (batch.length === 0) break;
      const chunk = linesOf(batch);
      hash.update(chunk);
      bytes += chunk.length;
      rows += batch.length;
      await write(out, chunk);
      onRows(batch.length);
    }
    await run(tx, `close ${cursor}`);
  } finally {
    out.end();
    await once(out, 'close');
  }
  return { rows, bytes, sha256: hash.digest('hex') };
}

/**
 * A batch's rows as UTF-8 lines, encoded one by one into one buffer. Not through one joined
 * string: a string of a whole batch (hundreds of kB) is allocated in V8's large-object space,
 * which only a full collection frees, and the heap then grew with the number of batches.
 */
function linesOf(batch: { r: string }[]): Buffer {
  let size = 0;
  for (const row of batch) size += Buffer.byteLength(row.r) + 1;
  const chunk = Buffer.allocUnsafe(size);
  let at = 0;
  for (const row of batch) {
    at += chunk.write(row.r, at);
    chunk[at++] = 0x0a;
  }
  return chunk;
}

async function write(out: WriteStream, chunk: Buffer) {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Copies each stored file into the staging directory, hashing it on the way; a file gone meanwhile is listed as missing. */
async function copyFiles(storage: FileStorage, keys: string[], staging: string, progress: BackupOptions['progress']) {
  const files: FileManifest[] = [];
  const missing: string[] = [];
  const bar = progress('files', keys.length);
  try {
    for (const key of keys) {
      if (!isSafeKey(key)) throw new Error(`The database names a stored file with a key that is not the server's own: ${JSON.stringify(key)}`);
      const found = await storage.get(key);
      if (!found) {
        missing.push(key);
        bar.tick();
        continue;
      }
      const destination = path.join(staging, fileEntry(key));
      await mkdir(path.dirname(destination), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(found.body, measure, createWriteStream(destination));
      files.push({ key, size, sha256: hash.digest('hex') });
      bar.tick();
    }
  } finally {
    bar.done();
  }
  return { files, missing };
}
