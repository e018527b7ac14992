/**
 * The Auth section of the project shell: Users
 * (paging, search, view, delete, password reset), Groups (create, rename, the collection × right
 * matrix, delete), the token form's group selector, the item page's Users panel and the public
 * reset page of app users. The HTTP calls are stand-ins.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import ProjectShellScreen from '../../src/screens/project/ProjectShellScreen.tsx';
import NewApiTokenScreen from '../../src/screens/project/NewApiTokenScreen.tsx';
import ProjectUsersScreen from '../../src/screens/auth/ProjectUsersScreen.tsx';
import UserGroupsScreen from '../../src/screens/auth/UserGroupsScreen.tsx';
import AppUserResetPasswordScreen from '../../src/screens/auth/AppUserResetPasswordScreen.tsx';
import { ItemUsersPanel } from '../../src/screens/auth/ItemUsersPanel.tsx';
import { ApiError } from '../../src/api/errors.ts';
import type { ProjectUser, ProjectUsersApi, UserGroup } from '../../src/api/project-users.ts';
import { ProjectUsersApiProvider } from '../../src/api/project-users-queries.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';
import { fakeProjectUsersApi } from './support/fake-project-users.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/reset-password.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('reset-password'));

const routes: RouteObject[] = [
  {
    id: 'viewProject',
    path: '/organization/:organizationID/project/:projectID',
    element: <ProjectShellScreen />,
    children: [
      { id: 'noCollectionSelected', index: true, element: <p>project page</p> },
      { id: 'newAPIKey', path: 'newAPIKey', element: <NewApiTokenScreen /> },
      {
        id: 'auth',
        path: 'auth',
        children: [
          { id: 'viewUsers', path: 'users', element: <ProjectUsersScreen /> },
          { id: 'viewRoles', path: 'viewRoles', element: <UserGroupsScreen /> },
        ],
      },
    ],
  },
  { id: 'organization', path: '/organization/:organizationID', element: <p>organization page</p> },
];
const base = `/organization/${ORG}/project/${PROJECT}`;
const scope = { organizationID: ORG, projectID: PROJECT };
const collections = [
  { id: 'posts', name: 'Posts', singleItem: false, rtlDirection: false },
  { id: 'authors', name: 'Authors', singleItem: false, rtlDirection: false },
];

const appUser = (n: number, extra: Partial<ProjectUser> = {}): ProjectUser => ({
  userID: `user${n}`,
  email: `reader${n}@example.com`,
  phone: null,
  createdDate: '2025-03-04T10:05:00.000Z',
  lastLoggedIn: null,
  userGroups: [],
  ...extra,
});
const editors: UserGroup = { groupID: 'g1', name: 'Editors', permissions: [{ collection: 'posts', create: false, read: true, update: false, delete: false, associatedOnly: false }] };

function open(path: string, users: Partial<ProjectUsersApi> = {}, platform: Parameters<typeof fakePlatformApi>[0] = {}) {
  const api = fakeProjectUsersApi(users);
  const view = renderPlatform({ routes, path: `${base}${path}`, api: fakePlatformApi({ project: vi.fn(async () => project({ collections })), ...platform }), projectUsers: api });
  return { ...view, api };
}

// Typing through user-event on a busy machine: more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Auth → Users', () => {
  it('lists users a page at a time, marked Beta, with created and last login', async () => {
    const users = vi.fn(async (_scope: unknown, query: { pageNumber?: number } = {}) =>
      query.pageNumber === 2 ? { users: [appUser(51)], total: 51 } : { users: Array.from({ length: 50 }, (_, i) => appUser(i + 1, i === 0 ? { lastLoggedIn: '2025-04-01T08:00:00.000Z' } : {})), total: 51 },
    );
    open('/auth/users', { users });
    const table = await screen.findByRole('table', { name: /Users/ });
    expect(screen.getByRole('heading', { level: 2, name: 'Users Beta' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    const first = within(table).getByRole('row', { name: /reader1@example\.com/ });
    expect(first).toHaveTextContent('March 4, 2025');
    expect(first).toHaveTextContent('April 1, 2025');
    expect(within(table).getByRole('row', { name: /reader2@example\.com/ })).toHaveTextContent('Never');
    expect(screen.getByText('1–50 of 51')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('51–51 of 51')).toBeInTheDocument();
    expect(users).toHaveBeenLastCalledWith(scope, { pageNumber: 2, perPage: 50, search: '' });
    expect(screen.getByRole('row', { name: /reader51@example\.com/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('searches by e-mail or phone from page 1, and says when nothing matches', async () => {
    const users = vi.fn(async (_scope: unknown, query: { search?: string } = {}) => (query.search === 'nobody' ? { users: [], total: 0 } : { users: [appUser(1)], total: 1 }));
    open('/auth/users', { users });
    await screen.findByRole('row', { name: /reader1@example\.com/ });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    expect(await screen.findByText('No user matches “nobody”.')).toBeInTheDocument();
    expect(users).toHaveBeenLastCalledWith(scope, { pageNumber: 1, perPage: 50, search: 'nobody' });
    // One request for the pause, not one per key.
    expect(users.mock.calls.filter(([, query]) => (query?.search ?? '') !== '' && query?.search !== 'nobody')).toHaveLength(0);
  });

  it('says so when the app has no users', async () => {
    open('/auth/users');
    expect(await screen.findByText('Your app has no users yet. They appear here once they sign up through the Auth API.')).toBeInTheDocument();
  });

  it('shows a user with their groups and sends a password reset', async () => {
    const someone = appUser(1, { phone: null, userGroups: ['g1'] });
    const sendPasswordReset = vi.fn(async () => undefined);
    open('/auth/users', { users: vi.fn(async () => ({ users: [someone], total: 1 })), user: vi.fn(async () => someone), groups: vi.fn(async () => [editors]), sendPasswordReset });
    await userEvent.click(await screen.findByRole('button', { name: 'View reader1@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'reader1@example.com' });
    expect(within(dialog).getByText('user1')).toBeInTheDocument();
    expect(await within(dialog).findByText('Editors')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send password reset' }));
    await waitFor(() => expect(sendPasswordReset).toHaveBeenCalledWith(scope, 'reader1@example.com'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Password Reset Email Sent' });
  });

  it('deletes a user: "User has been deleted"', async () => {
    let list = [appUser(1), appUser(2)];
    const deleteUser = vi.fn(async (_scope: unknown, userID: string) => {
      list = list.filter((user) => user.userID !== userID);
    });
    open('/auth/users', { users: vi.fn(async () => ({ users: list, total: list.length })), deleteUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete reader2@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete reader2@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(deleteUser).toHaveBeenCalledWith(scope, 'user2'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'User has been deleted' });
    await waitFor(() => expect(screen.queryByRole('row', { name: /reader2@example\.com/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says "Could not delete user Unknown Error" when the delete fails, and keeps the user', async () => {
    const deleteUser = vi.fn(async () => {
      throw new ApiError({ status: 500, code: 'http_error', detail: '' });
    });
    open('/auth/users', { users: vi.fn(async () => ({ users: [appUser(1)], total: 1 })), deleteUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete reader1@example.com' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Could not delete user Unknown Error' }));
    // The question stays open over the list, which still has the user.
    expect(screen.getByRole('dialog', { name: 'Delete reader1@example.com?' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /reader1@example\.com/, hidden: true })).toBeInTheDocument();
  });

  it('changes a user’s groups by ticking the project’s groups: "User groups have been updated"', async () => {
    const guests: UserGroup = { groupID: 'g2', name: 'Guests', permissions: [] };
    let someone = appUser(1, { userGroups: ['g1'] });
    const setUserGroups = vi.fn(async (_scope: unknown, _userID: string, groupIDs: string[]) => {
      someone = { ...someone, userGroups: groupIDs };
      return someone;
    });
    open('/auth/users', { users: vi.fn(async () => ({ users: [someone], total: 1 })), user: vi.fn(async () => someone), groups: vi.fn(async () => [editors, guests]), setUserGroups });
    await userEvent.click(await screen.findByRole('button', { name: 'View reader1@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'reader1@example.com' });
    const fieldset = within(dialog).getByRole('group', { name: 'Groups' });
    const editorsBox = await within(fieldset).findByRole('checkbox', { name: 'Editors' });
    const guestsBox = within(fieldset).getByRole('checkbox', { name: 'Guests' });
    expect(editorsBox).toBeChecked();
    expect(guestsBox).not.toBeChecked();
    // Nothing changed yet: nothing to save.
    expect(within(dialog).getByRole('button', { name: 'Save groups' })).toBeDisabled();
    await userEvent.click(guestsBox);
    // The keyboard works too: Tab back to Editors and untick it with Space.
    await userEvent.tab({ shift: true });
    expect(editorsBox).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(editorsBox).not.toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save groups' }));
    await waitFor(() => expect(setUserGroups).toHaveBeenCalledWith(scope, 'user1', ['g2']));
    expect(setUserGroups).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'User groups have been updated' }));
    expect(guestsBox).toBeChecked();
    expect(editorsBox).not.toBeChecked();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save groups' })).toBeDisabled());
  });

  it('says "Could not update the user’s groups [reason]" when the change is refused, keeping the ticks', async () => {
    const someone = appUser(1, { userGroups: [] });
    const setUserGroups = vi.fn(async () => {
      throw new ApiError({ status: 400, code: 'unknown_user_group', detail: 'Not a user group of this project: g1.' });
    });
    open('/auth/users', { users: vi.fn(async () => ({ users: [someone], total: 1 })), user: vi.fn(async () => someone), groups: vi.fn(async () => [editors]), setUserGroups });
    await userEvent.click(await screen.findByRole('button', { name: 'View reader1@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'reader1@example.com' });
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: 'Editors' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save groups' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: "Could not update the user's groups Not a user group of this project: g1." }));
    expect(within(dialog).getByRole('checkbox', { name: 'Editors' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Save groups' })).toBeEnabled();
  });

  it("words a refused group save from the catalogue with the server's params", async () => {
    const problem = { type: '', title: '', status: 400, code: 'unknown_collection', detail: 'not shown', params: { collections: 'ghosts' } };
    const updateGroup = vi.fn(async () => {
      throw new ApiError({ status: 400, code: problem.code, detail: problem.detail, problem });
    });
    open('/auth/viewRoles', { groups: vi.fn(async () => [editors]), updateGroup });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Create in Posts' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save group' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Not a collection of this project: ghosts.' }));
  });

  it('shows a read-only member the user’s groups without a way to change them', async () => {
    const someone = appUser(1, { userGroups: ['g1'] });
    open(
      '/auth/users',
      { users: vi.fn(async () => ({ users: [someone], total: 1 })), user: vi.fn(async () => someone), groups: vi.fn(async () => [editors]) },
      { organization: vi.fn(async () => organization({ users: [member('ana', { read: true })] })) },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'View reader1@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'reader1@example.com' });
    expect(await within(dialog).findByText('Editors')).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Save groups' })).not.toBeInTheDocument();
  });

  it('offers no delete to a read-only member', async () => {
    open('/auth/users', { users: vi.fn(async () => ({ users: [appUser(1)], total: 1 })) }, { organization: vi.fn(async () => organization({ users: [member('ana', { read: true })] })) });
    await screen.findByRole('button', { name: 'View reader1@example.com' });
    expect(screen.queryByRole('button', { name: 'Delete reader1@example.com' })).not.toBeInTheDocument();
  });
});

describe('Auth → Groups', () => {
  it('creates a group and selects it', async () => {
    let groups: UserGroup[] = [];
    const createGroup = vi.fn(async (_scope: unknown, draft: { name: string }) => {
      const group = { groupID: 'g9', name: draft.name, permissions: [] };
      groups = [...groups, group];
      return group;
    });
    open('/auth/viewRoles', { groups: vi.fn(async () => groups), createGroup });
    expect(await screen.findByRole('heading', { level: 2, name: 'Groups Beta' })).toBeInTheDocument();
    expect(await screen.findByText("No user group yet. Create one to decide what your app's users may do.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create group' })).toBeDisabled();
    await userEvent.type(screen.getByLabelText('New group name'), '  Readers ');
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(createGroup).toHaveBeenCalledWith(scope, { name: 'Readers' }));
    expect(await screen.findByRole('heading', { name: 'Rights of Readers' })).toBeInTheDocument();
    expect(screen.getByLabelText('New group name')).toHaveValue('');
  });

  it('says "Could not create user group [reason]"', async () => {
    const createGroup = vi.fn(async () => {
      throw new ApiError({ status: 409, code: 'group_name_taken', detail: 'A user group with this name exists.' });
    });
    open('/auth/viewRoles', { createGroup });
    await userEvent.type(await screen.findByLabelText('New group name'), 'Editors');
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not create user group A user group with this name exists.');
  });

  it('renames a group and edits its matrix, then saves: "User group has been updated"', async () => {
    const updateGroup = vi.fn(async (_scope: unknown, group: UserGroup) => group);
    open('/auth/viewRoles', { groups: vi.fn(async () => [editors]), updateGroup });
    const matrix = await screen.findByRole('table', { name: 'Rights of Editors' });
    expect(within(matrix).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Collection', 'Create', 'Read', 'Update', 'Delete', 'Associated items only']);
    expect(within(matrix).getByRole('checkbox', { name: 'Read in Posts' })).toBeChecked();
    const save = screen.getByRole('button', { name: 'Save group' });
    expect(save).toBeDisabled();
    await userEvent.click(within(matrix).getByRole('checkbox', { name: 'Update in Authors' }));
    await userEvent.click(within(matrix).getByRole('checkbox', { name: 'Associated items only in Authors' }));
    await userEvent.click(within(matrix).getByRole('checkbox', { name: 'Read in Posts' }));
    const name = screen.getByLabelText('Group name');
    await userEvent.clear(name);
    expect(save).toBeDisabled();
    await userEvent.type(name, 'Writers');
    await userEvent.click(save);
    await waitFor(() =>
      expect(updateGroup).toHaveBeenCalledWith(scope, {
        groupID: 'g1',
        name: 'Writers',
        permissions: [{ collection: 'authors', create: false, read: false, update: true, delete: false, associatedOnly: true }],
      }),
    );
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'User group has been updated' });
  });

  it('moves between the matrix cells with the arrow keys and ticks with Space', async () => {
    open('/auth/viewRoles', { groups: vi.fn(async () => [editors]) });
    const matrix = await screen.findByRole('table', { name: 'Rights of Editors' });
    const first = within(matrix).getByRole('checkbox', { name: 'Create in Posts' });
    first.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(within(matrix).getByRole('checkbox', { name: 'Read in Posts' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    const readAuthors = within(matrix).getByRole('checkbox', { name: 'Read in Authors' });
    expect(readAuthors).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(readAuthors).toBeChecked();
  });

  it('shows the server text of a 400, else "Unknown error updating user group"', async () => {
    const updateGroup = vi
      .fn()
      .mockRejectedValueOnce(new ApiError({ status: 400, code: 'validation_failed', detail: 'Collection ghosts does not exist.' }))
      .mockRejectedValueOnce(new ApiError({ status: 500, code: 'internal', detail: 'boom' }));
    open('/auth/viewRoles', { groups: vi.fn(async () => [editors]), updateGroup });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Create in Posts' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save group' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Collection ghosts does not exist.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save group' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Unknown error updating user group' }));
  });

  it('deletes a group after asking', async () => {
    let groups = [editors, { groupID: 'g2', name: 'Guests', permissions: [] }];
    const deleteGroup = vi.fn(async (_scope: unknown, groupID: string) => {
      groups = groups.filter((group) => group.groupID !== groupID);
    });
    open('/auth/viewRoles', { groups: vi.fn(async () => groups), deleteGroup });
    await userEvent.click(await screen.findByRole('button', { name: 'Guests' }));
    expect(screen.getByRole('button', { name: 'Guests' })).toHaveAttribute('aria-current', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Delete group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the group Guests?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete group' }));
    await waitFor(() => expect(deleteGroup).toHaveBeenCalledWith(scope, 'g2'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Guests' })).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Rights of Editors' })).toBeInTheDocument();
  });
});

describe('the token form’s user group', () => {
  it('offers the project’s groups, and locks the choice while User Admin is on', async () => {
    open('/newAPIKey', { groups: vi.fn(async () => [editors]) });
    const select = await screen.findByLabelText('User group of users created with this token');
    await waitFor(() => expect(within(select).getByRole('option', { name: 'Editors' })).toBeInTheDocument());
    expect(screen.queryByText('To get started with users, first create a User Group in the Auth section')).not.toBeInTheDocument();
    await userEvent.selectOptions(select, 'Editors');
    expect(select).toHaveValue('g1');
    await userEvent.click(screen.getByRole('switch', { name: 'User Admin' }));
    expect(select).toBeDisabled();
    expect(select).toHaveValue('admin');
  });

  it('without groups says to create one first', async () => {
    open('/newAPIKey');
    expect(await screen.findByText('To get started with users, first create a User Group in the Auth section')).toBeInTheDocument();
    expect(screen.queryByLabelText('User group of users created with this token')).not.toBeInTheDocument();
  });
});

describe('the item page’s Users panel', () => {
  const place = { ...scope, collectionID: 'posts', itemID: 'i1' };
  const drawPanel = (api: ProjectUsersApi, editable = true) => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return render(
      <QueryClientProvider client={queryClient}>
        <ProjectUsersApiProvider value={api}>
          <ItemUsersPanel place={place} editable={editable} />
        </ProjectUsersApiProvider>
      </QueryClientProvider>,
    );
  };

  it('says how to begin when the project has no users', async () => {
    const api = fakeProjectUsersApi();
    drawPanel(api);
    expect(await screen.findByText('To get started with Auth, you must first add users')).toBeInTheDocument();
    expect(api.itemUsers).not.toHaveBeenCalled();
  });

  it('adds and removes users of the item', async () => {
    let linked = [{ userID: 'user1' }];
    const api = fakeProjectUsersApi({
      users: vi.fn(async () => ({ users: [appUser(1), appUser(2)], total: 2 })),
      itemUsers: vi.fn(async () => linked),
      addItemUser: vi.fn(async (_place: unknown, userID: string) => {
        linked = [...linked, { userID }];
      }),
      removeItemUser: vi.fn(async (_place: unknown, userID: string) => {
        linked = linked.filter((entry) => entry.userID !== userID);
      }),
    });
    drawPanel(api);
    const list = await screen.findByRole('list', { name: 'Users of this item' });
    expect(within(list).getByText('reader1@example.com')).toBeInTheDocument();
    const chooser = screen.getByLabelText('User to add');
    expect(within(chooser).queryByRole('option', { name: 'reader1@example.com' })).not.toBeInTheDocument();
    await userEvent.selectOptions(chooser, 'reader2@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    await waitFor(() => expect(api.addItemUser).toHaveBeenCalledWith(place, 'user2'));
    expect(await within(list).findByText('reader2@example.com')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove reader1@example.com' }));
    await waitFor(() => expect(api.removeItemUser).toHaveBeenCalledWith(place, 'user1'));
    await waitFor(() => expect(within(list).queryByText('reader1@example.com')).not.toBeInTheDocument());
  });

  it('says "An error occurred updating users for item" when a change fails', async () => {
    const api = fakeProjectUsersApi({
      users: vi.fn(async () => ({ users: [appUser(1)], total: 1 })),
      itemUsers: vi.fn(async () => []),
      addItemUser: vi.fn(async () => {
        throw new ApiError({ status: 500, code: 'internal', detail: 'boom' });
      }),
    });
    drawPanel(api);
    expect(await screen.findByText('No user is associated with this item yet.')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('User to add'), 'reader1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'An error occurred updating users for item' }));
  });

  it('is read-only for a member who may not update', async () => {
    const api = fakeProjectUsersApi({ users: vi.fn(async () => ({ users: [appUser(1), appUser(2)], total: 2 })), itemUsers: vi.fn(async () => [{ userID: 'user1' }]) });
    drawPanel(api, false);
    expect(await screen.findByText('reader1@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('User to add')).not.toBeInTheDocument();
  });
});

describe('the public reset page of app users', () => {
  const drawReset = (api: ProjectUsersApi) => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter([{ path: '/bagel-auth-reset-password/:resetID', element: <AppUserResetPasswordScreen /> }], {
      initialEntries: ['/bagel-auth-reset-password/secret-reset-id'],
    });
    return render(
      <QueryClientProvider client={queryClient}>
        <ProjectUsersApiProvider value={api}>
          <RouterProvider router={router} />
        </ProjectUsersApiProvider>
      </QueryClientProvider>,
    );
  };

  it('sets the new password with the link’s id', async () => {
    const api = fakeProjectUsersApi({ resetAppUserPassword: vi.fn(async () => undefined) });
    drawReset(api);
    await userEvent.type(await screen.findByLabelText('New password'), 'a long new password 42');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(api.resetAppUserPassword).toHaveBeenCalledWith('secret-reset-id', 'a long new password 42'));
    expect(await screen.findByText('Your password has been changed. Sign in to the app with your new password.')).toBeInTheDocument();
  });

  it('shows why a link is refused', async () => {
    const api = fakeProjectUsersApi({
      resetAppUserPassword: vi.fn(async () => {
        throw new ApiError({ status: 400, code: 'reset_invalid', detail: 'This reset link is invalid or has expired.' });
      }),
    });
    drawReset(api);
    await userEvent.type(await screen.findByLabelText('New password'), 'a long new password 42');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/./);
    expect(screen.queryByText('Your password has been changed. Sign in to the app with your new password.')).not.toBeInTheDocument();
  });
});
