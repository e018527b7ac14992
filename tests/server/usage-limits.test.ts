/**
 * Usage limits on app calls (docs/billing.md "Usage limits"): a hard limit (no overage price)
 * answers 429 usage_limit naming the metric and the limit; what this process counted and has not
 * written yet counts at once; a metric with overage is allowed past its limit and the answer
 * carries the warning header; the header starts at 80 %, on app answers and on the console's
 * organization answers; each metric gates its own calls (item creates, SMS codes, sign-ups, live
 * streams); webhook deliveries past a hard WebhookTriggers limit are logged as not sent; BILLING=0
 * enforces nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import { createTestApp, databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { expectProblem, waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { mintToken, newEmail } from './support/end-users.ts';

/** Asserts a 429 usage_limit and answers its params. */
function refusal(response: LightMyRequestResponse): unknown {
  expectProblem(response, 429, 'usage_limit');
  return json(response).params;
}

describe.each(databaseKinds)('usage limits on %s', (kind) => {
  let database: Database;
  let app: App;
  let off: App;
  let f: ContentFixture;
  let token: string;
  let dataDir: string;
  const fx = (on: App) => ({ app: on, config: loadConfig(testEnv), database, close: async () => {} });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    dataDir = mkdtempSync(path.join(tmpdir(), 'larder-usage-limits-'));
    const env = { ...testEnv, FILES_SWEEP_INTERVAL_S: '0', DATA_DIR: dataDir };
    app = await buildApp({ config: loadConfig(env), database, logger: false });
    off = await buildApp({ config: loadConfig({ ...env, BILLING: '0' }), database, logger: false });
    await Promise.all([app.ready(), off.ready()]);
    f = await contentFixture(fx(app));
    await createCollection(f, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] });
    token = await mintToken(fx(app), f, { powerRead: true, powerWrite: true });
  });
  afterAll(async () => {
    await app?.close();
    await off?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const list = (on: App = app) => on.inject({ method: 'GET', url: '/api/public/collection/articles/items', headers: { ...bearer(token), 'accept-version': 'v1' } });
  const create = (on: App = app) =>
    on.inject({ method: 'POST', url: '/api/public/collection/articles/items', headers: { ...bearer(token), 'accept-version': 'v1' }, payload: { title: 'From the app' } });
  const month = () => app.ctx.usage.currentMonth();
  /** Sets a counter of this month as written, after this process wrote what it had pending, and re-reads the figures. */
  async function setUsage(metric: string, value: number) {
    await Promise.all([app.ctx.usage.flush(), off.ctx.usage.flush()]);
    await database.db.execute(sql`insert into usage_counters (organization_id, month, metric, value) values (${f.org}, ${month()}, ${metric}, ${value})
      on conflict (organization_id, month, metric) do update set value = excluded.value`);
    await app.ctx.billing.enforcement.refreshUsage(f.org);
  }
  async function setPlan(planId: string | null) {
    await database.db.execute(sql`update billing_accounts set plan_id = ${planId} where organization_id = ${f.org}`);
    await app.ctx.caches.settle();
    await app.ctx.billing.enforcement.refreshUsage(f.org);
  }

  it('a hard limit answers 429 usage_limit naming the metric and the limit; calls counted in memory count at once; refusals are not counted', async () => {
    await setUsage('ApiCalls', 499_999);
    const last = await list();
    expect(last.statusCode, last.body).toBe(200);
    expect(last.headers.warning).toBe('299 larder "ApiCalls at 99% of the plan\'s limit"');
    // That call is pending in this process, not written: the next is refused all the same.
    const refused = await list();
    expect(refusal(refused)).toEqual({ metric: 'ApiCalls', limit: '500,000' });
    expectProblem(await create(), 429, 'usage_limit');
    await app.ctx.usage.flush();
    const stored = (await database.db.execute(sql`select value from usage_counters where organization_id = ${f.org} and month = ${month()} and metric = 'ApiCalls'`)) as unknown as {
      rows: { value: string | number }[];
    };
    expect(Number(stored.rows[0]!.value)).toBe(500_000);
    // The console is not refused by app limits; its organization answers carry the warning (its
    // figures are re-read every few seconds; here at once).
    await app.ctx.billing.enforcement.refreshUsage(f.org);
    const organization = await app.inject({ method: 'GET', url: `/api/organization/${f.org}`, headers: bearer(f.access) });
    expect(organization.statusCode).toBe(200);
    expect(organization.headers.warning).toBe('299 larder "ApiCalls at 100% of the plan\'s limit"');
    // BILLING=0: nothing refused, no warning.
    const unlimited = await list(off);
    expect(unlimited.statusCode).toBe(200);
    expect(unlimited.headers.warning).toBeUndefined();
  });

  it('the warning header starts at 80 % of a limit', async () => {
    await setUsage('ApiCalls', 399_990);
    const below = await list();
    expect(below.statusCode).toBe(200);
    expect(below.headers.warning).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: `/api/organization/${f.org}`, headers: bearer(f.access) })).headers.warning).toBeUndefined();
    await setUsage('ApiCalls', 400_000);
    const at = await list();
    expect(at.headers.warning).toBe('299 larder "ApiCalls at 80% of the plan\'s limit"');
    expect(at.headers['access-control-expose-headers']).toContain('warning');
    await setUsage('ApiCalls', 0);
  });

  it('a metric with overage is allowed past its limit and carries the warning', async () => {
    await setPlan('basic');
    await setUsage('ApiCalls', 6_000_000);
    const over = await list();
    expect(over.statusCode, over.body).toBe(200);
    expect(over.headers.warning).toBe('299 larder "ApiCalls at 120% of the plan\'s limit"');
    expect((await create()).statusCode).toBe(201);
    // Several limits near at once: one header, each named.
    await setUsage('BandWidth', 90 * 1_000_000_000);
    expect((await list()).headers.warning).toBe('299 larder "ApiCalls at 120% of the plan\'s limit", 299 larder "BandWidth at 90% of the plan\'s limit"');
    await setUsage('BandWidth', 0);
    await setUsage('ApiCalls', 0);
    await setPlan(null);
    expect((await list()).headers.warning).toBeUndefined();
  });

  it('each metric gates its own calls: item creates (ItemCount), SMS codes (SMSOTPCount), sign-ups (BagelAuthUsers), live streams (SimultaneousLive), uploads (TotalStore)', async () => {
    // ItemCount is a level: the collections' counters. Past it, creates are refused and reads are not.
    await database.db.execute(sql`update content_collections set item_count = item_count + 2000000 where project_id = ${f.project} and slug = 'articles'`);
    await app.ctx.billing.enforcement.refreshUsage(f.org);
    expect(refusal(await create())).toEqual({ metric: 'ItemCount', limit: '2,000,000' });
    expect((await list()).statusCode).toBe(200);
    await database.db.execute(sql`update content_collections set item_count = item_count - 2000000 where project_id = ${f.project} and slug = 'articles'`);
    await app.ctx.billing.enforcement.refreshUsage(f.org);
    expect((await create()).statusCode).toBe(201);

    await setUsage('SMSOTPCount', 50);
    const sms = await app.inject({ method: 'POST', url: '/auth/public/user/otp', headers: bearer(token), payload: { emailOrPhone: '+15550100' } });
    expect(refusal(sms)).toEqual({ metric: 'SMS OTP Count', limit: '50' });
    const mail = await app.inject({ method: 'POST', url: '/auth/public/user/otp', headers: bearer(token), payload: { emailOrPhone: newEmail('otp') } });
    expect(mail.statusCode, mail.body).toBe(200);
    await setUsage('SMSOTPCount', 0);

    await setUsage('BagelAuthUsers', 10_000);
    const signUp = await app.inject({ method: 'POST', url: '/auth/public/user', headers: bearer(token), payload: { email: newEmail('limited'), password: 'correct horse 1' } });
    expect(refusal(signUp)).toEqual({ metric: 'BagelAuthUsers', limit: '10,000' });
    await setUsage('BagelAuthUsers', 0);

    // Streams open in another process (heard from lately) count: the 201st is refused.
    await database.db.execute(sql`insert into usage_live_processes (process_id, organization_id, open) values ('elsewhere', ${f.org}, 200)`);
    await app.ctx.billing.enforcement.refreshUsage(f.org);
    const live = await app.inject({ method: 'GET', url: `/api/public/collection/articles/live?authorization=${token}`, headers: { 'accept-version': 'v1' } });
    expect(refusal(live)).toEqual({ metric: 'SimultaneousLive', limit: '200' });
    await database.db.execute(sql`delete from usage_live_processes where process_id = 'elsewhere'`);

    // TotalStore is a level too (stored files' bytes): an upload past it is refused, the limit in 1000-based units.
    await database.db.execute(sql`insert into stored_files (key, project_id, state, content_type, name, size)
      values (${`p/${f.project}/a/huge.bin`}, ${f.project}, 'asset', 'application/octet-stream', 'huge.bin', 1000000000)`);
    await app.ctx.billing.enforcement.refreshUsage(f.org);
    const upload = await app.inject({
      method: 'POST',
      url: '/api/public/collection//assets',
      headers: { ...bearer(token), 'accept-version': 'v1', 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\ncontent-disposition: form-data; name="fileAssets"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\nhello\r\n--x--\r\n',
    });
    expect(refusal(upload)).toEqual({ metric: 'Asset Storage', limit: '1 GB' });
    expect((await list()).statusCode).toBe(200);
    await database.db.execute(sql`delete from stored_files where key = ${`p/${f.project}/a/huge.bin`}`);
  });
});

describe('usage limits on the free plan name sizes in 1000-based units', () => {
  it('Asset Storage (1 GB)', async () => {
    const { limitText, metricDisplayNames } = await import('../../server/billing/enforcement.ts');
    expect(metricDisplayNames.TotalStore).toBe('Asset Storage');
    expect(limitText('TotalStore', 1_000_000_000)).toBe('1 GB');
    expect(limitText('ApiCalls', 500_000)).toBe('500,000');
  });
});

describe.each(databaseKinds)('webhook deliveries past the WebhookTriggers limit on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: string;
  const received: string[] = [];
  const receiver = http.createServer((request, response) => {
    received.push(request.url ?? '');
    request.resume();
    response.end('ok');
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t = await createTestApp(kind, { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32', WEBHOOK_POLL_S: '0.5' });
    f = await contentFixture(t);
    await createCollection(f, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] });
    token = await mintToken(t, f, { powerRead: true, powerWrite: true });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('are logged as not sent, with the reason, and do not count as failures of the webhook; under the limit they are sent', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/webhook',
      headers: bearer(f.access),
      payload: { organizationID: f.org, projectID: f.project, method: 'POST', trigger: 'create', name: 'Hook', webhookURI: url, collections: ['articles'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const hook = json(created).id as string;
    const month = t.app.ctx.usage.currentMonth();
    await t.app.ctx.usage.flush();
    await t.database.db.execute(sql`insert into usage_counters (organization_id, month, metric, value) values (${f.org}, ${month}, 'WebhookTriggers', 50000)
      on conflict (organization_id, month, metric) do update set value = excluded.value`);
    await t.app.ctx.billing.enforcement.refreshUsage(f.org);
    const item = () => t.app.inject({ method: 'POST', url: '/api/public/collection/articles/items', headers: { ...bearer(token), 'accept-version': 'v1' }, payload: { title: 'Hooked' } });
    expect((await item()).statusCode).toBe(201);
    const attempts = async () =>
      ((await t.database.db.execute(sql`select a.status_code, a.error, d.state from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where a.webhook_id = ${hook}`)) as unknown as {
        rows: { status_code: number | null; error: string | null; state: string }[];
      }).rows;
    const [refused] = await waitFor(async () => {
      const rows = await attempts();
      return rows.length ? rows : undefined;
    }, 20_000);
    expect(refused!.status_code).toBeNull();
    expect(refused!.error).toBe('Not sent: the organization has used its plan’s WebhookTriggers (50,000) this month.');
    expect(refused!.state).toBe('failed');
    expect(received).toEqual([]);
    const [row] = ((await t.database.db.execute(sql`select consecutive_failures, disabled_at from webhooks where id = ${hook}`)) as unknown as {
      rows: { consecutive_failures: number; disabled_at: unknown }[];
    }).rows;
    expect(row).toEqual({ consecutive_failures: 0, disabled_at: null });

    await t.app.ctx.usage.flush();
    await t.database.db.execute(sql`update usage_counters set value = 0 where organization_id = ${f.org} and month = ${month} and metric = 'WebhookTriggers'`);
    await t.app.ctx.billing.enforcement.refreshUsage(f.org);
    expect((await item()).statusCode).toBe(201);
    await waitFor(() => received.length === 1, 20_000);
  });
});
