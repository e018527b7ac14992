/** The business constants of billing (docs/billing.md). Amounts in minor units per currency. */
import type { Money } from './money.ts';

export const billingConstants = {
  /** Each seat past the plan's included users, per month ($9; the yearly price is twelve months). */
  seatPrice: { USD: 900, NIS: 3_300 } satisfies Money,
  /** Country of a new billing address. */
  defaultCountry: 'US',
  /** Add-ons are off unless an operator turns them on (feature toggle "add-ons off"). */
  addOnsEnabled: false,
  /** Responses carry the usage warning header from this share of a limit (percent). */
  usageWarningPercent: 80,
  /**
   * The header that warns of a limit near or past: HTTP's `Warning` (code 299, "miscellaneous
   * persistent warning"), which the console's client already turns into the API-limit dialog.
   */
  usageWarningHeader: 'warning',
  /** A billing day is 1–28 so that every month has it. */
  maxBillingDay: 28,
} as const;
