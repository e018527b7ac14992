/**
 * Money in Larder: integers in minor units (cents, agorot) end to end, never floating point
 * (docs/billing.md "Money"). Every price is given for each currency; an account pays in one.
 * On the wire: currency 1 NIS, 2 USD; frequency 1 monthly, 2 yearly.
 */

export const currencyCodes = ['NIS', 'USD'] as const;
export type CurrencyCode = (typeof currencyCodes)[number];

/** An amount per currency, each in minor units. */
export type Money = Record<CurrencyCode, number>;

/** The wire numbers of currencies and frequencies. */
export const currencyNumber = { NIS: 1, USD: 2 } as const satisfies Record<CurrencyCode, number>;
export const currencyOfNumber = (n: number): CurrencyCode | undefined => (n === 1 ? 'NIS' : n === 2 ? 'USD' : undefined);
/** ISO 4217 codes, for display (`Intl.NumberFormat`) and invoices: NIS is ILS. */
export const isoCurrency: Record<CurrencyCode, string> = { NIS: 'ILS', USD: 'USD' };

export type Frequency = 'monthly' | 'yearly';
export const frequencyNumber = { monthly: 1, yearly: 2 } as const satisfies Record<Frequency, number>;
export const frequencyOfNumber = (n: number): Frequency | undefined => (n === 1 ? 'monthly' : n === 2 ? 'yearly' : undefined);

/** The currency an address pays in: NIS in Israel, USD everywhere else. */
export const currencyForCountry = (country: string): CurrencyCode => (country.toUpperCase() === 'IL' ? 'NIS' : 'USD');

/** True for an integer amount of minor units that JavaScript holds exactly. */
export const isMinorUnits = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

/**
 * `amount × numerator / denominator`, rounded half away from zero, in integers only (BigInt inside, so no
 * product loses precision). Every share of an amount (pro rata, tax, overage) goes through here.
 */
export function mulDiv(amount: number, numerator: number, denominator: number): number {
  for (const n of [amount, numerator, denominator]) if (!Number.isSafeInteger(n)) throw new RangeError(`mulDiv takes integers, got ${n}`);
  if (denominator <= 0) throw new RangeError('mulDiv: the denominator must be positive');
  const product = BigInt(amount) * BigInt(numerator);
  const d = BigInt(denominator);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs * 2n + d) / (2n * d);
  const result = Number(negative ? -rounded : rounded);
  if (!Number.isSafeInteger(result)) throw new RangeError('mulDiv: result out of range');
  return result;
}

/** Minor units as the decimal text of major units (`1234` → `"12.34"`), without floating point. */
export function minorToDecimal(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A display of an amount in its currency (`$12.34`, `₪12.34`); the only place money meets a locale. */
export function formatMoney(amount: number, currency: CurrencyCode, locale = 'en-US'): string {
  // Intl takes a decimal string exactly (ES2023 "Intl.NumberFormat v3"): no division by 100 in floating point.
  return new Intl.NumberFormat(locale, { style: 'currency', currency: isoCurrency[currency] }).format(minorToDecimal(amount) as unknown as number);
}
