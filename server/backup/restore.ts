/**
 * `larder restore <file> [--force]` (docs/cli.md "Backups and restores"). First the whole archive
 * is unpacked into a temporary directory and checked (format, migrations this code knows, every
 * entry's size and SHA-256): a truncated, corrupted or newer archive is refused before anything is
 * written. Then one transaction: the schema is made afresh, the migrations the backup had are
 * applied, the tables made at run time are created, the rows loaded (the tables' own triggers off:
 * what they keep is in the backup already), the run-time tables get their keys, indexes and
 * triggers, the sequences their values, then the newer migrations run and the files are stored.
 * Any failure rolls the database back and removes the files stored so far.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import * as tar from 'tar';
import type { Database } from '../db/index.ts';
import { isSafeKey, type FileStorage } from '../files/storage.ts';
import { CliError, type Progress } from '../cli/operation.ts';
import type { AuditLog } from '../admin/audit.ts';
import { createTableStatement, loadOrder, publicTables, qualified, quoteIdent, run, type Executor } from './catalog.ts';
import { backupFormatVersion, fileEntry, type BackupManifest, type TableManifest } from './manifest.ts';
import { applyMigrations, knownMigrations } from './migrations.ts';

/** Rows per `insert … select from json_populate_recordset`, and the most text one statement carries. */
const insertRows = 2000;
const insertBytes = 4 * 1024 * 1024;

export interface RestoreOptions {
  database: Database;
  storage: FileStorage;
  file: string;
  /** Replace a target that is not empty (docs/cli.md "Backups and restores"). */
  force: boolean;
  audit: AuditLog;
  actor: string;
  progress(label: string, total?: number): Progress;
  note(message: string): void;
}

export interface RestoreSummary {
  file: string;
  createdAt: string;
  larderVersion: string;
  from: 'pglite' | 'postgres';
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
  /** Migrations applied after the rows: those this code has that the backup had not. */
  newerMigrations: number;
  durationMs: number;
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const started = performance.now();
  const file = path.resolve(options.file);
  const unpacked = await mkdtemp(path.join(os.tmpdir(), 'larder-restore-'));
  const stored: string[] = [];
  try {
    const manifest = await unpackAndCheck(file, unpacked);
    const level = manifest.migrations.at(-1)?.createdAt ?? 0;
    let newer = 0;
    await options.database.db.transaction(async (tx) => {
      const before = await targetContent(tx, options.storage);
      if (before.length > 0 && !options.force) {
        throw new CliError(`The target installation is not empty (${before.join(', ')}); restore into an empty one, or add --force to replace it.`, 1, 'target_not_empty');
      }
      if (before.length > 0) options.note(`Replacing the installation's data (${before.join(', ')}).`);
      // A blank schema whatever was there: an empty target may still carry migrations newer than the backup.
      await run(tx, 'drop schema if exists public cascade');
      await run(tx, 'drop schema if exists drizzle cascade');
      await run(tx, 'drop schema if exists pgboss cascade');
      await run(tx, 'create schema public');
      await applyMigrations(tx, level);
      await loadTables(tx, manifest, unpacked, options.progress);
      newer = await applyMigrations(tx);
      await storeFiles(tx, options.storage, manifest, unpacked, stored, options.progress);
      await options.audit.record(tx as never, { id: null, name: options.actor }, {
        action: 'installation.restore',
        targetKind: 'installation',
        targetId: null,
        before: before.length > 0 ? { replaced: before } : null,
        after: { file: path.basename(file), createdAt: manifest.createdAt, larderVersion: manifest.larderVersion, rows: rowCount(manifest), files: manifest.files.length },
      });
    });
    if (options.force) await removeOtherFiles(options.storage, manifest);
    return {
      file,
      createdAt: manifest.createdAt,
      larderVersion: manifest.larderVersion,
      from: manifest.database,
      tables: manifest.tables.length,
      rows: rowCount(manifest),
      files: manifest.files.length,
      fileBytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
      newerMigrations: newer,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    // The files this restore wrote, and only those: the database they belonged to was rolled back.
    for (const key of stored) await options.storage.delete(key).catch(() => {});
    throw error;
  } finally {
    // A stream that failed midway may still be closing a file there: retry, and never hide the first error.
    await rm(unpacked, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => {});
  }
}

const rowCount = (manifest: BackupManifest) => manifest.tables.reduce((sum, t) => sum + t.rows, 0);

/** Unpacks the archive and checks it whole: format, migrations, every entry's size and hash. */
async function unpackAndCheck(file: string, into: string): Promise<BackupManifest> {
  const unreadable = (why: string) => new CliError(`${file} is not a usable Larder backup: ${why}.`, 1, 'backup_unreadable');
  try {
    await stat(file);
  } catch {
    throw unreadable('no such file');
  }
  const entries: string[] = [];
  try {
    await tar.x({
      file,
      cwd: into,
      strict: true,
      filter: (entry) => {
        entries.push(entry);
        return true;
      },
      onReadEntry: (entry) => {
        if (entry.type !== 'File' && entry.type !== 'Directory') throw unreadable(`it holds ${entry.type} ${entry.path}`);
      },
    });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw unreadable(`the archive cannot be read (${(error as Error).message}); it may be truncated or corrupted`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(into, 'manifest.json'), 'utf8')) as BackupManifest;
  } catch {
    throw unreadable('it has no readable manifest.json');
  }
  if (manifest.format !== 'larder-backup' || !Number.isInteger(manifest.formatVersion)) throw unreadable('its manifest is not one of a Larder backup');
  if (manifest.formatVersion > backupFormatVersion) {
    throw new CliError(
      `${file} was made by a newer Larder (${manifest.larderVersion}, backup format ${manifest.formatVersion}); this one reads format ${backupFormatVersion}. Restore it with that version or newer.`,
      1,
      'backup_newer',
    );
  }
  const known = new Set(knownMigrations().map((m) => m.when));
  const unknown = manifest.migrations.filter((m) => !known.has(m.createdAt));
  if (unknown.length > 0) {
    throw new CliError(
      `${file} was made by a newer Larder (${manifest.larderVersion}): its database has ${unknown.length} migration(s) this version does not know (${unknown.map((m) => m.tag ?? m.createdAt).join(', ')}). Restore it with that version or newer.`,
      1,
      'backup_newer',
    );
  }
  const checks: { entry: string; size: number; sha256: string }[] = [
    ...manifest.tables.map((t) => ({ entry: t.entry, size: t.bytes, sha256: t.sha256 })),
    ...manifest.files.map((f) => {
      if (!isSafeKey(f.key)) throw unreadable(`it names a file ${JSON.stringify(f.key)} that is not a key of ours`);
      return { entry: fileEntry(f.key), size: f.size, sha256: f.sha256 };
    }),
  ];
  for (const check of checks) {
    if (!/^(db|files)\/[A-Za-z0-9._/-]+$/.test(check.entry) || check.entry.includes('..')) throw unreadable(`it names an entry ${JSON.stringify(check.entry)}`);
    const [size, sha256] = await hashOf(path.join(into, check.entry)).catch(() => [-1, ''] as const);
    if (size !== check.size || sha256 !== check.sha256) throw unreadable(`${check.entry} does not match its checksum in the manifest`);
  }
  return manifest;
}

async function hashOf(file: string): Promise<readonly [number, string]> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return [size, hash.digest('hex')];
}

/** What makes the target not empty: accounts, organizations or projects in the database, files in local storage. */
async function targetContent(tx: Executor, storage: FileStorage): Promise<string[]> {
  const found: string[] = [];
  for (const table of ['users', 'organizations', 'projects']) {
    const [row] = await run<{ rows: boolean }>(tx, `select to_regclass($1) is not null as rows`, [`public.${table}`]);
    if (!row?.rows) continue;
    const [any] = await run<{ present: boolean }>(tx, `select exists (select 1 from ${qualified(table)}) as present`);
    if (any?.present) found.push(table);
  }
  if (storage.list && (await storage.list('')).length > 0) found.push('stored files');
  return found;
}

/** Creates the run-time tables, loads every table's rows, then the run-time tables' keys, indexes and triggers and the sequences. */
async function loadTables(tx: Executor, manifest: BackupManifest, unpacked: string, progress: RestoreOptions['progress']) {
  const existing = new Set(await publicTables(tx));
  const made = manifest.tables.filter((t) => !existing.has(t.name));
  for (const table of made) await run(tx, createTableStatement(table));
  const kept = manifest.tables.filter((t) => existing.has(t.name));
  // What the migrations wrote (settings and the like) gives way to the backup's rows.
  if (existing.size > 0) await run(tx, `truncate table ${[...existing].map(qualified).join(', ')} cascade`);
  for (const table of kept) await run(tx, `alter table ${qualified(table.name)} disable trigger user`);
  const byName = new Map(manifest.tables.map((t) => [t.name, t]));
  const bar = progress('rows', rowCount(manifest));
  try {
    for (const name of loadOrder(manifest.tables)) await loadRows(tx, byName.get(name)!, unpacked, (n) => bar.tick(n));
  } finally {
    bar.done();
  }
  for (const table of made) {
    for (const c of table.constraints.filter((c) => c.kind !== 'f')) await run(tx, `alter table ${qualified(table.name)} add constraint ${quoteIdent(c.name)} ${c.definition}`);
    for (const index of table.indexes) await run(tx, index);
  }
  for (const table of made) {
    for (const c of table.constraints.filter((c) => c.kind === 'f')) await run(tx, `alter table ${qualified(table.name)} add constraint ${quoteIdent(c.name)} ${c.definition}`);
    for (const trigger of table.triggers) await run(tx, trigger);
  }
  for (const table of kept) await run(tx, `alter table ${qualified(table.name)} enable trigger user`);
  for (const sequence of manifest.sequences) {
    const [found] =
      sequence.table && sequence.column
        ? await run<{ name: string | null }>(tx, 'select pg_get_serial_sequence($1, $2) as name', [qualified(sequence.table), sequence.column])
        : await run<{ name: string | null }>(tx, 'select to_regclass($1)::text as name', [qualified(sequence.name)]);
    if (!found?.name) continue;
    const highest = sequence.table && sequence.column ? `(select max(${quoteIdent(sequence.column)})::bigint from ${qualified(sequence.table)})` : 'null::bigint';
    await run(tx, `select case when v is null then setval($1::regclass, 1, false) else setval($1::regclass, v, true) end from (select greatest($2::bigint, ${highest}) as v) s`, [found.name, sequence.lastValue]);
  }
}

async function loadRows(tx: Executor, table: TableManifest, unpacked: string, onRows: (n: number) => void) {
  if (table.rows === 0) return;
  const columns = table.columns.filter((c) => !c.generated).map((c) => quoteIdent(c.name));
  const list = columns.join(', ');
  const statement = `insert into ${qualified(table.name)} (${list}) overriding system value select ${list} from json_populate_recordset(null::${qualified(table.name)}, $1::json)`;
  let batch: string[] = [];
  let bytes = 0;
  let loaded = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await run(tx, statement, [`[${batch.join(',')}]`]);
    loaded += batch.length;
    onRows(batch.length);
    batch = [];
    bytes = 0;
  };
  const lines = readline.createInterface({ input: createReadStream(path.join(unpacked, table.entry), 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    batch.push(line);
    bytes += line.length;
    if (batch.length >= insertRows || bytes >= insertBytes) await flush();
  }
  await flush();
  if (loaded !== table.rows) throw new Error(`${table.name}: loaded ${loaded} rows, the manifest says ${table.rows}`);
}

/** Stores the archive's files (with the content type their row names: a bucket serves it). */
async function storeFiles(tx: Executor, storage: FileStorage, manifest: BackupManifest, unpacked: string, stored: string[], progress: RestoreOptions['progress']) {
  const bar = progress('files', manifest.files.length);
  const types = new Map((await run<{ key: string; content_type: string }>(tx, 'select key, content_type from public.stored_files')).map((r) => [r.key, r.content_type]));
  try {
    for (const file of manifest.files) {
      const info = { size: file.size, contentType: types.get(file.key) ?? 'application/octet-stream' };
      // A key names one upload's bytes for good: a file already there under its key with its size
      // (a --force over the same installation) is left alone, neither rewritten nor removed on a
      // failure. Any other is noted before its write, so a write that fails midway is removed too.
      const there = await storage.stat(file.key);
      if (there?.size === file.size) {
        bar.tick();
        continue;
      }
      if (!there) stored.push(file.key);
      await storage.put(file.key, createReadStream(path.join(unpacked, fileEntry(file.key))), info);
      bar.tick();
    }
  } finally {
    bar.done();
  }
}

/** With --force, the stored files the archive does not hold go (local storage; a bucket is left as it is). */
async function removeOtherFiles(storage: FileStorage, manifest: BackupManifest) {
  if (!storage.list) return;
  const keep = new Set(manifest.files.map((f) => f.key));
  for (const key of await storage.list('')) if (!keep.has(key) && isSafeKey(key)) await storage.delete(key);
}
