/**
 * Platform metrics (docs/admin.md "Metrics"): figures counted from timestamps for every day of
 * the window, the job's rows (levels, active users, live connections, API calls and bandwidth as
 * differences of the month's totals, across a month's end), plans in use, monthly recurring
 * revenue, failed payments, 30 and 90 day windows, BILLING=0, and super-admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AdminMetrics } from '../../definitions/schemas/admin.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import {
  billingAccounts,
  billingCharges,
  contentCollections,
  emailConfirmations,
  organizations,
  platformDaily,
  projects,
  usageCounters,
  usageLiveProcesses,
  users,
  webhookDeliveries,
  webhooks,
} from '../../server/db/schema.ts';
import { newId } from '../../server/lib/ids.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';

/** The test's "now": long before the real one, so the accounts the API makes fall after every window. */
const at = Date.parse('2025-03-20T12:00:00Z');
const ts = (iso: string) => new Date(iso);

async function startApp(kind: (typeof databaseKinds)[number], env: Record<string, string> = {}) {
  const database = await openTestDatabase(kind);
  const app = await buildApp({ config: loadConfig({ ...testEnv, ...env }), database, logger: false });
  await app.ready();
  app.ctx.admin.metrics.now = () => at;
  const admin = await verifiedUser(app, 'metricsadmin');
  await database.db.update(users).set({ superAdmin: true }).where(eq(users.username, admin.account.username));
  return { app, database, access: admin.tokens.access_token, close: async () => (await app.close(), await database.close()) };
}

const user = (name: string, createdAt: string, extra: Partial<typeof users.$inferInsert> = {}) => ({
  id: newId(),
  username: name,
  email: `${name}@seed.test`,
  createdAt: ts(createdAt),
  ...extra,
});

describe.each(databaseKinds)('platform metrics on %s', (kind) => {
  let t: Awaited<ReturnType<typeof startApp>>;
  const o = { o1: newId(), o2: newId(), o3: newId(), o4: newId() };

  const metrics = async (days?: number) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/admin/metrics${days ? `?days=${days}` : ''}`, headers: bearer(t.access) });
    expect(response.statusCode, response.body).toBe(200);
    return json<AdminMetrics>(response);
  };
  const valuesOf = (m: AdminMetrics, metric: string) => m.series.find((s) => s.metric === metric)!.values;
  /** The value of a metric on a day of the report. */
  const on = (m: AdminMetrics, metric: string, day: string) => {
    const index = Math.round((Date.parse(day) - Date.parse(m.from)) / 86_400_000);
    return valuesOf(m, metric)[index];
  };
  const setCounter = (organizationId: string, month: string, metric: string, value: number) =>
    t.database.db
      .insert(usageCounters)
      .values({ organizationId, month, metric, value })
      .onConflictDoUpdate({ target: [usageCounters.organizationId, usageCounters.month, usageCounters.metric], set: { value } });

  beforeAll(async () => {
    t = await startApp(kind);
    const db = t.database.db;
    const a = user('seeda', '2025-01-10T08:00:00Z', { lastLoggedIn: ts('2025-03-20T09:00:00Z') });
    const b = user('seedb', '2025-03-01T10:00:00Z', { lastLoggedIn: ts('2025-03-19T23:00:00Z') });
    const c = user('seedc', '2025-03-01T23:59:00Z', { verified: true });
    const d = user('seedd', '2025-03-19T05:00:00Z', { verified: true, disabledAt: ts('2025-03-19T07:00:00Z') });
    await db.insert(users).values([a, b, c, d]);
    const confirmation = (userId: string, usedAt: string | null) => ({ idHash: newId(), userId, email: 'x@seed.test', expiresAt: ts('2026-01-01T00:00:00Z'), usedAt: usedAt ? ts(usedAt) : null });
    // c was sent a link again on the 10th, but had already used the first one on the 2nd.
    await db.insert(emailConfirmations).values([confirmation(c.id, '2025-03-02T00:30:00Z'), confirmation(c.id, null), confirmation(d.id, '2025-03-19T06:00:00Z')]);
    await db.insert(organizations).values([
      { id: o.o1, name: 'One', createdAt: ts('2025-01-15T00:00:00Z') },
      { id: o.o2, name: 'Two', createdAt: ts('2025-03-05T01:00:00Z') },
      { id: o.o3, name: 'Three', createdAt: ts('2025-03-05T02:00:00Z') },
      { id: o.o4, name: 'Four', createdAt: ts('2025-03-05T23:00:00Z') },
    ]);
    const [p1, p2] = [newId(), newId()];
    await db.insert(projects).values([
      { id: p1, organizationId: o.o1, name: 'P1', createdAt: ts('2025-02-25T00:00:00Z') },
      { id: p2, organizationId: o.o2, name: 'P2', createdAt: ts('2025-03-06T00:00:00Z') },
    ]);
    const collection = (projectId: string, itemCount: number) => ({ id: newId(), projectId, slug: `c${itemCount}`, name: 'C', schema: [], storageTables: [], itemCount });
    await db.insert(contentCollections).values([collection(p1, 5), collection(p2, 7)]);
    await db.execute(sql`insert into stored_files (key, project_id, state, content_type, name, size) values
      (${newId()}, ${p1}, 'asset', 'image/png', 'a.png', 100), (${newId()}, ${p2}, 'asset', 'image/png', 'b.png', 250)`);
    const webhookId = newId();
    await db.insert(webhooks).values({ id: webhookId, projectId: p1, organizationId: o.o1, name: 'W', uri: 'https://hook.test/', method: 'POST', trigger: 'create', secret: 's' });
    const delivery = (eventId: number, createdAt: string) => ({ id: newId(), webhookId, eventId, trigger: 'create', body: '{}', createdAt: ts(createdAt) });
    await db.insert(webhookDeliveries).values([delivery(1, '2025-03-10T01:00:00Z'), delivery(2, '2025-03-10T02:00:00Z'), delivery(3, '2025-03-20T03:00:00Z')]);
    // Plans: o1 Basic monthly in USD with 2 paid seats, o2 Pro yearly in NIS, o3 Basic yearly in USD, o4 no account (free).
    await db.insert(billingAccounts).values([
      { organizationId: o.o1, seats: 12, planId: 'basic', currency: 2, frequency: 1 },
      { organizationId: o.o2, seats: 50, planId: 'pro', currency: 1, frequency: 2, country: 'IL' },
      { organizationId: o.o3, seats: 10, planId: 'basic', currency: 2, frequency: 2 },
    ]);
    const charge = (organizationId: string, status: 'failed' | 'succeeded', updatedAt: string) => ({
      id: newId(),
      organizationId,
      kind: 'upgrade' as const,
      periodStart: '2025-01-01',
      periodEnd: '2025-02-01',
      idempotencyKey: newId(),
      currency: 2,
      lineItems: [],
      subtotal: 100,
      tax: 0,
      total: 100,
      status,
      updatedAt: ts(updatedAt),
    });
    await db
      .insert(billingCharges)
      .values([charge(o.o1, 'failed', '2025-03-05T10:00:00Z'), charge(o.o2, 'failed', '2025-01-20T10:00:00Z'), charge(o.o3, 'succeeded', '2025-03-06T10:00:00Z'), charge(o.o1, 'failed', '2024-11-01T10:00:00Z')]);

    // The job across February's end: 600 calls by the 27th, 1,000 when February closed, 40 on 1 March.
    const job = t.app.ctx.admin.metrics;
    await setCounter(o.o1, '2025-02', 'ApiCalls', 600);
    await job.run(Date.parse('2025-02-27T12:00:00Z'));
    await setCounter(o.o1, '2025-02', 'ApiCalls', 1000);
    await setCounter(o.o1, '2025-03', 'ApiCalls', 40);
    await job.run(Date.parse('2025-03-01T00:05:00Z'));
    // 1,500 calls and 5,000 bytes by the 18th, 1,800 calls by the 19th, 2,000 today (the report runs the job).
    await setCounter(o.o1, '2025-03', 'ApiCalls', 1000);
    await setCounter(o.o2, '2025-03', 'ApiCalls', 500);
    await setCounter(o.o1, '2025-03', 'BandWidth', 5000);
    await job.run(Date.parse('2025-03-18T20:00:00Z'));
    await setCounter(o.o1, '2025-03', 'ApiCalls', 1300);
    await setCounter(o.o1, '2025-03', 'BandWidth', 8000);
    await db.insert(usageLiveProcesses).values([
      { processId: 'p-a', organizationId: o.o1, open: 4, heartbeatAt: ts('2025-03-19T21:59:50Z') },
      { processId: 'p-b', organizationId: o.o2, open: 9, heartbeatAt: ts('2025-03-19T21:00:00Z') },
    ]);
    await job.run(Date.parse('2025-03-19T22:00:00Z'));
    // Run again once the streams have closed: the day keeps its peak.
    await db.delete(usageLiveProcesses);
    await job.run(Date.parse('2025-03-19T22:05:00Z'));
    await setCounter(o.o1, '2025-03', 'ApiCalls', 1500);
  });
  afterAll(() => t?.close());

  it('answers 403 to a signed-in user who is not a super-admin', async () => {
    const other = await verifiedUser(t.app, 'notadmin');
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/admin/metrics', headers: bearer(other.tokens.access_token) }), 403, 'super_admin_required');
  });

  it('refuses a window other than 30 or 90 days', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/admin/metrics?days=7', headers: bearer(t.access) }), 400);
  });

  it('charts 30 days, oldest first, from timestamps and the job', async () => {
    const m = await metrics();
    expect(m).toMatchObject({ days: 30, from: '2025-02-19', to: '2025-03-20' });
    for (const s of m.series) expect(s.values).toHaveLength(30);
    expect(m.series.map((s) => s.metric).sort()).toEqual(
      ['activeUsers', 'apiCalls', 'bandwidth', 'failedPayments', 'items', 'liveConnections', 'newUsers', 'organizations', 'projects', 'storage', 'verifiedUsers', 'webhookDeliveries'].sort(),
    );

    const newUsers = valuesOf(m, 'newUsers');
    expect(newUsers.reduce((sum, v) => sum! + v!, 0)).toBe(3);
    expect([on(m, 'newUsers', '2025-03-01'), on(m, 'newUsers', '2025-03-19'), on(m, 'newUsers', '2025-02-19')]).toEqual([2, 1, 0]);
    expect([on(m, 'verifiedUsers', '2025-03-02'), on(m, 'verifiedUsers', '2025-03-10'), on(m, 'verifiedUsers', '2025-03-19')]).toEqual([1, 0, 1]);
    expect([on(m, 'webhookDeliveries', '2025-03-10'), on(m, 'webhookDeliveries', '2025-03-20'), on(m, 'webhookDeliveries', '2025-03-11')]).toEqual([2, 1, 0]);

    // Levels: the organizations that exist, by their creation day, where the job has not run.
    expect([on(m, 'organizations', '2025-02-19'), on(m, 'organizations', '2025-03-04'), on(m, 'organizations', '2025-03-05'), on(m, 'organizations', '2025-03-20')]).toEqual([1, 1, 4, 4]);
    expect([on(m, 'projects', '2025-02-24'), on(m, 'projects', '2025-02-25'), on(m, 'projects', '2025-03-06')]).toEqual([0, 1, 2]);

    // The job's figures: null where it never ran.
    expect([on(m, 'items', '2025-03-17'), on(m, 'items', '2025-03-18'), on(m, 'items', '2025-03-20')]).toEqual([null, 12, 12]);
    expect([on(m, 'storage', '2025-03-17'), on(m, 'storage', '2025-03-19')]).toEqual([null, 350]);
    expect([on(m, 'activeUsers', '2025-03-18'), on(m, 'activeUsers', '2025-03-19'), on(m, 'activeUsers', '2025-03-20'), on(m, 'activeUsers', '2025-03-10')]).toEqual([0, 1, 1, null]);
    expect([on(m, 'liveConnections', '2025-03-19'), on(m, 'liveConnections', '2025-03-20'), on(m, 'liveConnections', '2025-03-17')]).toEqual([4, 0, null]);

    // API calls per day: differences of the month's totals; the 1st is the month so far; unknown without the day before.
    expect([on(m, 'apiCalls', '2025-02-28'), on(m, 'apiCalls', '2025-03-01'), on(m, 'apiCalls', '2025-03-02')]).toEqual([400, 40, null]);
    expect([on(m, 'apiCalls', '2025-03-18'), on(m, 'apiCalls', '2025-03-19'), on(m, 'apiCalls', '2025-03-20')]).toEqual([null, 300, 200]);
    expect([on(m, 'bandwidth', '2025-03-19'), on(m, 'bandwidth', '2025-03-20')]).toEqual([3000, 0]);

    expect([on(m, 'failedPayments', '2025-03-05'), on(m, 'failedPayments', '2025-03-06')]).toEqual([1, 0]);
    expect(m.failedPayments).toBe(1);
    expect(m.now).toMatchObject({ items: 12, storage: 350, organizations: 4, projects: 2, newUsers: 0, webhookDeliveries: 1, apiCalls: 200, apiCallsThisMonth: 2000, bandwidthThisMonth: 8000 });
    // Four seeded users and the two the API made (verified, the admin and the refused one).
    expect([m.now.users, m.now.usersVerified, m.now.usersDisabled]).toEqual([6, 4, 1]);
  });

  it('counts plans in use and monthly recurring revenue', async () => {
    const m = await metrics();
    expect(m.plans).toEqual([
      { planID: null, planName: 'Free Plan', organizations: 1 },
      { planID: 'basic', planName: 'Basic Plan', organizations: 2 },
      { planID: 'pro', planName: 'Pro Plan', organizations: 1 },
      { planID: 'enterprise', planName: 'Enterprise Plan', organizations: 0 },
    ]);
    // USD: Basic monthly 2,500 + 2 seats × 900, and Basic yearly 25,000 / 12; NIS: Pro yearly 360,000 / 12.
    expect(m.mrr).toEqual({ USD: 2_500 + 1_800 + 2_083, NIS: 30_000 });

    // Soft launch on with nobody whitelisted: nobody is charged, so nothing recurs.
    const softLaunch = (enabled: boolean) => t.app.inject({ method: 'PUT', url: '/billing/softLaunch', headers: bearer(t.access), payload: { enabled } });
    expect((await softLaunch(true)).statusCode).toBe(200);
    try {
      expect((await metrics()).mrr).toEqual({ USD: 0, NIS: 0 });
    } finally {
      expect((await softLaunch(false)).statusCode).toBe(200);
    }
    expect((await metrics()).mrr).toEqual({ USD: 2_500 + 1_800 + 2_083, NIS: 30_000 });
  });

  it('charts 90 days: null before the first user, and the failed payments of the longer window', async () => {
    const m = await metrics(90);
    expect(m).toMatchObject({ days: 90, from: '2024-12-21', to: '2025-03-20', failedPayments: 2 });
    for (const s of m.series) expect(s.values).toHaveLength(90);
    expect([on(m, 'newUsers', '2025-01-09'), on(m, 'newUsers', '2025-01-10'), on(m, 'organizations', '2025-01-09'), on(m, 'organizations', '2025-01-15')]).toEqual([null, 1, null, 1]);
    expect(on(m, 'failedPayments', '2025-01-20')).toBe(1);
  });

  it('writes each day once however often the job runs', async () => {
    await t.app.ctx.admin.metrics.run(at);
    await t.app.ctx.admin.metrics.run(at);
    const rows = await t.database.db.select().from(platformDaily).where(eq(platformDaily.day, '2025-03-20'));
    expect(rows.filter((r) => r.metric === 'items')).toEqual([{ day: '2025-03-20', metric: 'items', value: 12 }]);
    // A second process asking within the interval does not run it again.
    expect(await t.app.ctx.admin.metrics.tick(at)).toBe(false);
  });
});

describe.each(databaseKinds)('platform metrics with BILLING=0 on %s', (kind) => {
  let t: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => (t = await startApp(kind, { BILLING: '0' })));
  afterAll(() => t?.close());

  it('has no plans, no revenue and no failed payments, without an error', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/metrics?days=90', headers: bearer(t.access) });
    expect(response.statusCode, response.body).toBe(200);
    const m = json<AdminMetrics>(response);
    expect(m).toMatchObject({ plans: [], mrr: { USD: 0, NIS: 0 }, failedPayments: 0 });
    expect(m.series.find((s) => s.metric === 'failedPayments')!.values.every((v) => v === null || v === 0)).toBe(true);
  });
});
