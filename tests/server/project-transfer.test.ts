/**
 * `larder project export|import` (docs/cli.md "Projects"): a project with every field type, items
 * nested two levels deep, moved ranks, stored files (item fields and an asset), a webhook and a
 * user group is exported, exported again to the same bytes, and imported into an organization of
 * another installation (a second, fresh database and file storage, another PUBLIC_URL): the same
 * items (values, ids, ranks, positions, dates, nesting) and the same file bytes through the API,
 * the webhook disabled with a new secret, the group, audit entries on both sides. A truncated,
 * corrupted or newer-format archive and an unknown organization are refused with nothing written.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import * as tar from 'tar';
import { eq, sql } from 'drizzle-orm';
import { AuditLog } from '../../server/admin/audit.ts';
import { CliError, type OperationContext } from '../../server/cli/operation.ts';
import { adminAudit, projects, webhooks } from '../../server/db/schema.ts';
import { exportProject } from '../../server/project-transfer/export.ts';
import { importProject } from '../../server/project-transfer/import.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { everyFieldTypeProject } from './support/every-field-type.ts';
import { failingMidway, startBucket } from './support/s3rver.ts';
import { contentFixture, createItem, contentTables, type ContentFixture } from './support/content.ts';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const png = () => sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 0.5 } } }).png().toBuffer();
const jpeg = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } }).jpeg().toBuffer();

async function multipart(parts: ([string, string] | [string, Buffer, string])[]) {
  const form = new FormData();
  for (const part of parts) {
    if (part.length === 2) form.append(part[0], part[1]);
    else form.append(part[0], new Blob([new Uint8Array(part[1])]), part[2]);
  }
  const request = new Request('http://larder.test/', { method: 'PUT', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** What the command line's runner gives an operation, over a test app's database and storage. */
const contextOf = (t: TestApp): OperationContext => ({
  database: t.database,
  config: t.config,
  storage: t.app.ctx.files.storage,
  audit: new AuditLog(t.database.db),
  actor: 'cli (test)',
  progress: () => ({ tick() {}, total() {}, done() {} }),
  note: () => {},
});

describe.each(databaseKinds)('project export and import on %s', (kind) => {
  let source: TestApp;
  let target: TestApp;
  let f: ContentFixture;
  let targetOrg: string;
  let targetAccess: string;
  let dirs: string[] = [];
  let archive: string;
  /** An archive whose rows fail inside the import's transaction, after its files are copied. */
  let orphanArchive: string;
  const ids: string[] = [];
  const parts: string[] = [];

  const dir = (prefix: string) => {
    const made = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(made);
    return made;
  };

  beforeAll(async () => {
    source = await createTestApp(kind, { DATA_DIR: dir('larder-transfer-a-'), FILES_SWEEP_INTERVAL_S: '0' });
    target = await createTestApp(kind, { DATA_DIR: dir('larder-transfer-b-'), FILES_SWEEP_INTERVAL_S: '0', PUBLIC_URL: 'http://copy.test' });
    f = await contentFixture(source);
    // The shared project with every field type (its `things` and nested `parts` and `bolts`), with three items of its own.
    const every = await everyFieldTypeProject(f, {
      people: ['Ada'],
      rows: ([ada]) => [
        {
          title: 'Alpha',
          body: '<p>Ünïcødé — 日本語 ✓</p>',
          price: 10.5,
          phone: '+1 (555) 0101',
          people: [{ itemRefID: ada }],
          size: { _id: 's' },
          live: true,
          site: 'https://alpha.example/?q=a,b',
          when: '2024-01-02T03:04:05.678Z',
          place: { lat: 48.8584, lng: 2.2945 },
          data: { nested: [1, 'two', { three: null }], ok: true },
        },
        { title: 'Beta', price: -2, live: false, data: [1, 2, 3] },
        { title: 'Gamma', size: { _id: 'm' } },
      ],
    });
    for (const item of every.items) ids.push(item.id);
    for (const name of ['wheel', 'axle']) parts.push((await createItem(f, 'things', { name }, { item: ids[0]!, nestedID: 'parts' }))._id as string);
    for (const size of [3, 1, 2]) await createItem(f, 'things', { size }, { item: ids[0]!, nestedID: `parts.${parts[0]}.bolts` });
    // Ranks that are not the creation order.
    expect((await f.call('PUT', `collection/things/item/${ids[2]}/sort?order=1`)).statusCode).toBe(200);
    // Files: an item's image, a gallery, a nested item's cover, a project asset.
    const upload = async (where: string, partsOf: ([string, string] | [string, Buffer, string])[]) => {
      const body = await multipart(partsOf);
      const response = await f.call('PUT', where, body.payload, { headers: body.headers });
      expect(response.statusCode, response.body).toBe(200);
      return json(response);
    };
    await upload(`collection/things/item/${ids[0]}/image?imageSlug=image&nestedID=`, [['altText', 'Blue'], ['imageFile', await png(), 'Blue.png']]);
    await upload(`collection/things/item/${ids[0]}/image?imageSlug=gallery`, [['imageFile', await jpeg(), 'red.jpg']]);
    await upload(`collection/things/item/${ids[0]}/image?imageSlug=cover&nestedID=parts.${parts[1]}`, [['imageFile', await jpeg(), 'cover.jpg']]);
    const asset = await multipart([['asset', Buffer.from('hello, asset\n'), 'notes.txt']]);
    const stored = await f.call('PUT', 'asset', asset.payload, { headers: asset.headers });
    expect(stored.statusCode, stored.body).toBeLessThan(300);
    // Rich text naming the asset by its address: rewritten with the files.
    await createItem(f, 'things', { title: 'Delta', body: `<p><a href="${json(stored).url}">notes</a></p>` });
    const hook = await source.app.inject({
      method: 'POST',
      url: '/api/webhook',
      headers: bearer(f.access),
      payload: { organizationID: f.org, projectID: f.project, method: 'POST', trigger: 'create', name: 'Notify', webhookURI: 'https://hooks.example/larder', collections: ['things.parts'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const group = await f.call('POST', 'userGroups', { name: 'Editors', permissions: [{ collection: 'things', read: true, update: true }] });
    expect(group.statusCode, group.body).toBe(201);

    const owner = await verifiedUser(target.app, 'importer');
    targetAccess = owner.tokens.access_token;
    targetOrg = json(await target.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(targetAccess), payload: { name: 'Elsewhere' } })).id as string;
    archive = path.join(dir('larder-transfer-files-'), 'project.tar.gz');
    // Two installations and a few dozen calls: seconds alone, much longer on a busy machine.
  }, 300_000);

  afterAll(async () => {
    await source?.close();
    await target?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    dirs = [];
  });

  /** Everything of a project the API shows: every level's items in list order, with file addresses replaced by their bytes' hashes. */
  async function snapshot(t: TestApp, org: string, project: string, access: string) {
    const call = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/organization/${org}/project/${project}/${url}`, headers: bearer(access) });
      expect(response.statusCode, response.body).toBe(200);
      return json(response);
    };
    const files: string[] = [];
    const hashed = async (value: unknown): Promise<unknown> => {
      if (typeof value === 'string' && /^https?:\/\/[^/]+\/files\//.test(value)) {
        const response = await t.app.inject({ method: 'GET', url: new URL(value).pathname });
        expect(response.statusCode, value).toBe(200);
        files.push(sha(response.rawPayload));
        return `file:${sha(response.rawPayload)}`;
      }
      if (typeof value === 'string' && value.includes('/files/')) return value.replace(/https?:\/\/[^/"]+\/files\/[a-z0-9/._-]+/g, (url) => `file@${url.split('/').pop()}`);
      if (Array.isArray(value)) return Promise.all(value.map(hashed));
      if (value && typeof value === 'object') return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await hashed(v)])));
      return value;
    };
    const out: Record<string, unknown> = {};
    for (const collection of ['people', 'things']) {
      const items = (await call(`collection/${collection}/item?perPage=1000`)) as Record<string, unknown>[];
      out[collection] = await hashed(items);
      if (collection !== 'things') continue;
      for (const item of items) {
        const nested = (await call(`collection/things/item/${item._id}?nestedID=parts`)) as Record<string, unknown>[];
        out[`parts of ${item._id}`] = await hashed(nested);
        for (const part of nested) out[`bolts of ${part._id}`] = await call(`collection/things/item/${item._id}?nestedID=parts.${part._id}.bolts`);
      }
    }
    const schema = (await call('collection/things')) as { schema: { slug: string; type: number }[] };
    out.schema = JSON.stringify(schema.schema, (key, value) => (key === 'id' ? undefined : value));
    out.groups = ((await call('userGroups')) as { name: string; permissions: unknown }[]).map((g) => [g.name, g.permissions]);
    return { out, files };
  }

  it('exports the same bytes twice and imports into another installation with the same items, ranks, nesting and files', async () => {
    const exported = await exportProject(contextOf(source), { organizationId: f.org, projectId: f.project, file: archive, gzip: true });
    expect(exported.counts).toMatchObject({ collections: 2, items: 1 + 4 + 2 + 3, files: 4, webhooks: 1, groups: 1 });
    const again = await exportProject(contextOf(source), { organizationId: f.org, projectId: f.project, file: `${archive}.2`, gzip: true });
    expect(again.sha256).toBe(exported.sha256);

    const imported = await importProject(contextOf(target), { file: archive, organizationId: targetOrg, name: 'Moved' });
    expect(imported.project.name).toBe('Moved');
    expect(imported.counts).toMatchObject({ collections: 2, items: 10, files: 4, webhooks: 1, groups: 1 });

    const before = await snapshot(source, f.org, f.project, f.access);
    const after = await snapshot(target, targetOrg, imported.project.id, targetAccess);
    expect(after.out).toEqual(before.out);
    expect(after.files.length).toBe(3);
    expect(after.files.sort()).toEqual(before.files.sort());
    // Ranks moved in the source list first; nesting two levels deep came along.
    expect(((after.out.things as { _id: string }[]).map((i) => i._id))).toEqual([ids[2], ids[0], ids[1], expect.any(String)]);
    expect((after.out[`bolts of ${parts[0]}`] as { size: number }[]).map((b) => b.size)).toEqual([3, 1, 2]);
    // Addresses point at this installation's copies, the rich text's asset link too.
    const things = after.out.things as Record<string, unknown>[];
    expect(JSON.stringify(things)).not.toContain('larder.test');
    const raw = (await target.app.inject({ method: 'GET', url: `/api/organization/${targetOrg}/project/${imported.project.id}/collection/things/item?perPage=10`, headers: bearer(targetAccess) })).body;
    expect(raw).toContain('http://copy.test/files/');
    expect(raw).not.toContain('http://larder.test/');

    // The webhook: disabled, with a secret of its own; the audit log names both sides.
    const [hook] = await target.database.db.select().from(webhooks).where(eq(webhooks.projectId, imported.project.id));
    expect(hook).toMatchObject({ name: 'Notify', uri: 'https://hooks.example/larder', collections: ['things.parts'], secret: imported.webhooks[0]!.secret });
    expect(hook!.disabledAt).not.toBeNull();
    const [original] = await source.database.db.select().from(webhooks).where(eq(webhooks.projectId, f.project));
    expect(hook!.secret).not.toBe(original!.secret);
    expect((await source.database.db.select().from(adminAudit).where(eq(adminAudit.action, 'project.export'))).map((a) => a.targetId)).toEqual([f.project, f.project]);
    expect((await target.database.db.select().from(adminAudit).where(eq(adminAudit.action, 'project.import'))).map((a) => a.targetId)).toEqual([imported.project.id]);

    // A second import of the same archive is a second project, next to the first.
    const twice = await importProject(contextOf(target), { file: archive, organizationId: targetOrg });
    expect(twice.project.id).not.toBe(imported.project.id);
    expect((await snapshot(target, targetOrg, twice.project.id, targetAccess)).out.things).toEqual(after.out.things);
  }, 120_000);

  it('refuses a truncated, corrupted or newer archive and an unknown organization, writing nothing', async () => {
    const plain = path.join(dir('larder-transfer-bad-'), 'plain.tar');
    await exportProject(contextOf(source), { organizationId: f.org, projectId: f.project, file: plain, gzip: false });
    const bytes = readFileSync(archive);
    const bad = path.dirname(plain);
    writeFileSync(path.join(bad, 'truncated.tar.gz'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const plainBytes = readFileSync(plain);
    writeFileSync(path.join(bad, 'truncated.tar'), plainBytes.subarray(0, Math.floor(plainBytes.length * 0.6)));
    const flipped = Buffer.from(plainBytes);
    // A byte inside the first item lines: the entry no longer matches its hash.
    const at = flipped.indexOf('"Alpha"');
    flipped[at + 2] = flipped[at + 2]! ^ 0x20;
    writeFileSync(path.join(bad, 'corrupted.tar'), flipped);
    const unpacked = dir('larder-transfer-unpacked-');
    await tar.extract({ file: plain, cwd: unpacked });
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
    writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify({ ...manifest, formatVersion: 99 }));
    await tar.create({ file: path.join(bad, 'newer.tar'), cwd: unpacked }, ['manifest.json', ...Object.keys(manifest.entries)]);

    const projectsBefore = (await target.database.db.select().from(projects)).length;
    const tablesBefore = await contentTables(target);
    const filesBefore = await target.app.ctx.files.storage.list!('p');
    const refused = async (file: string, organizationId: string, message: RegExp) => {
      const error = await importProject(contextOf(target), { file, organizationId }).catch((e: unknown) => e);
      expect(error, file).toBeInstanceOf(CliError);
      expect((error as CliError).message, file).toMatch(message);
      expect((error as CliError).exitCode).not.toBe(0);
    };
    await refused(path.join(bad, 'truncated.tar.gz'), targetOrg, /not a complete project archive|missing|does not match/);
    await refused(path.join(bad, 'truncated.tar'), targetOrg, /not a complete project archive|missing|does not match/);
    await refused(path.join(bad, 'corrupted.tar'), targetOrg, /does not match its hash/);
    await refused(path.join(bad, 'newer.tar'), targetOrg, /newer Larder/);
    await refused(archive, 'no-such-organization', /no organization/);
    await refused(path.join(bad, 'absent.tar'), targetOrg, /no archive file/);
    expect((await target.database.db.select().from(projects)).length).toBe(projectsBefore);
    expect(await contentTables(target)).toEqual(tablesBefore);
    expect(await target.app.ctx.files.storage.list!('p')).toEqual(filesBefore);

    // A failure inside the transaction (an item whose parent is not in the archive) undoes the rows and removes the copied files.
    const broken = dir('larder-transfer-broken-');
    await tar.extract({ file: plain, cwd: broken });
    const boltsEntry = Object.keys(manifest.entries).find((e) => e.endsWith('parts.bolts.jsonl'))!;
    const lines = readFileSync(path.join(broken, boltsEntry), 'utf8').replace(/"_parentID":"[^"]+"/, '"_parentID":"nosuchparent"');
    writeFileSync(path.join(broken, boltsEntry), lines);
    const edited = { ...manifest, entries: { ...manifest.entries, [boltsEntry]: { size: Buffer.byteLength(lines), sha256: sha(lines) } } };
    writeFileSync(path.join(broken, 'manifest.json'), JSON.stringify(edited));
    await tar.create({ file: path.join(bad, 'orphan.tar'), cwd: broken }, ['manifest.json', ...Object.keys(manifest.entries)]);
    orphanArchive = path.join(bad, 'orphan.tar');
    await refused(orphanArchive, targetOrg, /could not be imported/);
    expect((await target.database.db.select().from(projects)).length).toBe(projectsBefore);
    expect(await contentTables(target)).toEqual(tablesBefore);
    expect(await target.app.ctx.files.storage.list!('p')).toEqual(filesBefore);
    const registered = (await target.database.db.execute(sql`select count(*)::int as n from stored_files`)) as unknown as { rows: { n: number }[] };
    expect(registered.rows[0]!.n).toBe(filesBefore.length);
  }, 120_000);

  it('imports into an installation whose files are in S3; a failed import leaves no object in the bucket', async () => {
    expect(orphanArchive).toBeDefined();
    const bucket = await startBucket();
    const copy = await createTestApp(kind, { DATA_DIR: dir('larder-transfer-s3-'), FILES_SWEEP_INTERVAL_S: '0', PUBLIC_URL: 'http://copy.test', ...bucket.env('copy/') });
    try {
      const owner = await verifiedUser(copy.app, 'bucket');
      const org = json(await copy.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(owner.tokens.access_token), payload: { name: 'Bucket' } })).id as string;
      const nothingWritten = async () => {
        expect(await bucket.objects()).toEqual([]);
        expect(await copy.database.db.select().from(projects)).toEqual([]);
        const registered = (await copy.database.db.execute(sql`select count(*)::int as n from stored_files`)) as unknown as { rows: { n: number }[] };
        expect(registered.rows[0]!.n).toBe(0);
      };
      const truncated = path.join(dir('larder-transfer-s3-bad-'), 'truncated.tar.gz');
      const bytes = readFileSync(archive);
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
      await expect(importProject(contextOf(copy), { file: truncated, organizationId: org })).rejects.toThrow(/not a complete project archive|does not match/);
      await nothingWritten();
      // The second file's copy fails midway: the first copy and the half-written one are removed.
      const failing = failingMidway(copy.app.ctx.files.storage, 2);
      await expect(importProject({ ...contextOf(copy), storage: failing }, { file: archive, organizationId: org })).rejects.toThrow(/failed midway/);
      expect(failing.writes).toBe(2);
      await nothingWritten();
      // Every file copied, then the rows fail in the transaction: the copies are removed again.
      await expect(importProject(contextOf(copy), { file: orphanArchive, organizationId: org })).rejects.toThrow(/could not be imported/);
      await nothingWritten();

      const imported = await importProject(contextOf(copy), { file: archive, organizationId: org });
      const objects = await bucket.objects();
      expect(objects).toHaveLength(imported.counts.files);
      expect(objects.every((key) => key.startsWith(`copy/p/${imported.project.id}/`))).toBe(true);
      const before = await snapshot(source, f.org, f.project, f.access);
      const after = await snapshot(copy, org, imported.project.id, owner.tokens.access_token);
      expect(after.out).toEqual(before.out);
      expect(after.files.sort()).toEqual(before.files.sort());
    } finally {
      await copy.close();
      await bucket.close();
    }
  }, 180_000);
});
