/** Membership rules of the console: whose flags, choices, seats, payloads. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  inviteEntry,
  inviteSendState,
  isChoiceLocked,
  isSelf,
  memberEditBody,
  memberName,
  myActions,
  myPermissions,
  permissionSummary,
  readOnly,
  seatUsage,
  shownChoices,
  toggleChoice,
  type MemberLike,
} from '../../definitions/membership.ts';
import { isExactName } from '../../definitions/confirm-name.ts';
import { memberFlags, normalisePermissions, ownerPermissions, type MemberPermissions } from '../../definitions/permissions.ts';

const member = (email: string, flags: Partial<MemberPermissions>, status: MemberLike['status'] = 'active'): MemberLike => ({
  email,
  username: email.split('@')[0]!,
  userName: null,
  status,
  permissions: normalisePermissions(flags),
});

const owner = member('ana@example.com', ownerPermissions);
const reader = member('bob@example.com', { read: true });
const pending = member('cid@example.com', { read: true, admin: true }, 'invited');

describe('myPermissions', () => {
  it('finds the signed-in user by e-mail, in any case', () => {
    expect(myPermissions([owner, reader], { email: 'BOB@example.com' })).toEqual(normalisePermissions({ read: true }));
    expect(myActions([owner, reader], { email: 'ana@example.com' }).admin).toBe(true);
  });

  it('does not count a pending invitation as membership', () => {
    expect(myPermissions([owner, pending], { email: 'cid@example.com' }).admin).toBe(false);
  });

  it('treats a platform super-admin as admin everywhere', () => {
    expect(myActions([owner], { email: 'root@example.com', superAdmin: true })).toEqual({ admin: true, read: true, create: true, update: true, delete: true });
  });

  it('gives a stranger nothing but the read every call checks on the server anyway', () => {
    expect(myPermissions([owner], { email: 'x@example.com' })).toEqual(normalisePermissions({}));
  });

  it('knows oneself and a member’s name', () => {
    expect(isSelf(owner, { email: 'Ana@Example.com' })).toBe(true);
    expect(isSelf(pending, { email: 'cid@example.com' })).toBe(false);
    expect(memberName({ ...pending, username: null })).toBe('cid@example.com');
  });
});

describe('permission choices', () => {
  it('are read-only by default', () => {
    expect(readOnly).toEqual({ admin: false, read: true, create: false, update: false, delete: false, write: false });
    expect(permissionSummary(readOnly)).toEqual([]);
  });

  it('force create, update, delete and admin when admin is chosen, and hold them', () => {
    const admin = toggleChoice(readOnly, 'admin', true);
    expect(admin).toMatchObject({ admin: true, create: true, update: true, delete: true, read: true });
    expect(isChoiceLocked(admin, 'create')).toBe(true);
    expect(toggleChoice(admin, 'create', false).create).toBe(true);
    expect(isChoiceLocked(admin, 'admin')).toBe(false);
    // Dropping admin keeps the three it brought until they are unticked one by one.
    expect(toggleChoice(admin, 'admin', false)).toMatchObject({ admin: false, create: true, update: true, delete: true });
  });

  it('show write as create, update and delete', () => {
    expect(shownChoices({ read: true, write: true })).toMatchObject({ create: true, update: true, delete: true });
    expect(permissionSummary({ write: true })).toEqual(['create', 'update', 'delete']);
    expect(permissionSummary(ownerPermissions)).toEqual(['admin']);
  });

  it('an invite sends read true, the chosen flags, and write false', () => {
    expect(inviteEntry(' dan@example.com ', { update: true })).toEqual({
      email: 'dan@example.com',
      permissions: { admin: false, read: true, create: false, update: true, delete: false, write: false },
    });
    expect(inviteEntry('e@example.com', { admin: true }).permissions).toEqual({ admin: true, read: true, create: true, update: true, delete: true, write: false });
  });

  it('an edit sends the flags flattened with the e-mail; write exactly when create, update and delete are all on', () => {
    expect(memberEditBody('bob@example.com', { create: true })).toEqual({
      email: 'bob@example.com',
      admin: false,
      read: true,
      create: true,
      update: false,
      delete: false,
      write: false,
    });
    expect(memberEditBody('bob@example.com', { create: true, update: true, delete: true }).write).toBe(true);
  });

  it('never turns admin on or read off by toggling another choice (property)', () => {
    const flags = fc.record(Object.fromEntries(memberFlags.map((flag) => [flag, fc.boolean()])) as Record<(typeof memberFlags)[number], fc.Arbitrary<boolean>>);
    fc.assert(
      fc.property(flags, fc.constantFrom('create', 'update', 'delete' as const), fc.boolean(), (start, flag, on) => {
        const next = toggleChoice(start, flag, on);
        expect(next.read).toBe(true);
        expect(next.admin).toBe(shownChoices(start).admin);
        if (next.admin) expect(next.create && next.update && next.delete).toBe(true);
      }),
    );
  });
});

describe('seats', () => {
  it('counts members and pending invitations', () => {
    expect(seatUsage({ seats: 3, users: [owner, reader, pending] })).toEqual({ seats: 3, used: 3, left: 0, exhausted: true });
    expect(seatUsage({ seats: 5, users: [owner] })).toEqual({ seats: 5, used: 1, left: 4, exhausted: false });
  });

  it('Send Invite waits for a valid first address and refuses more addresses than seats', () => {
    const usage = seatUsage({ seats: 3, users: [owner] });
    expect(inviteSendState([{ filled: true, valid: true }], usage)).toEqual({ disabled: false, noSeats: false });
    expect(inviteSendState([{ filled: true, valid: false }], usage)).toEqual({ disabled: true, noSeats: false });
    expect(inviteSendState([{ filled: false, valid: false }], usage).disabled).toBe(true);
    const three = [1, 2, 3].map(() => ({ filled: true, valid: true }));
    expect(inviteSendState(three, usage)).toEqual({ disabled: true, noSeats: true });
    expect(inviteSendState([{ filled: true, valid: true }], seatUsage({ seats: 2, users: [owner, pending] }))).toEqual({ disabled: true, noSeats: true });
  });
});

describe('typed confirmation', () => {
  it('needs the exact name: same case, no trimming', () => {
    expect(isExactName('Acme', 'Acme')).toBe(true);
    expect(isExactName('acme', 'Acme')).toBe(false);
    expect(isExactName('Acme ', 'Acme')).toBe(false);
    expect(isExactName('', 'Acme')).toBe(false);
  });
});
