/**
 * Usage metering (docs/billing.md "Usage metering"): `add` and `peak` touch no
 * database; counts flush on their own and add up across processes on one database, peaks keep the
 * maximum, months split at the UTC boundary, levels come from the tables that hold them, BandWidth
 * counts app responses, file downloads and live streams (not console calls), and the read route
 * is for organization admins only.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database, Db } from '../../server/db/index.ts';
import { memberships } from '../../server/db/schema.ts';
import { serveLiveStream } from '../../server/live/stream.ts';
import { UsageMeter } from '../../server/usage/usage.ts';
import { meterBandwidth } from '../../server/usage/routes.ts';
import { usageMetrics } from '../../definitions/usage.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem, waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const dialect = new PgDialect();
const paramsOf = (query: unknown) => dialect.sqlToQuery(query as Parameters<PgDialect['sqlToQuery']>[0]).params;

describe('UsageMeter without a database', () => {
  /** A database that records every property anyone reads from it; `execute` answers (or fails) as told. */
  function spyDb(fail = 0) {
    const touched: string[] = [];
    const execute = vi.fn(async (_query: unknown) => {
      if (fail > 0) {
        fail -= 1;
        throw new Error('database down');
      }
      return { rows: [] };
    });
    const db = new Proxy({ execute } as Record<string, unknown>, {
      get(target, property) {
        touched.push(String(property));
        return target[property as string];
      },
    });
    return { db: db as unknown as Db, execute, touched };
  }

  it('add, peak and openLive do no I/O; one flush writes one upsert with the summed values', async () => {
    const spy = spyDb();
    const meter = new UsageMeter(spy.db, { now: () => Date.UTC(2026, 4, 17, 12) });
    for (let i = 0; i < 10_000; i += 1) meter.add('org-a', 'ApiCalls');
    meter.add('org-a', 'BandWidth', 1500);
    meter.add('org-b', 'SMSOTPCount', 2);
    meter.add('org-b', 'WebhookTriggers', 0);
    meter.add('org-b', 'WebhookTriggers', -4);
    meter.peak('org-a', 'SimultaneousLive', 3);
    meter.peak('org-a', 'SimultaneousLive', 2);
    const release = meter.openLive('org-c');
    release();
    release();
    expect(meter.liveCount('org-c')).toBe(0);
    expect(spy.touched).toEqual([]);
    expect(spy.execute).not.toHaveBeenCalled();

    await meter.flush();
    expect(spy.execute).toHaveBeenCalledTimes(1);
    const params = paramsOf(spy.execute.mock.calls[0]![0]);
    const rows: [unknown, unknown, unknown, unknown][] = [];
    for (let i = 0; i + 3 < params.length && rows.length < 5; i += 4) rows.push([params[i], params[i + 1], params[i + 2], params[i + 3]]);
    expect(rows).toEqual([
      ['org-a', '2026-05', 'ApiCalls', 10_000],
      ['org-a', '2026-05', 'BandWidth', 1500],
      ['org-a', '2026-05', 'SimultaneousLive', 3],
      ['org-b', '2026-05', 'SMSOTPCount', 2],
      ['org-c', '2026-05', 'SimultaneousLive', 1],
    ]);
    // Nothing pending: the next flush writes nothing.
    await meter.flush();
    expect(spy.execute).toHaveBeenCalledTimes(1);
    await meter.close();
  });

  it('keeps counts whose write failed and adds them to the next flush', async () => {
    const spy = spyDb(1);
    const meter = new UsageMeter(spy.db, { now: () => Date.UTC(2026, 4, 17, 12) });
    meter.add('org-a', 'ApiCalls', 5);
    meter.peak('org-a', 'SimultaneousLive', 4);
    await meter.flush();
    meter.add('org-a', 'ApiCalls', 2);
    meter.peak('org-a', 'SimultaneousLive', 3);
    await meter.flush();
    expect(spy.execute).toHaveBeenCalledTimes(2);
    expect(paramsOf(spy.execute.mock.calls[1]![0]).slice(0, 8)).toEqual(['org-a', '2026-05', 'ApiCalls', 7, 'org-a', '2026-05', 'SimultaneousLive', 4]);
    await meter.close();
  });

  it('streams still open when a month begins count towards its SimultaneousLive', async () => {
    const spy = spyDb();
    let now = Date.UTC(2026, 0, 31, 23, 59);
    const meter = new UsageMeter(spy.db, { now: () => now });
    meter.openLive('org-a');
    const second = meter.openLive('org-a');
    second();
    await meter.flush();
    expect(paramsOf(spy.execute.mock.calls[0]![0]).slice(0, 4)).toEqual(['org-a', '2026-01', 'SimultaneousLive', 2]);
    await meter.flush();
    expect(spy.execute).toHaveBeenCalledTimes(1);
    now = Date.UTC(2026, 1, 1, 0, 0, 1);
    await meter.flush();
    expect(paramsOf(spy.execute.mock.calls[1]![0]).slice(0, 4)).toEqual(['org-a', '2026-02', 'SimultaneousLive', 1]);
    await meter.close();
  });

  it('a flush asked for during a write writes, after it, what was added meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const execute = vi.fn(async (_query: unknown) => {
      if (execute.mock.calls.length === 1) await gate;
      return { rows: [] };
    });
    const meter = new UsageMeter({ execute } as unknown as Db, { now: () => Date.UTC(2026, 4, 17, 12) });
    meter.add('org-a', 'ApiCalls', 1);
    const running = meter.flush();
    meter.add('org-a', 'ApiCalls', 2);
    const asked = meter.flush();
    expect(meter.flush()).toBe(asked);
    release();
    await running;
    await asked;
    expect(execute).toHaveBeenCalledTimes(2);
    expect(paramsOf(execute.mock.calls[0]![0]).slice(0, 4)).toEqual(['org-a', '2026-05', 'ApiCalls', 1]);
    expect(paramsOf(execute.mock.calls[1]![0]).slice(0, 4)).toEqual(['org-a', '2026-05', 'ApiCalls', 2]);
    await meter.close();
    expect(execute).toHaveBeenCalledTimes(2);
  });
});

describe.each(databaseKinds)('usage metering on %s', (kind) => {
  let database: Database;
  let first: App;
  let second: App;
  let f: ContentFixture;
  let baseUrl: string;
  let dataDir: string;
  const fx = () => ({ app: first, config: loadConfig(testEnv), database, close: async () => {} });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    dataDir = mkdtempSync(path.join(tmpdir(), 'larder-usage-'));
    const config = loadConfig({ ...testEnv, FILES_SWEEP_INTERVAL_S: '0', DATA_DIR: dataDir });
    // Two app instances on one database stand for two processes of one deployment.
    first = await buildApp({ config, database, logger: false });
    second = await buildApp({ config, database, logger: false });
    // An app's live stream, attributed as the public API attributes its callers.
    first.get('/test/live/:org/:collection', async (request, reply) => {
      const { org, collection } = request.params as { org: string; collection: string };
      meterBandwidth(request, org);
      await serveLiveStream(request, reply, { hub: first.ctx.live, db: database.db, collectionId: collection, collectionSlug: 'posts', rootItemId: null, nestedPath: '', maxSeconds: 60 });
    });
    // An attributed answer streamed without a length: its bytes are counted as they pass.
    first.get('/test/stream/:org', async (request, reply) => {
      meterBandwidth(request, (request.params as { org: string }).org);
      return reply.type('application/octet-stream').send(Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(234, 2)]));
    });
    await first.listen({ port: 0, host: '127.0.0.1' });
    await second.ready();
    baseUrl = `http://127.0.0.1:${(first.server.address() as AddressInfo).port}`;
    f = await contentFixture(fx());
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const stored = async (org: string, month: string, metric: string) => {
    const result = (await database.db.execute(sql`select value from usage_counters where organization_id = ${org} and month = ${month} and metric = ${metric}`)) as unknown as {
      rows: { value: string | number }[];
    };
    return result.rows[0] ? Number(result.rows[0].value) : undefined;
  };
  const amounts = (report: { usage: { name: string; amount: number }[] }): Record<string, number> & { BandWidth: number } =>
    Object.fromEntries(report.usage.map((line) => [line.name, line.amount])) as Record<string, number> & { BandWidth: number };
  const month = () => first.ctx.usage.currentMonth();
  const newOrg = async () => {
    const created = await first.inject({ method: 'POST', url: '/api/organization', headers: bearer(f.access), payload: { name: 'Metered' } });
    expect(created.statusCode, created.body).toBe(201);
    return json(created).id as string;
  };

  it('flushes counts to the database by itself, about every second', async () => {
    const org = await newOrg();
    first.ctx.usage.add(org, 'WebhookTriggers', 2);
    first.ctx.usage.add(org, 'WebhookTriggers', 3);
    expect(await stored(org, month(), 'WebhookTriggers')).toBeUndefined();
    expect(await waitFor(async () => await stored(org, month(), 'WebhookTriggers'), 4000)).toBe(5);
  });

  it('adds up counts of two processes and keeps the greater peak', async () => {
    const org = await newOrg();
    const adds = [];
    for (let i = 0; i < 50; i += 1) adds.push(first.ctx.usage.add(org, 'ApiCalls'), second.ctx.usage.add(org, 'ApiCalls', 2));
    first.ctx.usage.add(org, 'BagelAuthUsers', 1);
    second.ctx.usage.add(org, 'SMSOTPCount', 4);
    first.ctx.usage.peak(org, 'SimultaneousLive', 3);
    second.ctx.usage.peak(org, 'SimultaneousLive', 7);
    await Promise.all([first.ctx.usage.flush(), second.ctx.usage.flush()]);
    first.ctx.usage.peak(org, 'SimultaneousLive', 5);
    second.ctx.usage.add(org, 'ApiCalls', 10);
    // Concurrent flushes of both processes, twice, while the other one reads.
    await Promise.all([first.ctx.usage.flush(), second.ctx.usage.flush()]);
    const fromSecond = amounts(await second.ctx.usage.read(org));
    expect(fromSecond).toMatchObject({ ApiCalls: 160, BagelAuthUsers: 1, SMSOTPCount: 4, SimultaneousLive: 7, WebhookTriggers: 0, BandWidth: 0 });
    expect(amounts(await first.ctx.usage.read(org))).toEqual(fromSecond);
  });

  it('counts usage in the UTC month it happened, whenever it is flushed', async () => {
    const org = await newOrg();
    let now = Date.UTC(2025, 0, 31, 23, 59, 59, 999);
    const meter = new UsageMeter(database.db, { now: () => now });
    meter.add(org, 'ApiCalls', 3);
    meter.peak(org, 'SimultaneousLive', 2);
    now += 1;
    meter.add(org, 'ApiCalls', 4);
    meter.peak(org, 'SimultaneousLive', 1);
    await meter.close();
    expect(amounts(await first.ctx.usage.read(org, '2025-01'))).toMatchObject({ ApiCalls: 3, SimultaneousLive: 2 });
    expect(amounts(await first.ctx.usage.read(org, '2025-02'))).toMatchObject({ ApiCalls: 4, SimultaneousLive: 1 });
    expect(amounts(await first.ctx.usage.read(org, '2025-03'))).toMatchObject({ ApiCalls: 0, SimultaneousLive: 0 });
  });

  it('reads Users, ItemCount and TotalStore from what the organization holds; a closed month keeps its highest recorded level', async () => {
    const g = await contentFixture(fx());
    const { tokens } = await verifiedUser(first, 'member');
    const me = json(await first.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await database.db.insert(memberships).values({ organizationId: g.org, userId: me._id, permissions: { read: true } });
    await createCollection(g, { id: 'notes', name: 'Notes', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
    for (const title of ['a', 'b', 'c']) await createItem(g, 'notes', { title });
    const other = await g.otherProject();
    await createCollection(other, { id: 'more', name: 'More', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
    await createItem(other, 'more', { title: 'd' });
    const bytes = Buffer.from('name,count\nflour,3\n');
    const form = new FormData();
    form.append('asset', new Blob([new Uint8Array(bytes)]), 'stock.csv');
    const request = new Request('http://larder.test/', { method: 'PUT', body: form });
    const asset = await g.call('PUT', 'asset', Buffer.from(await request.arrayBuffer()), { headers: { 'content-type': request.headers.get('content-type')! } });
    expect(asset.statusCode, asset.body).toBe(201);

    const now = amounts(await first.ctx.usage.read(g.org));
    expect(now).toMatchObject({ Users: 2, ItemCount: 4, TotalStore: bytes.length });

    // A snapshot taken in an earlier month is what that month shows, whatever happens since.
    const march = new UsageMeter(database.db, { now: () => Date.UTC(2025, 2, 10) });
    await march.snapshotLevels();
    const e = await createItem(g, 'notes', { title: 'e' });
    await march.snapshotLevels(g.org);
    expect(amounts(await first.ctx.usage.read(g.org))).toMatchObject({ ItemCount: 5 });
    expect((await g.call('DELETE', `collection/notes/item/${e._id}`)).statusCode).toBe(204);
    await march.snapshotLevels();
    await march.close();
    expect(amounts(await first.ctx.usage.read(g.org, '2025-03'))).toMatchObject({ Users: 2, ItemCount: 5, TotalStore: bytes.length });
    expect(amounts(await first.ctx.usage.read(g.org))).toMatchObject({ ItemCount: 4 });
    // Reading the current month shows the level now and records the month's highest.
    expect(await stored(g.org, month(), 'ItemCount')).toBe(5);
  });

  it('counts BandWidth of file downloads (not 304s, HEADs or console calls), of streamed answers and of an app’s live stream, with its SimultaneousLive peak', async () => {
    const org = f.org;
    const before = amounts(await first.ctx.usage.read(org));
    const bytes = Buffer.alloc(4096, 'x');
    const form = new FormData();
    form.append('asset', new Blob([new Uint8Array(bytes)]), 'blob.txt');
    const request = new Request('http://larder.test/', { method: 'PUT', body: form });
    const asset = await f.call('PUT', 'asset', Buffer.from(await request.arrayBuffer()), { headers: { 'content-type': request.headers.get('content-type')! } });
    expect(asset.statusCode, asset.body).toBe(201);
    const filePath = new URL(json(asset).url).pathname;
    const download = await first.inject({ method: 'GET', url: filePath });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(4096);
    const ranged = await first.inject({ method: 'GET', url: filePath, headers: { range: 'bytes=0-99' } });
    expect(ranged.statusCode).toBe(206);
    expect((await first.inject({ method: 'GET', url: filePath, headers: { 'if-none-match': download.headers.etag as string } })).statusCode).toBe(304);
    expect((await first.inject({ method: 'HEAD', url: filePath })).statusCode).toBe(200);
    // Console calls of members are not an app's bandwidth.
    expect((await first.inject({ method: 'GET', url: `/api/organization/${org}`, headers: bearer(f.access) })).statusCode).toBe(200);
    const streamed = await first.inject({ method: 'GET', url: `/test/stream/${org}` });
    expect(streamed.rawPayload.length).toBe(1234);
    const afterFiles = amounts(await first.ctx.usage.read(org));
    expect(afterFiles.BandWidth - before.BandWidth).toBe(4096 + 100 + 1234);

    // Two live streams at once: peak 2; their bytes counted when they end.
    await createCollection(f, { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
    const collectionId = String(
      ((await database.db.execute(sql`select id from content_collections where project_id = ${f.project} and slug = 'posts'`)) as unknown as { rows: { id: string }[] }).rows[0]!.id,
    );
    const open = () =>
      new Promise<{ received: () => number; close: () => void }>((resolve, reject) => {
        let received = 0;
        const req = http.get(`${baseUrl}/test/live/${org}/${collectionId}`, (response) => {
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (chunk.toString().includes('event: start')) resolve({ received: () => received, close: () => req.destroy() });
          });
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      });
    const a = await open();
    const b = await open();
    expect(first.ctx.usage.liveCount(org)).toBe(2);
    await createItem(f, 'posts', { title: 'live one' });
    await waitFor(() => a.received() > 100 && b.received() > 100);
    a.close();
    b.close();
    await waitFor(() => first.ctx.usage.liveCount(org) === 0);
    const afterLive = amounts(await first.ctx.usage.read(org));
    expect(afterLive.SimultaneousLive).toBeGreaterThanOrEqual(2);
    // The SSE bytes each stream was sent (start event and the item), without HTTP framing.
    expect(afterLive.BandWidth - afterFiles.BandWidth).toBeGreaterThan(200);
    expect(afterLive.BandWidth - afterFiles.BandWidth).toBeLessThanOrEqual(a.received() + b.received());
  });

  it('counts BandWidth and ApiCalls of public API answers to an API token', async () => {
    const minted = await first.inject({
      method: 'POST',
      url: '/api/apiTokens',
      headers: bearer(f.access),
      payload: { name: 'site', projectID: f.project, organizationID: f.org, powerRead: true },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    const token = json(minted).jwtToken as string;
    const before = amounts(await first.ctx.usage.read(f.org));
    const answer = await first.inject({ method: 'GET', url: '/api/public/project', headers: bearer(token) });
    expect(answer.statusCode, answer.body).toBe(200);
    // A refused (unauthenticated) call belongs to nobody.
    expect((await first.inject({ method: 'GET', url: '/api/public/project' })).statusCode).toBe(401);
    const after = amounts(await first.ctx.usage.read(f.org));
    expect(after.BandWidth - before.BandWidth).toBe(answer.rawPayload.length);
    // The public API counts the call itself (server/public/routes.ts).
    expect((after.ApiCalls ?? 0) - (before.ApiCalls ?? 0)).toBe(1);
  });

  it('answers GET /api/organization/{org}/usage to admins only, every metric in order', async () => {
    const org = await newOrg();
    first.ctx.usage.add(org, 'ApiCalls', 12);
    const answer = await first.inject({ method: 'GET', url: `/api/organization/${org}/usage`, headers: bearer(f.access) });
    expect(answer.statusCode, answer.body).toBe(200);
    const report = json(answer);
    expect(report.organizationID).toBe(org);
    expect(report.month).toBe(month());
    expect(report.usage.map((line: { name: string }) => line.name)).toEqual(usageMetrics);
    expect(report.usage.find((line: { name: string }) => line.name === 'ApiCalls')).toEqual({ name: 'ApiCalls', amount: 12, unitOfMeasure: 'count' });
    expect(report.usage.find((line: { name: string }) => line.name === 'TotalStore')).toMatchObject({ unitOfMeasure: 'bytes' });
    expect(report.usage.find((line: { name: string }) => line.name === 'Users')).toMatchObject({ amount: 1 });

    const past = json(await first.inject({ method: 'GET', url: `/api/organization/${org}/usage?month=2024-12`, headers: bearer(f.access) }));
    expect(past.month).toBe('2024-12');
    expect(amounts(past).ApiCalls).toBe(0);
    expectProblem(await first.inject({ method: 'GET', url: `/api/organization/${org}/usage?month=2024-13`, headers: bearer(f.access) }), 400);
    expectProblem(await first.inject({ method: 'GET', url: `/api/organization/${org}/usage?month=24-12'`, headers: bearer(f.access) }), 400);

    const { tokens: reader } = await verifiedUser(first, 'reader');
    const me = json(await first.inject({ method: 'GET', url: '/api/user/me', headers: bearer(reader.access_token) }));
    await database.db.insert(memberships).values({ organizationId: org, userId: me._id, permissions: { read: true, write: true } });
    expectProblem(await first.inject({ method: 'GET', url: `/api/organization/${org}/usage`, headers: bearer(reader.access_token) }), 403, 'insufficient_permissions');
    const { tokens: stranger } = await verifiedUser(first, 'strang');
    expectProblem(await first.inject({ method: 'GET', url: `/api/organization/${org}/usage`, headers: bearer(stranger.access_token) }), 403);
    expectProblem(await first.inject({ method: 'GET', url: `/api/organization/${org}/usage` }), 401);
  });
});
