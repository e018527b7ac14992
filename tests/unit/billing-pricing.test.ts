/** The arithmetic of billing (server/billing/pricing.ts): integers only, period dates, pro rata, seats, overage, tax. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mulDiv } from '../../definitions/billing/money.ts';
import { planById, freePlan } from '../../definitions/billing/plans.ts';
import {
  addPeriod,
  billingDayOf,
  dateOf,
  daysBetween,
  includedSeats,
  isDate,
  overageAmount,
  overageLines,
  paidSeats,
  periodLines,
  planPrice,
  prorate,
  seatPrice,
  summarize,
} from '../../server/billing/pricing.ts';

const basic = planById('basic')!;
const pro = planById('pro')!;
const GB = 1_000_000_000;

describe('mulDiv', () => {
  it('rounds half away from zero, in integers', () => {
    expect(mulDiv(1, 1, 2)).toBe(1);
    expect(mulDiv(-1, 1, 2)).toBe(-1);
    expect(mulDiv(2_500, 1, 3)).toBe(833);
    expect(mulDiv(2_500, 2, 3)).toBe(1_667);
    expect(mulDiv(10, 1, 4)).toBe(3); // 2.5 → 3
    expect(mulDiv(Number.MAX_SAFE_INTEGER, 2, 2)).toBe(Number.MAX_SAFE_INTEGER);
  });
  it('refuses non-integers and a zero denominator', () => {
    expect(() => mulDiv(1.5, 1, 2)).toThrow(RangeError);
    expect(() => mulDiv(1, 1, 0)).toThrow(RangeError);
  });
  it('never strays more than half a unit from the exact share', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 400 }), (a, n, d) => {
        const r = mulDiv(a, n, d);
        expect(Number.isInteger(r)).toBe(true);
        const diff = BigInt(r) * BigInt(d) * 2n - BigInt(a) * BigInt(n) * 2n;
        expect((diff < 0n ? -diff : diff) <= BigInt(d)).toBe(true);
      }),
    );
  });
});

describe('period dates', () => {
  it('checks calendar days', () => {
    expect(isDate('2026-02-28')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-13-01')).toBe(false);
    expect(isDate('2026-1-01')).toBe(false);
    expect(dateOf(new Date('2026-03-04T23:59:59Z'))).toBe('2026-03-04');
  });
  it('keeps the billing day at most 28', () => {
    expect(billingDayOf('2026-01-31')).toBe(28);
    expect(billingDayOf('2026-01-05')).toBe(5);
    expect(billingDayOf('2026-02-28')).toBe(28);
  });
  it('adds a month or a year on the billing day, across month ends, year ends and leap years', () => {
    expect(addPeriod('2026-01-31', 'monthly', 28)).toBe('2026-02-28');
    expect(addPeriod('2026-02-28', 'monthly', 28)).toBe('2026-03-28');
    expect(addPeriod('2026-12-15', 'monthly', 15)).toBe('2027-01-15');
    expect(addPeriod('2028-01-29', 'monthly', 28)).toBe('2028-02-28');
    expect(addPeriod('2028-02-28', 'yearly', 28)).toBe('2029-02-28');
    expect(addPeriod('2026-03-10', 'yearly', 10)).toBe('2027-03-10');
    expect(() => addPeriod('2026-01-01', 'monthly', 29)).toThrow(RangeError);
    expect(() => addPeriod('2026-01-01', 'monthly', 0)).toThrow(RangeError);
  });
  it('counts days, leap years included', () => {
    expect(daysBetween('2026-01-31', '2026-02-28')).toBe(28);
    expect(daysBetween('2028-02-01', '2028-03-01')).toBe(29);
    expect(daysBetween('2026-02-01', '2026-03-01')).toBe(28);
    expect(daysBetween('2028-02-28', '2029-02-28')).toBe(366);
    expect(daysBetween('2026-03-28', '2026-03-01')).toBe(-27);
    // Across the change to summer time in zones that have one: UTC has none.
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
  });
});

describe('prices and seats', () => {
  it('prices a plan per frequency and currency', () => {
    expect(planPrice(basic, 'monthly', 'USD')).toBe(2_500);
    expect(planPrice(basic, 'yearly', 'NIS')).toBe(90_000);
    expect(planPrice(freePlan, 'monthly', 'USD')).toBe(0);
  });
  it('includes the plan’s Users limit and charges $9 a month for each seat past it', () => {
    expect(includedSeats(basic)).toBe(10);
    expect(paidSeats(7, basic)).toBe(0);
    expect(paidSeats(13, basic)).toBe(3);
    expect(seatPrice('monthly', 'USD')).toBe(900);
    expect(seatPrice('yearly', 'USD')).toBe(10_800);
  });
  it('lists the lines of a period, zero lines left out', () => {
    expect(periodLines({ plan: basic, frequency: 'monthly', currency: 'USD', seats: 12 })).toEqual([
      { name: 'Basic Plan (monthly)', amount: 2_500 },
      { name: 'Additional seats × 2', amount: 1_800 },
    ]);
    expect(periodLines({ plan: freePlan, frequency: 'monthly', currency: 'USD', seats: 3 })).toEqual([]);
    const addOns = [{ title: 'Support', amount: 1_000, nisAmount: 3_700 }];
    expect(periodLines({ plan: basic, frequency: 'monthly', currency: 'NIS', seats: 1, addOns, addOnsEnabled: false })).toHaveLength(1);
    expect(periodLines({ plan: basic, frequency: 'monthly', currency: 'NIS', seats: 1, addOns, addOnsEnabled: true })[1]).toEqual({ name: 'Support', amount: 3_700 });
  });
});

describe('overage', () => {
  it('charges each started block past the limit', () => {
    expect(overageAmount(basic, 'ApiCalls', 5_000_000, 'USD')).toBe(0);
    expect(overageAmount(basic, 'ApiCalls', 5_000_001, 'USD')).toBe(100);
    expect(overageAmount(basic, 'ApiCalls', 5_200_000, 'USD')).toBe(200);
    expect(overageAmount(basic, 'ApiCalls', 5_200_001, 'NIS')).toBe(3 * 370);
    expect(overageAmount(basic, 'TotalStore', 52.5 * GB, 'USD')).toBe(30);
  });
  it('gives nothing on a hard limit', () => {
    expect(overageAmount(freePlan, 'ApiCalls', 10_000_000, 'USD')).toBe(0);
    expect(overageAmount(basic, 'Users', 50, 'USD')).toBe(0);
  });
  it('gives one line per metric past its limit, naming the metric', () => {
    expect(overageLines(basic, { ApiCalls: 5_100_000, SMSOTPCount: 503, Users: 40, ItemCount: 1 }, 'USD')).toEqual([
      { name: 'API Calls overage', usageName: 'ApiCalls', amount: 100 },
      { name: 'SMS OTP Count overage', usageName: 'SMSOTPCount', amount: 15 },
    ]);
    expect(overageLines(pro, { TotalStore: 10_000 * GB }, 'USD')).toEqual([{ name: 'Asset Storage overage', usageName: 'TotalStore', amount: 9_500 * 8 }]);
  });
});

describe('pro rata', () => {
  it('charges the days left including today over the days in the period', () => {
    expect(prorate(2_500, '2026-03-10', '2026-03-10', '2026-04-10')).toBe(2_500);
    expect(prorate(2_500, '2026-03-25', '2026-03-10', '2026-04-10')).toBe(mulDiv(2_500, 16, 31));
    expect(prorate(2_500, '2026-04-09', '2026-03-10', '2026-04-10')).toBe(81);
    expect(prorate(2_500, '2026-04-10', '2026-03-10', '2026-04-10')).toBe(0);
    expect(prorate(2_500, '2026-03-01', '2026-03-10', '2026-04-10')).toBe(2_500);
    // February of a leap year has 29 days.
    expect(prorate(2_900, '2028-02-28', '2028-02-01', '2028-03-01')).toBe(200);
    // A year.
    expect(prorate(36_500, '2026-12-31', '2026-01-01', '2027-01-01')).toBe(100);
  });
  it('never charges more than the whole amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 40 }), (amount, offset) => {
        const today = dateOf(Date.UTC(2026, 0, 28) + offset * 86_400_000);
        const value = prorate(amount, today, '2026-01-28', '2026-02-28');
        expect(Number.isInteger(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(amount);
      }),
    );
  });
});

describe('summarize', () => {
  const lines = [
    { name: 'Basic Plan (monthly)', amount: 9_000 },
    { name: 'Additional seats × 1', amount: 3_300 },
  ];
  it('adds Israel’s VAT on the subtotal less credit', () => {
    expect(summarize(lines, 0, 'IL')).toEqual({ subtotal: 12_300, credit: 0, taxName: 'VAT', tax: 2_214, total: 14_514 });
    expect(summarize(lines, 2_300, 'il')).toEqual({ subtotal: 12_300, credit: 2_300, taxName: 'VAT', tax: 1_800, total: 11_800 });
  });
  it('adds no tax elsewhere and never applies more credit than the subtotal', () => {
    expect(summarize(lines, 50_000, 'US')).toEqual({ subtotal: 12_300, credit: 12_300, taxName: null, tax: 0, total: 0 });
    expect(summarize([], 100, 'US')).toEqual({ subtotal: 0, credit: 0, taxName: null, tax: 0, total: 0 });
  });
});
