/**
 * The admin area's organizations (docs/admin.md "Organizations"): the paged table with search
 * (name or exact id), status filter and every sort both ways with totals; one organization's
 * members and projects; `adminBillingDetails`; credit and add-ons round-tripped through it; the
 * plan override without a charge; every call refused to anyone but a super-admin with nothing
 * changed; and the audit entries of credit, add-ons, billing date and plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminOrganizationSorts } from '../../definitions/admin.ts';
import type { AdminOrganization, AdminOrganizationPage } from '../../definitions/schemas/admin.ts';
import { adminAudit, billingAccounts, billingCharges, users } from '../../server/db/schema.ts';
import { failedRangesOf } from '../../server/admin/organizations.ts';
import { billingStatusOf, defaultStatusWindows } from '../../definitions/billing/status.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';

const day = 86_400_000;

describe('status filter ranges', () => {
  it('cover exactly the days billingStatusOf gives each status, gaps and the days past the last window included', () => {
    const now = Date.UTC(2026, 2, 10, 12);
    for (const windows of [defaultStatusWindows, { GRACE: { from: 1, to: 2 }, NO_CLIENT: { from: 5, to: 9 }, BLOCK: { from: 12, to: 20 } }]) {
      for (let d = 0; d < 40; d += 1) {
        const failed = now - d * day - 3_600_000;
        const status = billingStatusOf(new Date(failed), now, windows);
        for (const candidate of ['GRACE', 'NO_CLIENT', 'BLOCK'] as const) {
          const inside = failedRangesOf(candidate, now, windows).some(({ newest, oldest }) => failed <= (newest ?? now) && (oldest === null || failed > oldest));
          expect(inside, `${d} days, ${candidate}`).toBe(status === candidate);
        }
      }
    }
  });
});

describe.each(databaseKinds)('admin organizations on %s', (kind) => {
  let t: TestApp;
  let boss: string;
  let owner: { access: string; email: string };
  const ids: Record<string, string> = {};

  const get = (url: string, access = boss) => t.app.inject({ method: 'GET', url, headers: bearer(access) });
  const send = (method: 'PUT' | 'POST', url: string, payload: unknown, access = boss) => t.app.inject({ method, url, headers: bearer(access), payload: payload as object });
  const page = async (query: string) => {
    const response = await get(`/api/admin/organizations?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<AdminOrganizationPage>(response);
  };
  const account = async (org: string) => (await t.database.db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org)))[0]!;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const o = await verifiedUser(t.app, 'owner');
    owner = { access: o.tokens.access_token, email: o.account.email };
    const admin = await verifiedUser(t.app, 'boss');
    await t.database.db.update(users).set({ superAdmin: true }).where(eq(users.email, admin.account.email));
    boss = admin.tokens.access_token;
    for (const name of ['Zeta Foods', 'Alpha Labs', 'alpha 100% beta', 'Gamma', 'Delta_Co']) {
      const response = await send('POST', '/api/organization', { name }, owner.access);
      expect(response.statusCode).toBe(201);
      ids[name] = json(response).id;
    }
    const now = Date.now();
    const set = (name: string, values: Partial<typeof billingAccounts.$inferInsert>) =>
      t.database.db.update(billingAccounts).set(values).where(eq(billingAccounts.organizationId, ids[name]!));
    await set('Zeta Foods', { planId: 'pro', seats: 12, nextBillingDate: '2026-04-01', creditUsd: 500, initialBillingFailedDate: new Date(now - 20 * day) });
    await set('Alpha Labs', { planId: 'basic', seats: 5, nextBillingDate: '2026-03-15', creditNis: 900, initialBillingFailedDate: new Date(now - 5 * day) });
    await set('Gamma', { initialBillingFailedDate: new Date(now - 3_600_000), creditUsd: 100, currency: 1, country: 'IL' });
    // Unpaid: two failed period charges of Zeta (USD), and one of Gamma in NIS; succeeded and upgrade charges are not owed.
    const charge = (org: string, id: string, periodStart: string, values: Partial<typeof billingCharges.$inferInsert>) => ({
      id,
      organizationId: ids[org]!,
      kind: 'period' as const,
      periodStart,
      periodEnd: '2026-12-31',
      idempotencyKey: `${id}:1`,
      currency: 2,
      lineItems: [],
      subtotal: 0,
      tax: 0,
      total: 0,
      status: 'failed' as const,
      ...values,
    });
    await t.database.db.insert(billingCharges).values([
      charge('Zeta Foods', 'c1', '2026-01-01', { total: 4_900 }),
      charge('Zeta Foods', 'c2', '2026-02-01', { total: 5_100 }),
      charge('Zeta Foods', 'c3', '2026-03-01', { total: 7_000, status: 'succeeded' }),
      charge('Zeta Foods', 'c4', '2026-03-02', { total: 8_000, kind: 'upgrade' }),
      charge('Gamma', 'c5', '2026-02-01', { total: 3_700, currency: 1 }),
    ]);
    const project = await send('POST', `/api/organization/${ids['Gamma']}/project`, { name: 'Site' }, owner.access);
    expect(project.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('refuses every admin organization call to anyone but a super-admin, with nothing changed', async () => {
    const org = ids['Gamma']!;
    const before = await account(org);
    for (const [method, url, payload] of [
      ['GET', '/api/admin/organizations', undefined],
      ['GET', `/api/admin/organizations/${org}`, undefined],
      ['GET', `/billing/adminBillingDetails?organizationIDs=${org}`, undefined],
      ['PUT', `/billing/billingDetails/plan?organizationID=${org}`, { planID: 'pro' }],
    ] as const) {
      expectProblem(await t.app.inject({ method, url, headers: bearer(owner.access), ...(payload ? { payload } : {}) }), 403, 'super_admin_required');
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
    expectProblem(await send('PUT', `/billing/billingDetails/credit?organizationID=${org}`, { amount: 100 }, owner.access), 403);
    expect(await account(org)).toEqual(before);
  });

  it('lists every organization with plan, status, seats, counts, balance, credit; searches by name or id; filters by status; pages with a total', async () => {
    const all = await page('perPage=100');
    expect(all.total).toBeGreaterThanOrEqual(5);
    const row = (name: string) => all.organizations.find((o) => o.name === name)!;
    expect(row('Zeta Foods')).toMatchObject({ planID: 'pro', planName: 'Pro Plan', status: 'BLOCK', seats: 12, members: 1, nextBillingDate: '2026-04-01', balance: { amount: 10_000, currency: 2 }, credit: { amount: 500, nisAmount: 0 }, whitelisted: false });
    expect(row('Alpha Labs')).toMatchObject({ planID: 'basic', status: 'NO_CLIENT', seats: 5, balance: { amount: 0, currency: 2 }, credit: { amount: 0, nisAmount: 900 } });
    expect(row('Gamma')).toMatchObject({ planID: null, planName: 'Free Plan', status: 'GRACE', projects: 1, balance: { amount: 3_700, currency: 1 } });
    expect(row('Delta_Co')).toMatchObject({ status: 'OK', seats: 3, nextBillingDate: null, projects: 0 });

    const alpha = await page('search=ALPHA');
    expect(alpha.organizations.map((o) => o.name).sort()).toEqual(['Alpha Labs', 'alpha 100% beta']);
    expect(alpha.total).toBe(2);
    // LIKE's own characters are taken literally.
    expect((await page('search=100%25')).organizations.map((o) => o.name)).toEqual(['alpha 100% beta']);
    expect((await page('search=ta_')).organizations.map((o) => o.name)).toEqual(['Delta_Co']);
    expect((await page(`search=${ids['Gamma']}`)).organizations.map((o) => o.name)).toEqual(['Gamma']);

    for (const [status, name] of [['BLOCK', 'Zeta Foods'], ['NO_CLIENT', 'Alpha Labs'], ['GRACE', 'Gamma']] as const) {
      const filtered = await page(`status=${status}`);
      expect(filtered.organizations.map((o) => o.name)).toEqual([name]);
      expect(filtered.total).toBe(1);
    }
    const ok = await page('status=OK&perPage=100');
    expect(ok.total).toBe(all.total - 3);
    expect(ok.organizations.every((o) => o.status === 'OK')).toBe(true);

    const first = await page('perPage=2&page=1&sort=name');
    const second = await page('perPage=2&page=2&sort=name');
    expect(first.total).toBe(all.total);
    expect([...first.organizations, ...second.organizations].map((o) => o.id)).toEqual((await page('perPage=4&sort=name')).organizations.map((o) => o.id));
    expect((await page('perPage=2&page=1000')).organizations).toEqual([]);
    for (const bad of ['perPage=0', 'perPage=101', 'page=0', 'sort=owner', 'status=LATE', 'order=up', 'x=1', `search=${'a'.repeat(201)}`]) {
      expectProblem(await get(`/api/admin/organizations?${bad}`), 400);
    }
  });

  it('sorts by every column both ways, the id breaking ties', async () => {
    const key: Record<(typeof adminOrganizationSorts)[number], (o: AdminOrganization) => string | number> = {
      name: (o) => o.name.toLowerCase(),
      createdDate: (o) => o.createdDate,
      // The free plan (no id) first, then by plan id.
      plan: (o) => o.planID ?? '',
      // OK first, then the newest failed date: the statuses in their order.
      status: (o) => ['OK', 'GRACE', 'NO_CLIENT', 'BLOCK'].indexOf(o.status),
      seats: (o) => o.seats,
      // None reads as the latest.
      nextBillingDate: (o) => o.nextBillingDate ?? '9999',
      balance: (o) => o.balance.amount,
      credit: (o) => o.credit.amount * 1e9 + o.credit.nisAmount,
    };
    for (const sort of adminOrganizationSorts) {
      for (const order of ['asc', 'desc'] as const) {
        const rows = (await page(`sort=${sort}&order=${order}&perPage=100`)).organizations;
        const sign = order === 'asc' ? 1 : -1;
        for (let i = 1; i < rows.length; i += 1) {
          const [a, b] = [rows[i - 1]!, rows[i]!];
          const [ka, kb] = [key[sort](a), key[sort](b)];
          if (ka === kb) expect(sign * a.id.localeCompare(b.id), `${sort} ${order} tie`).toBeLessThan(0);
          else expect(sign * (ka < kb ? -1 : 1), `${sort} ${order}: ${a.name} before ${b.name}`).toBeLessThan(0);
        }
      }
    }
  });

  it('shows one organization with its members and projects; an unknown one is 404', async () => {
    const org = ids['Gamma']!;
    const detail = await get(`/api/admin/organizations/${org}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const body = json(detail);
    expect(body.organization).toMatchObject({ id: org, name: 'Gamma' });
    expect(body.members).toEqual([{ id: expect.any(String), email: owner.email, username: expect.any(String), admin: true, disabled: false, joinedDate: expect.any(String) }]);
    expect(body.projects).toEqual([{ id: expect.any(String), name: 'Site', createdDate: expect.any(String), collections: 0, items: 0 }]);
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.email, owner.email));
    expect(json(await get(`/api/admin/organizations/${org}`)).members[0].disabled).toBe(true);
    await t.database.db.update(users).set({ disabledAt: null }).where(eq(users.email, owner.email));
    expectProblem(await get(`/api/admin/organizations/${'f'.repeat(24)}`), 404, 'organization_not_found');
    expectProblem(await get('/api/admin/organizations/nope'), 400);
  });

  it('round-trips credit, add-ons, billing date and the plan override through adminBillingDetails, each audited', async () => {
    const org = ids['Delta_Co']!;
    const q = `organizationID=${org}`;
    const details = async () => json(await get(`/billing/adminBillingDetails?organizationIDs=${org}`))[0];

    expect((await send('PUT', `/billing/billingDetails/credit?${q}`, { amount: 25 * 100, nisAmount: 90 * 100 })).statusCode).toBe(200);
    expect((await details()).credit).toEqual({ amount: 2_500, nisAmount: 9_000 });
    expect((await send('POST', `/billing/billingDetails/addOn?${q}`, { title: 'Support', amount: 1_000, nisAmount: 3_700 })).statusCode).toBe(200);
    expect((await send('POST', `/billing/billingDetails/addOn?${q}`, { title: 'SLA', amount: 2_000, nisAmount: 7_400 })).statusCode).toBe(200);
    expect((await details()).addOns).toEqual([
      { title: 'Support', amount: 1_000, nisAmount: 3_700 },
      { title: 'SLA', amount: 2_000, nisAmount: 7_400 },
    ]);
    expect((await send('PUT', `/billing/billingDetails/addOn?${q}`, [{ title: 'SLA', amount: 2_500, nisAmount: 9_000 }])).statusCode).toBe(200);
    expect((await details()).addOns).toEqual([{ title: 'SLA', amount: 2_500, nisAmount: 9_000 }]);
    // A day within the allowed range (today to two years ahead): the 3rd of May next year.
    const nextBillingDate = `${new Date().getUTCFullYear() + 1}-05-03`;
    expect((await send('PUT', `/billing/billingDetails/billingDate?${q}`, { nextBillingDate })).statusCode).toBe(200);

    // The plan override: at once, no charge; hidden plans too; null is the free plan.
    const before = (await t.database.db.select().from(billingCharges).where(eq(billingCharges.organizationId, org))).length;
    const set = await send('PUT', `/billing/billingDetails/plan?${q}`, { planID: 'pro' });
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set).plan).toEqual({ id: 'pro', name: 'Pro Plan' });
    expect((await t.database.db.select().from(billingCharges).where(eq(billingCharges.organizationId, org))).length).toBe(before);
    expectProblem(await send('PUT', `/billing/billingDetails/plan?${q}`, { planID: 'platinum' }), 400, 'plan_not_found');
    expectProblem(await send('PUT', `/billing/billingDetails/plan?organizationID=${'f'.repeat(24)}`, { planID: 'pro' }), 404, 'organization_not_found');
    expectProblem(await send('PUT', `/billing/billingDetails/plan?${q}`, {}), 400);
    expect(json(await send('PUT', `/billing/billingDetails/plan?${q}`, { planID: null })).plan.id).toBe('free');
    expect((await account(org)).planId).toBeNull();

    // Several at once, in the order asked; bad, unknown or too many ids refused.
    const both = json(await get(`/billing/adminBillingDetails?organizationIDs=${ids['Zeta Foods']},${org}`));
    expect(both.map((d: { organizationID: string }) => d.organizationID)).toEqual([ids['Zeta Foods'], org]);
    expectProblem(await get('/billing/adminBillingDetails?organizationIDs=nope'), 400);
    expectProblem(await get(`/billing/adminBillingDetails?organizationIDs=${'f'.repeat(24)}`), 404, 'organization_not_found');
    const many = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0')).join(',');
    expectProblem(await get(`/billing/adminBillingDetails?organizationIDs=${many}`), 400);

    const entries = await t.database.db.select().from(adminAudit).where(eq(adminAudit.targetId, org)).orderBy(adminAudit.id);
    expect(entries.map((e) => e.action)).toEqual([
      'organization.addCredit',
      'organization.addAddOn',
      'organization.addAddOn',
      'organization.replaceAddOns',
      'organization.setBillingDate',
      'organization.setPlan',
      'organization.setPlan',
    ]);
    expect(entries[0]).toMatchObject({ targetKind: 'organization', before: { credit: { amount: 0, nisAmount: 0 } }, after: { credit: { amount: 2_500, nisAmount: 9_000 } } });
    expect(entries[3]!.after).toEqual({ addOns: [{ title: 'SLA', amount: 2_500, nisAmount: 9_000 }] });
    expect(entries[4]).toMatchObject({ before: { nextBillingDate: null }, after: { nextBillingDate, billingDay: 3 } });
    expect(entries[5]).toMatchObject({ before: { planID: null }, after: { planID: 'pro' } });
  });
});
