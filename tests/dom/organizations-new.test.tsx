/** New organization (page and first-organization dialog) and New Project. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import HomeScreen from '../../src/screens/HomeScreen.tsx';
import NewOrganizationScreen from '../../src/screens/NewOrganizationScreen.tsx';
import OrganizationScreen from '../../src/screens/organization/OrganizationScreen.tsx';
import { queryKeys } from '../../src/api/queries.ts';
import type { Me } from '../../src/api/auth.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, me, ORG, organization, project, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/new-organization.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('new-organization'));
vi.mock('../../definitions/forms/organization-name.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('organization-name'));
vi.mock('../../definitions/forms/new-project.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('new-project'));
vi.mock('../../definitions/forms/add-seats.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('add-seats'));
vi.mock('../../definitions/forms/invite-email.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('invite-email'));

const NEW_ORG = 'c'.repeat(24);
const routes = [
  { id: 'home', path: '/', element: <HomeScreen /> },
  { id: 'newOrganization', path: '/newOrganization', element: <NewOrganizationScreen /> },
  { id: 'organization', path: '/organization/:organizationID', element: <OrganizationScreen /> },
  { id: 'viewProject', path: '/organization/:organizationID/project/:projectID', element: <p>project page</p> },
];
const newcomer: Me = { ...me, organizations: [] };

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('first organization', () => {
  it('home without an organization asks for one in a dialog that does not go away', async () => {
    renderPlatform({ routes, path: '/', api: fakePlatformApi(), user: newcomer });
    const dialog = await screen.findByRole('dialog', { name: 'Create your first organization' });
    expect(within(dialog).queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Create your first organization' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create organization' })).toBeDisabled();
  });

  it('creates it, remembers the membership at once, and opens it', async () => {
    const createOrganization = vi.fn(async (name: string) => organization({ id: NEW_ORG, name, projects: [] }));
    const { router, queryClient } = renderPlatform({ routes, path: '/', api: fakePlatformApi({ createOrganization, organization: vi.fn(async () => organization({ id: NEW_ORG, name: 'Acme', projects: [] })) }), user: newcomer });
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Organization name'), '  Acme  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create organization' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organization/${NEW_ORG}`));
    expect(createOrganization).toHaveBeenCalledWith('Acme');
    // The organization guard reads the user from the cache: it must already list the new one.
    expect(queryClient.getQueryData<Me>(queryKeys.me)?.organizations).toEqual([NEW_ORG]);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Organization created' });
  });

  it('has a page of its own', async () => {
    renderPlatform({ routes, path: '/newOrganization', api: fakePlatformApi() });
    expect(await screen.findByRole('heading', { level: 1, name: 'New organization' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create organization' })).toBeDisabled();
  });
});

describe('New Project dialog', () => {
  async function openDialog(api = fakePlatformApi()) {
    const view = renderPlatform({ routes, path: `/organization/${ORG}`, api });
    await userEvent.click(await screen.findByRole('button', { name: 'New Project' }));
    return { ...view, dialog: await screen.findByRole('dialog', { name: 'New Project' }) };
  }

  it('keeps Create disabled while the name is empty or only spaces', async () => {
    const { dialog } = await openDialog();
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Project Name'), '   ');
    expect(create).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Project Name'), 'x');
    expect(create).toBeEnabled();
  });

  it('creates with the name trimmed and the description: "Project Created", then opens the project', async () => {
    const createProject = vi.fn(async (_org: string, body: { name: string; description?: string }) => project({ id: 'd'.repeat(24), ...body }));
    const { dialog, router } = await openDialog(fakePlatformApi({ createProject }));
    await userEvent.type(within(dialog).getByLabelText('Project Name'), '  Shop  ');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Products');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(createProject).toHaveBeenCalledWith(ORG, { name: 'Shop', description: 'Products' }, undefined));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Project Created' });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organization/${ORG}/project/${'d'.repeat(24)}`));
  });

  it('"Use a template?" offers the organization’s projects, says honestly what a template brings, and sends the choice', async () => {
    const createProject = vi.fn(async () => project({ id: 'd'.repeat(24) }));
    const { dialog } = await openDialog(fakePlatformApi({ createProject }));
    expect(within(dialog).queryByLabelText('Select Template')).not.toBeInTheDocument();
    const toggle = within(dialog).getByRole('switch', { name: 'Use a template?' });
    expect(toggle).toHaveAccessibleDescription(/its collections and their schemas are copied, its items are not/);
    await userEvent.click(toggle);
    const select = within(dialog).getByLabelText('Select Template');
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Recipes', 'Blog']);
    await userEvent.selectOptions(select, 'Blog');
    await userEvent.type(within(dialog).getByLabelText('Project Name'), 'Shop');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(createProject).toHaveBeenCalledWith(ORG, { name: 'Shop' }, 'b'.repeat(24)));
  });

  it('cannot use a template in an organization without projects', async () => {
    const { dialog } = await openDialog(fakePlatformApi({ organization: vi.fn(async () => organization({ projects: [] })) }));
    const toggle = within(dialog).getByRole('switch', { name: 'Use a template?' });
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription('This organization has no project to use as a template yet.');
  });
});
