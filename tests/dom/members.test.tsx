/** Settings → Users: invite dialog, permission choices, seats, edit, remove. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import OrganizationScreen from '../../src/screens/organization/OrganizationScreen.tsx';
import { ApiError } from '../../src/api/errors.ts';
import type { Member } from '../../src/api/platform.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { ownerPermissions } from '../../definitions/permissions.ts';
import { fakePlatformApi, member, ORG, organization, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/organization-name.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('organization-name'));
vi.mock('../../definitions/forms/new-project.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('new-project'));
vi.mock('../../definitions/forms/add-seats.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('add-seats'));
vi.mock('../../definitions/forms/invite-email.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('invite-email'));

const routes = [{ id: 'organizationSettings', path: '/organization/:organizationID/settings', element: <OrganizationScreen /> }];
const open = (api = fakePlatformApi()) => renderPlatform({ routes, path: `/organization/${ORG}/settings`, api });

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

async function openInvite() {
  await userEvent.click(await screen.findByRole('button', { name: 'Invite' }));
  return screen.findByRole('dialog', { name: 'Invite people' });
}

describe('members', () => {
  it('lists members and pending invitations with their status; admins act on others, never on themselves', async () => {
    const users = [member('ana', ownerPermissions), member('bob', { read: true, update: true }), member('cid', { read: true }, 'invited')];
    open(fakePlatformApi({ organization: vi.fn(async () => organization({ users })) }));
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(within(rows[0]!).getByText('you')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('Active')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Update')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Invited')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Read only')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Actions for cid@example.com' })).toBeInTheDocument();
    expect(screen.getByText('3 of 3 seats used')).toBeInTheDocument();
  });

  it('invite: "Invalid email address", Send Invite disabled while the first address is invalid', async () => {
    open();
    const dialog = await openInvite();
    const send = within(dialog).getByRole('button', { name: 'Send Invite' });
    expect(send).toBeDisabled();
    const email = within(dialog).getByRole('textbox', { name: /E-mail address/ });
    await userEvent.type(email, 'bob@');
    await userEvent.tab();
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(send).toBeDisabled();
    await userEvent.type(email, 'example.com');
    expect(within(dialog).queryByText('Invalid email address')).not.toBeInTheDocument();
    expect(send).toBeEnabled();
  });

  it('invite: rows are added, each read-only by default; admin forces create, update and delete', async () => {
    const invite = vi.fn(async (_org: string, entries: { email: string }[]) => entries.map((entry) => member(entry.email.split('@')[0]!, { read: true }, 'invited')) as Member[]);
    open(fakePlatformApi({ invite }));
    const dialog = await openInvite();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Person 1/ }), 'bob@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add another person' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Person 2/ }), 'cid@example.com');
    const second = within(dialog).getByRole('group', { name: 'Permissions of person 2' });
    expect(within(second).getByRole('checkbox', { name: 'Read' })).toBeChecked();
    expect(within(second).getByRole('checkbox', { name: 'Read' })).toBeDisabled();
    expect(within(second).getByRole('checkbox', { name: 'Create' })).not.toBeChecked();
    await userEvent.click(within(second).getByRole('checkbox', { name: 'Admin' }));
    for (const name of ['Create', 'Update', 'Delete']) {
      expect(within(second).getByRole('checkbox', { name })).toBeChecked();
      expect(within(second).getByRole('checkbox', { name })).toBeDisabled();
    }
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(invite).toHaveBeenCalled());
    expect(invite.mock.calls[0]![1]).toEqual([
      { email: 'bob@example.com', permissions: { admin: false, read: true, create: false, update: false, delete: false, write: false } },
      { email: 'cid@example.com', permissions: { admin: true, read: true, create: true, update: true, delete: true, write: false } },
    ]);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: '2 invitations sent' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('invite: an invalid extra row is shown, not sent; an empty extra row is ignored', async () => {
    const invite = vi.fn(async () => [] as Member[]);
    open(fakePlatformApi({ invite }));
    const dialog = await openInvite();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Person 1/ }), 'bob@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add another person' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Person 2/ }), 'nope');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    expect(invite).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove person 2' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add another person' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(invite).toHaveBeenCalledTimes(1));
    expect(invite.mock.calls[0]).toEqual([ORG, [expect.objectContaining({ email: 'bob@example.com' })]]);
  });

  it('invite: disabled with "No more seats available" when members and invitations fill the seats', async () => {
    const full = organization({ seats: 2, users: [member('ana', ownerPermissions), member('cid', { read: true }, 'invited')] });
    open(fakePlatformApi({ organization: vi.fn(async () => full) }));
    const dialog = await openInvite();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Person 1/ }), 'bob@example.com');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('No more seats available');
    expect(within(dialog).getByRole('button', { name: 'Send Invite' })).toBeDisabled();
  });

  it('invite: the server’s no_seats refusal reads "No more seats available"', async () => {
    const invite = vi.fn(async () => {
      throw new ApiError({ status: 409, code: 'no_seats', detail: 'No more seats available' });
    });
    open(fakePlatformApi({ invite }));
    const dialog = await openInvite();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Person 1/ }), 'bob@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No more seats available');
  });

  it('edits a member’s permissions: flags flattened with the e-mail', async () => {
    // The server's state: what the organization reads after each change.
    let current = organization({ users: [member('ana', ownerPermissions), member('bob', { read: true })] });
    const editMember = vi.fn(async () => {
      current = { ...current, users: [member('ana', ownerPermissions), member('bob', { read: true, create: true })] };
      return current.users;
    });
    open(fakePlatformApi({ organization: vi.fn(async () => current), editMember }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for bob' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit permissions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Permissions of bob' });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Create' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(editMember).toHaveBeenCalled());
    expect(editMember.mock.calls[0]).toEqual([ORG, { email: 'bob@example.com', admin: false, read: true, create: true, update: false, delete: false, write: false }]);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Permissions of bob updated' });
    const row = (await screen.findByRole('rowheader', { name: 'bob' })).closest('tr')!;
    expect(within(row).getByText('Create')).toBeInTheDocument();
  });

  it('removes a member: "{user} removed from organization"', async () => {
    let current = organization({ users: [member('ana', ownerPermissions), member('bob', { read: true })] });
    const removeMember = vi.fn(async () => {
      current = { ...current, users: [member('ana', ownerPermissions)] };
      return { removed: 'bob' };
    });
    open(fakePlatformApi({ organization: vi.fn(async () => current), removeMember }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for bob' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Remove from organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove bob?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(removeMember).toHaveBeenCalledWith(ORG, 'bob@example.com'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'bob removed from organization' });
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'bob' })).not.toBeInTheDocument());
  });

  it('adds seats: a number above 0', async () => {
    let current = organization();
    const addSeats = vi.fn(async (_org: string, count: number) => {
      current = { ...current, seats: current.seats + count };
      return { seats: current.seats };
    });
    open(fakePlatformApi({ organization: vi.fn(async () => current), addSeats }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add seats' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add seats' });
    const count = within(dialog).getByLabelText('Seats to add');
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add seats' }));
    expect(await within(dialog).findByText('The number of seats must be above 0')).toBeInTheDocument();
    expect(addSeats).not.toHaveBeenCalled();
    await userEvent.clear(count);
    await userEvent.type(count, '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add seats' }));
    await waitFor(() => expect(addSeats).toHaveBeenCalledWith(ORG, 2));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'The organization now has 5 seats' });
    expect(await screen.findByText('1 of 5 seats used')).toBeInTheDocument();
  });
});
