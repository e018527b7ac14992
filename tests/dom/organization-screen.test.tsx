/** The organization page: tabs, project cards, settings by role, rename, delete. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import OrganizationScreen from '../../src/screens/organization/OrganizationScreen.tsx';
import { ApiError } from '../../src/api/errors.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, me, member, ORG, organization, PROJECT, renderPlatform } from './support/platform.tsx';
import { fakeBillingApi } from './support/fake-billing-api.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/organization-name.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('organization-name'));
vi.mock('../../definitions/forms/new-project.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('new-project'));
vi.mock('../../definitions/forms/add-seats.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('add-seats'));
vi.mock('../../definitions/forms/invite-email.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('invite-email'));
vi.mock('../../definitions/forms/billing-info.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('billing-info'));

const routes = [
  { id: 'organization', path: '/organization/:organizationID', element: <OrganizationScreen /> },
  { id: 'organizationSettings', path: '/organization/:organizationID/settings', element: <OrganizationScreen /> },
  { id: 'viewProject', path: '/organization/:organizationID/project/:projectID', element: <p>project page</p> },
  { id: 'home', path: '/', element: <p>home page</p> },
];

const reader = { ...me, email: 'bob@example.com', username: 'bob' };
const withReader = organization({ users: [member('ana', { admin: true, read: true, create: true, update: true, delete: true }), member('bob', { read: true })] });

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('organization page', () => {
  it('has the tabs Overview and Settings, one route each', async () => {
    const { router } = renderPlatform({ routes, path: `/organization/${ORG}`, api: fakePlatformApi() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Kitchen' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(router.state.location.pathname).toBe(`/organization/${ORG}/settings`);
    expect(await screen.findByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('heading', { name: 'General' })).toBeInTheDocument();
  });

  it('shows a card per project (name, description, link into it) and the New Project card', async () => {
    renderPlatform({ routes, path: `/organization/${ORG}`, api: fakePlatformApi() });
    const recipes = await screen.findByRole('link', { name: /Recipes/ });
    expect(recipes).toHaveAttribute('href', `/organization/${ORG}/project/${PROJECT}`);
    expect(recipes).toHaveTextContent('Every recipe of the kitchen');
    expect(screen.getByRole('link', { name: /Blog/ })).toHaveTextContent('No description');
    expect(screen.getByRole('button', { name: 'New Project' })).toBeInTheDocument();
  });

  it('offers no New Project card to a member who may not create', async () => {
    renderPlatform({ routes, path: `/organization/${ORG}`, api: fakePlatformApi({ organization: vi.fn(async () => withReader) }), user: reader });
    await screen.findByRole('link', { name: /Recipes/ });
    expect(screen.queryByRole('button', { name: 'New Project' })).not.toBeInTheDocument();
  });

  it('shows admins every settings section', async () => {
    renderPlatform({ routes, path: `/organization/${ORG}/settings`, api: fakePlatformApi(), billing: fakeBillingApi() });
    for (const name of ['General', 'Users', 'Billing', 'Plan & Usage', 'Danger Zone']) {
      expect(await screen.findByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Organization name')).toHaveValue('Acme Kitchen');
    expect(screen.getByRole('button', { name: 'Invite' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add seats' })).toBeInTheDocument();
    // Billing shows the account's Info and History (tests/dom/billing-section.test.tsx).
    expect(screen.getByRole('tablist', { name: 'Billing' })).toBeInTheDocument();
  });

  it('shows a non-admin only General (read-only) and the user list', async () => {
    renderPlatform({ routes, path: `/organization/${ORG}/settings`, api: fakePlatformApi({ organization: vi.fn(async () => withReader) }), user: reader });
    expect(await screen.findByRole('heading', { level: 2, name: 'General' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Users' })).toBeInTheDocument();
    for (const name of ['Billing', 'Plan & Usage', 'Danger Zone']) expect(screen.queryByRole('heading', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Organization name' })).not.toBeInTheDocument();
    expect(screen.getByText('Only administrators can rename the organization.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
    const rows = screen.getAllByRole('row');
    expect(within(rows[2]!).getByText('Read only')).toBeInTheDocument();
  });

  it('scrolls to the plans with view=plans, for admins only', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    renderPlatform({ routes, path: `/organization/${ORG}/settings?view=plans`, api: fakePlatformApi() });
    await screen.findByRole('heading', { name: 'Plan & Usage' });
    await waitFor(() => expect(scrolled).toHaveBeenCalled());
    expect(scrolled.mock.contexts[0]).toHaveAttribute('id', 'plans');
    cleanup();
    scrolled.mockClear();
    renderPlatform({ routes, path: `/organization/${ORG}/settings?view=plans`, api: fakePlatformApi({ organization: vi.fn(async () => withReader) }), user: reader });
    await screen.findByRole('heading', { name: 'Users' });
    expect(scrolled).not.toHaveBeenCalled();
  });

  it('renames the organization: "Organization Updated"', async () => {
    const renameOrganization = vi.fn(async (_id: string, name: string) => organization({ name }));
    renderPlatform({ routes, path: `/organization/${ORG}/settings`, api: fakePlatformApi({ renameOrganization }) });
    const name = await screen.findByLabelText('Organization name');
    await userEvent.clear(name);
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(name, '  Acme Bakery ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(renameOrganization).toHaveBeenCalledWith(ORG, 'Acme Bakery'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Organization Updated' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Bakery' })).toBeInTheDocument();
  });

  it('deletes the organization only when its exact name is typed', async () => {
    const deleteOrganization = vi.fn(async () => undefined);
    const { router } = renderPlatform({ routes, path: `/organization/${ORG}/settings`, api: fakePlatformApi({ deleteOrganization }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete organization' });
    await userEvent.type(within(dialog).getByLabelText('Organization name'), 'acme kitchen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Organization name is not correct');
    expect(deleteOrganization).not.toHaveBeenCalled();
    await userEvent.clear(within(dialog).getByLabelText('Organization name'));
    await userEvent.type(within(dialog).getByLabelText('Organization name'), 'Acme Kitchen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(deleteOrganization).toHaveBeenCalledWith(ORG);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Organization Deleted' });
  });

  it('says why an organization could not be deleted', async () => {
    const deleteOrganization = vi.fn(async () => {
      throw new ApiError({ status: 409, code: 'conflict', detail: 'Try again later.' });
    });
    renderPlatform({ routes, path: `/organization/${ORG}/settings`, api: fakePlatformApi({ deleteOrganization }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Organization name'), 'Acme Kitchen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Organization could not be deleted Try again later.' }));
  });

  it("says a known refusal in the catalogue's words, not the server's detail", async () => {
    const deleteOrganization = vi.fn(async () => {
      throw new ApiError({ status: 403, code: 'insufficient_permissions', detail: 'Only an admin may delete the organization.' });
    });
    renderPlatform({ routes, path: `/organization/${ORG}/settings`, api: fakePlatformApi({ deleteOrganization }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Organization name'), 'Acme Kitchen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Organization could not be deleted Your permissions in this organization do not allow this.' }),
    );
  });
});
