/**
 * Billing accounts through the API (docs/billing.md "Plans", "Plan changes and seats", "Billing
 * summary", "Contact Us", "Self-hosting without billing"): details round trip, currency by
 * country, plan changes charged pro rata through a card provider of the test's own (the
 * CardProvider interface), the Free Plan pending until the next billing date, seats, the summary,
 * Contact Us, bad input refused with nothing changed, admins only, and BILLING=0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { billingAccounts, billingCharges, contactRequests, memberships, users } from '../../server/db/schema.ts';
import { ProviderUnavailable, type CardProvider, type ChargeRequest } from '../../server/billing/providers/types.ts';
import { mulDiv } from '../../definitions/billing/money.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer, lastMailTo, verifiedUser } from './support/flows.ts';
import { expectProblem, waitFor } from './support/assertions.ts';

/** A card provider that answers as the test says and remembers what it was asked. */
function testProvider() {
  const state = { mode: 'succeed' as 'succeed' | 'decline' | 'down', calls: [] as ChargeRequest[], gate: undefined as Promise<void> | undefined };
  const provider: CardProvider = {
    name: 'sandbox',
    framed: true,
    startSetup: async () => ({ url: 'http://larder.test/pay', providerSessionId: 'p1' }),
    setupOutcome: async () => ({ status: 'open' }),
    async charge(request) {
      state.calls.push(request);
      if (state.gate) await state.gate;
      if (state.mode === 'down') throw new ProviderUnavailable('timed out');
      if (state.mode === 'decline') return { status: 'declined', reason: 'card declined' };
      return { status: 'succeeded', providerChargeId: `ch_${state.calls.length}` };
    },
  };
  return { provider, state };
}

type Clock = { now: Date };

async function startApp(kind: (typeof databaseKinds)[number], clock: Clock, provider: CardProvider, env: Record<string, string> = {}) {
  const config = loadConfig({ ...testEnv, BILLING_SALES_EMAIL: 'sales@larder.test', ...env });
  const database = await openTestDatabase(kind);
  const app = await buildApp({ config, database, logger: false, billing: { now: () => clock.now, provider } });
  await app.ready();
  return { app, database, close: async () => (await app.close(), await database.close()) };
}

const call = (app: App, method: 'GET' | 'POST' | 'PUT', url: string, access: string, payload?: unknown) =>
  app.inject({ method, url, headers: bearer(access), ...(payload === undefined ? {} : { payload: payload as object }) });

const address = (country = 'US', city = 'Springfield') => ({ address: '1 Main St', city, country, postcode: '12345' });

describe.each(databaseKinds)('billing accounts on %s', (kind) => {
  const clock: Clock = { now: new Date('2026-03-10T12:00:00Z') };
  const { provider, state } = testProvider();
  let t: Awaited<ReturnType<typeof startApp>>;
  let admin: { access: string; email: string };
  let member: { access: string; id: string };

  async function newOrganization() {
    const response = await call(t.app, 'POST', '/api/organization', admin.access, { name: 'Acme' });
    expect(response.statusCode).toBe(201);
    return json<{ id: string }>(response).id;
  }
  const account = async (org: string) => (await t.database.db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org)))[0]!;
  const chargesOf = async (org: string) => t.database.db.select().from(billingCharges).where(eq(billingCharges.organizationId, org));
  const giveCard = (org: string) =>
    t.database.db.update(billingAccounts).set({ cardProvider: 'sandbox', cardToken: 'tok_test', cardLast4: '4242', cardBrand: 'visa' }).where(eq(billingAccounts.organizationId, org));
  const details = async (org: string) => json(await call(t.app, 'GET', `/billing/billingDetails?organizationID=${org}`, admin.access));
  async function paidReady(org: string, country = 'US') {
    expect((await call(t.app, 'PUT', `/billing/billingDetails?organizationID=${org}`, admin.access, { billingEmail: 'billing@acme.test', billingAddress: address(country) })).statusCode).toBe(200);
    await giveCard(org);
  }

  beforeAll(async () => {
    t = await startApp(kind, clock, provider);
    const owner = await verifiedUser(t.app, 'owner');
    admin = { access: owner.tokens.access_token, email: owner.account.email };
    const other = await verifiedUser(t.app, 'member');
    member = { access: other.tokens.access_token, id: json(await call(t.app, 'GET', '/api/user/me', other.tokens.access_token))._id };
  });
  afterAll(() => t.close());

  it('lists the plans without the hidden one, prices in minor units', async () => {
    const response = await call(t.app, 'GET', '/billing/plans', member.access);
    expect(response.statusCode).toBe(200);
    const plans = json<{ id: string; price: number; free: boolean; usageLimits: { name: string; additionalCost: number | null }[] }[]>(response);
    expect(plans.map((p) => p.id)).toEqual(['free', 'basic', 'pro']);
    expect(plans[1]).toMatchObject({ price: 2_500, free: false, prices: { monthly: { USD: 2_500, NIS: 9_000 } } });
    expect(plans[0]!.usageLimits.every((l) => l.additionalCost === null)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/billing/plans' })).statusCode).toBe(401);
  });

  it('starts on the Free Plan; organizationDetails fills in the caller’s e-mail; details round trip with the currency of the country', async () => {
    const org = await newOrganization();
    const first = await details(org);
    expect(first).toMatchObject({
      plan: { id: 'free', name: 'Free Plan' },
      pendingPlan: null,
      totalBillingAmount: 0,
      currency: 2,
      billingFrequency: 1,
      billingEmail: null,
      billingAddress: { country: 'US' },
      seats: { total: 3, included: 3, paid: 0 },
      creditCardDetails: null,
      status: 'OK',
    });
    expect(first.usage.find((u: { name: string }) => u.name === 'Users')).toMatchObject({ amount: 1, limit: 3, hardLimit: true, overageAmount: 0 });

    const ensured = json(await call(t.app, 'POST', `/billing/billingDetails/organizationDetails?organizationID=${org}`, admin.access));
    expect(ensured.billingEmail).toBe(admin.email);

    const saved = await call(t.app, 'PUT', `/billing/billingDetails?organizationID=${org}`, admin.access, { billingEmail: 'books@acme.test', billingAddress: address('il', 'Tel Aviv'), billingFrequency: 2 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json(saved)).toMatchObject({ billingEmail: 'books@acme.test', billingAddress: { country: 'IL', city: 'Tel Aviv' }, currency: 1, billingFrequency: 2 });
    // A second organizationDetails keeps the e-mail already set.
    expect(json(await call(t.app, 'POST', `/billing/billingDetails/organizationDetails?organizationID=${org}`, admin.access)).billingEmail).toBe('books@acme.test');
    const posted = await call(t.app, 'POST', `/billing/billingDetails?organizationID=${org}`, admin.access, { billingEmail: 'books@acme.test', billingAddress: address('DE') });
    expect(json(posted)).toMatchObject({ currency: 2, billingFrequency: 2, billingAddress: { country: 'DE' } });
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const org = await newOrganization();
    await paidReady(org);
    const before = await account(org);
    const put = (body: unknown) => call(t.app, 'PUT', `/billing/billingDetails?organizationID=${org}`, admin.access, body);
    expectProblem(await put({ billingEmail: 'not an e-mail', billingAddress: address() }), 400);
    expectProblem(await put({ billingEmail: 'a@b.test', billingAddress: address('XX') }), 400, 'country_unknown');
    expectProblem(await put({ billingEmail: 'a@b.test', billingAddress: address('USA') }), 400);
    expectProblem(await put({ billingEmail: 'a@b.test', billingAddress: address(), billingFrequency: 3 }), 400);
    expectProblem(await put({ billingEmail: 'a@b.test', billingAddress: address(), credit: 100 }), 400);
    for (const bad of [0, -1, 1.5, '2', null, 1e9]) {
      expectProblem(await call(t.app, 'PUT', `/billing/billingDetails/seats?organizationID=${org}`, admin.access, { numberOfSeats: bad }), 400);
    }
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=gold`, admin.access), 400, 'plan_not_found');
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=enterprise`, admin.access), 400, 'plan_not_found');
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=free`, admin.access), 409, 'same_plan');
    expectProblem(await call(t.app, 'GET', `/billing/billingSummary?organizationID=${org}&country=ZZ&planID=basic`, admin.access), 400, 'country_unknown');
    expectProblem(await call(t.app, 'GET', `/billing/billingSummary?organizationID=${org}&country=US&planID=nope`, admin.access), 400, 'plan_not_found');
    expectProblem(await call(t.app, 'GET', `/billing/billingDetails?organizationID=not-an-id`, admin.access), 400);
    expect(await account(org)).toEqual(before);
    expect(await chargesOf(org)).toEqual([]);
    expect(state.calls).toHaveLength(0);
  });

  it('is for organization admins: a member gets 403 on every account route', async () => {
    const org = await newOrganization();
    await t.database.db.insert(memberships).values({ organizationId: org, userId: member.id, permissions: { read: true, write: true, create: true, update: true, delete: true } });
    const q = `organizationID=${org}`;
    for (const [method, url, body] of [
      ['GET', `/billing/billingDetails?${q}`],
      ['PUT', `/billing/billingDetails?${q}`, { billingEmail: 'x@y.test', billingAddress: address() }],
      ['POST', `/billing/billingDetails/organizationDetails?${q}`],
      ['PUT', `/billing/plan?${q}&planID=basic`],
      ['PUT', `/billing/billingDetails/seats?${q}`, { numberOfSeats: 1 }],
      ['GET', `/billing/billingSummary?${q}&country=US&planID=basic`],
      ['PUT', `/billing/billingDetails/billingDate?${q}`, { nextBillingDate: '2026-03-11' }],
    ] as const) {
      expectProblem(await call(t.app, method, url, member.access, body), 403);
    }
    // An admin who is no platform super-admin cannot move the billing date either.
    expectProblem(await call(t.app, 'PUT', `/billing/billingDetails/billingDate?${q}`, admin.access, { nextBillingDate: '2026-03-11' }), 403, 'insufficient_permissions');
    // Any member may ask sales to call.
    const sent = await call(t.app, 'POST', `/api/organization/${org}/contactUs`, member.access, { name: 'Dana', email: 'dana@acme.test', number: '+972 50-000-0000' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(json(sent)).toEqual({ sent: true });
    const mail = await lastMailTo(t.app, 'sales@larder.test', 'contact');
    expect(mail.text).toContain('dana@acme.test');
    expect(mail.text).toContain('+972 50-000-0000');
    const [stored] = await t.database.db.select().from(contactRequests).where(eq(contactRequests.organizationId, org));
    expect(stored).toMatchObject({ name: 'Dana', email: 'dana@acme.test', userId: member.id, mailedAt: expect.any(Date) });
    expectProblem(await call(t.app, 'POST', `/api/organization/${org}/contactUs`, member.access, { name: 'Dana', email: 'nope', number: '1234' }), 400);
    expectProblem(await call(t.app, 'POST', `/api/organization/${org}/contactUs`, member.access, { name: '', email: 'd@a.test', number: 'call me' }), 400);
  });

  it('limits Contact Us to a few requests an hour per user', async () => {
    const org = await newOrganization();
    const body = { name: 'Ada', email: 'ada@acme.test', number: '555-0100' };
    for (let i = 0; i < 5; i += 1) expect((await call(t.app, 'POST', `/api/organization/${org}/contactUs`, admin.access, body)).statusCode).toBe(200);
    const refused = expectProblem(await call(t.app, 'POST', `/api/organization/${org}/contactUs`, admin.access, body), 429, 'rate_limited');
    expect(refused.detail).toMatch(/contact requests/);
    expect(await t.database.db.select().from(contactRequests).where(eq(contactRequests.organizationId, org))).toHaveLength(5);
  });

  it('needs billing details and a card for a paid plan', async () => {
    const org = await newOrganization();
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access), 409, 'billing_details_required');
    await call(t.app, 'PUT', `/billing/billingDetails?organizationID=${org}`, admin.access, { billingEmail: 'b@acme.test', billingAddress: address() });
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access), 409, 'card_required');
    expect((await account(org)).planId).toBeNull();
  });

  it('upgrades from the Free Plan at once: a period starts today, paid in full', async () => {
    clock.now = new Date('2026-01-31T09:00:00Z');
    const org = await newOrganization();
    await paidReady(org);
    state.calls.length = 0;
    const response = await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access);
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toMatchObject({ plan: { id: 'basic' }, billingDay: 28, nextBillingDate: '2026-02-28', lastBillingDate: '2026-01-31', seats: { total: 3, included: 10, paid: 0 }, creditCardDetails: { cardNumber: '•••• 4242' } });
    expect(state.calls.map((c) => [c.amount, c.currency])).toEqual([[2_500, 'USD']]);
    const [charge] = await chargesOf(org);
    expect(charge).toMatchObject({ kind: 'upgrade', status: 'succeeded', total: 2_500, periodStart: '2026-01-31', periodEnd: '2026-02-28' });
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access), 409, 'same_plan');
  });

  it('upgrades within a period for the price difference of the days left; a cheaper plan and the Free Plan wait for the next billing date', async () => {
    clock.now = new Date('2026-03-10T12:00:00Z');
    const org = await newOrganization();
    await paidReady(org);
    expect((await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access)).statusCode).toBe(200);
    // Period 2026-03-10 .. 2026-04-10 (31 days). On 2026-03-25, 16 days are left, today included.
    clock.now = new Date('2026-03-25T08:00:00Z');
    state.calls.length = 0;
    const up = await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=pro`, admin.access);
    expect(up.statusCode, up.body).toBe(200);
    const expected = mulDiv(9_900 - 2_500, 16, 31);
    expect(state.calls.map((c) => c.amount)).toEqual([expected]);
    expect(json(up)).toMatchObject({ plan: { id: 'pro' }, nextBillingDate: '2026-04-10', totalBillingAmount: 9_900 });

    const down = json(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access));
    expect(down).toMatchObject({ plan: { id: 'pro' }, pendingPlan: { id: 'basic', effectiveDate: '2026-04-10' }, totalBillingAmount: 2_500 });
    const free = json(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=free`, admin.access));
    expect(free).toMatchObject({ plan: { id: 'pro' }, pendingPlan: { id: 'free', name: 'Free Plan', effectiveDate: '2026-04-10' }, totalBillingAmount: 0 });
    // Choosing the current plan again cancels the pending change.
    const kept = json(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=pro`, admin.access));
    expect(kept).toMatchObject({ plan: { id: 'pro' }, pendingPlan: null });
    expect(state.calls).toHaveLength(1);
  });

  it('past the billing date: before the run nothing is left of the old period; after a failed run the change falls in the new one', async () => {
    clock.now = new Date('2026-03-10T12:00:00Z');
    const org = await newOrganization();
    await paidReady(org);
    expect((await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access)).statusCode).toBe(200);
    clock.now = new Date('2026-04-12T12:00:00Z');
    state.calls.length = 0;
    const early = await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=pro`, admin.access);
    expect(early.statusCode, early.body).toBe(200);
    expect(json(early)).toMatchObject({ plan: { id: 'pro' }, nextBillingDate: '2026-04-10' });
    expect(state.calls).toHaveLength(0);

    const other = await newOrganization();
    await paidReady(other);
    clock.now = new Date('2026-03-10T12:00:00Z');
    expect((await call(t.app, 'PUT', `/billing/plan?organizationID=${other}&planID=basic`, admin.access)).statusCode).toBe(200);
    await t.database.db.insert(billingCharges).values({
      id: `failed${Date.now().toString(16)}`.padEnd(24, '0').slice(0, 24),
      organizationId: other,
      kind: 'period',
      periodStart: '2026-04-10',
      periodEnd: '2026-05-10',
      idempotencyKey: `failed-${other}`,
      currency: 2,
      lineItems: [{ name: 'Basic Plan (monthly)', amount: 2_500 }],
      subtotal: 2_500,
      tax: 0,
      total: 2_500,
      status: 'failed',
    });
    clock.now = new Date('2026-04-25T12:00:00Z');
    state.calls.length = 0;
    expect((await call(t.app, 'PUT', `/billing/plan?organizationID=${other}&planID=pro`, admin.access)).statusCode).toBe(200);
    // 2026-04-10 .. 2026-05-10 has 30 days; 15 are left on the 25th, today included.
    expect(state.calls.map((c) => c.amount)).toEqual([mulDiv(9_900 - 2_500, 15, 30)]);
  });

  it('a declined card is 402 and an unanswered provider 503, each with nothing changed', async () => {
    clock.now = new Date('2026-03-10T12:00:00Z');
    const org = await newOrganization();
    await paidReady(org);
    state.mode = 'decline';
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access), 402, 'payment_declined');
    expect(await account(org)).toMatchObject({ planId: null, nextBillingDate: null });
    state.mode = 'down';
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access), 503, 'payment_provider_unavailable');
    expect(await account(org)).toMatchObject({ planId: null, nextBillingDate: null });
    // The charge whose outcome is unknown is still open: a second change waits for it.
    state.mode = 'succeed';
    expectProblem(await call(t.app, 'PUT', `/billing/billingDetails/seats?organizationID=${org}`, admin.access, { numberOfSeats: 1 }), 503, 'payment_provider_unavailable');
    expect((await account(org)).seats).toBe(3);
  });

  it('takes one change at a time: a change while another is being charged answers 503 and charges nothing', async () => {
    clock.now = new Date('2026-03-10T12:00:00Z');
    const org = await newOrganization();
    await paidReady(org);
    state.calls.length = 0;
    let release = () => {};
    state.gate = new Promise<void>((resolve) => (release = resolve));
    const first = call(t.app, 'PUT', `/billing/billingDetails/seats?organizationID=${org}`, admin.access, { numberOfSeats: 2 });
    await waitFor(() => state.calls.length === 1);
    expectProblem(await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access), 503, 'payment_provider_unavailable');
    release();
    state.gate = undefined;
    expect(json(await first)).toEqual({ seats: 5 });
    expect(state.calls).toHaveLength(1);
    expect((await chargesOf(org)).map((c) => c.status)).toEqual(['succeeded']);
  });

  it('charges seats past the plan’s included ones pro rata; free seats cost nothing', async () => {
    clock.now = new Date('2026-03-10T12:00:00Z');
    const org = await newOrganization();
    await paidReady(org);
    // On the Free Plan (3 included) a fourth seat needs a card: it starts a monthly period of paid seats.
    state.calls.length = 0;
    const first = await call(t.app, 'PUT', `/billing/billingDetails/seats?organizationID=${org}`, admin.access, { numberOfSeats: 2 });
    expect(json(first)).toEqual({ seats: 5 });
    expect(state.calls.map((c) => c.amount)).toEqual([1_800]);
    expect(await account(org)).toMatchObject({ planId: null, nextBillingDate: '2026-04-10', billingDay: 10 });
    // The Basic Plan includes 10: the upgrade charges the plan and the 0 paid seats left pro rata.
    clock.now = new Date('2026-03-20T12:00:00Z');
    state.calls.length = 0;
    expect((await call(t.app, 'PUT', `/billing/plan?organizationID=${org}&planID=basic`, admin.access)).statusCode).toBe(200);
    expect(state.calls.map((c) => c.amount)).toEqual([mulDiv(2_500, 21, 31)]);
    state.calls.length = 0;
    // 5 → 10 seats are included: nothing charged.
    expect(json(await call(t.app, 'PUT', `/billing/billingDetails/seats?organizationID=${org}`, admin.access, { numberOfSeats: 5 }))).toEqual({ seats: 10 });
    expect(state.calls).toHaveLength(0);
    // 10 → 13: three paid seats for 21 of 31 days.
    expect(json(await call(t.app, 'PUT', `/billing/billingDetails/seats?organizationID=${org}`, admin.access, { numberOfSeats: 3 }))).toEqual({ seats: 13 });
    expect(state.calls.map((c) => c.amount)).toEqual([mulDiv(3 * 900, 21, 31)]);
    expect(await details(org)).toMatchObject({ seats: { total: 13, included: 10, paid: 3 }, totalBillingAmount: 2_500 + 3 * 900 });
    state.mode = 'decline';
    expectProblem(await call(t.app, 'PUT', `/billing/billingDetails/seats?organizationID=${org}`, admin.access, { numberOfSeats: 1 }), 402, 'payment_declined');
    expect((await account(org)).seats).toBe(13);
    state.mode = 'succeed';
  });

  it('adds tax by the given country and prices in its currency in the summary', async () => {
    const org = await newOrganization();
    await t.database.db.update(billingAccounts).set({ seats: 12, creditNis: 1_000 }).where(eq(billingAccounts.organizationId, org));
    const us = json(await call(t.app, 'GET', `/billing/billingSummary?organizationID=${org}&country=US&planID=basic`, admin.access));
    expect(us).toMatchObject({ planID: 'basic', country: 'US', currency: 2, subtotal: 2_500 + 2 * 900, credit: 0, tax: 0, taxName: null, total: 4_300 });
    expect(us.lineItems).toEqual([
      { name: 'Basic Plan (monthly)', amount: 2_500 },
      { name: 'Additional seats × 2', amount: 1_800 },
    ]);
    const il = json(await call(t.app, 'GET', `/billing/billingSummary?organizationID=${org}&country=il&planID=basic`, admin.access));
    const subtotal = 9_000 + 2 * 3_300;
    expect(il).toMatchObject({ country: 'IL', currency: 1, subtotal, credit: 1_000, taxName: 'VAT', tax: mulDiv(subtotal - 1_000, 1_800, 10_000) });
    expect(il.total).toBe(subtotal - 1_000 + il.tax);
  });

  it('lets a platform super-admin move the next billing date', async () => {
    // Today to two years ahead by the billing clock: 2026-03-11 is ahead of this day.
    clock.now = new Date('2026-03-10T12:00:00Z');
    const org = await newOrganization();
    const boss = await verifiedUser(t.app, 'boss');
    await t.database.db.update(users).set({ superAdmin: true }).where(eq(users.email, boss.account.email));
    const q = `organizationID=${org}`;
    expectProblem(await call(t.app, 'PUT', `/billing/billingDetails/billingDate?${q}`, boss.tokens.access_token, { nextBillingDate: '2026-02-30' }), 400);
    const moved = await call(t.app, 'PUT', `/billing/billingDetails/billingDate?${q}`, boss.tokens.access_token, { nextBillingDate: '2026-03-11' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(json(moved)).toMatchObject({ nextBillingDate: '2026-03-11', billingDay: 11 });

    // Credit: integers of minor units, above 0 in some currency; only super-admins.
    const before = await account(org);
    for (const bad of [{ amount: 1.5 }, { amount: -100 }, { amount: 0 }, { amount: 0, nisAmount: 0 }, { amount: '100' }, { amount: 100, nisAmount: 2.25 }, { amount: 1e12 }, {}]) {
      expectProblem(await call(t.app, 'PUT', `/billing/billingDetails/credit?${q}`, boss.tokens.access_token, bad), 400);
    }
    expectProblem(await call(t.app, 'PUT', `/billing/billingDetails/credit?${q}`, admin.access, { amount: 100 }), 403, 'insufficient_permissions');
    expect(await account(org)).toEqual(before);
    const credited = await call(t.app, 'PUT', `/billing/billingDetails/credit?${q}`, boss.tokens.access_token, { amount: 1_000, nisAmount: 3_700 });
    expect(json(credited).credit).toEqual({ amount: 1_000, nisAmount: 3_700 });
    expect(json(await call(t.app, 'PUT', `/billing/billingDetails/credit?${q}`, boss.tokens.access_token, { amount: 500 })).credit).toEqual({ amount: 1_500, nisAmount: 3_700 });

    // Add-ons: added one at a time or replaced; billed only while add-ons are turned on (off by default).
    expectProblem(await call(t.app, 'POST', `/billing/billingDetails/addOn?${q}`, boss.tokens.access_token, { title: ' ', amount: 100, nisAmount: 370 }), 400);
    expectProblem(await call(t.app, 'POST', `/billing/billingDetails/addOn?${q}`, boss.tokens.access_token, { title: 'Support', amount: 9.99, nisAmount: 370 }), 400);
    expectProblem(await call(t.app, 'POST', `/billing/billingDetails/addOn?${q}`, admin.access, { title: 'Support', amount: 100, nisAmount: 370 }), 403);
    const added = json(await call(t.app, 'POST', `/billing/billingDetails/addOn?${q}`, boss.tokens.access_token, { title: 'Support', amount: 1_000, nisAmount: 3_700 }));
    expect(added.addOns).toEqual([{ title: 'Support', amount: 1_000, nisAmount: 3_700 }]);
    expect(added.totalBillingAmount).toBe(0);
    const replaced = json(await call(t.app, 'PUT', `/billing/billingDetails/addOn?${q}`, boss.tokens.access_token, []));
    expect(replaced.addOns).toEqual([]);
  });
});

describe.each(databaseKinds)('BILLING=0 on %s', (kind) => {
  const { provider, state } = testProvider();
  let t: Awaited<ReturnType<typeof startApp>>;
  let access: string;
  let org: string;

  beforeAll(async () => {
    t = await startApp(kind, { now: new Date('2026-03-10T12:00:00Z') }, provider, { BILLING: '0' });
    access = (await verifiedUser(t.app, 'owner')).tokens.access_token;
    org = json<{ id: string }>(await call(t.app, 'POST', '/api/organization', access, { name: 'Acme' })).id;
  });
  afterAll(() => t.close());

  it('answers billing_disabled on every billing route and Contact Us, and adds seats at no cost', async () => {
    const q = `organizationID=${org}`;
    for (const [method, url] of [
      ['GET', '/billing/plans'],
      ['GET', `/billing/billingDetails?${q}`],
      ['PUT', `/billing/billingDetails?${q}`],
      ['POST', `/billing/billingDetails/organizationDetails?${q}`],
      ['PUT', `/billing/plan?${q}&planID=basic`],
      ['GET', `/billing/billingSummary?${q}&country=US&planID=basic`],
      ['PUT', `/billing/billingDetails/credit?${q}`],
      ['POST', `/billing/billingDetails/addOn?${q}`],
      ['PUT', `/billing/billingDetails/billingDate?${q}`],
    ] as const) {
      expectProblem(await call(t.app, method, url, access), 404, 'billing_disabled');
    }
    expectProblem(await t.app.inject({ method: 'GET', url: '/billing/plans' }), 404, 'billing_disabled');
    expectProblem(await call(t.app, 'POST', `/api/organization/${org}/contactUs`, access, { name: 'A', email: 'a@b.test', number: '1234' }), 404, 'billing_disabled');
    const seats = await call(t.app, 'PUT', `/billing/billingDetails/seats?${q}`, access, { numberOfSeats: 20 });
    expect(json(seats)).toEqual({ seats: 23 });
    expect(state.calls).toHaveLength(0);
  });
});
