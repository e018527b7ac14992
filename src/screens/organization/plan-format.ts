/**
 * How Plan & Usage writes its figures: billing dates as a long date (the calendar day in UTC, the
 * day the server bills on), usage in its unit (sizes 1000-based, definitions/format-size.ts), and a
 * plan's price for the account's frequency and currency, in minor units until `formatMoney`.
 */
import { currencyOfNumber, frequencyOfNumber, type CurrencyCode, type Frequency } from '../../../definitions/billing/money.ts';
import { formatSize } from '../../../definitions/format-size.ts';
import type { UsageUnit } from '../../../definitions/usage.ts';
import type { BillingDetails, Plan } from '../../api/billing.ts';

/** A billing date (`YYYY-MM-DD` or a full ISO moment) as its UTC calendar day, e.g. "December 1, 2026". */
export function formatBillingDate(value: string, locale = 'en'): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** A usage figure or limit: bytes in 1000-based units, counts with grouping. */
export function formatUsageValue(value: number, unit: UsageUnit, locale = 'en'): string {
  return unit === 'bytes' ? formatSize(value, locale) : new Intl.NumberFormat(locale).format(value);
}

/** The account's currency and frequency (USD and monthly until the account says otherwise). */
export function accountTerms(details: Pick<BillingDetails, 'currency' | 'billingFrequency'> | undefined): { currency: CurrencyCode; frequency: Frequency } {
  return {
    currency: (details && currencyOfNumber(details.currency)) || 'USD',
    frequency: (details && frequencyOfNumber(details.billingFrequency)) || 'monthly',
  };
}

/** The plan's price for one period, in minor units. */
export const periodPrice = (plan: Plan, frequency: Frequency, currency: CurrencyCode): number => plan.prices[frequency][currency];

/** Whole percent of `limit` used, rounded down, in integers (0 for a zero limit). */
export function percentUsed(amount: number, limit: number): number {
  if (limit <= 0) return amount > 0 ? 100 : 0;
  return Math.floor((Math.max(0, Math.round(amount)) * 100) / limit);
}
