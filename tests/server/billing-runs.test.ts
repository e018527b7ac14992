/**
 * Billing runs and charges exactly once (docs/billing.md "Exactly once", "Billing runs"), on both
 * databases: two runners on one database charge each due organization once; a run stopped after
 * writing its pending charges, or a provider that times out after charging, is finished by a later
 * run with the same idempotency keys (one charge each); a declined period charge sets the first
 * failed date and is retried at most once a day; success clears it; an interactive decline changes
 * nothing; the free plan with nothing to pay leaves billing without asking the provider; overage of
 * complete months is billed once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { billingAccounts, billingCharges, billingInvoices, organizations } from '../../server/db/schema.ts';
import { newId } from '../../server/lib/ids.ts';
import { ProviderUnavailable, type CardProvider, type ChargeRequest } from '../../server/billing/providers/types.ts';
import { overageMonths } from '../../server/billing/runs.ts';
import { databaseKinds, openTestDatabase, testEnv } from './support/test-app.ts';

/** A card provider with books of its own: one charge per idempotency key, whatever is asked. */
class BookProvider implements CardProvider {
  readonly name = 'sandbox' as const;
  readonly framed = true;
  readonly books = new Map<string, ChargeRequest>();
  calls = 0;
  readonly declining = new Set<string>();
  /** The next this many calls charge, then throw as a timeout would. */
  failAfterCharging = 0;
  /** The next this many calls throw before charging. */
  unreachable = 0;
  startSetup = () => Promise.reject(new Error('not in these tests'));
  setupOutcome = () => Promise.reject(new Error('not in these tests'));
  async charge(request: ChargeRequest) {
    this.calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (this.unreachable > 0) {
      this.unreachable -= 1;
      throw new ProviderUnavailable('connect ETIMEDOUT');
    }
    if (this.declining.has(request.card.token)) return { status: 'declined' as const, reason: 'Your card was declined.' };
    if (!this.books.has(request.idempotencyKey)) this.books.set(request.idempotencyKey, request);
    if (this.failAfterCharging > 0) {
      this.failAfterCharging -= 1;
      throw new ProviderUnavailable('read ETIMEDOUT');
    }
    return { status: 'succeeded' as const, providerChargeId: `ch_${request.idempotencyKey}` };
  }
  /** Charges per organization (by the token, which names it here). */
  chargesOf(organizationId: string) {
    return [...this.books.values()].filter((r) => r.card.token === `tok_${organizationId}`);
  }
}

const minute = 60_000;
const day = 86_400_000;

describe.each(databaseKinds)('billing runs (%s)', (kind) => {
  let database: Database & { url?: string };
  let second: Database;
  let a: App;
  let b: App;
  let clock = new Date('2026-03-15T06:00:00Z');
  const provider = new BookProvider();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    // On PostgreSQL the second app has a pool of its own, as another process would.
    second = database.url ? await openDatabase({ databaseUrl: database.url, poolSize: 5, skipMigrations: true }) : database;
    const config = loadConfig({ ...testEnv, FILES_SWEEP_INTERVAL_S: '0' });
    const billing = { now: () => clock, provider };
    a = await buildApp({ config, database, logger: false, billing });
    b = await buildApp({ config, database: second, logger: false, billing });
    await a.ready();
    await b.ready();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (second !== database) await second?.close();
    await database?.close();
  });

  /** Organizations on the Basic plan with a card, due on `date`. */
  async function seed(count: number, options: { date?: string; plan?: string | null; pendingPlan?: string; seats?: number; overageBilledThrough?: string } = {}) {
    const ids = Array.from({ length: count }, () => newId());
    await database.db.insert(organizations).values(ids.map((id) => ({ id, name: `Org ${id.slice(0, 6)}` })));
    await database.db.insert(billingAccounts).values(
      ids.map((id) => ({
        organizationId: id,
        seats: options.seats ?? 3,
        planId: options.plan === undefined ? 'basic' : options.plan,
        pendingPlanId: options.pendingPlan ?? null,
        billingEmail: `billing-${id}@example.com`,
        country: 'US',
        billingDay: Number((options.date ?? '2026-03-15').slice(8, 10)),
        nextBillingDate: options.date ?? '2026-03-15',
        lastBillingDate: '2026-02-15',
        overageBilledThrough: options.overageBilledThrough ?? '2026-02',
        cardProvider: 'sandbox',
        cardToken: `tok_${id}`,
        cardLast4: '4242',
        cardBrand: 'visa',
      })),
    );
    return ids;
  }
  const account = async (id: string) => (await database.db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, id)))[0]!;
  const chargesOf = (id: string) => database.db.select().from(billingCharges).where(eq(billingCharges.organizationId, id));

  it('two runners on one database charge each due organization exactly once', async () => {
    clock = new Date('2026-03-15T06:00:00Z');
    const ids = await seed(24);
    const callsBefore = provider.calls;
    const [ra, rb] = await Promise.all([a.ctx.billing.runs.runDue(), b.ctx.billing.runs.runDue()]);
    expect(ra.opened + rb.opened).toBe(24);
    expect(ra.succeeded + rb.succeeded).toBe(24);
    expect(provider.calls - callsBefore).toBe(24);
    for (const id of ids) {
      expect(provider.chargesOf(id)).toHaveLength(1);
      expect(provider.chargesOf(id)[0]!.amount).toBe(2_500);
      const charges = await chargesOf(id);
      expect(charges.map((c) => [c.kind, c.status, c.periodStart, c.periodEnd, c.total])).toEqual([['period', 'succeeded', '2026-03-15', '2026-04-15', 2_500]]);
      const acc = await account(id);
      expect([acc.lastBillingDate, acc.nextBillingDate, acc.initialBillingFailedDate]).toEqual(['2026-03-15', '2026-04-15', null]);
    }
    const invoices = await database.db.select().from(billingInvoices).where(sql`${billingInvoices.organizationId} in ${ids}`);
    expect(invoices).toHaveLength(24);
    expect(new Set(invoices.map((i) => i.invoiceNumber)).size).toBe(24);
    expect(invoices.every((i) => /^LRD-2026-\d{6}$/.test(i.invoiceNumber))).toBe(true);
    // Another run the same day finds nobody due.
    const again = await a.ctx.billing.runs.runDue();
    expect(again.opened).toBe(0);
    expect(provider.calls - callsBefore).toBe(24);
  });

  it('a run stopped after writing its pending charges is finished by a later run, each charged once', async () => {
    clock = new Date('2026-03-16T06:00:00Z');
    const ids = await seed(6, { date: '2026-03-16' });
    // The "crashed" process: tx1 written, the provider never asked.
    const opened = await a.ctx.billing.runs.openDue(clock);
    expect(opened.opened.filter((r) => ids.includes(r.organizationId))).toHaveLength(6);
    const callsBefore = provider.calls;
    // Within the minute the rows belong to the crashed worker: nobody touches them.
    clock = new Date(clock.getTime() + 30_000);
    const early = await b.ctx.billing.runs.runDue();
    expect([early.opened, early.recovered]).toEqual([0, 0]);
    expect(provider.calls).toBe(callsBefore);
    // Later, a run asks with the same keys.
    clock = new Date(clock.getTime() + 2 * minute);
    const [ra, rb] = await Promise.all([a.ctx.billing.runs.runDue(), b.ctx.billing.runs.runDue()]);
    expect(ra.recovered + rb.recovered).toBe(6);
    for (const id of ids) {
      expect(provider.chargesOf(id)).toHaveLength(1);
      const [charge] = await chargesOf(id);
      expect(charge!.status).toBe('succeeded');
      expect(charge!.idempotencyKey).toBe(`${charge!.id}:1`);
    }
  });

  it('a provider that times out after charging is asked again with the same key: one charge', async () => {
    clock = new Date('2026-03-17T06:00:00Z');
    const ids = await seed(4, { date: '2026-03-17' });
    provider.failAfterCharging = 4;
    const first = await a.ctx.billing.runs.runDue();
    expect(first.unknown).toBe(4);
    for (const id of ids) {
      const [charge] = await chargesOf(id);
      expect(charge!.status).toBe('pending');
      expect(charge!.lastError).toMatch(/ETIMEDOUT/);
      expect((await account(id)).nextBillingDate).toBe('2026-03-17');
    }
    clock = new Date(clock.getTime() + 2 * minute);
    const second = await b.ctx.billing.runs.runDue();
    expect(second.recovered).toBe(4);
    expect(second.succeeded).toBe(4);
    for (const id of ids) {
      expect(provider.chargesOf(id)).toHaveLength(1);
      const [charge] = await chargesOf(id);
      expect([charge!.status, charge!.attempts]).toEqual(['succeeded', 1]);
      expect((await account(id)).nextBillingDate).toBe('2026-04-17');
    }
  });

  it('a provider unreachable before charging leaves the charge pending; the retry charges once', async () => {
    clock = new Date('2026-03-18T06:00:00Z');
    const [id] = await seed(1, { date: '2026-03-18' });
    provider.unreachable = 1;
    expect((await a.ctx.billing.runs.runDue()).unknown).toBe(1);
    expect(provider.chargesOf(id!)).toHaveLength(0);
    clock = new Date(clock.getTime() + 5 * minute);
    expect((await a.ctx.billing.runs.runDue()).succeeded).toBe(1);
    expect(provider.chargesOf(id!)).toHaveLength(1);
  });

  it('a decline sets the first failed date; retried at most once a day with a new key; success clears it', async () => {
    clock = new Date('2026-03-19T06:00:00Z');
    const [id] = await seed(1, { date: '2026-03-19' });
    provider.declining.add(`tok_${id}`);
    const failedAt = clock;
    expect((await a.ctx.billing.runs.runDue()).declined).toBe(1);
    let [charge] = await chargesOf(id!);
    expect([charge!.status, charge!.attempts, charge!.lastError]).toEqual(['failed', 1, 'Your card was declined.']);
    expect((await account(id!)).initialBillingFailedDate?.toISOString()).toBe(failedAt.toISOString());
    expect((await account(id!)).nextBillingDate).toBe('2026-03-19');

    // Later the same day: not tried again, and not opened again.
    const calls = provider.calls;
    clock = new Date(clock.getTime() + 6 * 3_600_000);
    const sameDay = await a.ctx.billing.runs.runDue();
    expect([sameDay.retried, sameDay.opened]).toEqual([0, 0]);
    expect(provider.calls).toBe(calls);

    // A day later: a new attempt with a new key, declined again; the first date stays.
    clock = new Date(failedAt.getTime() + day + minute);
    expect((await b.ctx.billing.runs.runDue()).retried).toBe(1);
    [charge] = await chargesOf(id!);
    expect([charge!.status, charge!.attempts, charge!.idempotencyKey]).toEqual(['failed', 2, `${charge!.id}:2`]);
    expect((await account(id!)).initialBillingFailedDate?.toISOString()).toBe(failedAt.toISOString());

    // A new card: the organization's failed charge is retried at once, succeeds, and clears the date.
    provider.declining.delete(`tok_${id}`);
    clock = new Date(clock.getTime() + 3_600_000);
    const results = await a.ctx.billing.runs.retryFailed(id!);
    expect(results.map((r) => r.status)).toEqual(['succeeded']);
    [charge] = await chargesOf(id!);
    expect([charge!.status, charge!.attempts]).toEqual(['succeeded', 3]);
    const after = await account(id!);
    expect([after.initialBillingFailedDate, after.nextBillingDate, after.lastBillingDate]).toEqual([null, '2026-04-19', '2026-03-19']);
    expect(provider.chargesOf(id!)).toHaveLength(1);
    expect([...provider.books.keys()].filter((k) => k.startsWith(charge!.id))).toEqual([`${charge!.id}:3`]);
  });

  it('an interactive upgrade that is declined changes nothing on the account', async () => {
    clock = new Date('2026-03-20T06:00:00Z');
    const [id] = await seed(1, { date: '2026-04-10', plan: null });
    provider.declining.add(`tok_${id}`);
    const before = await account(id!);
    const result = await a.ctx.billing.charges.charge({
      organizationId: id!,
      kind: 'upgrade',
      periodStart: '2026-03-20',
      periodEnd: '2026-04-20',
      currency: 'USD',
      lines: [{ name: 'Basic Plan (monthly)', amount: 2_500 }],
      country: 'US',
      applyCredit: true,
      effect: { planId: 'basic', nextBillingDate: '2026-04-20' },
      planName: 'Basic Plan',
    });
    expect(result.status).toBe('declined');
    const after = await account(id!);
    expect([after.planId, after.nextBillingDate, after.initialBillingFailedDate]).toEqual([before.planId, before.nextBillingDate, null]);
  });

  it('a charge with credit and Israeli VAT: credit first, tax on the rest, integers only', async () => {
    clock = new Date('2026-03-21T06:00:00Z');
    const [id] = await seed(1, { date: '2026-04-21' });
    await database.db.update(billingAccounts).set({ country: 'IL', currency: 1, creditNis: 1_000 }).where(eq(billingAccounts.organizationId, id!));
    const result = await a.ctx.billing.charges.charge({
      organizationId: id!,
      kind: 'seats',
      periodStart: '2026-03-21',
      periodEnd: '2026-04-21',
      currency: 'NIS',
      lines: [{ name: 'Additional seats × 1', amount: 3_301 }],
      country: 'IL',
      applyCredit: true,
      effect: { seats: 4 },
      planName: 'Basic Plan',
    });
    // 3,301 − 1,000 credit = 2,301; VAT 18 % = 414.18 → 414; total 2,715.
    expect(result).toMatchObject({ status: 'succeeded', total: 2_715 });
    const [charge] = await chargesOf(id!);
    expect([charge!.subtotal, charge!.creditApplied, charge!.tax, charge!.total, charge!.taxName]).toEqual([3_301, 1_000, 414, 2_715, 'VAT']);
    const acc = await account(id!);
    expect([acc.creditNis, acc.seats]).toEqual([0, 4]);
    expect(provider.chargesOf(id!)[0]).toMatchObject({ amount: 2_715, currency: 'NIS' });
  });

  it('a line that is not a non-negative integer is refused before anything is written', async () => {
    const [id] = await seed(1, { date: '2026-05-01' });
    for (const amount of [12.5, -1, Number.NaN]) {
      await expect(
        a.ctx.billing.charges.charge({
          organizationId: id!,
          kind: 'seats',
          periodStart: '2026-03-21',
          periodEnd: '2026-04-21',
          currency: 'USD',
          lines: [{ name: 'x', amount }],
          country: 'US',
          applyCredit: false,
          effect: {},
          planName: 'Basic Plan',
        }),
      ).rejects.toThrow(RangeError);
    }
    expect(await chargesOf(id!)).toEqual([]);
  });

  it('the free plan with nothing to pay: the account leaves billing, the provider is not asked', async () => {
    clock = new Date('2026-03-22T06:00:00Z');
    const [id] = await seed(1, { date: '2026-03-22', pendingPlan: 'free' });
    const calls = provider.calls;
    const report = await a.ctx.billing.runs.runDue();
    expect(report.nothingDue).toBe(1);
    expect(provider.calls).toBe(calls);
    const acc = await account(id!);
    expect([acc.planId, acc.pendingPlanId, acc.nextBillingDate, acc.billingDay, acc.lastBillingDate]).toEqual([null, null, null, null, '2026-03-22']);
    const [charge] = await chargesOf(id!);
    expect([charge!.status, charge!.total]).toEqual(['succeeded', 0]);
    expect(await database.db.select().from(billingInvoices).where(eq(billingInvoices.organizationId, id!))).toEqual([]);
  });

  it('overage of each complete month after the last billed one is charged once, under the plan of that time', async () => {
    clock = new Date('2026-03-23T06:00:00Z');
    const [id] = await seed(1, { date: '2026-03-23', overageBilledThrough: '2026-01' });
    // February: 250,001 API calls past Basic's 5,000,000 → 3 started blocks of 100,000 at $1.00; SMS 2 past 500 at $0.05.
    await database.db.execute(sql`insert into usage_counters (organization_id, month, metric, value) values
      (${id}, '2026-02', 'ApiCalls', 5250001), (${id}, '2026-02', 'SMSOTPCount', 502), (${id}, '2026-03', 'ApiCalls', 99000000)`);
    await a.ctx.billing.runs.runDue();
    const [charge] = await chargesOf(id!);
    expect(charge!.lineItems).toEqual([
      { name: 'Basic Plan (monthly)', amount: 2_500 },
      { name: 'API Calls overage (2026-02)', usageName: 'ApiCalls', amount: 300 },
      { name: 'SMS OTP Count overage (2026-02)', usageName: 'SMSOTPCount', amount: 10 },
    ]);
    expect(charge!.total).toBe(2_810);
    expect((await account(id!)).overageBilledThrough).toBe('2026-02');
  });

  it('overage months: complete months only, after the last billed', () => {
    expect(overageMonths({ overageBilledThrough: '2025-11', lastBillingDate: null }, '2026-02-10')).toEqual(['2025-12', '2026-01']);
    expect(overageMonths({ overageBilledThrough: '2026-01', lastBillingDate: null }, '2026-02-10')).toEqual([]);
    expect(overageMonths({ overageBilledThrough: null, lastBillingDate: '2026-01-20' }, '2026-02-20')).toEqual(['2026-01']);
    expect(overageMonths({ overageBilledThrough: null, lastBillingDate: null }, '2026-01-05')).toEqual(['2025-12']);
  });
});
