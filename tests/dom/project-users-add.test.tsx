/**
 * Auth → Users, adding a user by hand (docs/console.md "Project users"): the Add user dialog sends
 * e-mail, password and "verified"; the new user shows in the list; a refusal is said in the dialog;
 * a member without the create flag is not offered it. The user's dialog says whether the address
 * is verified. The HTTP calls are stand-ins.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import ProjectShellScreen from '../../src/screens/project/ProjectShellScreen.tsx';
import ProjectUsersScreen from '../../src/screens/auth/ProjectUsersScreen.tsx';
import { ApiError } from '../../src/api/errors.ts';
import type { ProjectUser, ProjectUsersApi } from '../../src/api/project-users.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';
import { fakeProjectUsersApi } from './support/fake-project-users.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/new-project-user.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('new-project-user'));

const routes: RouteObject[] = [
  {
    id: 'viewProject',
    path: '/organization/:organizationID/project/:projectID',
    element: <ProjectShellScreen />,
    children: [{ id: 'auth', path: 'auth', children: [{ id: 'viewUsers', path: 'users', element: <ProjectUsersScreen /> }] }],
  },
];
const base = `/organization/${ORG}/project/${PROJECT}`;
const scope = { organizationID: ORG, projectID: PROJECT };

function open(users: Partial<ProjectUsersApi> = {}, platform: Parameters<typeof fakePlatformApi>[0] = {}) {
  const api = fakeProjectUsersApi(users);
  const view = renderPlatform({ routes, path: `${base}/auth/users`, api: fakePlatformApi({ project: vi.fn(async () => project({ collections: [] })), ...platform }), projectUsers: api });
  return { ...view, api };
}

vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Auth → Users: Add user', () => {
  it('adds a verified user by e-mail and password: "User has been added", and the list shows them', async () => {
    const list: ProjectUser[] = [];
    const addUser = vi.fn(async (_scope: unknown, draft: { email: string; password: string; verified: boolean }) => {
      const user = { userID: 'new1', email: draft.email, phone: null, verified: draft.verified, createdDate: '2025-03-04T10:05:00.000Z', lastLoggedIn: null, userGroups: [] };
      list.push(user);
      return user;
    });
    open({ users: vi.fn(async () => ({ users: list, total: list.length })), addUser } as Partial<ProjectUsersApi>);
    expect(await screen.findByText(/Your app has no users yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    await userEvent.type(within(dialog).getByLabelText('E-mail'), 'tester@example.com');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'correct horse 1');
    await userEvent.click(await within(dialog).findByRole('switch', { name: /verified/i }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    await waitFor(() => expect(addUser).toHaveBeenCalledWith(scope, { email: 'tester@example.com', password: 'correct horse 1', verified: true }));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'User has been added' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('row', { name: /tester@example\.com/ })).toBeInTheDocument();
  });

  it('checks the form before sending, and says the server’s refusal in the dialog', async () => {
    const addUser = vi.fn(async () => {
      throw new ApiError({ status: 409, code: 'user_exists', detail: 'A user with this e-mail address already exists in this project.' });
    });
    open({ addUser } as Partial<ProjectUsersApi>);
    await userEvent.click(await screen.findByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    await userEvent.type(within(dialog).getByLabelText('E-mail'), 'not an address');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(await within(dialog).findByText('Invalid email address')).toBeInTheDocument();
    expect(addUser).not.toHaveBeenCalled();
    await userEvent.clear(within(dialog).getByLabelText('E-mail'));
    await userEvent.type(within(dialog).getByLabelText('E-mail'), 'taken@example.com');
    await userEvent.clear(within(dialog).getByLabelText(/^Password/));
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'correct horse 1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(await within(dialog).findByText(/already exists/)).toBeInTheDocument();
    expect(addUser).toHaveBeenCalledWith(scope, { email: 'taken@example.com', password: 'correct horse 1', verified: false });
    expect(screen.getByRole('dialog', { name: 'Add user' })).toBeInTheDocument();
  });

  it('is offered to a member who may create, and not to one who may not', async () => {
    open({}, { organization: vi.fn(async () => organization({ users: [member('ana', { read: true, create: true })] })) });
    expect(await screen.findByRole('button', { name: 'Add user' })).toBeInTheDocument();
    cleanup();
    open({}, { organization: vi.fn(async () => organization({ users: [member('ana', { read: true, update: true, delete: true })] })) });
    expect(await screen.findByText(/Your app has no users yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add user' })).not.toBeInTheDocument();
  });

  it('the user’s dialog says whether the e-mail address is verified', async () => {
    const someone: ProjectUser = { userID: 'u1', email: 'ana@example.com', phone: null, verified: false, createdDate: '2025-03-04T10:05:00.000Z', lastLoggedIn: null, userGroups: [] };
    open({ users: vi.fn(async () => ({ users: [someone], total: 1 })), user: vi.fn(async () => someone) });
    await userEvent.click(await screen.findByRole('button', { name: 'View ana@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'ana@example.com' });
    expect(within(dialog).getByText('Verified')).toBeInTheDocument();
    expect(within(dialog).getByText('No')).toBeInTheDocument();
  });
});
