/**
 * The admin area's billing of all organizations, soft launch and one organization's admin
 * settings over a fake admin API: URL state, sorting, the whitelist, credit ×100, add-ons, plan.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import AdminBillingScreen from '../../src/screens/admin/AdminBillingScreen.tsx';
import AdminOrgSettingsScreen from '../../src/screens/admin/AdminOrgSettingsScreen.tsx';
import type { AdminApi } from '../../src/api/admin.ts';
import { AdminApiProvider } from '../../src/api/admin-queries.ts';
import type { AdminOrganization, AdminOrganizationDetail } from '../../definitions/schemas/admin.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { billingDetails } from './support/fake-billing-api.ts';
import { fakePlatformApi, ORG, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/admin-credit.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('admin-credit'));
vi.mock('../../definitions/forms/admin-add-on.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('admin-add-on'));

const OTHER = 'b'.repeat(24);

const organization = (overrides: Partial<AdminOrganization> = {}): AdminOrganization => ({
  id: ORG,
  name: 'Acme Kitchen',
  createdDate: '2026-01-02T10:00:00.000Z',
  planID: 'basic',
  planName: 'Basic Plan',
  status: 'GRACE',
  seats: 3,
  members: 1,
  projects: 2,
  nextBillingDate: '2026-12-01T00:00:00.000Z',
  balance: { amount: 2900, currency: 2 },
  credit: { amount: 500, nisAmount: 0 },
  whitelisted: false,
  ...overrides,
});

const detail = (): AdminOrganizationDetail => ({
  organization: organization(),
  members: [{ id: 'c'.repeat(24), email: 'ana@example.com', username: 'ana', admin: true, disabled: false, joinedDate: '2026-01-02T10:00:00.000Z' }],
  projects: [{ id: 'd'.repeat(24), name: 'Recipes', createdDate: '2026-01-02T10:00:00.000Z', collections: 4, items: 12345 }],
});

function fakeAdminApi(overrides: Partial<AdminApi> = {}) {
  return {
    organizations: vi.fn(async (query: { page?: number }) => ({ organizations: [organization(), organization({ id: OTHER, name: 'Blue Bakery', status: 'OK', whitelisted: true, credit: { amount: 0, nisAmount: 1800 } })], total: 120, page: query.page ?? 1, perPage: 50 })),
    organization: vi.fn(async () => detail()),
    billingDetails: vi.fn(async () => [billingDetails({ addOns: [{ title: 'Support', amount: 1000, nisAmount: 3500 }] })]),
    addCredit: vi.fn(async () => billingDetails()),
    addAddOn: vi.fn(async () => billingDetails()),
    replaceAddOns: vi.fn(async () => billingDetails()),
    setBillingDate: vi.fn(async () => billingDetails()),
    setPlan: vi.fn(async () => billingDetails({ plan: { id: 'enterprise', name: 'Enterprise Plan' } })),
    softLaunch: vi.fn(async () => ({ enabled: false })),
    setSoftLaunch: vi.fn(async (enabled: boolean) => ({ enabled })),
    whitelist: vi.fn(async () => ({ organizationIDs: [OTHER] })),
    setWhitelist: vi.fn(async (organizationIDs: readonly string[]) => ({ organizationIDs: [...organizationIDs] })),
    ...overrides,
  } as unknown as AdminApi & Record<string, ReturnType<typeof vi.fn>>;
}

function show(admin: AdminApi, path: string) {
  const wrap = (element: ReactElement) => <AdminApiProvider value={admin}>{element}</AdminApiProvider>;
  const routes = [
    { id: 'billingAdminList', path: '/admin/billing', element: wrap(<AdminBillingScreen />) },
    { id: 'adminOrgSettings', path: '/admin/billing/organization/:organizationID/settings', element: wrap(<AdminOrgSettingsScreen />) },
  ];
  return renderPlatform({ routes, path, api: fakePlatformApi() });
}

const toasts = () => vi.mocked(notify).mock.calls.map(([request]) => request.title);

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Billing of all organizations', () => {
  it('asks for the page the URL names, marks the sorted column and shows money, statuses and the whitelist', async () => {
    const admin = fakeAdminApi();
    show(admin, '/admin/billing?search=acme&status=GRACE&sort=credit&order=desc&page=2&bogus=1');
    await screen.findByRole('link', { name: 'Acme Kitchen' });
    expect(admin.organizations).toHaveBeenCalledWith({ search: 'acme', status: 'GRACE', sort: 'credit', order: 'desc', page: 2, perPage: 50 });
    expect(screen.getByRole('columnheader', { name: 'Credit' })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: 'Organization' })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('link', { name: 'Acme Kitchen' })).toHaveAttribute('href', `/admin/billing/organization/${ORG}/settings`);
    const acme = screen.getByRole('row', { name: /Acme Kitchen/ });
    expect(acme).toHaveTextContent('GRACE');
    expect(acme).toHaveTextContent('$5.00');
    expect(acme).toHaveTextContent('$29.00');
    expect(acme).toHaveTextContent('Dec 1, 2026');
    expect(screen.getByRole('row', { name: /Blue Bakery/ })).toHaveTextContent('$0.00 · ₪18.00');
    expect(screen.getByTestId('organizations-total')).toHaveTextContent('120 organizations');
    expect(screen.getByText('51–52 of 120')).toBeInTheDocument();
    expect(screen.getByLabelText('Billing status')).toHaveValue('GRACE');
    expect(screen.getByLabelText('Search organizations')).toHaveValue('acme');
  });

  it('sorts from a header, searches after a pause and starts again at page 1', async () => {
    const admin = fakeAdminApi();
    show(admin, '/admin/billing?page=3');
    await screen.findByRole('link', { name: 'Acme Kitchen' });
    expect(screen.getByRole('columnheader', { name: 'Organization' })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(screen.getByRole('button', { name: 'Seats' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/admin/billing?sort=seats&order=asc'));
    await userEvent.click(screen.getByRole('button', { name: 'Seats' }));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Seats' })).toHaveAttribute('aria-sort', 'descending'));
    await userEvent.type(screen.getByLabelText('Search organizations'), 'blue');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('search=blue'));
    expect(admin.organizations).toHaveBeenLastCalledWith(expect.objectContaining({ search: 'blue', sort: 'seats', order: 'desc', page: 1 }));
    await userEvent.selectOptions(screen.getByLabelText('Billing status'), 'BLOCK');
    await waitFor(() => expect(admin.organizations).toHaveBeenLastCalledWith(expect.objectContaining({ status: 'BLOCK', page: 1 })));
  });

  it('turns soft launch on only after the confirmation, and whitelists from a row and by id', async () => {
    const admin = fakeAdminApi();
    show(admin, '/admin/billing');
    const toggle = await screen.findByRole('switch', { name: 'Soft launch' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(screen.getByText(/applies only to the organizations on the whitelist/)).toBeInTheDocument();
    await userEvent.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Turn soft launch on?' });
    expect(dialog).toHaveTextContent('the 1 organization on the whitelist');
    expect(admin.setSoftLaunch).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(admin.setSoftLaunch).toHaveBeenCalledWith(true));
    await waitFor(() => expect(toasts()).toContain('Soft launch is on'));

    await userEvent.click(screen.getByRole('button', { name: 'Add Acme Kitchen to the soft-launch whitelist' }));
    await waitFor(() => expect(admin.setWhitelist).toHaveBeenCalledWith([OTHER, ORG]));
    expect(toasts()).toContain('Acme Kitchen is on the soft-launch whitelist');

    const idField = screen.getByLabelText('Organization id');
    await userEvent.type(idField, 'not-an-id');
    await userEvent.click(screen.getByRole('button', { name: 'Add to the whitelist' }));
    expect(screen.getByText('An organization id is 24 characters of 0–9 and a–f')).toBeInTheDocument();
    expect(idField).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(idField);
    await userEvent.type(idField, 'E'.repeat(24));
    await userEvent.click(screen.getByRole('button', { name: 'Add to the whitelist' }));
    await waitFor(() => expect(admin.setWhitelist).toHaveBeenLastCalledWith([OTHER, 'e'.repeat(24)]));
  });
});

describe("One organization's admin settings", () => {
  const path = `/admin/billing/organization/${ORG}/settings`;

  it('shows the billing facts, members and projects', async () => {
    const admin = fakeAdminApi();
    show(admin, path);
    expect(await screen.findByRole('heading', { level: 2, name: 'Acme Kitchen' })).toBeInTheDocument();
    expect(admin.billingDetails).toHaveBeenCalledWith([ORG]);
    const facts = screen.getByTestId('admin-org-facts');
    expect(facts).toHaveTextContent('Basic Plan');
    expect(screen.getByTestId('credit-usd')).toHaveTextContent('$5.00');
    expect(screen.getByTestId('credit-nis')).toHaveTextContent('₪18.00');
    expect(screen.getByRole('table', { name: 'Members' })).toHaveTextContent('ana@example.com');
    expect(screen.getByRole('table', { name: 'Projects' })).toHaveTextContent('12,345');
    expect(screen.getByRole('link', { name: 'All organizations' })).toHaveAttribute('href', '/admin/billing');
  });

  it('adds credit as whole major units ×100 and refuses a fraction, a negative and nothing', async () => {
    const admin = fakeAdminApi();
    show(admin, path);
    const usd = await screen.findByLabelText('Amount in USD');
    const submit = screen.getByRole('button', { name: 'Add credit' });
    await userEvent.click(submit);
    expect(await screen.findByText('Enter an amount above 0 in at least one currency')).toBeInTheDocument();
    await userEvent.type(usd, '5.5');
    await userEvent.click(submit);
    expect(await screen.findByText('Enter a whole number, 0 or more')).toBeInTheDocument();
    await userEvent.clear(usd);
    await userEvent.type(usd, '-1');
    await userEvent.click(submit);
    expect(await screen.findByText('Enter a whole number, 0 or more')).toBeInTheDocument();
    expect(admin.addCredit).not.toHaveBeenCalled();
    await userEvent.clear(usd);
    await userEvent.type(usd, '5');
    await userEvent.type(screen.getByLabelText('Amount in NIS'), '12');
    await userEvent.click(submit);
    await waitFor(() => expect(admin.addCredit).toHaveBeenCalledWith(ORG, { amount: 500, nisAmount: 1200 }));
    await waitFor(() => expect(toasts()).toContain('Credit added to organization'));
    await waitFor(() => expect(screen.getByLabelText('Amount in USD')).toHaveValue(null));
  });

  it('adds an add-on ×100 and removes one by sending the rest', async () => {
    const admin = fakeAdminApi();
    show(admin, path);
    expect(await screen.findByTestId('add-ons')).toHaveTextContent('Support');
    await userEvent.type(screen.getByLabelText('Title'), 'Priority support');
    await userEvent.type(screen.getByLabelText('Price in USD'), '12');
    await userEvent.type(screen.getByLabelText('Price in NIS'), '40');
    await userEvent.click(screen.getByRole('button', { name: 'Add add-on' }));
    await waitFor(() => expect(admin.addAddOn).toHaveBeenCalledWith(ORG, { title: 'Priority support', amount: 1200, nisAmount: 4000 }));
    await waitFor(() => expect(toasts()).toContain('Billing Add-Ons Updated'));
    await userEvent.click(screen.getByRole('button', { name: 'Remove the add-on Support' }));
    await waitFor(() => expect(admin.replaceAddOns).toHaveBeenCalledWith(ORG, []));
  });

  it('sets a hidden plan, moves the billing date and whitelists the organization', async () => {
    const admin = fakeAdminApi();
    show(admin, path);
    const plan = await screen.findByLabelText('Plan');
    expect(plan).toHaveValue('basic');
    expect(within(plan).getByRole('option', { name: 'Enterprise Plan (hidden)' })).toBeInTheDocument();
    await userEvent.selectOptions(plan, 'enterprise');
    await userEvent.click(screen.getByRole('button', { name: 'Set plan' }));
    await waitFor(() => expect(admin.setPlan).toHaveBeenCalledWith(ORG, 'enterprise'));
    await userEvent.selectOptions(screen.getByLabelText('Plan'), 'free');
    await userEvent.click(screen.getByRole('button', { name: 'Set plan' }));
    await waitFor(() => expect(admin.setPlan).toHaveBeenLastCalledWith(ORG, null));

    const date = screen.getByLabelText('Next billing date');
    expect(date).toHaveValue('2026-12-01');
    await userEvent.clear(date);
    await userEvent.type(date, '2027-01-15');
    await userEvent.click(screen.getByRole('button', { name: 'Save billing date' }));
    await waitFor(() => expect(admin.setBillingDate).toHaveBeenCalledWith(ORG, '2027-01-15'));

    await userEvent.click(screen.getByRole('switch', { name: 'On the soft-launch whitelist' }));
    await waitFor(() => expect(admin.setWhitelist).toHaveBeenCalledWith([OTHER, ORG]));
  });
});
