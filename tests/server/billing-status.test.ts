/**
 * The billing status on requests (docs/billing.md "Billing status"): a failed charge walks GRACE →
 * NO_CLIENT → BLOCK on a fake clock; NO_CLIENT restricts the console's member writes (403
 * billing_restricted) and leaves reads, organization settings and billing open; BLOCK suspends
 * the organization's app calls (402 billing_blocked); clearing the failed date, as a successful
 * charge does, lifts it at once, in a second app on the same database too; BILLING=0 enforces
 * nothing; `GET billing/getBillingStatuses` answers the windows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import { defaultStatusWindows } from '../../definitions/billing/status.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { mintToken, newEmail } from './support/end-users.ts';

const dayMs = 86_400_000;

describe.each(databaseKinds)('billing status on %s', (kind) => {
  let database: Database;
  let first: App;
  let second: App;
  let off: App;
  let f: ContentFixture;
  let token: string;
  let dataDir: string;
  let now = Date.UTC(2026, 5, 10, 12);
  const clock = () => new Date(now);
  const fx = (app: App) => ({ app, config: loadConfig(testEnv), database, close: async () => {} });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    dataDir = mkdtempSync(path.join(tmpdir(), 'larder-billing-status-'));
    const env = { ...testEnv, FILES_SWEEP_INTERVAL_S: '0', DATA_DIR: dataDir };
    // Two app instances on one database stand for two processes of one deployment; a third runs with BILLING=0.
    first = await buildApp({ config: loadConfig(env), database, logger: false, billing: { now: clock } });
    second = await buildApp({ config: loadConfig(env), database, logger: false, billing: { now: clock } });
    off = await buildApp({ config: loadConfig({ ...env, BILLING: '0' }), database, logger: false, billing: { now: clock } });
    await Promise.all([first.ready(), second.ready(), off.ready()]);
    f = await contentFixture(fx(first));
    await createCollection(f, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] });
    token = await mintToken(fx(first), f, { powerRead: true, powerWrite: true });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await off?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const publicCall = (app: App, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    app.inject({ method, url: '/api/public/collection/articles/items', headers: { ...bearer(token), 'accept-version': 'v1' }, ...(payload ? { payload } : {}) });
  const consoleCreate = (app: App) => app.inject({ method: 'POST', url: `/api/organization/${f.org}/project/${f.project}/collection/articles/item`, headers: bearer(f.access), payload: { title: 'Draft' } });
  const consoleList = (app: App) => app.inject({ method: 'GET', url: `/api/organization/${f.org}/project/${f.project}/collection/articles/item`, headers: bearer(f.access) });
  const setFailedDate = (date: Date | null) =>
    database.db.execute(sql`update billing_accounts set initial_billing_failed_date = ${date ? date.toISOString() : null}::timestamptz where organization_id = ${f.org}`);
  /** Waits until both apps have heard every invalidation committed so far (migration 0025's trigger). */
  const heard = () => Promise.all([first.ctx.caches.settle(), second.ctx.caches.settle()]);

  it('GET billing/getBillingStatuses answers the windows to any signed-in user; 401 without one; 404 billing_disabled with BILLING=0', async () => {
    const answer = await first.inject({ method: 'GET', url: '/billing/getBillingStatuses', headers: bearer(f.access) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(json(answer)).toEqual(defaultStatusWindows);
    expectProblem(await first.inject({ method: 'GET', url: '/billing/getBillingStatuses' }), 401);
    expectProblem(await off.inject({ method: 'GET', url: '/billing/getBillingStatuses', headers: bearer(f.access) }), 404, 'billing_disabled');
  });

  it('a failed charge walks GRACE → NO_CLIENT → BLOCK; BLOCK refuses the app calls with 402; clearing the date lifts it at once in every process', async () => {
    // Both processes know the organization in good standing (their caches hold it).
    expect((await publicCall(first)).statusCode).toBe(200);
    expect((await publicCall(second)).statusCode).toBe(200);
    const organization = await first.inject({ method: 'GET', url: `/api/organization/${f.org}`, headers: bearer(f.access) });
    expect(json(organization).initialBillingFailedDate).toBeNull();

    const failedAt = new Date(now);
    await setFailedDate(failedAt);
    await heard();
    expect(await first.ctx.billing.enforcement.status(f.org)).toBe('GRACE');
    expect(json(await first.inject({ method: 'GET', url: `/api/organization/${f.org}`, headers: bearer(f.access) })).initialBillingFailedDate).toBe(failedAt.toISOString());
    // GRACE restricts nothing on the server.
    expect((await publicCall(first)).statusCode).toBe(200);
    expect((await consoleCreate(first)).statusCode).toBe(201);

    now += 2 * dayMs + dayMs - 1;
    expect(await first.ctx.billing.enforcement.status(f.org)).toBe('GRACE');
    now += 1;
    expect(await first.ctx.billing.enforcement.status(f.org)).toBe('NO_CLIENT');
    // NO_CLIENT: the apps go on; the console's member writes are refused, reads and admin settings are not.
    expect((await publicCall(first)).statusCode).toBe(200);
    expect((await publicCall(first, 'POST', { title: 'From the app' })).statusCode).toBe(201);
    expectProblem(await consoleCreate(first), 403, 'billing_restricted');
    expectProblem(await consoleCreate(second), 403, 'billing_restricted');
    expect((await consoleList(first)).statusCode).toBe(200);
    const renamed = await first.inject({ method: 'PUT', url: `/api/organization/${f.org}`, headers: bearer(f.access), payload: { name: 'Still Paying' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const projectWrite = await first.inject({ method: 'POST', url: `/api/organization/${f.org}/project`, headers: bearer(f.access), payload: { name: 'Another' } });
    expectProblem(projectWrite, 403, 'billing_restricted');
    expect((await first.inject({ method: 'GET', url: '/billing/getBillingStatuses', headers: bearer(f.access) })).statusCode).toBe(200);

    now = failedAt.getTime() + 15 * dayMs;
    expect(await first.ctx.billing.enforcement.status(f.org)).toBe('BLOCK');
    for (const app of [first, second]) {
      expectProblem(await publicCall(app), 402, 'billing_blocked');
      expectProblem(await publicCall(app, 'POST', { title: 'Refused' }), 402, 'billing_blocked');
      // The apps' auth service too.
      const signUp = await app.inject({ method: 'POST', url: '/auth/public/user', headers: bearer(token), payload: { email: newEmail('blocked'), password: 'correct horse 1' } });
      expectProblem(signUp, 402, 'billing_blocked');
      expectProblem(await consoleCreate(app), 403, 'billing_restricted');
      expect((await consoleList(app)).statusCode).toBe(200);
    }
    // Past the last window it stays blocked: only a successful charge lifts it.
    now = failedAt.getTime() + 90 * dayMs;
    expectProblem(await publicCall(second), 402, 'billing_blocked');

    // A successful charge clears the date (server/billing/charges.ts): every process hears it at commit.
    await setFailedDate(null);
    await heard();
    for (const app of [first, second]) {
      expect((await publicCall(app)).statusCode).toBe(200);
      expect((await consoleCreate(app)).statusCode).toBe(201);
    }
    expect(json(await second.inject({ method: 'GET', url: `/api/organization/${f.org}`, headers: bearer(f.access) })).initialBillingFailedDate).toBeNull();
  });

  it('refused app calls are not metered', async () => {
    const flushAll = () => Promise.all([first, second, off].map((app) => app.ctx.usage.flush()));
    await flushAll();
    const before = await first.ctx.usage.read(f.org);
    await setFailedDate(new Date(now - 20 * dayMs));
    await heard();
    for (let i = 0; i < 5; i += 1) expectProblem(await publicCall(first), 402, 'billing_blocked');
    await flushAll();
    const after = await first.ctx.usage.read(f.org);
    const calls = (report: typeof before) => report.usage.find((line) => line.name === 'ApiCalls')!.amount;
    expect(calls(after)).toBe(calls(before));
    await setFailedDate(null);
    await heard();
  });

  it('BILLING=0 enforces nothing: a blocked organization answers, its console writes, and it shows no failed date', async () => {
    await setFailedDate(new Date(now - 20 * dayMs));
    await heard();
    await off.ctx.caches.settle();
    expectProblem(await publicCall(first), 402, 'billing_blocked');
    expect((await publicCall(off)).statusCode).toBe(200);
    expect((await consoleCreate(off)).statusCode).toBe(201);
    expect(await off.ctx.billing.enforcement.status(f.org)).toBe('OK');
    expect(json(await off.inject({ method: 'GET', url: `/api/organization/${f.org}`, headers: bearer(f.access) })).initialBillingFailedDate).toBeNull();
    await setFailedDate(null);
    await heard();
  });
});
