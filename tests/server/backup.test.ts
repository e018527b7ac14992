/**
 * Backups and restores (docs/cli.md "Backups and restores"), on both databases: a project with
 * every field type, nested items, files and 100,000 items is backed up while 20 writers keep
 * creating items; restored into a fresh installation, every item acknowledged before the backup
 * began is there, counts and file hashes match the manifest, and the restored server answers.
 * Bad archives and a non-empty target are refused with nothing written.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../server/admin/audit.ts';
import { buildApp, type App } from '../../server/app.ts';
import type { BackupManifest } from '../../server/backup/manifest.ts';
import { backupOperation, restoreOperation } from '../../server/cli/backup-operations.ts';
import { CliError, type OperationContext } from '../../server/cli/operation.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import { LocalDiskStorage, type FileStorage } from '../../server/files/storage.ts';
import { bearer, signIn, verifiedUser } from './support/flows.ts';
import { code, everyFieldTypeProject, fullValues } from './support/every-field-type.ts';
import { failingMidway, startBucket, type TestBucket } from './support/s3rver.ts';
import { createTestApp, databaseKinds, json, openTestDatabase, testEnv, type DatabaseKind, type TestApp } from './support/test-app.ts';

const bulkItems = 100_000;
const writers = 20;

const rows = async <T = Record<string, unknown>>(database: Database, statement: ReturnType<typeof sql>) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

function contextFor(database: Database, storage: FileStorage, dataDir: string): OperationContext {
  return {
    database,
    config: loadConfig({ ...testEnv, DATA_DIR: dataDir }),
    storage,
    audit: new AuditLog(database.db),
    actor: 'cli (test)',
    progress: () => ({ tick() {}, total() {}, done() {} }),
    note() {},
  };
}

/** A fresh installation's database, never migrated (what `larder restore` opens). */
const freshDatabase = (kind: DatabaseKind): Promise<Database> => openTestDatabase(kind, { migrated: false });

async function readManifest(file: string): Promise<BackupManifest> {
  const dir = mkdtempSync(path.join(tmpdir(), 'larder-backup-manifest-'));
  try {
    await tar.x({ file, cwd: dir, filter: (p) => p === 'manifest.json' });
    return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function refusal(run: Promise<unknown>): Promise<CliError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliError);
  return error as CliError;
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

const sha256 = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');

describe.each(databaseKinds)('backup and restore on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let account: { username: string; password: string };
  let base: string;
  let access: string;
  let archive: string;
  let manifest: BackupManifest;
  let restored: Database;
  let restoredStorage: LocalDiskStorage;
  let restoredApp: App;
  let richIds: string[] = [];
  let photoUrl: string;
  let photo: Buffer;
  const acknowledged: { id: string; at: number }[] = [];
  let backupStarted = 0;
  let tables: Record<string, string> = {};

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url: base + url, headers: { ...bearer(access), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    const setupStarted = performance.now();
    dir = mkdtempSync(path.join(tmpdir(), 'larder-backup-'));
    // Without billing: 100,000 items are past the free plan's limits, and limits are not what is tested here.
    t = await createTestApp(kind, { DATA_DIR: path.join(dir, 'source'), FILES_SWEEP_INTERVAL_S: '0', BILLING: '0' });
    const user = await verifiedUser(t.app, 'backup');
    account = user.account;
    access = user.tokens.access_token;
    const org = json(await t.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(access), payload: { name: 'Backup Org' } })).id as string;
    const project = json(await t.app.inject({ method: 'POST', url: `/api/organization/${org}/project`, headers: bearer(access), payload: { name: 'Backup' } })).id as string;
    base = `/api/organization/${org}/project/${project}/`;
    const collection = async (body: Record<string, unknown>) => {
      const response = await call('POST', 'collection', body);
      expect(response.statusCode, response.body).toBe(201);
      return json(response);
    };
    // The shared project with every field type, with a year-99 date and extreme numbers in its two items.
    const every = await everyFieldTypeProject(
      { call: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => call(method, url, payload) },
      {
        people: ['Ada'],
        rows: (people) => [
          { ...fullValues(people), when: '0099-01-02T03:04:05.678Z', price: -0.1 },
          { title: 'Beta', price: 1e21, size: { _id: 'm' }, live: false, data: [1, 2, 3] },
        ],
      },
    );
    richIds = every.items.map((i) => i.id);
    const part = await every.part(richIds[0]!, { name: 'wheel' });
    await every.bolt(richIds[0]!, part._id as string, { size: 3 });
    photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } }).jpeg().toBuffer();
    const form = new FormData();
    form.append('imageFile', new Blob([new Uint8Array(photo)]), 'photo.jpg');
    const request = new Request('http://larder.test/', { method: 'PUT', body: form });
    const uploaded = await call('PUT', `collection/things/item/${richIds[0]}/image?imageSlug=image&nestedID=`, Buffer.from(await request.arrayBuffer()), {
      'content-type': request.headers.get('content-type')!,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    photoUrl = json(uploaded).image.imageURL as string;
    // The bulk collection: 100,000 rows written straight into its table (its counter kept in step).
    // A Number field: its one btree keeps the load quick on PGlite (text fields add trigram and word indexes).
    const bulk = await collection({ id: 'bulk', name: 'Bulk', schema: [{ name: 'N', slug: 'n', type: code('Number') }] });
    await collection({ id: 'live', name: 'Live', schema: [{ name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true }] });
    for (const r of await rows<{ slug: string; table: string }>(t.database, sql`select slug, storage_tables[1] as table from content_collections`)) tables[r.slug] = r.table;
    const numberColumn = sql.identifier(`f_${(bulk.schema as { id: string }[])[0]!.id}`);
    await t.database.db.execute(
      sql`insert into ${sql.identifier(tables.bulk!)} (_id, _rank, _created_date, _last_updated_date, ${numberColumn})
          select substr(md5(i::text), 1, 24), 'a' || lpad(i::text, 7, '0') || 'V', now(), now(), i from generate_series(1, ${bulkItems}) i`,
    );
    await t.database.db.execute(sql`update content_collections set item_count = ${bulkItems} where slug = 'bulk'`);
    console.log(`backup test on ${kind}: set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);
  }, 240_000);

  afterAll(async () => {
    await restoredApp?.close();
    await restored?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while 20 writers create items, and restores into a fresh installation with every acknowledged item', async () => {
    let stop = false;
    const failures: string[] = [];
    // How long a writer waits while the backup runs (docs/cli.md: on PGlite the rows' read holds the one connection).
    let backingUp = false;
    const waits: number[] = [];
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const sent = performance.now();
        const response = await call('POST', 'collection/live/item', { title: `writer ${w} item ${n}` });
        if (backingUp) waits.push(performance.now() - sent);
        if (response.statusCode !== 201) {
          failures.push(`${response.statusCode} ${response.body}`);
          return;
        }
        acknowledged.push({ id: json(response)._id as string, at: performance.now() });
        // A short pause: on PGlite the writers share the test's one thread with the backup.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const running = Array.from({ length: writers }, (_, w) => writer(w));
    while (acknowledged.length < writers * 2 && failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(failures).toEqual([]);
    archive = path.join(dir, 'installation.tar.gz');
    backupStarted = performance.now();
    backingUp = true;
    const summary = await timed('backup', () => backupOperation.run(contextFor(t.database, t.app.files.storage, path.join(dir, 'source')), { file: archive }));
    backingUp = false;
    stop = true;
    waits.sort((a, b) => a - b);
    console.log(`writers during the backup on ${kind}: ${waits.length} items created, median wait ${((waits[Math.floor(waits.length / 2)] ?? 0) / 1000).toFixed(2)} s, longest ${((waits.at(-1) ?? 0) / 1000).toFixed(1)} s`);
    await Promise.all(running);
    expect(failures).toEqual([]);
    expect(summary.rows).toBeGreaterThan(bulkItems);
    expect(summary.files).toBe(1);
    manifest = await readManifest(archive);
    expect(manifest.tables.find((table) => table.name === tables.bulk)?.rows).toBe(bulkItems);
    expect(manifest.tables.map((table) => table.name)).not.toContain('rate_limits');
    const before = acknowledged.filter((a) => a.at < backupStarted).map((a) => a.id);
    expect(before.length).toBeGreaterThanOrEqual(writers * 2);

    restored = await freshDatabase(kind);
    restoredStorage = new LocalDiskStorage(path.join(dir, 'restored', 'files'));
    const result = await timed('restore', () => restoreOperation.run(contextFor(restored, restoredStorage, path.join(dir, 'restored')), { file: archive, force: false }));
    expect(result.rows).toBe(manifest.tables.reduce((sum, table) => sum + table.rows, 0));
    expect(result.newerMigrations).toBe(0);

    // Every item acknowledged before the backup began is there.
    const live = new Set((await rows<{ _id: string }>(restored, sql`select _id from ${sql.identifier(tables.live!)}`)).map((r) => r._id));
    expect(before.filter((id) => !live.has(id))).toEqual([]);
    // Every table holds the manifest's count of rows; every file its hash.
    for (const table of manifest.tables) {
      const [counted] = await rows<{ n: string }>(restored, sql`select count(*)::text as n from ${sql.identifier(table.name)}`);
      // The restore records itself in the restored audit log.
      expect(Number(counted!.n), table.name).toBe(table.rows + (table.name === 'admin_audit' ? 1 : 0));
    }
    for (const file of manifest.files) {
      const found = await restoredStorage.get(file.key);
      const chunks: Buffer[] = [];
      for await (const chunk of found!.body) chunks.push(chunk as Buffer);
      expect(sha256(Buffer.concat(chunks)), file.key).toBe(file.sha256);
    }
    // Run-time tables came back with their keys, indexes and triggers.
    const [indexes] = await rows<{ n: string }>(restored, sql`select count(*)::text as n from pg_indexes where tablename = ${tables.things!}`);
    const [source] = await rows<{ n: string }>(t.database, sql`select count(*)::text as n from pg_indexes where tablename = ${tables.things!}`);
    expect(indexes!.n).toBe(source!.n);
    // The restore is in the audit log.
    const [entry] = await rows<{ action: string }>(restored, sql`select action from admin_audit where action = 'installation.restore'`);
    expect(entry?.action).toBe('installation.restore');
  }, 480_000);

  it('gives a restored server that signs in, lists items, creates more and serves the file', async () => {
    expect(restored).toBeDefined();
    const config = loadConfig({ ...testEnv, DATA_DIR: path.join(dir, 'restored'), FILES_SWEEP_INTERVAL_S: '0', BILLING: '0' });
    restoredApp = await buildApp({ config, database: restored, logger: false });
    await restoredApp.ready();
    const tokens = await signIn(restoredApp, account.username, account.password);
    const get = (url: string) => restoredApp.inject({ method: 'GET', url: base + url, headers: bearer(tokens.access_token) });
    const bulk = await get('collection/bulk/item?perPage=5');
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.headers['item-count']).toBe(String(bulkItems));
    const rich = json(await get(`collection/things/item/${richIds[0]}`));
    expect(rich.title).toBe('Alpha, "quoted"\nsecond line');
    expect(rich.when).toBe('0099-01-02T03:04:05.678Z');
    const parts = await get(`collection/things/item/${richIds[0]}?nestedID=parts`);
    expect(parts.statusCode, parts.body).toBe(200);
    expect(json(parts)).toHaveLength(1);
    // Kept per-choice counts answer as in the source (the restore loads them; their triggers stay off meanwhile).
    const find = `collection/things/item?find=${encodeURIComponent(JSON.stringify({ size: 'm' }))}`;
    const option = await get(find);
    expect(option.statusCode, option.body).toBe(200);
    expect(option.headers['item-count']).toBe((await call('GET', find)).headers['item-count']);
    // Sequences and counters carry on: a new item lands after the others.
    const created = await restoredApp.inject({ method: 'POST', url: `${base}collection/live/item`, headers: bearer(tokens.access_token), payload: { title: 'after restore' } });
    expect(created.statusCode, created.body).toBe(201);
    const file = await restoredApp.inject({ method: 'GET', url: new URL(photoUrl).pathname });
    expect(file.statusCode).toBe(200);
    expect(sha256(file.rawPayload)).toBe(sha256(photo));
  }, 120_000);

  describe('refuses', () => {
    const attempt = async (file: string, force = false) => {
      const target = await freshDatabase(kind);
      try {
        const error = await refusal(restoreOperation.run(contextFor(target, new LocalDiskStorage(path.join(dir, 'bad', 'files')), path.join(dir, 'bad')), { file, force }));
        // Nothing written: no table in the target.
        const [count] = await rows<{ n: string }>(target, sql`select count(*)::text as n from pg_tables where schemaname in ('public', 'drizzle')`);
        expect(count!.n).toBe('0');
        return error;
      } finally {
        await target.close();
      }
    };

    it('a truncated archive and a corrupted byte', async () => {
      const whole = readFileSync(archive);
      const truncated = path.join(dir, 'truncated.tar.gz');
      writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
      expect((await attempt(truncated)).code).toBe('backup_unreadable');
      const corrupted = path.join(dir, 'corrupted.tar.gz');
      const copy = Buffer.from(whole);
      copy[Math.floor(copy.length / 3)]! ^= 0x55;
      writeFileSync(corrupted, copy);
      expect((await attempt(corrupted)).code).toBe('backup_unreadable');
    }, 120_000);

    it('an archive of a newer version, and one whose data does not match its manifest', async () => {
      const unpacked = mkdtempSync(path.join(tmpdir(), 'larder-backup-newer-'));
      try {
        await tar.x({ file: archive, cwd: unpacked });
        const write = async (name: string, change: (m: BackupManifest) => void) => {
          const m = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as BackupManifest;
          change(m);
          writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify(m));
          const file = path.join(dir, name);
          await tar.c({ gzip: true, file, cwd: unpacked }, ['manifest.json', 'db', 'files']);
          writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify(manifest));
          return file;
        };
        expect((await attempt(await write('format.tar.gz', (m) => (m.formatVersion = 99)))).code).toBe('backup_newer');
        const later = await write('migration.tar.gz', (m) => m.migrations.push({ tag: '0099_future', createdAt: 4_102_444_800_000, hash: 'f'.repeat(64) }));
        expect((await attempt(later)).message).toMatch(/0099_future/);
        expect((await attempt(await write('count.tar.gz', (m) => (m.tables[0]!.sha256 = '0'.repeat(64))))).code).toBe('backup_unreadable');
      } finally {
        rmSync(unpacked, { recursive: true, force: true });
      }
    }, 240_000);

    it('a target that is not empty, unless --force', async () => {
      const [before] = await rows<{ n: string }>(t.database, sql`select count(*)::text as n from ${sql.identifier(tables.live!)}`);
      const error = await refusal(restoreOperation.run(contextFor(t.database, t.app.files.storage, path.join(dir, 'source')), { file: archive, force: false }));
      expect([error.code, error.exitCode]).toEqual(['target_not_empty', 1]);
      const [after] = await rows<{ n: string }>(t.database, sql`select count(*)::text as n from ${sql.identifier(tables.live!)}`);
      expect(after!.n).toBe(before!.n);
      // --force replaces it: the restored one has the backup's items (the writes after it are gone).
      const forced = await restoreOperation.run(contextFor(restored, restoredStorage, path.join(dir, 'restored')), { file: archive, force: true });
      expect(forced.rows).toBe(manifest.tables.reduce((sum, table) => sum + table.rows, 0));
      const [live] = await rows<{ n: string }>(restored, sql`select count(*)::text as n from ${sql.identifier(tables.live!)}`);
      expect(Number(live!.n)).toBe(manifest.tables.find((table) => table.name === tables.live)!.rows);
    }, 120_000);

    it.runIf(kind === 'pglite')('through the command line: an error and a non-zero exit', () => {
      const truncated = path.join(dir, 'truncated.tar.gz');
      const result = spawnSync(process.execPath, ['bin/larder.mjs', 'restore', truncated], {
        env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL')), DATA_DIR: path.join(dir, 'cli') },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/^Error: .*truncated or corrupted/m);
    }, 70_000);
  });
});

/** A small installation: the project with every field type (tests/server/support/every-field-type.ts), nested items and two stored images. */
async function smallInstallation(t: TestApp) {
  const user = await verifiedUser(t.app, 'moved');
  const access = user.tokens.access_token;
  const org = json(await t.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(access), payload: { name: 'Moved Org' } })).id as string;
  const project = json(await t.app.inject({ method: 'POST', url: `/api/organization/${org}/project`, headers: bearer(access), payload: { name: 'Moved' } })).id as string;
  const base = `/api/organization/${org}/project/${project}/`;
  const call = (method: 'POST' | 'PUT', url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url: base + url, headers: { ...bearer(access), ...headers }, payload: payload as object });
  const every = await everyFieldTypeProject({
    call: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      t.app.inject({ method, url: base + url, headers: bearer(access), ...(payload === undefined ? {} : { payload: payload as object }) }),
  });
  const ids = every.items.map((i) => i.id);
  // A JSON value keeps the text it was given, line breaks between its tokens included (a CSV import may write one): each row must still be one line of the archive.
  const dataField = (every.things.schema as { id: string; slug: string }[]).find((field) => field.slug === 'data')!;
  const [storage] = await rows<{ table: string }>(t.database, sql`select storage_tables[1] as table from content_collections where slug = 'things'`);
  await t.database.db.execute(sql`update ${sql.identifier(storage!.table)} set ${sql.identifier(`f_${dataField.id}`)} = ${'{"lines":\n[1,\r\n2]}'}::json where _id = ${ids[1]!}`);
  const part = await every.part(ids[0]!, { name: 'wheel', qty: 2 });
  await every.bolt(ids[0]!, part._id as string, { size: 3 });
  const images: Buffer[] = [];
  for (const [slug, colour] of [
    ['image', '#3a6'],
    ['gallery', '#a36'],
  ] as const) {
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } }).jpeg().toBuffer();
    images.push(image);
    const form = new FormData();
    form.append('imageFile', new Blob([new Uint8Array(image)]), `${slug}.jpg`);
    const request = new Request('http://larder.test/', { method: 'PUT', body: form });
    const uploaded = await call('PUT', `collection/things/item/${ids[0]}/image?imageSlug=${slug}`, Buffer.from(await request.arrayBuffer()), { 'content-type': request.headers.get('content-type')! });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
  }
  return { account: user.account, base, ids, images };
}

/** What a server shows of the small installation: its items and nested items as listed, and the bytes of every file they name. */
async function shownBy(app: App, small: Awaited<ReturnType<typeof smallInstallation>>) {
  const tokens = await signIn(app, small.account.username, small.account.password);
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url: small.base + url, headers: bearer(tokens.access_token) });
    expect(response.statusCode, response.body).toBe(200);
    return json(response);
  };
  const items = await get('collection/things/item?perPage=100');
  const parts = await get(`collection/things/item/${small.ids[0]}?nestedID=parts`);
  const files: string[] = [];
  for (const url of JSON.stringify(items).match(/https?:\/\/[^"]+\/files\/[^"]+/g) ?? []) {
    const file = await app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(file.statusCode, url).toBe(200);
    files.push(sha256(file.rawPayload));
  }
  return { items, parts, files: files.sort() };
}

describe.runIf(databaseKinds.length === 2)('a backup restores into the other database', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it.each([
    ['pglite', 'postgres'],
    ['postgres', 'pglite'],
  ] as const)('made on %s, restored into %s: the same items and files', async (from, into) => {
    const dir = mkdtempSync(path.join(tmpdir(), `larder-backup-${from}-`));
    dirs.push(dir);
    const source = await createTestApp(from, { DATA_DIR: path.join(dir, 'source'), FILES_SWEEP_INTERVAL_S: '0', BILLING: '0' });
    let target: Database | undefined;
    let app: App | undefined;
    try {
      const small = await smallInstallation(source);
      const archive = path.join(dir, 'installation.tar.gz');
      await backupOperation.run(contextFor(source.database, source.app.files.storage, path.join(dir, 'source')), { file: archive });
      expect((await readManifest(archive)).database).toBe(from);
      target = await freshDatabase(into);
      const storage = new LocalDiskStorage(path.join(dir, 'restored', 'files'));
      await restoreOperation.run(contextFor(target, storage, path.join(dir, 'restored')), { file: archive, force: false });
      app = await buildApp({ config: loadConfig({ ...testEnv, DATA_DIR: path.join(dir, 'restored'), FILES_SWEEP_INTERVAL_S: '0', BILLING: '0' }), database: target, logger: false });
      await app.ready();
      const before = await shownBy(source.app, small);
      const after = await shownBy(app, small);
      expect(after).toEqual(before);
      expect((after.items as { _id: string; data?: unknown }[]).find((item) => item._id === small.ids[1])?.data).toEqual({ lines: [1, 2] });
      expect(after.files).toEqual(small.images.map(sha256).sort());
      // Every index and trigger the catalog of the one gave was accepted by the other.
      const shape = sql`select (select count(*) from pg_indexes where schemaname = 'public')::int as indexes,
        (select count(*) from pg_trigger g join pg_class c on c.oid = g.tgrelid where c.relnamespace = 'public'::regnamespace and not g.tgisinternal)::int as triggers`;
      expect(await rows(target, shape)).toEqual(await rows(source.database, shape));
      // Sequences and triggers carry on in the other database: a new item counts and lists.
      const tokens = await signIn(app, small.account.username, small.account.password);
      const created = await app.inject({ method: 'POST', url: `${small.base}collection/things/item`, headers: bearer(tokens.access_token), payload: { title: 'after restore' } });
      expect(created.statusCode, created.body).toBe(201);
      const listed = await app.inject({ method: 'GET', url: `${small.base}collection/things/item?perPage=1`, headers: bearer(tokens.access_token) });
      expect(listed.headers['item-count']).toBe(String(small.ids.length + 1));
    } finally {
      await app?.close();
      await target?.close();
      await source.close();
    }
  }, 240_000);
});

describe.each(databaseKinds)('backup and restore with the files in S3 on %s', (kind) => {
  let bucket: TestBucket;
  let dir: string;
  let source: TestApp;
  let small: Awaited<ReturnType<typeof smallInstallation>>;
  let archive: string;
  let manifest: BackupManifest;

  beforeAll(async () => {
    bucket = await startBucket();
    dir = mkdtempSync(path.join(tmpdir(), 'larder-backup-s3-'));
    source = await createTestApp(kind, { DATA_DIR: path.join(dir, 'source'), FILES_SWEEP_INTERVAL_S: '0', BILLING: '0', ...bucket.env('source/') });
    small = await smallInstallation(source);
    archive = path.join(dir, 'installation.tar.gz');
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    await bucket?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up the bucket’s files and restores them into another installation’s bucket, which serves them', async () => {
    const summary = await backupOperation.run(contextFor(source.database, source.app.files.storage, path.join(dir, 'source')), { file: archive });
    expect(summary.files).toBe(2);
    manifest = await readManifest(archive);
    expect(manifest.files.map((f) => `source/${f.key}`).sort()).toEqual(await bucket.objects('source/'));

    const target = await freshDatabase(kind);
    let app: App | undefined;
    try {
      await restoreOperation.run(contextFor(target, bucket.storage('restored/'), path.join(dir, 'restored')), { file: archive, force: false });
      expect(await bucket.objects('restored/')).toEqual(manifest.files.map((f) => `restored/${f.key}`).sort());
      const config = loadConfig({ ...testEnv, DATA_DIR: path.join(dir, 'restored'), FILES_SWEEP_INTERVAL_S: '0', BILLING: '0', ...bucket.env('restored/') });
      app = await buildApp({ config, database: target, logger: false });
      await app.ready();
      const after = await shownBy(app, small);
      expect(after).toEqual(await shownBy(source.app, small));
      expect(after.files).toEqual(small.images.map(sha256).sort());
    } finally {
      await app?.close();
      await target.close();
    }
  }, 120_000);

  it('a restore whose second file fails midway leaves no object in the bucket and nothing in the database; one over itself rewrites no file', async () => {
    expect(manifest).toBeDefined();
    const target = await freshDatabase(kind);
    try {
      const storage = failingMidway(bucket.storage('failed/'), 2);
      const error = await restoreOperation.run(contextFor(target, storage, path.join(dir, 'failed')), { file: archive, force: false }).catch((e: unknown) => e);
      expect(String(error)).toMatch(/failed midway/);
      expect(storage.writes).toBe(2);
      expect(await bucket.objects('failed/')).toEqual([]);
      const [count] = await rows<{ n: string }>(target, sql`select count(*)::text as n from pg_tables where schemaname in ('public', 'drizzle')`);
      expect(count!.n).toBe('0');
      // A restore over the same installation (--force) leaves the files already under their keys alone: none is written again.
      const again = failingMidway(source.app.files.storage, 1);
      const before = await bucket.objects('source/');
      await restoreOperation.run(contextFor(source.database, again, path.join(dir, 'source')), { file: archive, force: true });
      expect(again.writes).toBe(0);
      expect(await bucket.objects('source/')).toEqual(before);
      expect(await shownBy(source.app, small).then((shown) => shown.files)).toEqual(small.images.map(sha256).sort());
    } finally {
      await target.close();
    }
  }, 120_000);
});
