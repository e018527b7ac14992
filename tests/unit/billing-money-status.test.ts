/** Money display without floating point, and the billing status windows on a fake clock (docs/billing.md "Money", "Billing status"). */
import { describe, expect, it } from 'vitest';
import { currencyForCountry, formatMoney, minorToDecimal } from '../../definitions/billing/money.ts';
import { billingStatusOf, daysSince, defaultStatusWindows } from '../../definitions/billing/status.ts';
import { parseStatusWindows } from '../../server/config.ts';

describe('money', () => {
  it('writes minor units as decimals exactly, however large', () => {
    expect(minorToDecimal(0)).toBe('0.00');
    expect(minorToDecimal(5)).toBe('0.05');
    expect(minorToDecimal(-1_234)).toBe('-12.34');
    // 2^53 - 1 cents: dividing by 100 in floating point would lose the last digit.
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('formats in the account currency: ILS for NIS', () => {
    expect(formatMoney(123_456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(9_000, 'NIS')).toBe('₪90.00');
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD')).toBe('$90,071,992,547,409.91');
  });

  it('pays in NIS in Israel and in USD elsewhere', () => {
    expect(currencyForCountry('IL')).toBe('NIS');
    expect(currencyForCountry('il')).toBe('NIS');
    expect(currencyForCountry('US')).toBe('USD');
    expect(currencyForCountry('DE')).toBe('USD');
  });
});

describe('billing status windows', () => {
  const failed = '2026-03-01T10:00:00.000Z';
  const at = (days: number, hours = 0) => Date.parse(failed) + days * 86_400_000 + hours * 3_600_000;

  it('is OK without a failed charge', () => {
    expect(billingStatusOf(null, at(100))).toBe('OK');
  });

  it('walks GRACE 0–2, NO_CLIENT 3–14, BLOCK 15–30 and stays blocked after', () => {
    const walk = [0, 1, 2, 3, 14, 15, 30, 31, 400].map((days) => [days, billingStatusOf(failed, at(days))]);
    expect(walk).toEqual([
      [0, 'GRACE'],
      [1, 'GRACE'],
      [2, 'GRACE'],
      [3, 'NO_CLIENT'],
      [14, 'NO_CLIENT'],
      [15, 'BLOCK'],
      [30, 'BLOCK'],
      [31, 'BLOCK'],
      [400, 'BLOCK'],
    ]);
  });

  it('counts whole days elapsed: a minute short of day 3 is still GRACE', () => {
    expect(billingStatusOf(failed, at(3) - 60_000)).toBe('GRACE');
    expect(billingStatusOf(failed, at(3))).toBe('NO_CLIENT');
    expect(daysSince(failed, at(-1))).toBe(0);
  });

  it('follows windows an operator sets', () => {
    const windows = parseStatusWindows('0-0, 1-6, 7-30');
    expect(windows).toEqual({ GRACE: { from: 0, to: 0 }, NO_CLIENT: { from: 1, to: 6 }, BLOCK: { from: 7, to: 30 } });
    expect([0, 1, 6, 7].map((days) => billingStatusOf(failed, at(days, 1), windows))).toEqual(['GRACE', 'NO_CLIENT', 'NO_CLIENT', 'BLOCK']);
    expect(parseStatusWindows('0-2,3-14,15-30')).toEqual(defaultStatusWindows);
  });

  it('refuses windows that are not three ascending ranges', () => {
    for (const bad of ['0-2,3-14', '0-2,2-14,15-30', '0-2,3-1,15-30', 'a-b,3-14,15-30', '0-2,3-14,15-30,31-40']) {
      expect(() => parseStatusWindows(bad), bad).toThrow(/BILLING_STATUS_WINDOWS/);
    }
  });
});
