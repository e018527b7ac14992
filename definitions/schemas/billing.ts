/**
 * The wire shapes of the billing service (`/billing`, docs/billing.md), shared by the server
 * (validation, OpenAPI) and the console (static types). Amounts are integers in minor units.
 */
import { Type, type Static } from '@sinclair/typebox';
import { usageMetrics } from '../usage.ts';
import { billingStatuses } from '../billing/status.ts';
import { accountLimits } from './account.ts';
import { Nullable } from './wire.ts';

const Minor = (description?: string) => Type.Integer(description ? { description } : {});
const MoneyPair = Type.Object({ USD: Minor(), NIS: Minor() });
const MetricName = Type.Union(usageMetrics.map((name) => Type.Literal(name)));
export const CurrencyNumber = Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 NIS, 2 USD' });
export const FrequencyNumber = Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 monthly, 2 yearly' });
const IsoDate = Type.String({ description: 'ISO 8601' });
export const OrganizationIdQuery = Type.String({ pattern: '^[0-9a-f]{24}$' });

export const PlanUsageLimit = Type.Object({
  name: MetricName,
  limit: Type.Integer(),
  additionalCost: Nullable(Minor('USD per additionalPer units past the limit; null: a hard limit')),
  additionalNisCost: Nullable(Minor()),
  additionalPer: Type.Integer(),
});

export const Plan = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    price: Minor('monthly price in USD'),
    prices: Type.Object({ monthly: MoneyPair, yearly: MoneyPair }),
    free: Type.Boolean(),
    usageLimits: Type.Array(PlanUsageLimit),
  },
  { $id: 'Plan' },
);
export type Plan = Static<typeof Plan>;

export const BillingAddress = Type.Object({
  address: Type.String({ maxLength: 200 }),
  city: Type.String({ maxLength: 100 }),
  country: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2' }),
  postcode: Type.String({ maxLength: 20 }),
});
export type BillingAddress = Static<typeof BillingAddress>;

export const UsageAgainstLimit = Type.Object({
  name: MetricName,
  amount: Type.Number(),
  limit: Type.Integer(),
  unitOfMeasure: Type.Union([Type.Literal('count'), Type.Literal('bytes')]),
  /** Overage so far this month, in the account's currency (0 within the limit or on a hard limit). */
  overageAmount: Minor(),
  hardLimit: Type.Boolean(),
});

export const BillingDetails = Type.Object(
  {
    organizationID: Type.String(),
    plan: Type.Object({ id: Type.String(), name: Type.String() }),
    /** A change that takes effect at the next billing date (the Free Plan). */
    pendingPlan: Nullable(Type.Object({ id: Type.String(), name: Type.String(), effectiveDate: IsoDate })),
    totalBillingAmount: Minor('what the next period costs before overage, credit and tax'),
    currency: CurrencyNumber,
    billingFrequency: FrequencyNumber,
    billingEmail: Nullable(Type.String()),
    billingAddress: BillingAddress,
    nextBillingDate: Nullable(IsoDate),
    lastBillingDate: Nullable(IsoDate),
    billingDay: Nullable(Type.Integer()),
    addOns: Type.Array(Type.Object({ title: Type.String(), amount: Minor(), nisAmount: Minor() })),
    credit: Type.Object({ amount: Minor('USD'), nisAmount: Minor() }),
    usage: Type.Array(UsageAgainstLimit),
    creditCardDetails: Nullable(Type.Object({ cardNumber: Type.String({ description: 'masked: •••• and the last four digits' }), brand: Type.String(), provider: Type.String() })),
    seats: Type.Object({ total: Type.Integer(), included: Type.Integer(), paid: Type.Integer() }),
    initialBillingFailedDate: Nullable(IsoDate),
    status: Type.Union(billingStatuses.map((s) => Type.Literal(s))),
  },
  { $id: 'BillingDetails' },
);
export type BillingDetails = Static<typeof BillingDetails>;

export const BillingDetailsInput = Type.Object(
  {
    billingEmail: Type.String({ format: 'email', maxLength: accountLimits.emailMax }),
    billingAddress: BillingAddress,
    billingFrequency: Type.Optional(FrequencyNumber),
  },
  { additionalProperties: false },
);
export type BillingDetailsInput = Static<typeof BillingDetailsInput>;

export const SummaryLine = Type.Object({
  name: Type.String(),
  /** Set on overage lines: the metric. */
  usageName: Type.Optional(MetricName),
  amount: Minor(),
});
export type SummaryLine = Static<typeof SummaryLine>;

export const BillingSummary = Type.Object(
  {
    organizationID: Type.String(),
    planID: Type.String(),
    country: Type.String(),
    currency: CurrencyNumber,
    lineItems: Type.Array(SummaryLine),
    subtotal: Minor(),
    credit: Minor('credit applied'),
    taxName: Nullable(Type.String()),
    tax: Minor(),
    total: Minor(),
  },
  { $id: 'BillingSummary' },
);
export type BillingSummary = Static<typeof BillingSummary>;

export const Transaction = Type.Object(
  {
    id: Type.String(),
    invoiceID: Type.String({ description: 'the invoice number' }),
    date: IsoDate,
    planName: Type.String(),
    currency: CurrencyNumber,
    lineItems: Type.Array(SummaryLine),
    tax: Minor(),
    totalAmount: Minor(),
    amount: Minor('the same as totalAmount (both spellings are read by clients)'),
    invoiceLink: Type.String({ description: 'path of the PDF' }),
  },
  { $id: 'Transaction' },
);
export type Transaction = Static<typeof Transaction>;

const Window = Type.Object({ from: Type.Integer(), to: Type.Integer() });
export const BillingStatusWindows = Type.Object({ GRACE: Window, NO_CLIENT: Window, BLOCK: Window }, { $id: 'BillingStatusWindows' });
export type BillingStatusWindows = Static<typeof BillingStatusWindows>;

export const ContactRequestInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    email: Type.String({ format: 'email', maxLength: accountLimits.emailMax }),
    number: Type.String({ minLength: 3, maxLength: 30, pattern: '^[0-9+()\\- .]+$' }),
  },
  { additionalProperties: false },
);
export type ContactRequestInput = Static<typeof ContactRequestInput>;

export const CardProcessingLink = Type.Object({
  url: Type.String(),
  sessionID: Type.String(),
  provider: Type.String(),
  /** The console shows the page in a frame when true; a provider whose page refuses frames opens it whole. */
  framed: Type.Boolean(),
});
export type CardProcessingLink = Static<typeof CardProcessingLink>;

export const CardSessionState = Type.Object({
  sessionID: Type.String(),
  organizationID: Type.String(),
  planID: Nullable(Type.String()),
  status: Type.Union([Type.Literal('open'), Type.Literal('completed'), Type.Literal('declined'), Type.Literal('expired')]),
});
export type CardSessionState = Static<typeof CardSessionState>;
