/**
 * Invoices (docs/billing.md "Invoices"): one per successful charge, numbered from the sequence
 * `billing_invoice_number` as `LRD-<year>-<number, six digits at least>`, frozen at the charge
 * (billing_invoices), rendered to PDF with pdfkit on demand, and mailed to the billing e-mail with
 * the PDF attached (a job per invoice; `mailed_at` marks it sent).
 */
import PDFDocument from 'pdfkit';
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { and, desc, eq, sql } from 'drizzle-orm';
import { currencyOfNumber, formatMoney, type CurrencyCode } from '../../definitions/billing/money.ts';
import { formatMessage } from '../../definitions/messages/format.ts';
import type { Transaction } from '../../definitions/schemas/billing.ts';
import { billingCharges, billingInvoices } from '../db/schema.ts';
import type { BillingDeps } from './deps.ts';

countries.registerLocale(en);

export type InvoiceRow = typeof billingInvoices.$inferSelect;

/** The period an invoice's charge paid for, when known. */
export interface InvoicePeriod {
  periodStart: string;
  periodEnd: string;
}

/** `LRD-2026-000042`: the year of issue (UTC) and the sequence's number, at least six digits. */
export function formatInvoiceNumber(sequence: number, issuedAt: Date): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`an invoice sequence number is a positive integer, got ${sequence}`);
  return `LRD-${issuedAt.getUTCFullYear()}-${String(sequence).padStart(6, '0')}`;
}

/** The shape of an invoice number (routes refuse anything else as not found). */
export const invoiceNumberPattern = /^LRD-\d{4}-\d{6,}$/;

/** The file name an invoice downloads as. */
export const invoiceFilename = (invoiceNumber: string) => `larder-invoice-${invoiceNumber}.pdf`;

/**
 * An amount as the PDF prints it: `formatMoney`, with the shekel sign spelled `ILS` (the PDF's
 * built-in Helvetica has no ₪ glyph; an embedded font would be the only other way).
 */
export const pdfMoney = (amount: number, currency: CurrencyCode) => formatMoney(amount, currency).replace('₪', 'ILS ');

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The invoice as a PDF (A4, Helvetica). `compress: false` leaves the text readable in the file (tests). */
export function renderInvoicePdf(invoice: InvoiceRow, options: { period?: InvoicePeriod | null; compress?: boolean } = {}): Promise<Buffer> {
  const currency = currencyOfNumber(invoice.currency) ?? 'USD';
  const money = (amount: number) => pdfMoney(amount, currency);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    compress: options.compress ?? true,
    info: { Title: formatMessage('invoice.pdf.title', { number: invoice.invoiceNumber }), Author: 'Larder', Creator: 'Larder' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const amountX = right - 140;

  doc.font('Helvetica-Bold').fontSize(22).text('Larder', left, 56);
  doc.font('Helvetica').fontSize(10).fillColor('#444').text(formatMessage('invoice.pdf.tagline'));
  doc.fillColor('#000').moveDown(1.5);
  doc.font('Helvetica-Bold').fontSize(16).text(formatMessage('invoice.pdf.title', { number: invoice.invoiceNumber }));
  doc.font('Helvetica').fontSize(10).text(formatMessage('invoice.pdf.issued', { date: isoDay(invoice.issuedAt) }));
  if (options.period) doc.text(formatMessage('invoice.pdf.period', { start: options.period.periodStart, end: options.period.periodEnd }));
  doc.text(formatMessage('invoice.pdf.plan', { plan: invoice.planName }));
  doc.moveDown();

  doc.font('Helvetica-Bold').text(formatMessage('invoice.pdf.billedTo'));
  doc.font('Helvetica');
  const address = invoice.billingAddress;
  const country = countries.getName(address.country, 'en') ?? address.country;
  for (const line of [invoice.organizationName, invoice.billingEmail, address.address, [address.postcode, address.city].filter(Boolean).join(' '), country]) {
    if (line) doc.text(line);
  }
  doc.moveDown(1.5);

  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, left, y, { width: amountX - left - 10 });
    const after = doc.y;
    doc.text(amount, amountX, y, { width: right - amountX, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.x = left;
  };
  const rule = () => {
    doc.moveTo(left, doc.y + 2).lineTo(right, doc.y + 2).strokeColor('#999').stroke();
    doc.moveDown(0.5);
  };

  row(formatMessage('invoice.pdf.item'), formatMessage('invoice.pdf.amount'), true);
  rule();
  for (const line of invoice.lineItems) row(line.name, money(line.amount));
  rule();
  const subtotal = invoice.lineItems.reduce((sum, line) => sum + line.amount, 0);
  const credit = subtotal + invoice.tax - invoice.total;
  row(formatMessage('invoice.pdf.subtotal'), money(subtotal));
  if (credit > 0) row(formatMessage('invoice.pdf.credit'), money(-credit));
  if (invoice.taxName || invoice.tax > 0) row(invoice.taxName ?? formatMessage('invoice.pdf.tax'), money(invoice.tax));
  row(formatMessage('invoice.pdf.total'), money(invoice.total), true);
  doc.moveDown(1.5);
  if (invoice.cardLast4) doc.font('Helvetica').text(formatMessage('invoice.pdf.card', { last4: invoice.cardLast4 }), left);
  doc.end();
  return done;
}

export class InvoiceService {
  constructor(readonly deps: BillingDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /** The organization's transactions, newest first: one per successful charge, with its invoice. */
  async transactions(organizationId: string): Promise<Transaction[]> {
    const rows = await this.db
      .select({ invoice: billingInvoices, chargeId: billingCharges.id })
      .from(billingInvoices)
      .innerJoin(billingCharges, eq(billingCharges.id, billingInvoices.chargeId))
      .where(eq(billingInvoices.organizationId, organizationId))
      .orderBy(desc(billingInvoices.issuedAt), desc(billingInvoices.invoiceNumber));
    return rows.map(({ invoice, chargeId }) => ({
      id: chargeId,
      invoiceID: invoice.invoiceNumber,
      date: invoice.issuedAt.toISOString(),
      planName: invoice.planName,
      currency: invoice.currency === 1 ? 1 : 2,
      lineItems: invoice.lineItems.map(({ name, usageName, amount }) => ({ name, amount, ...(usageName ? { usageName: usageName as never } : {}) })),
      tax: invoice.tax,
      totalAmount: invoice.total,
      amount: invoice.total,
      invoiceLink: `/billing/transactions/invoice?organizationID=${organizationId}&invoiceID=${encodeURIComponent(invoice.invoiceNumber)}`,
    }));
  }

  /** An invoice of this organization by number, with its charge's period; undefined for any other. */
  async find(organizationId: string, invoiceNumber: string): Promise<{ invoice: InvoiceRow; period: InvoicePeriod } | undefined> {
    if (!invoiceNumberPattern.test(invoiceNumber)) return undefined;
    const [found] = await this.db
      .select({ invoice: billingInvoices, periodStart: billingCharges.periodStart, periodEnd: billingCharges.periodEnd })
      .from(billingInvoices)
      .innerJoin(billingCharges, eq(billingCharges.id, billingInvoices.chargeId))
      .where(and(eq(billingInvoices.organizationId, organizationId), eq(billingInvoices.invoiceNumber, invoiceNumber)));
    return found && { invoice: found.invoice, period: { periodStart: found.periodStart, periodEnd: found.periodEnd } };
  }

  /**
   * Mails an invoice with its PDF to the billing e-mail, once: an invoice already mailed, or without
   * a billing e-mail, is skipped. (A crash between the outbox write and `mailed_at` would mail it twice.)
   */
  async mail(invoiceId: string): Promise<'mailed' | 'skipped'> {
    const [found] = await this.db
      .select({ invoice: billingInvoices, periodStart: billingCharges.periodStart, periodEnd: billingCharges.periodEnd })
      .from(billingInvoices)
      .innerJoin(billingCharges, eq(billingCharges.id, billingInvoices.chargeId))
      .where(eq(billingInvoices.id, invoiceId));
    if (!found || found.invoice.mailedAt) return 'skipped';
    const { invoice } = found;
    const now = this.deps.now();
    if (!invoice.billingEmail) {
      await this.db.update(billingInvoices).set({ mailedAt: now }).where(eq(billingInvoices.id, invoiceId));
      return 'skipped';
    }
    const pdf = await renderInvoicePdf(invoice, { period: { periodStart: found.periodStart, periodEnd: found.periodEnd } });
    const currency = currencyOfNumber(invoice.currency) ?? 'USD';
    await this.deps.mailer.send({
      kind: 'billing-invoice',
      to: invoice.billingEmail,
      subject: formatMessage('mail.invoice.subject', { number: invoice.invoiceNumber }),
      text: formatMessage('mail.invoice.text', {
        organization: invoice.organizationName,
        number: invoice.invoiceNumber,
        total: formatMoney(invoice.total, currency),
        plan: invoice.planName,
        signature: formatMessage('mail.signature'),
      }),
      attachments: [{ filename: invoiceFilename(invoice.invoiceNumber), contentType: 'application/pdf', content: pdf }],
    });
    await this.db.update(billingInvoices).set({ mailedAt: now }).where(and(eq(billingInvoices.id, invoiceId), sql`${billingInvoices.mailedAt} is null`));
    return 'mailed';
  }

  /** Invoices not mailed a while after their issue (their job was lost to a crash): their ids. */
  async unmailed(before: Date, limit = 500): Promise<string[]> {
    const rows = await this.db
      .select({ id: billingInvoices.id })
      .from(billingInvoices)
      .where(and(sql`${billingInvoices.mailedAt} is null`, sql`${billingInvoices.issuedAt} < ${before}`))
      .limit(limit);
    return rows.map((r) => r.id);
  }
}
