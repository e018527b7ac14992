/**
 * Invoice numbers (docs/billing.md "Invoices"): `LRD-<UTC year of issue>-<sequence number, at least six
 * digits>`, from the database sequence; anything else is refused. Amounts on the PDF come from
 * `formatMoney` in minor units, the shekel sign spelled ILS for the PDF's built-in font.
 */
import { describe, expect, it } from 'vitest';
import { formatInvoiceNumber, invoiceFilename, invoiceNumberPattern, pdfMoney } from '../../server/billing/invoices.ts';

describe('invoice numbers', () => {
  it('are the UTC year of issue and the sequence number, zero-padded to six digits', () => {
    expect(formatInvoiceNumber(42, new Date('2026-05-17T12:00:00Z'))).toBe('LRD-2026-000042');
    expect(formatInvoiceNumber(1, new Date('2026-01-01T00:00:00Z'))).toBe('LRD-2026-000001');
    expect(formatInvoiceNumber(999_999, new Date('2026-06-01T00:00:00Z'))).toBe('LRD-2026-999999');
  });

  it('grow past six digits instead of wrapping', () => {
    expect(formatInvoiceNumber(1_234_567, new Date('2027-03-01T00:00:00Z'))).toBe('LRD-2027-1234567');
  });

  it('take the year in UTC: a charge at 23:30 on 31 December UTC is that year, whatever the server zone', () => {
    expect(formatInvoiceNumber(7, new Date('2026-12-31T23:30:00Z'))).toBe('LRD-2026-000007');
    expect(formatInvoiceNumber(8, new Date('2027-01-01T00:00:00Z'))).toBe('LRD-2027-000008');
    // 1 January 01:00 in Israel is still 31 December in UTC.
    expect(formatInvoiceNumber(9, new Date('2026-12-31T23:00:00Z'))).toBe('LRD-2026-000009');
  });

  it('refuse a sequence number that is not a positive integer', () => {
    for (const n of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(() => formatInvoiceNumber(n, new Date())).toThrow(RangeError);
  });

  it('match the pattern the download route accepts, and nothing else', () => {
    expect(invoiceNumberPattern.test('LRD-2026-000042')).toBe(true);
    expect(invoiceNumberPattern.test('LRD-2026-1234567')).toBe(true);
    for (const bad of ['LRD-2026-42', 'lrd-2026-000042', 'LRD-2026-000042.pdf', "LRD-2026-000042' or 1=1", '', 'INV-2026-000042']) {
      expect(invoiceNumberPattern.test(bad)).toBe(false);
    }
  });

  it('name the download', () => {
    expect(invoiceFilename('LRD-2026-000042')).toBe('larder-invoice-LRD-2026-000042.pdf');
  });

  it('print amounts from minor units without floating point, ILS for the shekel', () => {
    expect(pdfMoney(123_456, 'USD')).toBe('$1,234.56');
    expect(pdfMoney(5, 'USD')).toBe('$0.05');
    expect(pdfMoney(-1_000, 'USD')).toBe('-$10.00');
    expect(pdfMoney(2_715, 'NIS')).toBe('ILS 27.15');
    // 2^53 − 1 minor units print exactly.
    expect(pdfMoney(Number.MAX_SAFE_INTEGER, 'USD')).toBe('$90,071,992,547,409.91');
  });
});
