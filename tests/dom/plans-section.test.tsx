/**
 * Organization settings › Plan & Usage: plan cards, usage against the limits, choosing a plan
 * (with the card on file, through card setup, the Free Plan at the next billing date, a cheaper
 * plan scheduled), Contact Us, and the thank-you on `billingComplete`.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { listedPlans, planWire } from '../../definitions/billing/plans.ts';
import { usageUnits, type UsageMetric } from '../../definitions/usage.ts';
import { PlansSection } from '../../src/screens/organization/PlansSection.tsx';
import { ApiError } from '../../src/api/errors.ts';
import type { BillingApi, BillingDetails, Plan } from '../../src/api/billing.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, ORG, organization, renderPlatform } from './support/platform.tsx';
import { billingDetails, billingSummary, fakeBillingApi } from './support/fake-billing-api.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/contact-us.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('contact-us'));
vi.mock('../../definitions/forms/billing-info.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('billing-info'));

const settings = `/organization/${ORG}/settings`;
const routes = [{ id: 'organizationSettings', path: '/organization/:organizationID/settings', element: <PlansSection organization={organization()} /> }];

/** The plans as `GET billing/plans` sends them (the definitions, hidden ones left out). */
const plans: Plan[] = listedPlans.map(planWire);

const GB = 1_000_000_000;
function usageRow(name: UsageMetric, amount: number, limit: number, overageAmount = 0, hardLimit = false): BillingDetails['usage'][number] {
  return { name, amount, limit, unitOfMeasure: usageUnits[name], overageAmount, hardLimit };
}

const freeAccount = (overrides: Partial<BillingDetails> = {}) =>
  billingDetails({ plan: { id: 'free', name: 'Free Plan' }, creditCardDetails: null, nextBillingDate: null, lastBillingDate: null, billingDay: null, totalBillingAmount: 0, ...overrides });

function show(overrides: Partial<BillingApi> = {}, path = settings) {
  const billing = fakeBillingApi({ plans: vi.fn(async () => plans), ...overrides });
  return { billing, ...renderPlatform({ routes, path, api: fakePlatformApi(), billing }) };
}

const problem = (status: number, code: string, detail = code) => new ApiError({ status, code, detail, problem: { type: 'about:blank', title: '', status, detail, code } });
const card = (name: string) => screen.getByRole('listitem', { name });

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Plan & Usage › plan cards', () => {
  it('shows each plan with its price in the account currency, its main limits and the current plan marked', async () => {
    show();
    expect(await screen.findByRole('heading', { level: 3, name: 'Plans' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.getAttribute('data-plan'))).toEqual(['free', 'basic', 'pro']);
    expect(card('Free Plan')).toHaveTextContent('Free');
    expect(card('Basic Plan')).toHaveTextContent('$25.00 a month');
    expect(card('Pro Plan')).toHaveTextContent('$99.00 a month');
    expect(card('Basic Plan')).toHaveAttribute('aria-current', 'true');
    expect(card('Pro Plan')).not.toHaveAttribute('aria-current');
    expect(within(card('Basic Plan')).getByText('Current plan')).toBeInTheDocument();
    expect(within(card('Basic Plan')).queryByRole('button')).not.toBeInTheDocument();
    // Limits in their units: sizes 1000-based, counts grouped.
    expect(card('Free Plan')).toHaveTextContent('Asset Storage1 GB');
    expect(card('Basic Plan')).toHaveTextContent('API Calls5,000,000');
    expect(card('Free Plan')).toHaveTextContent('The API stops at these limits.');
    expect(card('Pro Plan')).toHaveTextContent('Usage past a limit is billed, not refused.');
  });

  it('shows an account in Israel paying yearly in NIS', async () => {
    show({ details: vi.fn(async () => billingDetails({ currency: 1, billingFrequency: 2 })) });
    expect(await screen.findByRole('listitem', { name: 'Basic Plan' })).toHaveTextContent('₪900.00 a year');
    expect(card('Pro Plan')).toHaveTextContent('₪3,600.00 a year');
  });

  it('shows a Free Plan waiting for the next billing date on both cards, and keeping the plan cancels it', async () => {
    const pending = billingDetails({ pendingPlan: { id: 'free', name: 'Free Plan', effectiveDate: '2026-12-01' } });
    const changePlan = vi.fn(async () => billingDetails());
    show({ details: vi.fn(async () => pending), changePlan });
    expect(await screen.findByText('Free Plan from December 1, 2026')).toBeInTheDocument();
    expect(within(card('Free Plan')).queryByRole('button')).not.toBeInTheDocument();
    expect(card('Basic Plan')).toHaveTextContent('Until December 1, 2026');
    await userEvent.click(within(card('Basic Plan')).getByRole('button', { name: 'Keep Basic Plan' }));
    await waitFor(() => expect(changePlan).toHaveBeenCalledWith(ORG, 'basic'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'The organization stays on the Basic Plan' });
  });

  it("says the billing account could not be read, in the problem's words", async () => {
    show({ details: vi.fn(async () => Promise.reject(problem(403, 'insufficient_permissions'))) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not get billing info');
    expect(screen.queryByRole('heading', { name: 'Plans' })).not.toBeInTheDocument();
  });
});

describe('Plan & Usage › usage', () => {
  const usage = [
    usageRow('SMSOTPCount', 12, 500, 0),
    usageRow('Users', 3, 10, 0, true),
    usageRow('ApiCalls', 5_250_000, 5_000_000, 300),
    usageRow('TotalStore', 1_500_000_000, 50 * GB),
    usageRow('BandWidth', 90 * GB, 100 * GB),
    usageRow('SimultaneousLive', 2_000, 2_000, 0, true),
  ];

  it('lists every metric in the fixed order with its display name, amount against the limit, meter and overage so far', async () => {
    show({ details: vi.fn(async () => billingDetails({ usage })) });
    const table = await screen.findByRole('table', { name: 'Usage this month' });
    const rows = within(table).getAllByRole('row').slice(1, -1);
    expect(rows.map((row) => row.getAttribute('data-metric'))).toEqual(['Users', 'ApiCalls', 'TotalStore', 'BandWidth', 'SimultaneousLive', 'SMSOTPCount']);
    const row = (metric: string) => within(table).getByRole('rowheader', { name: metric }).closest('tr')!;
    expect(row('Asset Storage')).toHaveTextContent('1.5 GB of 50 GB');
    expect(row('SMS OTP Count')).toHaveTextContent('12 of 500');
    expect(row('API Calls')).toHaveTextContent('5,250,000 of 5,000,000');
    expect(row('API Calls')).toHaveTextContent('Over the limit, billed');
    expect(row('API Calls')).toHaveTextContent('$3.00');
    expect(row('API Calls')).toHaveAttribute('data-level', 'over');
    expect(row('Bandwidth')).toHaveAttribute('data-level', 'high');
    expect(row('Bandwidth')).toHaveTextContent('90%');
    expect(row('Users')).toHaveTextContent('Hard limit');
    expect(row('Simultaneous Live Connections')).toHaveTextContent('Limit reached');
    expect(row('Asset Storage').querySelector('meter')).toHaveAttribute('aria-label', 'Asset Storage used against the plan\'s limit');
    expect(within(table).getByRole('rowheader', { name: 'Overage so far this month' }).closest('tr')).toHaveTextContent('$3.00');
  });

  it('shows overage in the account currency', async () => {
    show({ details: vi.fn(async () => billingDetails({ currency: 1, usage: [usageRow('ApiCalls', 5_250_000, 5_000_000, 1110)] })) });
    const table = await screen.findByRole('table', { name: 'Usage this month' });
    expect(within(table).getByRole('rowheader', { name: 'API Calls' }).closest('tr')).toHaveTextContent('₪11.10');
  });
});

describe('Plan & Usage › choosing a plan', () => {
  it('with a card on file: shows what the new plan costs, changes it and thanks', async () => {
    const changePlan = vi.fn(async () => billingDetails({ plan: { id: 'pro', name: 'Pro Plan' } }));
    const summary = vi.fn(async () => billingSummary({ planID: 'pro', lineItems: [{ name: 'Pro Plan', amount: 9900 }], subtotal: 9900, total: 9900 }));
    show({ changePlan, summary });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change to the Pro Plan' });
    expect(dialog).toHaveTextContent('charged today for the price difference over the rest of the current billing period');
    expect(dialog).toHaveTextContent('•••• 4242');
    expect(await within(dialog).findByTestId('plan-summary-total')).toHaveTextContent('$99.00');
    expect(summary).toHaveBeenCalledWith(ORG, { country: 'US', planID: 'pro' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    await waitFor(() => expect(changePlan).toHaveBeenCalledWith(ORG, 'pro'));
    const thanks = await screen.findByRole('dialog', { name: 'Thank you!' });
    expect(thanks).toHaveTextContent('Acme Kitchen is now on the Pro Plan');
  });

  it('a declined card is said in the dialog, and the plan stays', async () => {
    const changePlan = vi.fn(async () => Promise.reject(problem(402, 'payment_declined')));
    show({ changePlan });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change to the Pro Plan' });
    await within(dialog).findByTestId('plan-summary-total');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/declined/i);
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).not.toBeInTheDocument();
  });

  it('a card the server no longer has (card_required) leads to Setup Credit Card for the plan', async () => {
    const changePlan = vi.fn(async () => Promise.reject(problem(409, 'card_required')));
    const { billing } = show({ changePlan });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change to the Pro Plan' });
    await within(dialog).findByTestId('plan-summary-total');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    expect(await screen.findByRole('dialog', { name: 'Setup Credit Card' })).toBeInTheDocument();
    await waitFor(() => expect(billing.cardLink).toHaveBeenCalledWith(ORG, 'pro'));
  });

  it('from the Free Plan with a card: the first period is charged in full', async () => {
    show({ details: vi.fn(async () => freeAccount({ creditCardDetails: { cardNumber: '•••• 4242', brand: 'Visa', provider: 'sandbox' } })) });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Basic Plan' }));
    expect(await screen.findByRole('dialog', { name: 'Change to the Basic Plan' })).toHaveTextContent('charged today for its first billing period');
  });

  it('without a card: opens Setup Credit Card for the chosen plan', async () => {
    const { billing } = show({ details: vi.fn(async () => freeAccount()) });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro Plan' }));
    expect(await screen.findByRole('dialog', { name: 'Setup Credit Card' })).toBeInTheDocument();
    await waitFor(() => expect(billing.cardLink).toHaveBeenCalledWith(ORG, 'pro'));
    expect(billing.changePlan).not.toHaveBeenCalled();
  });

  it('a cheaper plan waits for the next billing date and charges nothing now', async () => {
    const onPro = billingDetails({ plan: { id: 'pro', name: 'Pro Plan' } });
    const changePlan = vi.fn(async () => billingDetails({ plan: { id: 'pro', name: 'Pro Plan' }, pendingPlan: { id: 'basic', name: 'Basic Plan', effectiveDate: '2026-12-01' } }));
    show({ details: vi.fn(async () => onPro), changePlan });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Basic Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change to the Basic Plan' });
    expect(dialog).toHaveTextContent('takes effect at the next billing date, December 1, 2026; nothing is charged now');
    await within(dialog).findByTestId('plan-summary-total');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    await waitFor(() => expect(changePlan).toHaveBeenCalledWith(ORG, 'basic'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'The Basic Plan takes effect on December 1, 2026' });
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).not.toBeInTheDocument();
  });

  it('the Free Plan: Confirm Free Plan says it takes effect at the next billing date', async () => {
    const changePlan = vi.fn(async () => billingDetails({ pendingPlan: { id: 'free', name: 'Free Plan', effectiveDate: '2026-12-01' } }));
    show({ changePlan });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Free Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Free Plan' });
    expect(dialog).toHaveTextContent('The Free Plan takes effect at the next billing date, December 1, 2026. Until then the organization keeps the Basic Plan');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(changePlan).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Choose Free Plan' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm Free Plan' })).getByRole('button', { name: 'Confirm Free Plan' }));
    await waitFor(() => expect(changePlan).toHaveBeenCalledWith(ORG, 'free'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'The Free Plan takes effect on December 1, 2026' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('Plan & Usage › Contact Us and thanks', () => {
  it('sends name, e-mail and number: "Contact request sent. …"', async () => {
    const contactUs = vi.fn(async () => ({ sent: true as const }));
    show({ contactUs });
    await userEvent.click(await screen.findByRole('button', { name: 'Contact Us' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Us' });
    expect(within(dialog).getByLabelText('E-mail')).toHaveValue('ana@example.com');
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Ana Cook');
    await userEvent.type(within(dialog).getByLabelText('Phone number'), 'call me');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Enter a phone number: digits, spaces and + ( ) - . only')).toBeInTheDocument();
    expect(contactUs).not.toHaveBeenCalled();
    await userEvent.clear(within(dialog).getByLabelText('Phone number'));
    await userEvent.type(within(dialog).getByLabelText('Phone number'), '+1 555 0100');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(contactUs).toHaveBeenCalledWith(ORG, { name: 'Ana Cook', email: 'ana@example.com', number: '+1 555 0100' }));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Contact request sent. One of our representatives will in touch with you soon' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('billingComplete opens the thank-you naming the plan; closing it drops the query', async () => {
    show({ details: vi.fn(async () => billingDetails({ plan: { id: 'pro', name: 'Pro Plan' } })) }, `${settings}?billingComplete=true&view=plans`);
    const thanks = await screen.findByRole('dialog', { name: 'Thank you!' });
    expect(thanks).toHaveTextContent('Acme Kitchen is now on the Pro Plan');
    await userEvent.click(within(thanks).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`${settings}?view=plans`));
    expect(screen.queryByRole('dialog', { name: 'Thank you!' })).not.toBeInTheDocument();
  });
});
