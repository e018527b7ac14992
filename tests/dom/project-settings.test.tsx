/** Project Settings and API tokens. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import ProjectShellScreen from '../../src/screens/project/ProjectShellScreen.tsx';
import ProjectSettingsScreen from '../../src/screens/project/ProjectSettingsScreen.tsx';
import NewApiTokenScreen from '../../src/screens/project/NewApiTokenScreen.tsx';
import { ApiError } from '../../src/api/errors.ts';
import type { ApiToken, MintedToken } from '../../src/api/platform.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import type { TokenDraft } from '../../definitions/api-tokens.ts';
import { fakePlatformApi, me, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/project-general.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('project-general'));

const routes: RouteObject[] = [
  {
    id: 'viewProject',
    path: '/organization/:organizationID/project/:projectID',
    element: <ProjectShellScreen />,
    children: [
      { id: 'noCollectionSelected', index: true, element: <p>project page</p> },
      { id: 'viewProjectSettings', path: 'settings', element: <ProjectSettingsScreen /> },
      { id: 'newAPIKey', path: 'newAPIKey', element: <NewApiTokenScreen /> },
    ],
  },
  { id: 'organization', path: '/organization/:organizationID', element: <p>organization page</p> },
];
const base = `/organization/${ORG}/project/${PROJECT}`;
const withCollections = project({ collections: [{ id: 'posts', name: 'Posts', singleItem: false, rtlDirection: false }, { id: 'authors', name: 'Authors', singleItem: false, rtlDirection: false }] });

const saved: ApiToken = {
  id: 'e'.repeat(24),
  name: 'Website',
  projectID: PROJECT,
  organizationID: ORG,
  userAdmin: false,
  userGroupID: null,
  powerCreate: false,
  powerRead: true,
  powerUpdate: false,
  powerDelete: false,
  powerWrite: false,
  roles: [{ collection: 'posts', create: true, read: true, update: false, delete: false }],
  createdDate: '2025-03-04T10:05:00.000Z',
  updatedDate: '2025-03-04T10:05:00.000Z',
};

const open = (path: string, overrides: Parameters<typeof fakePlatformApi>[0] = {}, user = me) =>
  renderPlatform({ routes, path: `${base}${path}`, api: fakePlatformApi(overrides), user });

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Project Settings', () => {
  it('shows General (name, ProjectID with copy, description), Api Tokens and the Danger Zone', async () => {
    open('/settings');
    expect(await screen.findByRole('heading', { name: 'General' })).toBeInTheDocument();
    expect(screen.getByText(PROJECT)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy ProjectID' })).toBeInTheDocument();
    expect(screen.getByLabelText('Project Name')).toHaveValue('Recipes');
    expect(screen.getByLabelText('Description')).toHaveValue('Every recipe of the kitchen');
    expect(screen.getByRole('heading', { name: 'Api Tokens' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+ New API Token' })).toHaveAttribute('href', `${base}/newAPIKey`);
    expect(screen.getByRole('heading', { name: 'Danger Zone' })).toBeInTheDocument();
  });

  it('saves the name and description', async () => {
    const updateProject = vi.fn(async (_org: string, _id: string, body: { name?: string; description?: string }) => project(body));
    open('/settings', { updateProject });
    const name = await screen.findByLabelText('Project Name');
    await userEvent.clear(name);
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(name, ' Cookbook ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updateProject).toHaveBeenCalledWith(ORG, PROJECT, { name: 'Cookbook', description: 'Every recipe of the kitchen' }));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Project updated' });
  });

  it('shows a reader the project without forms or the Danger Zone', async () => {
    const reader = { ...me, email: 'bob@example.com' };
    open('/settings', { organization: vi.fn(async () => organization({ users: [member('bob', { read: true })] })) }, reader);
    expect(await screen.findByText('Your permissions do not allow changing this project.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Project Name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Danger Zone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '+ New API Token' })).not.toBeInTheDocument();
  });

  it('deletes the project only when its exact name is typed, then reloads the organization and opens it', async () => {
    const deleteProject = vi.fn(async () => undefined);
    const loadOrganization = vi.fn(async () => organization());
    const { router } = open('/settings', { deleteProject, organization: loadOrganization });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Project' });
    // 500 px wide (less on a screen narrower than that).
    expect(dialog.style.getPropertyValue('--dialog-width')).toBe('500px');
    const input = within(dialog).getByLabelText('Project name');
    await userEvent.type(input, 'recipes');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Project' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Project name does not match');
    expect(deleteProject).not.toHaveBeenCalled();
    await userEvent.clear(input);
    await userEvent.type(input, 'Recipes');
    const loadsBefore = loadOrganization.mock.calls.length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Project' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organization/${ORG}`));
    expect(deleteProject).toHaveBeenCalledWith(ORG, PROJECT);
    // The organization was read again before the page changed.
    expect(loadOrganization.mock.calls.length).toBeGreaterThan(loadsBefore);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Project Deleted' });
  });

  it('says "Project could not be deleted" when the server refuses', async () => {
    const deleteProject = vi.fn(async () => {
      throw new ApiError({ status: 500, code: 'internal', detail: 'boom' });
    });
    const { router } = open('/settings', { deleteProject });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Project' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Project name'), 'Recipes');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Project' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Project could not be deleted' }));
    expect(router.state.location.pathname).toBe(`${base}/settings`);
  });
});

describe('API tokens', () => {
  it('the new token form starts blank; Generate waits for a name', async () => {
    open('/newAPIKey', { project: vi.fn(async () => withCollections) });
    expect(await screen.findByRole('heading', { name: 'New API token' })).toBeInTheDocument();
    expect(screen.getByLabelText('Token name')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Generate Token' })).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Token name'), '   ');
    expect(screen.getByRole('button', { name: 'Generate Token' })).toBeDisabled();
    for (const name of ['Create', 'Read', 'Update', 'Delete', 'Write']) expect(screen.getByRole('switch', { name })).not.toBeChecked();
    expect(screen.getByText('Enable token to read or write to any collection')).toBeInTheDocument();
    expect(screen.getByText('To get started with users, first create a User Group in the Auth section')).toBeInTheDocument();
  });

  it('lists the collections once the project has them', async () => {
    open('/newAPIKey');
    expect(await screen.findByText('Permissions per collection appear here once the project has collections.')).toBeInTheDocument();
    cleanup();
    open('/newAPIKey', { project: vi.fn(async () => withCollections) });
    expect(await screen.findByRole('switch', { name: 'Read in Posts' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Delete in Authors' })).toBeInTheDocument();
  });

  it('User Admin sets the group to "admin" and locks the choice', async () => {
    open('/newAPIKey');
    await userEvent.click(await screen.findByRole('switch', { name: 'User Admin' }));
    const group = screen.getByLabelText('User group of users created with this token');
    expect(group).toHaveValue('admin');
    expect(group).toBeDisabled();
    await userEvent.click(screen.getByRole('switch', { name: 'User Admin' }));
    expect(screen.queryByLabelText('User group of users created with this token')).not.toBeInTheDocument();
  });

  it('generates a token, shows it once with a copy button, and starts the form again', async () => {
    const createApiToken = vi.fn(async (_org: string, _project: string, draft: TokenDraft) => ({ ...saved, ...draft, jwtToken: 'jwt.secret.value' }) as MintedToken);
    open('/newAPIKey', { project: vi.fn(async () => withCollections), createApiToken });
    await userEvent.type(await screen.findByLabelText('Token name'), ' Website ');
    await userEvent.click(screen.getByRole('switch', { name: 'Read in Posts' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Create in Posts' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Read in Posts' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Update in Authors' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Read' }));
    await userEvent.click(screen.getByRole('button', { name: 'Generate Token' }));
    await waitFor(() => expect(createApiToken).toHaveBeenCalled());
    expect(createApiToken.mock.calls[0]).toEqual([
      ORG,
      PROJECT,
      {
        name: 'Website',
        userAdmin: false,
        userGroupID: null,
        powerCreate: false,
        powerRead: true,
        powerUpdate: false,
        powerDelete: false,
        powerWrite: false,
        roles: [
          { collection: 'posts', create: true, read: false, update: false, delete: false },
          { collection: 'authors', create: false, read: false, update: true, delete: false },
        ],
      },
    ]);
    expect(await screen.findByRole('textbox', { name: 'API token' })).toHaveValue('jwt.secret.value');
    expect(screen.getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(screen.getByLabelText('Token name')).toHaveValue('');
    expect(screen.getByRole('switch', { name: 'Read' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Create in Posts' })).not.toBeChecked();
  });

  it('does not offer a right beyond the member’s own', async () => {
    const creator = { ...me, email: 'bob@example.com' };
    open('/newAPIKey', { organization: vi.fn(async () => organization({ users: [member('bob', { read: true, create: true })] })), project: vi.fn(async () => withCollections) }, creator);
    await screen.findByRole('switch', { name: 'Read in Posts' });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Write' })).toBeDisabled());
    expect(screen.getByRole('switch', { name: 'Create' })).toBeEnabled();
    expect(screen.getByRole('switch', { name: 'Update' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Delete in Posts' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'User Admin' })).toBeDisabled();
  });

  it('shows a saved token with its header; edit mode has Delete and Save, Save waits for a name', async () => {
    const updateApiToken = vi.fn(async (token: ApiToken, draft: TokenDraft) => ({ ...token, ...draft }));
    open('/settings', { project: vi.fn(async () => withCollections), apiTokens: vi.fn(async () => [saved]), updateApiToken });
    const card = await screen.findByRole('article', { name: 'Website' });
    expect(within(card).getByText('Any collection: Read')).toBeInTheDocument();
    expect(within(card).getByText('Posts: Create, Read')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Edit Website' }));
    const name = within(card).getByLabelText('Token name');
    expect(name).toHaveValue('Website');
    expect(within(card).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    await userEvent.clear(name);
    expect(within(card).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(name, 'Web shop');
    await userEvent.click(within(card).getByRole('switch', { name: 'Delete in Posts' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updateApiToken).toHaveBeenCalled());
    expect(updateApiToken.mock.calls[0]![1]).toMatchObject({ name: 'Web shop', roles: [{ collection: 'posts', create: true, read: true, update: false, delete: true }] });
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Token has been updated' });
    expect(await screen.findByRole('article', { name: 'Web shop' })).toBeInTheDocument();
  });

  it('deletes a saved token: "Token has been deleted"', async () => {
    const deleteApiToken = vi.fn(async () => undefined);
    open('/settings', { apiTokens: vi.fn(async () => [saved]), deleteApiToken });
    const card = await screen.findByRole('article', { name: 'Website' });
    await userEvent.click(within(card).getByRole('button', { name: 'Edit Website' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleteApiToken).toHaveBeenCalledWith(saved.id));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Token has been deleted' });
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Website' })).not.toBeInTheDocument());
    expect(screen.getByText('This project has no API tokens yet.')).toBeInTheDocument();
  });
});
