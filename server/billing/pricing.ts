/**
 * The arithmetic of billing, pure (no I/O, no clock): period dates, plan and seat prices, the lines
 * of a period, overage, pro rata shares and the total with credit and tax. Integers in minor units
 * only; every share goes through `mulDiv` (docs/billing.md "Money", "Plan changes and seats").
 *
 * Dates are `YYYY-MM-DD` calendar days in UTC. A period runs from its start date (included) to its
 * end date (excluded), which is the next billing date.
 */
import type { BillingLine } from '../db/schema.ts';
import { usageMetrics, type UsageMetric } from '../../definitions/usage.ts';
import { formatMessage, type MessageKey } from '../../definitions/messages/format.ts';
import { billingConstants } from '../../definitions/billing/constants.ts';
import { mulDiv, type CurrencyCode, type Frequency } from '../../definitions/billing/money.ts';
import type { PlanDefinition } from '../../definitions/billing/plans.ts';
import { taxFor } from '../../definitions/billing/tax.ts';

export type { BillingLine };

const dayMs = 86_400_000;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC milliseconds of a `YYYY-MM-DD` date; throws on anything that is not a real calendar day. */
function dateMs(date: string): number {
  const match = datePattern.exec(date);
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(y, m - 1, d);
  if (formatDate(ms) !== date) throw new RangeError(`not a calendar day: ${date}`);
  return ms;
}

function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isDate(value: string): boolean {
  try {
    dateMs(value);
    return true;
  } catch {
    return false;
  }
}

/** The UTC calendar day of a moment. */
export const dateOf = (moment: Date | number): string => formatDate(typeof moment === 'number' ? moment : moment.getTime());

/** Days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((dateMs(to) - dateMs(from)) / dayMs);

/** The billing day a period starting on `date` keeps: its day of the month, at most 28 so every month has it. */
export const billingDayOf = (date: string): number => Math.min(Number(date.slice(8, 10)), billingConstants.maxBillingDay);

/**
 * The billing date one period after `date`: one month (or twelve) later, on `billingDay` (1–28).
 * `addPeriod('2026-01-31', 'monthly', 28)` is `2026-02-28`; a leap day never occurs (days ≤ 28).
 */
export function addPeriod(date: string, frequency: Frequency, billingDay: number): string {
  if (!Number.isInteger(billingDay) || billingDay < 1 || billingDay > billingConstants.maxBillingDay) {
    throw new RangeError(`billing day must be 1–${billingConstants.maxBillingDay}, got ${billingDay}`);
  }
  const at = new Date(dateMs(date));
  const months = frequency === 'yearly' ? 12 : 1;
  return formatDate(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, billingDay));
}

/** The plan's price for one period. */
export const planPrice = (plan: PlanDefinition, frequency: Frequency, currency: CurrencyCode): number => plan.price[frequency][currency];

/** Seats a plan includes: its `Users` limit. */
export const includedSeats = (plan: PlanDefinition): number => plan.usageLimits.find((limit) => limit.name === 'Users')?.limit ?? 0;

/** Seats past the plan's included ones (these cost `seatPrice` each). */
export const paidSeats = (seats: number, plan: PlanDefinition): number => Math.max(0, seats - includedSeats(plan));

/** The price of one paid seat for one period: the monthly seat price, twelve times for a year. */
export const seatPrice = (frequency: Frequency, currency: CurrencyCode): number =>
  billingConstants.seatPrice[currency] * (frequency === 'yearly' ? 12 : 1);

/** How a metric is named on lines: the console's name of it (`usage.metric.<name>` in the message catalogue). */
export const usageDisplayNames = Object.fromEntries(usageMetrics.map((name) => [name, formatMessage(`usage.metric.${name}` as MessageKey)])) as Record<UsageMetric, string>;

export interface AddOn {
  title: string;
  /** USD minor units. */
  amount: number;
  /** NIS minor units. */
  nisAmount: number;
}

export interface PeriodInput {
  plan: PlanDefinition;
  frequency: Frequency;
  currency: CurrencyCode;
  seats: number;
  addOns?: readonly AddOn[];
  addOnsEnabled?: boolean;
}

/** The lines one full period costs (plan, paid seats, add-ons when enabled), zero lines left out. */
export function periodLines(input: PeriodInput): BillingLine[] {
  const { plan, frequency, currency, seats } = input;
  const lines: BillingLine[] = [];
  const price = planPrice(plan, frequency, currency);
  if (price > 0) lines.push({ name: `${plan.name} (${frequency})`, amount: price });
  const paid = paidSeats(seats, plan);
  if (paid > 0) {
    const amount = paid * seatPrice(frequency, currency);
    if (!Number.isSafeInteger(amount)) throw new RangeError('seat amount out of range');
    lines.push({ name: `Additional seats × ${paid}`, amount });
  }
  if (input.addOnsEnabled) {
    for (const addOn of input.addOns ?? []) {
      const amount = currency === 'NIS' ? addOn.nisAmount : addOn.amount;
      if (amount > 0) lines.push({ name: addOn.title, amount });
    }
  }
  return lines;
}

/** What a period's lines add up to. */
export const sumLines = (lines: readonly BillingLine[]): number => lines.reduce((sum, line) => sum + line.amount, 0);

/** The overage of one metric: `ceil((used − limit) / additionalPer) × additionalCost` (0 within the limit or on a hard limit). */
export function overageAmount(plan: PlanDefinition, metric: UsageMetric, used: number, currency: CurrencyCode): number {
  const limit = plan.usageLimits.find((l) => l.name === metric);
  if (!limit || !limit.additionalCost || limit.additionalPer <= 0) return 0;
  const whole = BigInt(Math.max(0, Math.floor(used)));
  const excess = whole - BigInt(limit.limit);
  if (excess <= 0n) return 0;
  const per = BigInt(limit.additionalPer);
  const units = (excess + per - 1n) / per;
  const amount = Number(units * BigInt(limit.additionalCost[currency]));
  if (!Number.isSafeInteger(amount)) throw new RangeError('overage out of range');
  return amount;
}

/** One line per metric used past its limit that has an overage price (`usageName` set); hard limits give none. */
export function overageLines(plan: PlanDefinition, usageByMetric: Partial<Record<UsageMetric, number>>, currency: CurrencyCode): BillingLine[] {
  const lines: BillingLine[] = [];
  for (const limit of plan.usageLimits) {
    const amount = overageAmount(plan, limit.name, usageByMetric[limit.name] ?? 0, currency);
    if (amount > 0) lines.push({ name: `${usageDisplayNames[limit.name]} overage`, usageName: limit.name, amount });
  }
  return lines;
}

/**
 * The share of a period's `amount` for the days left: from `today` (included) to `periodEnd`
 * (excluded) over the period's days, `mulDiv` rounded. Before the period: all of it; from its end: 0.
 */
export function prorate(amount: number, today: string, periodStart: string, periodEnd: string): number {
  const total = daysBetween(periodStart, periodEnd);
  if (total <= 0) throw new RangeError(`empty period ${periodStart}..${periodEnd}`);
  const left = Math.min(total, Math.max(0, daysBetween(today, periodEnd)));
  return mulDiv(amount, left, total);
}

export interface Summary {
  subtotal: number;
  /** Credit applied: at most the subtotal. */
  credit: number;
  taxName: string | null;
  /** Tax on the subtotal less credit, by the billing country. */
  tax: number;
  total: number;
}

/** Subtotal, credit applied (never more than the subtotal), tax by country on what remains, and the total. */
export function summarize(lines: readonly BillingLine[], creditAvailable: number, country: string): Summary {
  const subtotal = sumLines(lines);
  const credit = Math.max(0, Math.min(creditAvailable, subtotal));
  const { rule, amount: tax } = taxFor(country, subtotal - credit);
  return { subtotal, credit, taxName: rule?.name ?? null, tax, total: subtotal - credit + tax };
}
