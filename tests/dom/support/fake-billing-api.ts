/**
 * Stand-ins for the billing calls (src/api/billing.ts) in DOM tests: every call a mock, with
 * answers shaped as the server's (definitions/schemas/billing.ts); a test overrides what it needs.
 */
import { vi } from 'vitest';
import type { BillingApi, BillingDetails, BillingSummary, Transaction } from '../../../src/api/billing.ts';
import { ORG } from './platform.tsx';

export function billingDetails(overrides: Partial<BillingDetails> = {}): BillingDetails {
  return {
    organizationID: ORG,
    plan: { id: 'basic', name: 'Basic Plan' },
    pendingPlan: null,
    totalBillingAmount: 2900,
    currency: 2,
    billingFrequency: 1,
    billingEmail: 'billing@acme.example',
    billingAddress: { address: '1 Main Street', city: 'Springfield', country: 'US', postcode: '12345' },
    nextBillingDate: '2026-12-01T00:00:00.000Z',
    lastBillingDate: '2026-11-01T00:00:00.000Z',
    billingDay: 1,
    addOns: [],
    credit: { amount: 500, nisAmount: 1800 },
    usage: [],
    creditCardDetails: { cardNumber: '•••• 4242', brand: 'Visa', provider: 'sandbox' },
    seats: { total: 3, included: 3, paid: 0 },
    initialBillingFailedDate: null,
    status: 'OK' as BillingDetails['status'],
    ...overrides,
  };
}

export function billingSummary(overrides: Partial<BillingSummary> = {}): BillingSummary {
  return {
    organizationID: ORG,
    planID: 'basic',
    country: 'US',
    currency: 2,
    lineItems: [
      { name: 'Basic Plan', amount: 2900 },
      { name: 'Seats', amount: 900 },
    ],
    subtotal: 3800,
    credit: 0,
    taxName: null,
    tax: 0,
    total: 3800,
    ...overrides,
  };
}

export function transaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: 't1',
    invoiceID: 'LRD-000042',
    date: '2026-11-01T00:00:00.000Z',
    planName: 'Basic Plan',
    currency: 2,
    lineItems: [{ name: 'Basic Plan', amount: 2900 }],
    tax: 0,
    totalAmount: 2900,
    amount: 2900,
    invoiceLink: '/billing/transactions/invoice?invoiceID=LRD-000042',
    ...overrides,
  };
}

type Mocked<T> = { [K in keyof T]: T[K] & ReturnType<typeof vi.fn> };

/** Every billing call as a mock; a test overrides the ones it answers. */
export function fakeBillingApi(overrides: Partial<BillingApi> = {}): Mocked<BillingApi> {
  const unexpected = (name: string) =>
    vi.fn(async () => {
      throw new Error(`${name} was not expected`);
    });
  const api = {
    plans: vi.fn(async () => []),
    details: vi.fn(async () => billingDetails()),
    ensureDetails: unexpected('ensureDetails'),
    saveDetails: vi.fn(async (_organizationID: string, input: Parameters<BillingApi['saveDetails']>[1]) =>
      billingDetails({ billingEmail: input.billingEmail, billingAddress: input.billingAddress, billingFrequency: input.billingFrequency ?? 1 }),
    ),
    changePlan: unexpected('changePlan'),
    summary: vi.fn(async (_organizationID: string, query: { country: string; planID: string }) =>
      billingSummary({ country: query.country, planID: query.planID, currency: query.country === 'IL' ? 1 : 2 }),
    ),
    transactions: vi.fn(async () => [transaction()]),
    invoice: vi.fn(async () => new Blob(['%PDF-1.3'], { type: 'application/pdf' })),
    statusWindows: vi.fn(async () => ({ GRACE: { from: 0, to: 2 }, NO_CLIENT: { from: 3, to: 14 }, BLOCK: { from: 15, to: 30 } })),
    cardLink: vi.fn(async (organizationID: string) => ({ url: `/billing/providers/sandbox/pay/s1?o=${organizationID}`, sessionID: 's1', provider: 'sandbox', framed: true })),
    cardSession: vi.fn(async (sessionID: string) => ({ sessionID, organizationID: ORG, planID: null, status: 'open' as const })),
    completeCard: vi.fn(async (sessionID: string) => ({ sessionID, organizationID: ORG, planID: null, status: 'completed' as const })),
    contactUs: unexpected('contactUs'),
    usage: vi.fn(async () => ({ organizationID: ORG, month: '2026-11', usage: [] })),
    ...overrides,
  };
  return api as never;
}
