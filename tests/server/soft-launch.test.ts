/**
 * Soft launch (docs/admin.md "Soft launch"): while it is on, billing applies only to whitelisted
 * organizations — a hard limit refuses the whitelisted organization's app calls and lets the
 * other's through, a blocked but not whitelisted organization is served and reads as OK, a
 * billing run charges the whitelisted one only — and turning it off restores enforcement at once
 * (in another process too, on PostgreSQL). The switch and the list are for super-admins only,
 * an unknown organization refuses the whole list, and every change is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { adminAudit, billingAccounts, billingCharges, settings, softLaunchWhitelist, users } from '../../server/db/schema.ts';
import type { CardProvider } from '../../server/billing/providers/types.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem, waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';

const provider: CardProvider = {
  name: 'sandbox',
  framed: true,
  startSetup: async () => ({ url: 'http://larder.test/pay', providerSessionId: 'p1' }),
  setupOutcome: async () => ({ status: 'open' }),
  charge: async () => ({ status: 'succeeded', providerChargeId: `ch_${Math.random()}` }),
};

describe.each(databaseKinds)('soft launch on %s', (kind) => {
  const clock = { now: new Date('2026-03-10T12:00:00Z') };
  let database: Database & { url?: string };
  let app: App;
  let boss: string;
  const orgs: { f: ContentFixture; token: string }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await buildApp({ config: loadConfig(testEnv), database, logger: false, billing: { now: () => clock.now, provider } });
    await app.ready();
    const t = { app, config: loadConfig(testEnv), database, close: async () => {} };
    for (let i = 0; i < 2; i += 1) {
      const f = await contentFixture(t);
      await createCollection(f, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] });
      orgs.push({ f, token: await mintToken(t, f, { powerRead: true }) });
    }
    const admin = await verifiedUser(app, 'boss');
    await database.db.update(users).set({ superAdmin: true }).where(eq(users.email, admin.account.email));
    boss = admin.tokens.access_token;
    // Both organizations past the Free Plan's hard ApiCalls limit this month.
    for (const { f } of orgs) {
      await database.db.execute(sql`insert into usage_counters (organization_id, month, metric, value) values (${f.org}, ${app.ctx.usage.currentMonth()}, 'ApiCalls', 500000)`);
      await app.ctx.billing.enforcement.refreshUsage(f.org);
    }
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const list = (on: App, token: string) => on.inject({ method: 'GET', url: '/api/public/collection/articles/items', headers: { ...bearer(token), 'accept-version': 'v1' } });
  const put = (url: string, payload: unknown, access = boss) => app.inject({ method: 'PUT', url, headers: bearer(access), payload: payload as object });
  const get = (url: string, access = boss) => app.inject({ method: 'GET', url, headers: bearer(access) });
  const audit = (action: string) => database.db.select().from(adminAudit).where(eq(adminAudit.action, action));

  it('is for super-admins only, refuses an unknown organization with nothing written, and records every change', async () => {
    const [a] = orgs;
    const owner = a!.f.access;
    for (const [method, url, payload] of [
      ['GET', '/billing/softLaunch', undefined],
      ['PUT', '/billing/softLaunch', { enabled: true }],
      ['GET', '/billing/softLaunch/whitelistOrgs', undefined],
      ['PUT', '/billing/softLaunch/whitelistOrgs', { organizationIDs: [a!.f.org] }],
    ] as const) {
      expectProblem(await app.inject({ method, url, headers: bearer(owner), ...(payload ? { payload } : {}) }), 403, 'super_admin_required');
      expect((await app.inject({ method, url, ...(payload ? { payload } : {}) })).statusCode).toBe(401);
    }
    expect(await database.db.select().from(settings).where(eq(settings.key, 'softLaunch'))).toEqual([]);
    expect(await database.db.select().from(softLaunchWhitelist)).toEqual([]);

    expect(json(await get('/billing/softLaunch'))).toEqual({ enabled: false });
    expect(json(await get('/billing/softLaunch/whitelistOrgs'))).toEqual({ organizationIDs: [] });
    expectProblem(await put('/billing/softLaunch', { enabled: 'yes' }), 400);
    expectProblem(await put('/billing/softLaunch/whitelistOrgs', { organizationIDs: ['nope'] }), 400);
    expectProblem(await put('/billing/softLaunch/whitelistOrgs', { organizationIDs: [a!.f.org, 'f'.repeat(24)] }), 404, 'organization_not_found');
    expect(await database.db.select().from(softLaunchWhitelist)).toEqual([]);
    // Setting what already is changes nothing and records nothing.
    expect(json(await put('/billing/softLaunch', { enabled: false }))).toEqual({ enabled: false });
    expect(json(await put('/billing/softLaunch/whitelistOrgs', { organizationIDs: [] }))).toEqual({ organizationIDs: [] });
    expect(await database.db.select().from(settings).where(eq(settings.key, 'softLaunch'))).toEqual([]);
    expect(await audit('softLaunch.setWhitelist')).toEqual([]);
    expect(await audit('softLaunch.set')).toEqual([]);
  });

  it('while on, enforces billing for whitelisted organizations only; off restores it at once', async () => {
    const [a, b] = orgs as [(typeof orgs)[0], (typeof orgs)[0]];
    // Off: both are refused past the hard limit.
    expectProblem(await list(app, a.token), 429, 'usage_limit');
    expectProblem(await list(app, b.token), 429, 'usage_limit');

    const whitelisted = await put('/billing/softLaunch/whitelistOrgs', { organizationIDs: [a.f.org] });
    expect(json(whitelisted)).toEqual({ organizationIDs: [a.f.org] });
    expect(json(await put('/billing/softLaunch', { enabled: true }))).toEqual({ enabled: true });
    expect(json(await get('/billing/softLaunch'))).toEqual({ enabled: true });
    // Again: nothing more in the audit log (below: one entry each way, one list).
    expect(json(await put('/billing/softLaunch', { enabled: true }))).toEqual({ enabled: true });
    expect(json(await put('/billing/softLaunch/whitelistOrgs', { organizationIDs: [a.f.org] }))).toEqual({ organizationIDs: [a.f.org] });

    expectProblem(await list(app, a.token), 429, 'usage_limit');
    const served = await list(app, b.token);
    expect(served.statusCode, served.body).toBe(200);
    expect(served.headers.warning).toBeUndefined();

    // B blocked by an old failed charge: still served, and its console reads OK.
    await database.db.update(billingAccounts).set({ initialBillingFailedDate: new Date('2026-01-01T00:00:00Z') }).where(eq(billingAccounts.organizationId, b.f.org));
    await app.ctx.caches.settle();
    expect((await list(app, b.token)).statusCode).toBe(200);
    const details = json(await get(`/billing/billingDetails?organizationID=${b.f.org}`, b.f.access));
    expect(details).toMatchObject({ status: 'OK', initialBillingFailedDate: null });
    expect(json(await get(`/api/organization/${b.f.org}`, b.f.access)).initialBillingFailedDate).toBeNull();
    // The admin's view shows the account's own standing.
    expect(json(await get(`/billing/adminBillingDetails?organizationIDs=${b.f.org}`))[0]).toMatchObject({ status: 'BLOCK' });
    await database.db.update(billingAccounts).set({ initialBillingFailedDate: null }).where(eq(billingAccounts.organizationId, b.f.org));

    // Another process (PostgreSQL) hears the switch too.
    let other: App | undefined;
    if (kind === 'postgres') {
      other = await buildApp({
        config: loadConfig(testEnv),
        database: await openDatabase({ databaseUrl: database.url!, skipMigrations: true, poolSize: 2 }),
        logger: false,
        billing: { now: () => clock.now, provider },
      });
      await other.ready();
      await other.ctx.billing.enforcement.refreshUsage(b.f.org);
      expect((await list(other, b.token)).statusCode).toBe(200);
    }
    try {
      expect(json(await put('/billing/softLaunch', { enabled: false }))).toEqual({ enabled: false });
      expectProblem(await list(app, b.token), 429, 'usage_limit');
      if (other) await waitFor(async () => (await list(other, b.token)).statusCode === 429);
    } finally {
      if (other) {
        const otherDatabase = other.ctx.database;
        await other.close();
        await otherDatabase.close();
      }
    }

    const switches = await audit('softLaunch.set');
    expect(switches.map((row) => [row.before, row.after])).toEqual([
      [{ enabled: false }, { enabled: true }],
      [{ enabled: true }, { enabled: false }],
    ]);
    const lists = await audit('softLaunch.setWhitelist');
    expect(lists).toHaveLength(1);
    const [listed] = lists;
    expect(listed).toMatchObject({ actor: expect.stringContaining('@'), targetKind: 'softLaunch', before: { organizationIDs: [] }, after: { organizationIDs: [a.f.org] } });
  });

  it('a billing run charges whitelisted organizations only while soft launch is on', async () => {
    const [a, b] = orgs as [(typeof orgs)[0], (typeof orgs)[0]];
    for (const { f } of orgs) {
      await database.db
        .update(billingAccounts)
        .set({ planId: 'basic', billingEmail: 'books@acme.test', billingDay: 10, nextBillingDate: '2026-03-10', lastBillingDate: '2026-02-10', cardProvider: 'sandbox', cardToken: 'tok', cardLast4: '4242', cardBrand: 'visa' })
        .where(eq(billingAccounts.organizationId, f.org));
    }
    await put('/billing/softLaunch', { enabled: true });
    const report = await app.ctx.billing.runs.runDue(clock.now);
    expect(report.opened).toBe(1);
    const charged = async (org: string) => (await database.db.select().from(billingCharges).where(eq(billingCharges.organizationId, org))).length;
    expect(await charged(a.f.org)).toBe(1);
    expect(await charged(b.f.org)).toBe(0);
    // Off: the next run charges B.
    await put('/billing/softLaunch', { enabled: false });
    expect((await app.ctx.billing.runs.runDue(clock.now)).opened).toBe(1);
    expect(await charged(b.f.org)).toBe(1);
  });
});
