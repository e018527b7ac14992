/**
 * Invoices and transactions (docs/billing.md "Invoices"), on both databases: a successful charge
 * writes an invoice whose PDF names Larder, the invoice number, the organization, the billing
 * address, the lines, the tax and the total, and is mailed to the billing e-mail with the PDF
 * attached; `GET transactions` lists it newest first; `GET transactions/invoice` downloads it for
 * the organization's admins only (another organization's number is `invoice_not_found`);
 * `POST admin/run` is for platform super-admins; with BILLING=0 the routes answer `billing_disabled`.
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import { billingAccounts, billingInvoices, outbox } from '../../server/db/schema.ts';
import { renderInvoicePdf } from '../../server/billing/invoices.ts';
import type { CardProvider, ChargeRequest } from '../../server/billing/providers/types.ts';
import { createTestApp, databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem, waitFor } from './support/assertions.ts';

/** The text a PDF shows: its content streams inflated, the strings of their text operators joined. */
export function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  const streams = /stream\r?\n/g;
  for (let match = streams.exec(raw); match; match = streams.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = bytes.toString('latin1');
    }
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F]*>|\([^)]*\)|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj|\(([^)]*)\)\s*Tj/g)) {
      if (op[1] !== undefined) {
        out.push(
          [...op[1].matchAll(/<([0-9a-fA-F]*)>|\(([^)]*)\)/g)].map((part) => (part[1] !== undefined ? Buffer.from(part[1], 'hex').toString('latin1') : part[2]!)).join(''),
        );
      } else if (op[2] !== undefined) out.push(Buffer.from(op[2], 'hex').toString('latin1'));
      else out.push(op[3]!);
    }
  }
  return out.join('\n');
}

class BookProvider implements CardProvider {
  readonly name = 'sandbox' as const;
  readonly framed = true;
  readonly books = new Map<string, ChargeRequest>();
  startSetup = () => Promise.reject(new Error('not in these tests'));
  setupOutcome = () => Promise.reject(new Error('not in these tests'));
  async charge(request: ChargeRequest) {
    if (!this.books.has(request.idempotencyKey)) this.books.set(request.idempotencyKey, request);
    return { status: 'succeeded' as const, providerChargeId: `ch_${request.idempotencyKey}` };
  }
}

describe.each(databaseKinds)('invoices and transactions (%s)', (kind) => {
  let database: Database;
  let app: App;
  let clock = new Date('2026-05-17T09:00:00Z');
  const provider = new BookProvider();
  let admin: Awaited<ReturnType<typeof verifiedUser>>;
  let other: Awaited<ReturnType<typeof verifiedUser>>;
  let org = '';
  let otherOrg = '';

  const newOrg = async (who: typeof admin, name: string) => {
    const created = await app.inject({ method: 'POST', url: '/api/organization', headers: bearer(who.tokens.access_token), payload: { name } });
    expect(created.statusCode, created.body).toBe(201);
    return json(created).id as string;
  };
  const account = (organizationId: string, values: Partial<typeof billingAccounts.$inferInsert>) =>
    database.db
      .insert(billingAccounts)
      .values({ organizationId, seats: 3, ...values })
      .onConflictDoUpdate({ target: billingAccounts.organizationId, set: values });
  const charge = (organizationId: string, lines: { name: string; amount: number; usageName?: string }[], country = 'US') =>
    app.ctx.billing.charges.charge({
      organizationId,
      kind: 'upgrade',
      periodStart: clock.toISOString().slice(0, 10),
      periodEnd: '2026-06-17',
      currency: country === 'IL' ? 'NIS' : 'USD',
      lines,
      country,
      applyCredit: true,
      effect: { planId: 'basic' },
      planName: 'Basic Plan',
    });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await buildApp({ config: loadConfig({ ...testEnv, FILES_SWEEP_INTERVAL_S: '0' }), database, logger: false, billing: { now: () => clock, provider } });
    await app.ready();
    admin = await verifiedUser(app, 'payer');
    other = await verifiedUser(app, 'stranger');
    org = await newOrg(admin, 'Acme Widgets');
    otherOrg = await newOrg(other, 'Other Org');
    const card = { cardProvider: 'sandbox', cardToken: 'tok_x', cardLast4: '4242', cardBrand: 'visa' };
    await account(org, { billingEmail: 'books@acme.example', address: '1 Main Street', city: 'Springfield', postcode: '12345', country: 'US', ...card });
    await account(otherOrg, { billingEmail: 'other@example.com', country: 'IL', currency: 1, ...card });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('a successful charge writes an invoice, mails its PDF to the billing e-mail and lists it as a transaction', async () => {
    const result = await charge(org, [
      { name: 'Basic Plan (monthly)', amount: 2_500 },
      { name: 'API Calls overage (2026-04)', usageName: 'ApiCalls', amount: 300 },
    ]);
    expect(result).toMatchObject({ status: 'succeeded', total: 2_800, invoiceNumber: expect.stringMatching(/^LRD-2026-\d{6}$/) });
    const number = (result as { invoiceNumber: string }).invoiceNumber;

    const mail = await waitFor(async () => (await database.db.select().from(outbox).where(eq(outbox.to, 'books@acme.example')))[0], 15_000);
    expect(mail.kind).toBe('billing-invoice');
    expect(mail.subject).toContain(number);
    expect(mail.text).toContain('$28.00');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments![0]).toMatchObject({ filename: `larder-invoice-${number}.pdf`, contentType: 'application/pdf' });
    const attached = Buffer.from(mail.attachments![0]!.content, 'base64');
    expect(attached.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(attached)).toContain(number);
    await waitFor(async () => (await database.db.select().from(billingInvoices).where(eq(billingInvoices.invoiceNumber, number)))[0]?.mailedAt);

    clock = new Date('2026-05-18T09:00:00Z');
    const second = await charge(org, [{ name: 'Additional seats × 1', amount: 900 }]);
    const listed = await app.inject({ method: 'GET', url: `/billing/transactions?organizationID=${org}`, headers: bearer(admin.tokens.access_token) });
    expect(listed.statusCode, listed.body).toBe(200);
    const transactions = json<{ invoiceID: string; date: string; planName: string; currency: number; lineItems: unknown[]; tax: number; totalAmount: number; amount: number; invoiceLink: string }[]>(listed);
    expect(transactions.map((t) => t.invoiceID)).toEqual([(second as { invoiceNumber: string }).invoiceNumber, number]);
    expect(transactions[1]).toMatchObject({
      date: '2026-05-17T09:00:00.000Z',
      planName: 'Basic Plan',
      currency: 2,
      tax: 0,
      totalAmount: 2_800,
      amount: 2_800,
      lineItems: [
        { name: 'Basic Plan (monthly)', amount: 2_500 },
        { name: 'API Calls overage (2026-04)', usageName: 'ApiCalls', amount: 300 },
      ],
      invoiceLink: `/billing/transactions/invoice?organizationID=${org}&invoiceID=${number}`,
    });

    // The PDF, downloaded.
    const pdf = await app.inject({ method: 'GET', url: transactions[1]!.invoiceLink, headers: bearer(admin.tokens.access_token) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="larder-invoice-${number}.pdf"`);
    const text = pdfText(pdf.rawPayload);
    for (const shown of ['Larder', `Invoice ${number}`, 'Date: 2026-05-17', 'Acme Widgets', 'books@acme.example', '1 Main Street', '12345 Springfield', 'United States of America', 'Basic Plan (monthly)', '$25.00', 'API Calls overage (2026-04)', '$3.00', 'Total', '$28.00']) {
      expect(text).toContain(shown);
    }
    expect(text).toMatch(/Paid by card \x95{4} 4242/);
  });

  it('an Israeli invoice shows VAT and the amounts in ILS', async () => {
    const result = await charge(otherOrg, [{ name: 'Basic Plan (monthly)', amount: 9_000 }], 'IL');
    expect(result).toMatchObject({ status: 'succeeded', total: 10_620 });
    const [invoice] = await database.db.select().from(billingInvoices).where(eq(billingInvoices.organizationId, otherOrg));
    const text = pdfText(await renderInvoicePdf(invoice!, { compress: false }));
    expect(text).toContain('VAT');
    expect(text).toContain('ILS 16.20');
    expect(text).toContain('ILS 106.20');
    expect(text).toContain('Israel');
  });

  it('another organization, an unknown number or a non-member: no invoice', async () => {
    const [mine] = await database.db.select().from(billingInvoices).where(eq(billingInvoices.organizationId, org)).limit(1);
    const [theirs] = await database.db.select().from(billingInvoices).where(eq(billingInvoices.organizationId, otherOrg)).limit(1);
    // Their admin names their own organization and our number: not found, nothing leaks.
    expectProblem(
      await app.inject({ method: 'GET', url: `/billing/transactions/invoice?organizationID=${otherOrg}&invoiceID=${mine!.invoiceNumber}`, headers: bearer(other.tokens.access_token) }),
      404,
      'invoice_not_found',
    );
    // Our admin asks for theirs through our organization.
    expectProblem(
      await app.inject({ method: 'GET', url: `/billing/transactions/invoice?organizationID=${org}&invoiceID=${theirs!.invoiceNumber}`, headers: bearer(admin.tokens.access_token) }),
      404,
      'invoice_not_found',
    );
    for (const bad of ['LRD-2026-999999', 'nonsense', "' or 1=1 --"]) {
      expectProblem(
        await app.inject({ method: 'GET', url: `/billing/transactions/invoice?organizationID=${org}&invoiceID=${encodeURIComponent(bad)}`, headers: bearer(admin.tokens.access_token) }),
        404,
        'invoice_not_found',
      );
    }
    // Not a member of our organization: refused before any invoice is looked at.
    const refused = await app.inject({ method: 'GET', url: `/billing/transactions/invoice?organizationID=${org}&invoiceID=${mine!.invoiceNumber}`, headers: bearer(other.tokens.access_token) });
    expect([403, 404]).toContain(refused.statusCode);
    expect(refused.body).not.toContain('%PDF');
    const list = await app.inject({ method: 'GET', url: `/billing/transactions?organizationID=${org}`, headers: bearer(other.tokens.access_token) });
    expect([403, 404]).toContain(list.statusCode);
    // No token.
    expectProblem(await app.inject({ method: 'GET', url: `/billing/transactions?organizationID=${org}` }), 401);
    // A malformed organization id.
    expectProblem(await app.inject({ method: 'GET', url: `/billing/transactions?organizationID=zz`, headers: bearer(admin.tokens.access_token) }), 400);
  });

  it('the billing run on demand is for platform super-admins only', async () => {
    expectProblem(await app.inject({ method: 'POST', url: '/billing/admin/run', headers: bearer(admin.tokens.access_token) }), 403, 'insufficient_permissions');
    await database.db.execute(sql`update users set super_admin = true where username = ${admin.account.username}`);
    const ran = await waitFor(async () => {
      const response = await app.inject({ method: 'POST', url: '/billing/admin/run', headers: bearer(admin.tokens.access_token) });
      return response.statusCode === 200 && response;
    });
    expect(json(ran)).toMatchObject({ opened: expect.any(Number), succeeded: expect.any(Number), declined: 0 });
  });
});

describe('invoices with BILLING=0', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { BILLING: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answer billing_disabled', async () => {
    const { tokens } = await verifiedUser(t.app, 'nobill');
    const created = await t.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(tokens.access_token), payload: { name: 'Free forever' } });
    const id = json(created).id as string;
    for (const url of [`/billing/transactions?organizationID=${id}`, `/billing/transactions/invoice?organizationID=${id}&invoiceID=LRD-2026-000001`]) {
      expectProblem(await t.app.inject({ method: 'GET', url, headers: bearer(tokens.access_token) }), 404, 'billing_disabled');
    }
    expectProblem(await t.app.inject({ method: 'POST', url: '/billing/admin/run', headers: bearer(tokens.access_token) }), 404, 'billing_disabled');
  });
});
