/** The admin area's All users and Audit log screens over a fake admin API: URL state, sorting, actions, before → after. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AdminAuditScreen from '../../src/screens/admin/AdminAuditScreen.tsx';
import AdminUsersScreen from '../../src/screens/admin/AdminUsersScreen.tsx';
import { auditDiff } from '../../src/screens/admin/audit/audit-diff.ts';
import type { AdminApi, AdminUser, AuditPage } from '../../src/api/admin.ts';
import { AdminApiProvider } from '../../src/api/admin-queries.ts';
import { ApiError } from '../../src/api/errors.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, me, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

const user = (username: string, overrides: Partial<AdminUser> = {}): AdminUser => ({
  id: username.padEnd(24, '0').slice(0, 24).replace(/[^0-9a-f]/g, 'a'),
  username,
  email: `${username}@example.com`,
  verified: true,
  superAdmin: false,
  configuredSuperAdmin: false,
  disabled: false,
  disabledDate: null,
  organizations: [{ id: 'c'.repeat(24), name: 'Acme Kitchen' }],
  organizationCount: 1,
  createdDate: '2026-01-02T10:00:00.000Z',
  lastLoggedIn: null,
  ...overrides,
});

function fakeAdminApi(overrides: Partial<AdminApi> = {}) {
  const users = [user('bob'), user('carol', { verified: false }), { ...user('ana', { superAdmin: true }), id: me._id }];
  return {
    users: vi.fn(async () => ({ users, total: 120, page: 1, perPage: 50 })),
    setUserDisabled: vi.fn(async (userID: string, disabled: boolean) => ({ ...users.find((u) => u.id === userID)!, disabled })),
    setUserSuperAdmin: vi.fn(async () => users[0]!),
    resendVerification: vi.fn(async () => undefined),
    audit: vi.fn(async (): Promise<AuditPage> => ({ entries: [], total: 0, page: 1, perPage: 50 })),
    ...overrides,
  } as unknown as AdminApi & Record<string, ReturnType<typeof vi.fn>>;
}

function show(admin: AdminApi, path: string, screenElement = <AdminUsersScreen />) {
  const routes = [{ id: 'admin', path: '/admin/*', element: <AdminApiProvider value={admin}>{screenElement}</AdminApiProvider> }];
  return renderPlatform({ routes, path, api: fakePlatformApi() });
}

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('All users', () => {
  it('asks for the page the URL names and marks the sorted column', async () => {
    const admin = fakeAdminApi();
    show(admin, '/admin/users?search=bo&sort=email&order=asc&page=2&verified=false&bogus=1');
    await screen.findByText('bob@example.com');
    expect(admin.users).toHaveBeenCalledWith({ search: 'bo', sort: 'email', order: 'asc', page: 2, perPage: 50, verified: false });
    expect(screen.getByRole('columnheader', { name: 'E-mail' })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: 'Username' })).not.toHaveAttribute('aria-sort');
    expect(screen.getByText('51–53 of 120')).toBeInTheDocument();
    expect(screen.getByLabelText('Verified')).toHaveValue('false');
  });

  it('sorts from a header, searches after a pause and starts again at page 1', async () => {
    const admin = fakeAdminApi();
    const { router } = show(admin, '/admin/users?page=3');
    await screen.findByText('bob@example.com');
    expect(screen.getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(screen.getByRole('button', { name: 'Username' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/admin/users?sort=username&order=asc'));
    await userEvent.click(screen.getByRole('button', { name: 'Username' }));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Username' })).toHaveAttribute('aria-sort', 'descending'));
    await userEvent.type(screen.getByLabelText('Search'), 'carol');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('search=carol'));
    expect(admin.users).toHaveBeenLastCalledWith(expect.objectContaining({ search: 'carol', sort: 'username', order: 'desc', page: 1 }));
    // A link (or the back button) changes the URL's search: the box follows it.
    await router.navigate('/admin/users?search=bob');
    await waitFor(() => expect(screen.getByLabelText('Search')).toHaveValue('bob'));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/admin\/users\?search=bob$/);
  });

  it('disables a user after confirming, with a toast, and keeps a refusal in the dialog', async () => {
    const admin = fakeAdminApi();
    show(admin, '/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for bob' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable bob?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'bob is disabled' }));
    expect(admin.setUserDisabled).toHaveBeenCalledWith(user('bob').id, true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    vi.mocked(admin.setUserSuperAdmin).mockRejectedValueOnce(
      new ApiError({ status: 409, code: 'configured_super_admin', detail: 'configured', problem: { type: '', title: '', status: 409, code: 'configured_super_admin', detail: 'configured' } }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Actions for bob' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Make super-admin' }));
    const grant = await screen.findByRole('dialog', { name: 'Make bob a super-admin?' });
    await userEvent.click(within(grant).getByRole('button', { name: 'Make super-admin' }));
    expect(await within(grant).findByRole('alert')).toHaveTextContent(/SUPER_ADMIN_USERNAMES/);
  });

  it('resends the verification mail of an unverified user, and will not let you disable yourself', async () => {
    const admin = fakeAdminApi();
    show(admin, '/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for carol' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Resend verification mail' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Verification mail sent to carol@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Actions for ana' }));
    expect(await screen.findByRole('menuitem', { name: 'Disable' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('menuitem', { name: 'Revoke super-admin' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('will not let you disable or revoke a super-admin the configuration names, and says why', async () => {
    const root = user('root', { configuredSuperAdmin: true });
    const admin = fakeAdminApi({ users: vi.fn(async () => ({ users: [root], total: 1, page: 1, perPage: 50 })) as never });
    show(admin, '/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for root' }));
    expect(await screen.findByRole('menuitem', { name: 'Disable' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('menuitem', { name: 'Revoke super-admin' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText(/SUPER_ADMIN_USERNAMES/)).toBeInTheDocument();
  });
});

describe('Audit log', () => {
  it('lists entries with what changed and filters by action from the URL', async () => {
    const admin = fakeAdminApi({
      audit: vi.fn(async () => ({
        entries: [
          { id: '2', at: '2026-11-28T12:00:00.000Z', actorID: 'a'.repeat(24), actor: 'root@example.com', action: 'user.disable', targetKind: 'user', targetID: 'b'.repeat(24), before: { disabled: false, email: 'x@y' }, after: { disabled: true, email: 'x@y' } },
        ],
        total: 1,
        page: 1,
        perPage: 50,
      })) as never,
    });
    show(admin, '/admin/audit?action=user.disable', <AdminAuditScreen />);
    const row = (await screen.findByRole('rowheader', { name: 'User disabled' })).closest('tr')!;
    expect(admin.audit).toHaveBeenCalledWith({ page: 1, perPage: 50, action: 'user.disable' });
    expect(row).toHaveTextContent('root@example.com');
    expect(row).toHaveTextContent('b'.repeat(24));
    expect(row).toHaveTextContent(/disabled:\s*false.*changed to.*true/);
    expect(row).not.toHaveTextContent('email');
    await userEvent.selectOptions(screen.getByLabelText('Action'), '');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/admin\/audit$/));
  });

  it('diffs objects by key and other values whole', () => {
    expect(auditDiff({ a: 1, b: 2 }, { a: 1, b: 3, c: 'x' })).toEqual([
      { key: 'b', before: '2', after: '3' },
      { key: 'c', before: undefined, after: 'x' },
    ]);
    expect(auditDiff(null, { enabled: true })).toEqual([{ key: 'enabled', before: undefined, after: 'true' }]);
    expect(auditDiff([1], [1, 2])).toEqual([{ key: '', before: '[1]', after: '[1,2]' }]);
    expect(auditDiff(null, null)).toEqual([]);
    expect(auditDiff('x'.repeat(200), null)[0]!.before).toHaveLength(80);
  });
});
