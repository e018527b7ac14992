/** Organization settings › Billing: Info and History tabs, Edit Billing Info, Setup Credit Card. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BillingSection } from '../../src/screens/organization/BillingSection.tsx';
import { ApiError } from '../../src/api/errors.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, ORG, organization, renderPlatform } from './support/platform.tsx';
import { billingDetails, billingSummary, fakeBillingApi } from './support/fake-billing-api.ts';
import type { BillingApi } from '../../src/api/billing.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/billing-info.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('billing-info'));

const settings = `/organization/${ORG}/settings`;
const routes = [{ id: 'organizationSettings', path: '/organization/:organizationID/settings', element: <BillingSection organization={organization()} /> }];

function show(billing: BillingApi, path = settings) {
  return renderPlatform({ routes, path, api: fakePlatformApi(), billing });
}

const problem = (status: number, code: string, detail = code) => new ApiError({ status, code, detail, problem: { type: 'about:blank', title: '', status, detail, code } });

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Billing › Info', () => {
  it('shows amount, currency, frequency, e-mail, address, city, country, postcode, credit, card and next billing date', async () => {
    show(fakeBillingApi());
    const facts = await screen.findByTestId('billing-amount');
    expect(facts).toHaveTextContent('$29.00');
    const list = facts.closest('dl')!;
    const value = (term: string) => within(list).getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(value('Currency')).toHaveTextContent('USD');
    expect(value('Frequency')).toHaveTextContent('Monthly');
    expect(value('Billing e-mail')).toHaveTextContent('billing@acme.example');
    expect(value('Address')).toHaveTextContent('1 Main Street');
    expect(value('City')).toHaveTextContent('Springfield');
    expect(value('Country')).toHaveTextContent('United States of America');
    expect(value('Postcode')).toHaveTextContent('12345');
    expect(value('Credit')).toHaveTextContent('$5.00');
    expect(screen.getByTestId('billing-card')).toHaveTextContent('•••• 4242');
    expect(value('Next billing date')).toHaveTextContent('December 1, 2026');
  });

  it('shows an account in Israel in NIS, yearly', async () => {
    show(fakeBillingApi({ details: vi.fn(async () => billingDetails({ currency: 1, billingFrequency: 2, totalBillingAmount: 123456, billingAddress: { address: '', city: 'Haifa', country: 'IL', postcode: '' } })) }));
    expect(await screen.findByTestId('billing-amount')).toHaveTextContent('₪1,234.56');
    const list = screen.getByTestId('billing-amount').closest('dl')!;
    const value = (term: string) => within(list).getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(value('Currency')).toHaveTextContent('NIS');
    expect(value('Frequency')).toHaveTextContent('Yearly');
    expect(value('Country')).toHaveTextContent('Israel');
    expect(value('Credit')).toHaveTextContent('₪18.00');
    expect(value('Address')).toHaveTextContent('Not set');
  });

  it('makes the billing account on first open when there is none (404)', async () => {
    const billing = fakeBillingApi({
      details: vi.fn(async () => {
        throw problem(404, 'not_found');
      }),
      ensureDetails: vi.fn(async () => billingDetails({ creditCardDetails: null })),
    });
    show(billing);
    expect(await screen.findByTestId('billing-card')).toHaveTextContent('Not set');
    expect(billing.ensureDetails).toHaveBeenCalledWith(ORG);
  });

  it("completes an account that has no billing e-mail yet (the reader's), and reads a complete one as it is", async () => {
    const billing = fakeBillingApi({
      details: vi.fn(async () => billingDetails({ billingEmail: null })),
      ensureDetails: vi.fn(async () => billingDetails({ billingEmail: 'ana@example.com' })),
    });
    show(billing);
    expect(await screen.findByText('ana@example.com')).toBeInTheDocument();
    expect(billing.ensureDetails).toHaveBeenCalledTimes(1);
    cleanup();
    const complete = fakeBillingApi();
    show(complete);
    await screen.findByText('billing@acme.example');
    expect(complete.ensureDetails).not.toHaveBeenCalled();
  });

  it('makes no account when billing is turned off (404 billing_disabled)', async () => {
    const billing = fakeBillingApi({
      details: vi.fn(async () => {
        throw problem(404, 'billing_disabled');
      }),
    });
    show(billing);
    expect(await screen.findByText('Could not get billing info')).toBeInTheDocument();
    expect(billing.ensureDetails).not.toHaveBeenCalled();
  });

  it('says "Could not get billing info" when the read fails otherwise', async () => {
    const billing = fakeBillingApi({
      details: vi.fn(async () => {
        throw problem(403, 'forbidden');
      }),
    });
    show(billing);
    expect(await screen.findByText('Could not get billing info')).toBeInTheDocument();
    expect(billing.ensureDetails).not.toHaveBeenCalled();
  });
});

describe('Billing › History', () => {
  it('is a tab reached with the keyboard, listing invoices that download as <number>.pdf', async () => {
    const billing = fakeBillingApi();
    show(billing);
    await screen.findByTestId('billing-amount');
    const tabs = screen.getByRole('tablist', { name: 'Billing' });
    within(tabs).getByRole('tab', { name: 'Info' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(within(tabs).getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    const row = (await screen.findByRole('rowheader', { name: 'LRD-000042' })).closest('tr')!;
    expect(row).toHaveTextContent('November 1, 2026');
    expect(row).toHaveTextContent('Basic Plan');
    expect(row).toHaveTextContent('$29.00');

    const created = vi.fn(() => 'blob:invoice');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const clicks: { download: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ download: this.download, href: this.href });
    });
    await userEvent.click(within(row).getByRole('button', { name: 'Download invoice LRD-000042' }));
    await waitFor(() => expect(clicks).toEqual([{ download: 'LRD-000042.pdf', href: 'blob:invoice' }]));
    expect(billing.invoice).toHaveBeenCalledWith(ORG, 'LRD-000042');
    click.mockRestore();
  });

  it('says "Could not retrieve previous transactions" when the list fails', { timeout: 10_000 }, async () => {
    show(
      fakeBillingApi({
        transactions: vi.fn(async () => {
          throw problem(500, 'internal');
        }),
      }),
    );
    await userEvent.click(await screen.findByRole('tab', { name: 'History' }));
    // A server error is asked again twice (src/api/queries.ts shouldRetry) before it shows.
    expect(await screen.findByText('Could not retrieve previous transactions', {}, { timeout: 6000 })).toBeInTheDocument();
  });

  it('says when an invoice cannot be downloaded', async () => {
    show(
      fakeBillingApi({
        invoice: vi.fn(async () => {
          throw problem(404, 'invoice_not_found');
        }),
      }),
    );
    await userEvent.click(await screen.findByRole('tab', { name: 'History' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Download invoice LRD-000042' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'error', title: 'Could not download the invoice' })));
  });

  it('says when there is no invoice yet', async () => {
    show(fakeBillingApi({ transactions: vi.fn(async () => []) }));
    await userEvent.click(await screen.findByRole('tab', { name: 'History' }));
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
  });
});

async function openEdit() {
  await screen.findByTestId('billing-amount');
  await userEvent.click(screen.getByRole('button', { name: 'Edit Billing Info' }));
  return screen.findByRole('dialog', { name: 'Edit Billing Info' });
}

describe('Edit Billing Info', () => {
  it('saves the fields as the billing details and says "Billing Info Updated"', async () => {
    const billing = fakeBillingApi();
    show(billing);
    const dialog = await openEdit();
    expect(within(dialog).getByLabelText('Country')).toHaveValue('US');
    expect(within(dialog).getAllByRole('option').length).toBeGreaterThan(240);
    await userEvent.clear(within(dialog).getByLabelText('City'));
    await userEvent.type(within(dialog).getByLabelText('City'), '  Tel Aviv ');
    await userEvent.selectOptions(within(dialog).getByLabelText('Country'), 'IL');
    await userEvent.selectOptions(within(dialog).getByLabelText('Billing frequency'), '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(billing.saveDetails).toHaveBeenCalledWith(ORG, {
      billingEmail: 'billing@acme.example',
      billingAddress: { address: '1 Main Street', city: 'Tel Aviv', country: 'IL', postcode: '12345' },
      billingFrequency: 2,
    });
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Billing Info Updated' });
  });

  it('refuses a billing e-mail that is not one, without asking the server', async () => {
    const billing = fakeBillingApi();
    show(billing);
    const dialog = await openEdit();
    const email = within(dialog).getByLabelText('Billing e-mail');
    await userEvent.clear(email);
    await userEvent.type(email, 'not-an-address');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Invalid email address')).toBeInTheDocument();
    expect(billing.saveDetails).not.toHaveBeenCalled();
  });

  it('says "Could not update billing details" with the problem when saving fails', async () => {
    const billing = fakeBillingApi({
      saveDetails: vi.fn(async () => {
        throw problem(400, 'country_unknown', 'Unknown country');
      }),
    });
    show(billing);
    const dialog = await openEdit();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Could not update billing details');
    expect(notify).not.toHaveBeenCalled();
  });

  it('needs a billing e-mail for Save & Setup Credit Card, and warns without a city', async () => {
    const bare = () => billingDetails({ billingEmail: null, billingAddress: { address: '', city: '', country: 'US', postcode: '' } });
    const billing = fakeBillingApi({ details: vi.fn(async () => bare()), ensureDetails: vi.fn(async () => bare()) });
    show(billing);
    const dialog = await openEdit();
    const card = within(dialog).getByRole('button', { name: 'Save & Setup Credit Card' });
    expect(card).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Billing e-mail'), 'pay@acme.example');
    expect(card).toBeEnabled();
    await userEvent.click(card);
    expect(await within(dialog).findByText('Billing Address must be set before setting up credit card details')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('City')).toHaveFocus();
    expect(billing.saveDetails).not.toHaveBeenCalled();
  });

  it('saves, then opens Setup Credit Card', async () => {
    const billing = fakeBillingApi();
    show(billing);
    const dialog = await openEdit();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save & Setup Credit Card' }));
    expect(await screen.findByRole('dialog', { name: 'Setup Credit Card' })).toBeInTheDocument();
    expect(billing.saveDetails).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Billing Info Updated' });
  });
});

describe('Setup Credit Card', () => {
  it('shows the summary, the terms and the card page in a frame', async () => {
    const billing = fakeBillingApi();
    show(billing);
    await screen.findByTestId('billing-amount');
    await userEvent.click(screen.getByRole('button', { name: 'Setup Credit Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    const table = await within(dialog).findByRole('table');
    expect(within(table).getByRole('row', { name: /Total/ })).toHaveTextContent('$38.00');
    expect(billing.summary).toHaveBeenCalledWith(ORG, { country: 'US', planID: 'basic' });
    const frame = await within(dialog).findByTitle('Card payment page');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', `/billing/providers/sandbox/pay/s1?o=${ORG}`);
    expect(within(dialog).getByText(/By saving a card you allow Larder/)).toBeInTheDocument();
    expect(billing.cardLink).toHaveBeenCalledWith(ORG, undefined);
  });

  it('prices the default upgrade for an account on the Free Plan, in NIS for Israel, recalculated on each opening', async () => {
    const billing = fakeBillingApi({
      details: vi.fn(async () => billingDetails({ plan: { id: 'free', name: 'Free Plan' }, currency: 1, billingAddress: { address: '', city: 'Haifa', country: 'IL', postcode: '' } })),
      summary: vi.fn(async () => billingSummary({ currency: 1, country: 'IL', taxName: 'VAT', tax: 1800, total: 11800 })),
    });
    show(billing);
    await screen.findByTestId('billing-amount');
    await userEvent.click(screen.getByRole('button', { name: 'Setup Credit Card' }));
    let dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    expect(within(await within(dialog).findByRole('table')).getByRole('row', { name: /Tax \(VAT\)/ })).toHaveTextContent('₪18.00');
    const planID = vi.mocked(billing.summary).mock.calls[0]![1].planID;
    expect(planID).not.toBe('free');
    expect(billing.summary).toHaveBeenCalledWith(ORG, { country: 'IL', planID });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('button', { name: 'Setup Credit Card' }));
    dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    await within(dialog).findByRole('table');
    await waitFor(() => expect(billing.summary).toHaveBeenCalledTimes(2));
  });

  it('opens a page that refuses frames whole, from a button', async () => {
    show(fakeBillingApi({ cardLink: vi.fn(async () => ({ url: 'https://checkout.stripe.test/c/pay/cs_1', sessionID: 'cs_1', provider: 'stripe', framed: false })) }));
    await screen.findByTestId('billing-amount');
    await userEvent.click(screen.getByRole('button', { name: 'Setup Credit Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    expect(await within(dialog).findByRole('link', { name: 'Continue to the card page' })).toHaveAttribute('href', 'https://checkout.stripe.test/c/pay/cs_1');
    expect(within(dialog).queryByTitle('Card payment page')).not.toBeInTheDocument();
  });

  it('hides the terms once the card is saved (CREATED)', async () => {
    show(fakeBillingApi({ cardSession: vi.fn(async (sessionID: string) => ({ sessionID, organizationID: ORG, planID: null, status: 'completed' as const })) }));
    await screen.findByTestId('billing-amount');
    await userEvent.click(screen.getByRole('button', { name: 'Setup Credit Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    expect(await within(dialog).findByText('The card is saved.')).toBeInTheDocument();
    expect(within(dialog).queryByText(/By saving a card you allow Larder/)).not.toBeInTheDocument();
    expect(dialog.querySelector('[data-card-state]')).toHaveAttribute('data-card-state', 'CREATED');
  });

  it('shows why the card page could not be opened, and tries again', async () => {
    const cardLink = vi
      .fn()
      .mockRejectedValueOnce(problem(409, 'billing_details_required'))
      .mockResolvedValue({ url: '/billing/providers/sandbox/pay/s2', sessionID: 's2', provider: 'sandbox', framed: true });
    show(fakeBillingApi({ cardLink }));
    await screen.findByTestId('billing-amount');
    await userEvent.click(screen.getByRole('button', { name: 'Setup Credit Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Could not open the card page: Set the billing e-mail and country before setting up a credit card.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByTitle('Card payment page')).toHaveAttribute('src', '/billing/providers/sandbox/pay/s2');
  });

  it('asks for the billing address first when the city is empty, in place', async () => {
    const billing = fakeBillingApi({ details: vi.fn(async () => billingDetails({ billingAddress: { address: '', city: '', country: 'US', postcode: '' } })) });
    show(billing);
    await screen.findByTestId('billing-amount');
    await userEvent.click(screen.getByRole('button', { name: 'Setup Credit Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    expect(await within(dialog).findByText('Billing Address must be set before setting up credit card details')).toBeInTheDocument();
    expect(billing.cardLink).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit Billing Info' }));
    await userEvent.type(within(dialog).getByLabelText('City'), 'Springfield');
    vi.mocked(billing.details).mockResolvedValue(billingDetails());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByTitle('Card payment page')).toBeInTheDocument();
  });

  it('opens by itself with setupCreditCard=true, and closing drops the parameter', async () => {
    const { router } = show(fakeBillingApi(), `${settings}?setupCreditCard=true`);
    const dialog = await screen.findByRole('dialog', { name: 'Setup Credit Card' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
