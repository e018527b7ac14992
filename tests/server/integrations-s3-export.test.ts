/**
 * The scheduled export to S3 (docs/integrations.md "Scheduled export to S3") against s3rver, a
 * real S3 HTTP server on loopback: a run by "send a test" and one by the schedule each write ONE
 * object `{prefix}{slug}/{time}.{csv|json}` holding the whole collection (CSV read back cell by
 * cell, a comma, a quote and a line break included; JSON as the public API answers); credentials
 * the bucket refuses (an unknown access key: s3rver does not check SigV4 signatures) fail at once; a bucket that is down is retried until it is back; the secret
 * key is in no answer, log line or run row.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { integrationInstances, integrationRuns } from '../../server/db/schema.ts';
import { databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';

const require = createRequire(import.meta.url);
// s3rver ships no types: only run() and close() are used, and its account registry for a key pair of our own.
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };

const ACCESS_KEY = 'LARDEREXPORTKEY';
const SECRET = 'SeCrEt-S3-kEy-never-logged';
DUMMY_ACCOUNT.createKeyPair(ACCESS_KEY, SECRET);

/** RFC 4180 rows: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else if (c !== '\r') cell += c;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

async function startS3(dir: string, port = 0) {
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'exports' }] });
  const { port: bound } = await server.run();
  return { server, port: bound };
}

describe.each(databaseKinds)('the scheduled export to S3 on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let apiToken: string;
  let dir: string;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let reader: S3Client;
  let endpoint: string;
  const logs: string[] = [];
  const answers: string[] = [];
  const tricky = 'Comma, "quote" and\na new line';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'larder-s3-export-'));
    s3 = await startS3(dir);
    endpoint = `http://127.0.0.1:${s3.port}`;
    reader = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET } });
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8', INTEGRATION_RETRY_SCHEDULE: '2s,2s,2s' });
    const database = await openTestDatabase(kind);
    const app = await buildApp({ config, database, logger: { level: 'trace', stream: { write: (line: string) => void logs.push(line) } } as never });
    await app.ready();
    t = { app, config, database, close: async () => (await app.close(), await database.close()) };
    f = await contentFixture(t);
    await createCollection(f, { id: 'products', name: 'Products', schema: [{ name: 'Name', slug: 'name', type: 1, primaryField: true }, { name: 'Price', slug: 'price', type: 3 }] });
    apiToken = await mintToken(t, f, { powerRead: true, powerWrite: true });
    for (const [name, price] of [[tricky, 1.5], ['Plain', 2], ['=SUM(A1)', 3]] as const) {
      const response = await t.app.inject({ method: 'POST', url: '/api/public/collection/products/items', headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' }, payload: JSON.stringify({ name, price }) });
      expect(response.statusCode, response.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
    reader?.destroy();
    await s3?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (...args: Parameters<ContentFixture['call']>) => {
    const response = await f.call(...args);
    answers.push(response.body);
    return response;
  };
  const runsOf = (instanceId: string) => t.database.db.select().from(integrationRuns).where(eq(integrationRuns.instanceId, instanceId));
  const objectText = async (key: string) => (await (await reader.send(new GetObjectCommand({ Bucket: 'exports', Key: key }))).Body!.transformToString('utf8'));
  const keys = async (prefix: string) => ((await reader.send(new ListObjectsV2Command({ Bucket: 'exports', Prefix: prefix }))).Contents ?? []).map((o) => o.Key!).sort();
  const publicList = async () => json(await t.app.inject({ method: 'GET', url: '/api/public/collection/products/items?perPage=100', headers: { authorization: `Bearer ${apiToken}`, 'accept-version': 'v1' } })) as Record<string, unknown>[];
  const make = async (name: string, settings: Record<string, unknown>) => {
    const made = await call('POST', 'integrations', {
      integration: 's3-export',
      name,
      collections: ['products'],
      schedule: '0 3 * * *',
      settings: { endpoint, region: 'us-east-1', bucket: 'exports', accessKeyId: ACCESS_KEY, secretAccessKey: SECRET, format: 'csv', ...settings },
    });
    expect(made.statusCode, made.body).toBe(201);
    return json(made) as { id: string };
  };
  const finished = (instanceId: string, runId?: string) =>
    waitFor(async () => (await runsOf(instanceId)).find((run) => (runId === undefined || run.id === runId) && run.status !== 'pending'), 20_000);

  it('writes the whole collection as one CSV object on "send a test"', async () => {
    const instance = await make('CSV export', { prefix: 'daily/' });
    const test = await call('POST', `integrations/${instance.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    const run = await finished(instance.id, json(test).runID);
    expect(run, JSON.stringify(run)).toMatchObject({ trigger: 'test', status: 'succeeded', attempts: 1, error: null });
    const result = (run.detail as { result: { key: string; bytes: number; items: number } }).result;
    expect(result.key).toMatch(/^daily\/products\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.csv$/);
    expect(result.items).toBe(3);
    expect(await keys('daily/')).toEqual([result.key]);
    const text = await objectText(result.key);
    expect(Buffer.byteLength(text)).toBe(result.bytes);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['_id', 'name', 'price', '_createdDate', '_lastUpdatedDate']);
    const items = await publicList();
    expect(rows.map((r) => r.slice(0, 3)).sort()).toEqual(
      items.map((item) => [item._id, item.name === '=SUM(A1)' ? "'=SUM(A1)" : item.name, String(item.price)]).sort(),
    );
    expect(rows.some((r) => r[1] === tricky)).toBe(true);
  });

  it('writes JSON as the public API answers the items, when the schedule comes', async () => {
    const instance = await make('JSON export', { format: 'json', prefix: 'json/' });
    await t.database.db.update(integrationInstances).set({ nextRunAt: new Date(Date.now() - 60_000) }).where(eq(integrationInstances.id, instance.id));
    expect(await t.app.ctx.integrationRunner!.scheduleDue()).toBeGreaterThanOrEqual(1);
    const run = await finished(instance.id);
    expect(run, JSON.stringify(run)).toMatchObject({ trigger: 'schedule', status: 'succeeded' });
    const result = (run.detail as { result: { key: string; items: number } }).result;
    expect(result.key).toMatch(/^json\/products\/.+Z\.json$/);
    expect(result.items).toBe(3);
    const exported = JSON.parse(await objectText(result.key)) as Record<string, unknown>[];
    const items = await publicList();
    const byId = (list: Record<string, unknown>[]) => [...list].sort((a, b) => String(a._id).localeCompare(String(b._id)));
    expect(byId(exported)).toEqual(byId(items));
    // The next time is tomorrow's 03:00 again, not now.
    const [row] = await t.database.db.select().from(integrationInstances).where(eq(integrationInstances.id, instance.id));
    expect(row!.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it('fails at once when the bucket refuses the credentials', async () => {
    // s3rver checks that the access key exists but not SigV4 signatures: an unknown key stands for wrong credentials.
    const instance = await make('Wrong key', { accessKeyId: 'NOSUCHKEY', prefix: 'wrong/' });
    const run = await finished(instance.id, json(await call('POST', `integrations/${instance.id}/test`)).runID);
    expect(run).toMatchObject({ status: 'failed', attempts: 1 });
    expect(run.error).toMatch(/^The bucket refused the credentials \(403 InvalidAccessKeyId\)/);
    expect(await keys('wrong/')).toEqual([]);
  });

  it('retries while the bucket is down and succeeds when it is back', async () => {
    const instance = await make('Flaky bucket', { prefix: 'flaky/' });
    await s3.server.close();
    const runId = json(await call('POST', `integrations/${instance.id}/test`)).runID as string;
    const failing = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.id === runId && run.attempts >= 1), 20_000);
    expect(failing.status).toBe('pending');
    expect(failing.error).toMatch(/^The bucket could not be reached/);
    s3 = await startS3(dir, s3.port);
    const run = await finished(instance.id, runId);
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(run.attempts).toBeGreaterThanOrEqual(2);
    expect(await keys('flaky/')).toHaveLength(1);

    // Down for good: the first attempt and the schedule's three retries, then failed, nothing written.
    await s3.server.close();
    const lost = json(await call('POST', `integrations/${instance.id}/test`)).runID as string;
    const failed = await finished(instance.id, lost);
    s3 = await startS3(dir, s3.port);
    expect(failed).toMatchObject({ status: 'failed', attempts: 4 });
    expect(failed.error).toMatch(/^The bucket could not be reached/);
    expect(await keys('flaky/')).toHaveLength(1);
  });

  it('refuses an endpoint inside the network that is not allowed: when saved, and at once when a run meets one', async () => {
    const saved = await call('POST', 'integrations', {
      integration: 's3-export',
      name: 'Inside',
      collections: ['products'],
      schedule: '0 3 * * *',
      settings: { endpoint: 'http://10.9.8.7:9000', region: 'us-east-1', bucket: 'exports', accessKeyId: ACCESS_KEY, secretAccessKey: SECRET, format: 'csv' },
    });
    expect(saved.statusCode).toBe(400);
    expect(json(saved).errors).toEqual([{ path: 'settings/endpoint', message: expect.stringMatching(/^must be a public http or https address/) }]);
    // An endpoint that became one since it was saved (a name now answering an inside address) is refused by the run.
    const instance = await make('Inside', { prefix: 'inside/' });
    const [row] = await t.database.db.select().from(integrationInstances).where(eq(integrationInstances.id, instance.id));
    await t.database.db.update(integrationInstances).set({ settings: { ...row!.settings, endpoint: 'http://10.9.8.7:9000' } }).where(eq(integrationInstances.id, instance.id));
    const run = await finished(instance.id, json(await call('POST', `integrations/${instance.id}/test`)).runID);
    expect(run).toMatchObject({ status: 'failed', attempts: 1 });
    expect(run.error).toMatch(/^The bucket's address is refused: /);
  });

  it('never writes the secret key into an answer, a log line or a run row', async () => {
    await t.app.ctx.integrationRunner!.settled();
    expect(logs.length).toBeGreaterThan(10);
    expect(logs.filter((line) => line.includes(SECRET))).toEqual([]);
    expect(answers.filter((body) => body.includes(SECRET))).toEqual([]);
    const runs = await t.database.db.select().from(integrationRuns);
    expect(runs.filter((r) => JSON.stringify(r).includes(SECRET))).toEqual([]);
    const instances = await t.database.db.select().from(integrationInstances);
    expect(instances.filter((r) => JSON.stringify(r).includes(SECRET))).toEqual([]);
  });
});
