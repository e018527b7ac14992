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
import * as tar from 'tar';
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
    const snapshot = await options.database.db.transaction((tx) => readSnapshot(tx, staging, options.progress), { isolationLevel: 'repeatable read', accessMode: 'read only' });
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
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, ['manifest.json', 'db', 'files']);
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

async function readSnapshot(tx: Executor, staging: string, progress: BackupOptions['progress']): Promise<Snapshot> {
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
      const dumped = await dumpRows(tx, name, path.join(staging, entry), (n) => bar.tick(n));
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

/** Writes a table's rows as JSON lines through a cursor; returns the count, size and hash of what it wrote. */
async function dumpRows(tx: Executor, table: string, file: string, onRows: (n: number) => void) {
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  const cursor = 'larder_backup_rows';
  try {
    await run(tx, `declare ${cursor} no scroll cursor for select row_to_json(t)::text as r from ${qualified(table)} t`);
    for (;;) {
      const batch = await run<{ r: string }>(tx, `fetch forward ${fetchRows} from ${cursor}`);
      if (batch.length === 0) break;
      const chunk = Buffer.from(`${batch.map((row) => row.r).join('\n')}\n`);
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
