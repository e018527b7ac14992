/**
 * Typed calls of the billing service (`/billing`, docs/billing.md) and Contact Us. Shapes from
 * definitions/schemas/billing.ts; amounts are minor units. All reject with ApiError.
 */
import type {
  BillingDetails,
  BillingDetailsInput,
  BillingStatusWindows,
  BillingSummary,
  CardProcessingLink,
  CardSessionState,
  ContactRequestInput,
  Plan,
  Transaction,
} from '../../definitions/schemas/billing.ts';
import type { UsageReport } from '../../definitions/schemas/usage-report.ts';
import { getApiClient, type ApiClient } from './client.ts';

export type { BillingDetails, BillingDetailsInput, BillingStatusWindows, BillingSummary, CardProcessingLink, CardSessionState, ContactRequestInput, Plan, Transaction };

export interface BillingApi {
  plans(): Promise<Plan[]>;
  details(organizationID: string): Promise<BillingDetails>;
  /** Creates the account's details from the organization (billing e-mail: the caller's) when missing. */
  ensureDetails(organizationID: string): Promise<BillingDetails>;
  saveDetails(organizationID: string, input: BillingDetailsInput): Promise<BillingDetails>;
  changePlan(organizationID: string, planID: string): Promise<BillingDetails>;
  summary(organizationID: string, query: { country: string; planID: string }): Promise<BillingSummary>;
  transactions(organizationID: string): Promise<Transaction[]>;
  /** The invoice PDF as a Blob (the History tab saves it). */
  invoice(organizationID: string, invoiceID: string): Promise<Blob>;
  statusWindows(): Promise<BillingStatusWindows>;
  cardLink(organizationID: string, planID?: string): Promise<CardProcessingLink>;
  cardSession(sessionID: string): Promise<CardSessionState>;
  /** After the provider's page returns to /billingComplete: confirms the card (and the chosen plan). */
  completeCard(sessionID: string): Promise<CardSessionState>;
  contactUs(organizationID: string, input: ContactRequestInput): Promise<{ sent: true }>;
  usage(organizationID: string, month?: string): Promise<UsageReport>;
}

export function createBillingApi(client: ApiClient): BillingApi {
  const { json } = client;
  const org = (organizationID: string) => ({ searchParams: { organizationID } });
  return {
    plans: () => json<Plan[]>('billing/plans'),
    details: (organizationID) => json<BillingDetails>('billing/billingDetails', org(organizationID)),
    ensureDetails: (organizationID) => json<BillingDetails>('billing/billingDetails/organizationDetails', { method: 'post', ...org(organizationID) }),
    saveDetails: (organizationID, input) => json<BillingDetails>('billing/billingDetails', { method: 'put', ...org(organizationID), json: input }),
    changePlan: (organizationID, planID) => json<BillingDetails>('billing/plan', { method: 'put', searchParams: { organizationID, planID } }),
    summary: (organizationID, { country, planID }) => json<BillingSummary>('billing/billingSummary', { searchParams: { organizationID, country, planID } }),
    transactions: (organizationID) => json<Transaction[]>('billing/transactions', org(organizationID)),
    invoice: (organizationID, invoiceID) => client.http.get('billing/transactions/invoice', { searchParams: { organizationID, invoiceID } }).blob(),
    statusWindows: () => json<BillingStatusWindows>('billing/getBillingStatuses'),
    cardLink: (organizationID, planID) =>
      json<CardProcessingLink>('billing/creditCardProcessingLink', { searchParams: planID ? { organizationID, planID } : { organizationID } }),
    cardSession: (sessionID) => json<CardSessionState>('billing/cardSession', { searchParams: { sessionID } }),
    completeCard: (sessionID) => json<CardSessionState>('billing/creditCardBillingComplete', { method: 'post', searchParams: { sessionID } }),
    contactUs: (organizationID, input) => json<{ sent: true }>(`api/organization/${encodeURIComponent(organizationID)}/contactUs`, { method: 'post', json: input }),
    usage: (organizationID, month) => json<UsageReport>(`api/organization/${encodeURIComponent(organizationID)}/usage`, month ? { searchParams: { month } } : {}),
  };
}

let browserBillingApi: BillingApi | null = null;

/** The billing calls over the page's client. */
export function getBillingApi(): BillingApi {
  browserBillingApi ??= createBillingApi(getApiClient());
  return browserBillingApi;
}
