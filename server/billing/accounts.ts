/**
 * An organization's billing account: details, plan, plan changes, seats and the billing summary
 * (docs/billing.md "Plan changes and seats", "Billing summary"). The arithmetic is pricing.ts; a
 * charge goes through ChargeService, whose success applies the change (`applyChargeEffect`) in the
 * transaction that records it, so a declined or unanswered charge changes nothing here.
 */
import { createRequire } from 'node:module';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { billingConstants } from '../../definitions/billing/constants.ts';
import {
  currencyForCountry,
  currencyNumber,
  currencyOfNumber,
  frequencyNumber,
  frequencyOfNumber,
  type CurrencyCode,
  type Frequency,
} from '../../definitions/billing/money.ts';
import { freePlan, listedPlans, planById, planWire, type PlanDefinition } from '../../definitions/billing/plans.ts';
import { billingStatusOf } from '../../definitions/billing/status.ts';
import { platform } from '../../definitions/platform.ts';
import type { BillingDetails, BillingDetailsInput, BillingSummary, Plan } from '../../definitions/schemas/billing.ts';
import { billingAccounts, billingCharges, type ChargeEffect } from '../db/schema.ts';
import type { Db } from '../db/index.ts';
import { AppError, badRequest, conflict } from '../lib/errors.ts';
import type { ChargeInput, ChargeResult, ChargeService } from './charges.ts';
import type { BillingDeps } from './deps.ts';
import {
  addPeriod,
  billingDayOf,
  dateOf,
  daysBetween,
  includedSeats,
  overageAmount,
  overageLines,
  paidSeats,
  periodLines,
  planPrice,
  prorate,
  seatPrice,
  sumLines,
  summarize,
  type BillingLine,
} from './pricing.ts';
import { ProviderUnavailable } from './providers/types.ts';
import { billingEnforced } from './enforcement.ts';

export type AccountRow = typeof billingAccounts.$inferSelect;

/**
 * What a charge's success changes, as this file applies it. Besides `ChargeEffect`'s keys:
 * `addSeats` adds seats to whatever the account holds then (two seat purchases at once both count).
 */
export type AccountEffect = ChargeEffect & { addSeats?: number };

type Writer = Pick<Db, 'update'>;

/**
 * Called in the transaction of a super-admin's change to an account, with the row before and
 * after it: the admin area records its audit entry there (docs/admin.md "Audit log").
 */
export type AccountChangeHook = (tx: Pick<Db, 'insert'>, before: AccountRow, after: AccountRow) => Promise<void>;

/**
 * Applies a charge's effect to the account, inside the caller's transaction (ChargeService calls
 * it with the one that records the success). Absent keys change nothing; `planId: null` is the
 * free plan; credit used is taken off, never below 0.
 */
export async function applyChargeEffect(tx: Writer, organizationId: string, effect: AccountEffect): Promise<void> {
  const set: Record<string, unknown> = {};
  if (effect.planId !== undefined) set.planId = effect.planId === freePlan.id ? null : effect.planId;
  if (effect.clearPendingPlan) set.pendingPlanId = null;
  if (effect.seats !== undefined) set.seats = effect.seats;
  if (effect.addSeats) set.seats = sql`${billingAccounts.seats} + ${effect.addSeats}`;
  if (effect.billingDay !== undefined) set.billingDay = effect.billingDay;
  if (effect.nextBillingDate !== undefined) set.nextBillingDate = effect.nextBillingDate;
  if (effect.lastBillingDate !== undefined) set.lastBillingDate = effect.lastBillingDate;
  if (effect.overageBilledThrough !== undefined) set.overageBilledThrough = effect.overageBilledThrough;
  if (effect.creditUsedUsd) set.creditUsd = sql`greatest(${billingAccounts.creditUsd} - ${effect.creditUsedUsd}, 0)`;
  if (effect.creditUsedNis) set.creditNis = sql`greatest(${billingAccounts.creditNis} - ${effect.creditUsedNis}, 0)`;
  if (Object.keys(set).length === 0) return;
  set.updatedAt = sql`now()`;
  await tx.update(billingAccounts).set(set).where(eq(billingAccounts.organizationId, organizationId));
}

const require = createRequire(import.meta.url);
const countries = require('i18n-iso-countries') as { isValid(code: string): boolean; registerLocale(locale: unknown): void };
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

/** An ISO 3166-1 alpha-2 code the country library knows, upper-cased; else 400 `country_unknown`. */
export function requireCountry(country: string): string {
  const code = country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !countries.isValid(code)) throw badRequest('country_unknown', `${country} is not an ISO 3166-1 alpha-2 country code.`, { country });
  return code;
}

/** A plan that may be chosen (listed, not hidden); else 400 `plan_not_found`. */
export function requireListedPlan(planId: string): PlanDefinition {
  const plan = planById(planId);
  if (!plan || plan.hidden) throw badRequest('plan_not_found', `There is no plan ${planId}.`, { planID: planId });
  return plan;
}

/** The plan an account is on (an id no longer in the plans is read as the free plan). */
export const planOf = (account: Pick<AccountRow, 'planId'>): PlanDefinition => (account.planId ? (planById(account.planId) ?? freePlan) : freePlan);
export const currencyOf = (account: Pick<AccountRow, 'currency'>): CurrencyCode => currencyOfNumber(account.currency) ?? 'USD';
export const frequencyOf = (account: Pick<AccountRow, 'frequency'>): Frequency => frequencyOfNumber(account.frequency) ?? 'monthly';

/**
 * The period a change on `today` falls in: none while the account has no next billing date (the
 * Free Plan without paid seats). Otherwise the one from the last billing date (or one period before
 * the next) to the next billing date. When that date has come and gone without its period charge
 * settled (`dueChargeOpened`: the run opened it, perhaps declined), the change falls in the period
 * starting then, whose charge is already priced; when the run has not reached the account yet, the
 * period ended and nothing is left of it (the run prices the next one with the change).
 */
export function runningPeriod(account: AccountRow, today: string, dueChargeOpened = false): { start: string; end: string; frequency: Frequency } | undefined {
  const next = account.nextBillingDate;
  if (!next) return undefined;
  const day = account.billingDay ?? billingDayOf(next);
  if (daysBetween(today, next) <= 0 && dueChargeOpened) {
    const frequency = frequencyOf(account);
    return { start: next, end: addPeriod(next, frequency, day), frequency };
  }
  let start = account.lastBillingDate;
  if (!start || daysBetween(start, next) <= 0) {
    const frequency = frequencyOf(account);
    // One period before `next`: the billing date whose next one is `next`.
    const at = new Date(`${next}T00:00:00Z`);
    start = dateOf(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - (frequency === 'yearly' ? 12 : 1), day));
  }
  // A period of more than 31 days is a year: the frequency it was paid for, whatever the account says now.
  return { start, end: next, frequency: daysBetween(start, next) > 31 ? 'yearly' : 'monthly' };
}

/** The lines of the account's next full period (the plan then in force: a pending change counts). */
export function nextPeriodLines(account: AccountRow, plan: PlanDefinition = account.pendingPlanId ? (planById(account.pendingPlanId) ?? planOf(account)) : planOf(account)): BillingLine[] {
  return periodLines({
    plan,
    frequency: frequencyOf(account),
    currency: currencyOf(account),
    seats: account.seats,
    addOns: account.addOns,
    addOnsEnabled: billingConstants.addOnsEnabled,
  });
}

/** Add-ons an account may hold. */
export const maxAddOns = 20;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function declinedOrUnavailable(result: ChargeResult): void {
  if (result.status === 'declined') throw new AppError(402, 'payment_declined', 'The card was declined. Nothing was changed.');
}

export class BillingAccountService {
  constructor(
    readonly deps: BillingDeps,
    readonly charges: ChargeService,
  ) {}

  private get db(): Db {
    return this.deps.database.db;
  }

  private today(): string {
    return dateOf(this.deps.now());
  }

  /** The account row, made when the organization has none yet (organizations made before billing). */
  async ensure(organizationId: string): Promise<AccountRow> {
    await this.db.insert(billingAccounts).values({ organizationId, seats: platform.defaultSeats }).onConflictDoNothing();
    const [row] = await this.db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
    return row!;
  }

  /** The account as `GET billingDetails` answers it. */
  async details(organizationId: string): Promise<BillingDetails> {
    return this.wire(await this.ensure(organizationId));
  }

  /**
   * The wire shape of an account. While soft launch leaves the organization out of billing
   * (docs/admin.md "Soft launch") its status is OK and it has no failed date, unless `actual`
   * (the admin area's view: the account's own standing).
   */
  async wire(account: AccountRow, actual = false): Promise<BillingDetails> {
    const plan = planOf(account);
    const failedAt = actual || (await billingEnforced(this.db, account.organizationId)) ? account.initialBillingFailedDate : null;
    const pending = account.pendingPlanId ? (planById(account.pendingPlanId) ?? null) : null;
    const currency = currencyOf(account);
    const report = await this.deps.usage.read(account.organizationId);
    const { statusWindows } = this.deps.config.billing;
    return {
      organizationID: account.organizationId,
      plan: { id: plan.id, name: plan.name },
      pendingPlan: pending ? { id: pending.id, name: pending.name, effectiveDate: account.nextBillingDate ?? this.today() } : null,
      totalBillingAmount: sumLines(nextPeriodLines(account)),
      currency: currencyNumber[currency],
      billingFrequency: frequencyNumber[frequencyOf(account)],
      billingEmail: account.billingEmail,
      billingAddress: { address: account.address, city: account.city, country: account.country, postcode: account.postcode },
      nextBillingDate: account.nextBillingDate,
      lastBillingDate: account.lastBillingDate,
      billingDay: account.billingDay,
      addOns: account.addOns.map(({ title, amount, nisAmount }) => ({ title, amount, nisAmount })),
      credit: { amount: account.creditUsd, nisAmount: account.creditNis },
      usage: report.usage.map((line) => {
        const limit = plan.usageLimits.find((l) => l.name === line.name);
        return {
          ...line,
          limit: limit?.limit ?? 0,
          overageAmount: overageAmount(plan, line.name, line.amount, currency),
          hardLimit: !limit?.additionalCost,
        };
      }),
      creditCardDetails: account.cardLast4 ? { cardNumber: `•••• ${account.cardLast4}`, brand: account.cardBrand ?? '', provider: account.cardProvider ?? '' } : null,
      seats: { total: account.seats, included: includedSeats(plan), paid: paidSeats(account.seats, plan) },
      initialBillingFailedDate: iso(failedAt),
      status: billingStatusOf(failedAt, this.deps.now(), statusWindows),
    };
  }

  /**
   * Sets the billing e-mail, address and (optionally) frequency. The currency follows the country
   * (NIS for IL, else USD) from the next charge on. A new frequency applies from the next period:
   * the period running keeps the length and price it was paid for.
   */
  async update(organizationId: string, input: BillingDetailsInput): Promise<BillingDetails> {
    const country = requireCountry(input.billingAddress.country);
    await this.ensure(organizationId);
    const set: Partial<AccountRow> & Record<string, unknown> = {
      billingEmail: input.billingEmail.trim(),
      address: input.billingAddress.address.trim(),
      city: input.billingAddress.city.trim(),
      country,
      postcode: input.billingAddress.postcode.trim(),
      currency: currencyNumber[currencyForCountry(country)],
      updatedAt: this.deps.now(),
    };
    if (input.billingFrequency !== undefined) set.frequency = input.billingFrequency;
    await this.db.update(billingAccounts).set(set).where(eq(billingAccounts.organizationId, organizationId));
    return this.details(organizationId);
  }

  /** Makes sure the account exists and, when it has no billing e-mail yet, fills in the caller's. */
  async organizationDetails(organizationId: string, callerEmail: string): Promise<BillingDetails> {
    await this.ensure(organizationId);
    if (callerEmail) {
      await this.db
        .update(billingAccounts)
        .set({ billingEmail: callerEmail, updatedAt: this.deps.now() })
        .where(and(eq(billingAccounts.organizationId, organizationId), sql`coalesce(${billingAccounts.billingEmail}, '') = ''`));
    }
    return this.details(organizationId);
  }

  /** Whether the run has opened the period charge of the account's next billing date (pending, failed or paid). */
  private async dueChargeOpened(account: AccountRow): Promise<boolean> {
    if (!account.nextBillingDate) return false;
    const [row] = await this.db
      .select({ id: billingCharges.id })
      .from(billingCharges)
      .where(and(eq(billingCharges.organizationId, account.organizationId), eq(billingCharges.kind, 'period'), eq(billingCharges.periodStart, account.nextBillingDate)))
      .limit(1);
    return row !== undefined;
  }

  /** Refuses a paid change without a billing e-mail and country, or without a card. */
  private requireChargeable(account: AccountRow): void {
    if (!account.billingEmail || !account.country) throw conflict('billing_details_required', 'Set the billing e-mail and country first.');
    if (!account.cardToken || !account.cardLast4) throw conflict('card_required', 'Set up a credit card first.');
  }

  /**
   * Runs a change's charge, one at a time per organization: the account row is locked while the
   * pending charge is written, so of two changes at once the second finds the first's pending row
   * and answers 503 until it is settled. The provider is asked after that transaction. A decline
   * is 402 `payment_declined`, an unknown outcome 503 `payment_provider_unavailable`.
   */
  private async charge(input: ChargeInput): Promise<void> {
    const now = this.deps.now();
    const row = await this.db.transaction(async (tx) => {
      const [account] = await tx
        .select({ creditUsd: billingAccounts.creditUsd, creditNis: billingAccounts.creditNis })
        .from(billingAccounts)
        .where(eq(billingAccounts.organizationId, input.organizationId))
        .for('update');
      const [open] = await tx
        .select({ id: billingCharges.id })
        .from(billingCharges)
        .where(and(eq(billingCharges.organizationId, input.organizationId), eq(billingCharges.status, 'pending'), inArray(billingCharges.kind, ['upgrade', 'seats'])))
        .limit(1);
      if (open) throw new AppError(503, 'payment_provider_unavailable', 'An earlier charge of this organization is still being settled; try again in a moment.');
      const available = !account ? 0 : input.currency === 'USD' ? account.creditUsd : account.creditNis;
      const [inserted] = await this.charges.insertOpened(tx as never, [this.charges.prepare(input, available, now)], now);
      return inserted!;
    });
    // A total of 0 was settled with its effect in that transaction.
    if (row.status !== 'pending') return;
    let result: ChargeResult;
    try {
      result = await this.charges.settle(row);
    } catch (error) {
      if (error instanceof ProviderUnavailable) {
        throw new AppError(503, 'payment_provider_unavailable', 'The card provider did not answer; the change is applied only if the charge went through.');
      }
      throw error;
    }
    declinedOrUnavailable(result);
  }

  /**
   * `PUT plan`: see docs/billing.md "Plan changes and seats". Upgrades take effect at once and are
   * charged now; the Free Plan and cheaper plans take effect at the next billing date.
   */
  async changePlan(organizationId: string, planId: string): Promise<BillingDetails> {
    const target = requireListedPlan(planId);
    const account = await this.ensure(organizationId);
    const current = planOf(account);
    const now = this.deps.now();
    const today = dateOf(now);
    const period = runningPeriod(account, today, await this.dueChargeOpened(account));

    if (target.id === current.id) {
      if (!account.pendingPlanId) throw conflict('same_plan', `The organization is already on ${current.name}.`);
      // Choosing the current plan again cancels the change waiting for the next billing date.
      await this.db.update(billingAccounts).set({ pendingPlanId: null, updatedAt: now }).where(eq(billingAccounts.organizationId, organizationId));
      return this.details(organizationId);
    }

    const frequency = period?.frequency ?? frequencyOf(account);
    const currency = currencyOf(account);
    const cheaper = planPrice(target, frequency, currency) <= planPrice(current, frequency, currency);
    if (target.free || (cheaper && period)) {
      if (period) {
        await this.db.update(billingAccounts).set({ pendingPlanId: target.id, updatedAt: now }).where(eq(billingAccounts.organizationId, organizationId));
      } else {
        // No paid period runs: nothing to wait for.
        await applyChargeEffect(this.db, organizationId, { planId: target.id, clearPendingPlan: true });
      }
      return this.details(organizationId);
    }

    this.requireChargeable(account);
    const planName = target.name;
    if (period) {
      // An upgrade within the period: the price difference for the days left, today included.
      const difference = planPrice(target, period.frequency, currency) - planPrice(current, period.frequency, currency);
      const amount = prorate(difference, today, period.start, period.end);
      const lines: BillingLine[] = amount > 0 ? [{ name: `${target.name} (upgrade from ${current.name}, ${daysBetween(today, period.end)} of ${daysBetween(period.start, period.end)} days)`, amount }] : [];
      await this.charge({
        organizationId,
        kind: 'upgrade',
        periodStart: today,
        periodEnd: period.end > today ? period.end : today,
        currency,
        lines,
        country: account.country,
        applyCredit: true,
        effect: { planId: target.id, clearPendingPlan: true },
        planName,
      });
    } else {
      // No period runs (the Free Plan): one starts today, on billing day min(day, 28), paid in full now.
      const billingDay = billingDayOf(today);
      const end = addPeriod(today, frequency, billingDay);
      const lines = periodLines({ plan: target, frequency, currency, seats: account.seats, addOns: account.addOns, addOnsEnabled: billingConstants.addOnsEnabled });
      await this.charge({
        organizationId,
        kind: 'upgrade',
        periodStart: today,
        periodEnd: end,
        currency,
        lines,
        country: account.country,
        applyCredit: true,
        effect: { planId: target.id, clearPendingPlan: true, billingDay, nextBillingDate: end, lastBillingDate: today },
        planName,
      });
    }
    return this.details(organizationId);
  }

  /**
   * `PUT billingDetails/seats`: adds seats. Seats past the plan's included ones cost the seat price
   * per period: within a running period the new paid seats are charged pro rata now; with no period
   * (the Free Plan) paid seats start a period today (the account's frequency), charged in full. Without billing (or
   * when no new seat is a paid one) seats are added at no cost.
   */
  async addSeats(organizationId: string, count: number): Promise<number> {
    const account = await this.ensure(organizationId);
    const plan = planOf(account);
    const newPaid = paidSeats(account.seats + count, plan) - paidSeats(account.seats, plan);
    if (this.deps.config.billing.enabled && newPaid > 0) {
      this.requireChargeable(account);
      const currency = currencyOf(account);
      const today = this.today();
      const period = runningPeriod(account, today, await this.dueChargeOpened(account));
      const lineName = `Additional seats × ${newPaid}`;
      if (period) {
        const amount = prorate(newPaid * seatPrice(period.frequency, currency), today, period.start, period.end);
        await this.charge({
          organizationId,
          kind: 'seats',
          periodStart: today,
          periodEnd: period.end > today ? period.end : today,
          currency,
          lines: amount > 0 ? [{ name: `${lineName} (${daysBetween(today, period.end)} of ${daysBetween(period.start, period.end)} days)`, amount }] : [],
          country: account.country,
          applyCredit: true,
          effect: { addSeats: count } as AccountEffect,
          planName: plan.name,
        });
      } else {
        const frequency = frequencyOf(account);
        const billingDay = billingDayOf(today);
        const end = addPeriod(today, frequency, billingDay);
        await this.charge({
          organizationId,
          kind: 'seats',
          periodStart: today,
          periodEnd: end,
          currency,
          lines: periodLines({ plan, frequency, currency, seats: account.seats + count, addOns: account.addOns, addOnsEnabled: billingConstants.addOnsEnabled }),
          country: account.country,
          applyCredit: true,
          effect: { addSeats: count, billingDay, nextBillingDate: end, lastBillingDate: today } as AccountEffect,
          planName: plan.name,
        });
      }
      const [row] = await this.db.select({ seats: billingAccounts.seats }).from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
      return row!.seats;
    }
    const [row] = await this.db
      .update(billingAccounts)
      .set({ seats: sql`${billingAccounts.seats} + ${count}`, updatedAt: this.deps.now() })
      .where(eq(billingAccounts.organizationId, organizationId))
      .returning({ seats: billingAccounts.seats });
    return row!.seats;
  }

  /**
   * `GET billingSummary`: what the next full period of `planId` costs with the account's seats and
   * add-ons, plus this month's overage under that plan, less credit, with the tax of `country`, in
   * that country's currency.
   */
  async summary(organizationId: string, countryInput: string, planId: string): Promise<BillingSummary> {
    const country = requireCountry(countryInput);
    const plan = planById(planId);
    if (!plan) throw badRequest('plan_not_found', `There is no plan ${planId}.`, { planID: planId });
    const account = await this.ensure(organizationId);
    const currency = currencyForCountry(country);
    const report = await this.deps.usage.read(organizationId);
    const used = Object.fromEntries(report.usage.map((line) => [line.name, line.amount]));
    const lines = [
      ...periodLines({ plan, frequency: frequencyOf(account), currency, seats: account.seats, addOns: account.addOns, addOnsEnabled: billingConstants.addOnsEnabled }),
      ...overageLines(plan, used, currency),
    ];
    const totals = summarize(lines, currency === 'USD' ? account.creditUsd : account.creditNis, country);
    return {
      organizationID: organizationId,
      planID: plan.id,
      country,
      currency: currencyNumber[currency],
      lineItems: lines.map(({ name, usageName, amount }) => (usageName ? { name, usageName: usageName as never, amount } : { name, amount })),
      subtotal: totals.subtotal,
      credit: totals.credit,
      taxName: totals.taxName,
      tax: totals.tax,
      total: totals.total,
    };
  }

  /** The plans `GET plans` lists. */
  plans(): Plan[] {
    return listedPlans.map(planWire);
  }

  /**
   * A super-admin's change to the account: the row locked, `set` applied, and `hook` called with
   * the row before and after in the same transaction (the audit entry). Answers the account.
   */
  private async adminChange(organizationId: string, set: (before: AccountRow) => Record<string, unknown>, hook?: AccountChangeHook): Promise<BillingDetails> {
    await this.ensure(organizationId);
    const after = await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId)).for('update');
      const [row] = await tx
        .update(billingAccounts)
        .set({ ...set(before!), updatedAt: this.deps.now() })
        .where(eq(billingAccounts.organizationId, organizationId))
        .returning();
      await hook?.(tx, before!, row!);
      return row!;
    });
    return this.wire(after, true);
  }

  /** Super-admin: adds credit (minor units per currency); the next charges in that currency use it first. */
  async addCredit(organizationId: string, credit: { amount: number; nisAmount: number }, hook?: AccountChangeHook): Promise<BillingDetails> {
    return this.adminChange(
      organizationId,
      () => ({ creditUsd: sql`${billingAccounts.creditUsd} + ${credit.amount}`, creditNis: sql`${billingAccounts.creditNis} + ${credit.nisAmount}` }),
      hook,
    );
  }

  /** Super-admin: adds an add-on (`add`) or replaces the list; billed each period only while add-ons are turned on. */
  async setAddOns(organizationId: string, addOns: readonly { title: string; amount: number; nisAmount: number }[], mode: 'add' | 'replace', hook?: AccountChangeHook): Promise<BillingDetails> {
    const clean = addOns.map(({ title, amount, nisAmount }) => ({ title: title.trim(), amount, nisAmount }));
    return this.adminChange(
      organizationId,
      (before) => {
        const list = mode === 'add' ? [...before.addOns, ...clean] : clean;
        if (list.length > maxAddOns) throw new AppError(400, 'invalid_request', `An account holds at most ${maxAddOns} add-ons.`);
        return { addOns: list };
      },
      hook,
    );
  }

  /** Super-admin: moves the next billing date (a run then charges on that day). */
  async setNextBillingDate(organizationId: string, date: string, hook?: AccountChangeHook): Promise<BillingDetails> {
    return this.adminChange(organizationId, (before) => ({ nextBillingDate: date, ...(before.billingDay ? {} : { billingDay: billingDayOf(date) }) }), hook);
  }

  /**
   * Super-admin: the plan override (docs/admin.md "Organizations"). Sets the plan at once without a
   * charge — any plan of the file, hidden ones too; null or the free plan's id is the free plan —
   * and drops a change waiting for the next billing date. The billing dates are kept: the next
   * period charge (if the account has a next billing date) is priced with the new plan.
   */
  async overridePlan(organizationId: string, planId: string | null, hook?: AccountChangeHook): Promise<BillingDetails> {
    const plan = planId === null ? freePlan : planById(planId);
    if (!plan) throw badRequest('plan_not_found', `There is no plan ${planId}.`, { planID: planId ?? '' });
    return this.adminChange(organizationId, () => ({ planId: plan.free ? null : plan.id, pendingPlanId: null }), hook);
  }
}
