/**
 * Organization membership as the console sees it: whose flags apply, what
 * the permission choices are, how seats are counted, and the payloads of invites and edits. Built
 * on definitions/permissions.ts, which the server shares.
 */
import type { MessageKey } from './messages/format.ts';
import {
  allowedActions,
  forceAdmin,
  invitePermissions,
  normalisePermissions,
  ownerPermissions,
  type Action,
  type MemberFlag,
  type MemberPermissions,
} from './permissions.ts';

export type MemberStatus = 'active' | 'invited';

/** The part of a member (or a pending invitation) these rules read. */
export interface MemberLike {
  email: string;
  username?: string | null;
  userName?: string | null;
  status: MemberStatus;
  permissions: Partial<MemberPermissions>;
}

/** The part of the signed-in user these rules read. */
export interface UserLike {
  email: string;
  superAdmin?: boolean;
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The signed-in user's row in the member list, if any. */
export function findSelf<M extends MemberLike>(members: readonly M[], me: UserLike): M | undefined {
  return members.find((member) => member.status === 'active' && sameEmail(member.email, me.email));
}

/**
 * The flags that apply to the signed-in user in an organization: a platform super-admin counts as
 * admin everywhere, a member has their flags, anyone else has none.
 */
export function myPermissions(members: readonly MemberLike[], me: UserLike): MemberPermissions {
  if (me.superAdmin) return { ...ownerPermissions };
  const self = findSelf(members, me);
  return self ? normalisePermissions(self.permissions) : normalisePermissions({});
}

/** What the signed-in user may do: the shared rule over their flags. */
export function myActions(members: readonly MemberLike[], me: UserLike): Record<Action, boolean> {
  return allowedActions(myPermissions(members, me));
}

/** The name a member goes by in lists and messages. */
export function memberName(member: MemberLike): string {
  return member.username || member.userName || member.email;
}

export function isSelf(member: MemberLike, me: UserLike): boolean {
  return member.status === 'active' && sameEmail(member.email, me.email);
}

export interface SeatUsage {
  seats: number;
  /** Members plus pending invitations: each takes a seat. */
  used: number;
  left: number;
  exhausted: boolean;
}

/** Seats are exhausted when members plus pending invitations fill them. */
export function seatUsage(organization: { seats: number; users: readonly MemberLike[] }): SeatUsage {
  const used = organization.users.length;
  const left = Math.max(0, organization.seats - used);
  return { seats: organization.seats, used, left, exhausted: used >= organization.seats };
}

/** The flags an admin chooses for a member; read is always on and never offered. */
export const permissionChoices = ['admin', 'create', 'update', 'delete'] as const;
export type PermissionChoice = (typeof permissionChoices)[number];

export const flagLabels: Readonly<Record<MemberFlag, MessageKey>> = {
  admin: 'member.flag.admin',
  read: 'member.flag.read',
  create: 'member.flag.create',
  update: 'member.flag.update',
  delete: 'member.flag.delete',
  write: 'member.flag.write',
};

/** New members are read-only until an admin chooses more. */
export const readOnly: MemberPermissions = normalisePermissions({ read: true });

/** The choices as shown: write shows as create, update and delete; admin forces them on. */
export function shownChoices(flags: Partial<MemberPermissions>): MemberPermissions {
  const p = normalisePermissions(flags);
  const expanded = p.write ? { ...p, create: true, update: true, delete: true } : p;
  return { ...forceAdmin(expanded), read: true };
}

/** Ticking or unticking one choice. While admin is chosen, create, update and delete stay on. */
export function toggleChoice(current: Partial<MemberPermissions>, flag: PermissionChoice, on: boolean): MemberPermissions {
  return shownChoices({ ...shownChoices(current), write: false, [flag]: on });
}

/** A choice that cannot be changed while the others are as they are (admin holds c/u/d on). */
export function isChoiceLocked(current: Partial<MemberPermissions>, flag: PermissionChoice): boolean {
  return flag !== 'admin' && shownChoices(current).admin;
}

/** The body of one invitation: read true, the chosen flags, write false. */
export function inviteEntry(email: string, chosen: Partial<MemberPermissions>) {
  return { email: email.trim(), permissions: invitePermissions(chosen) };
}

/**
 * The body of a permission edit: the flags flattened with the e-mail. Write is sent
 * when create, update and delete are all chosen, since write means exactly those three.
 */
export function memberEditBody(email: string, chosen: Partial<MemberPermissions>) {
  const p = shownChoices(chosen);
  return { email, admin: p.admin, read: true, create: p.create, update: p.update, delete: p.delete, write: p.create && p.update && p.delete };
}

/** The flags to name in a member's row, or none: read only. */
export function permissionSummary(flags: Partial<MemberPermissions>): MemberFlag[] {
  const p = shownChoices(flags);
  if (p.admin) return ['admin'];
  return (['create', 'update', 'delete'] as const).filter((flag) => p[flag]);
}

/**
 * Whether Send Invite is offered: not while the first e-mail is invalid, and not
 * when the seats are exhausted or fewer than the addresses typed ("No more seats available").
 */
export function inviteSendState(rows: readonly { filled: boolean; valid: boolean }[], usage: SeatUsage): { disabled: boolean; noSeats: boolean } {
  const filled = rows.filter((row) => row.filled).length;
  const noSeats = usage.exhausted || filled > usage.left;
  const firstInvalid = !rows[0]?.valid;
  return { disabled: noSeats || firstInvalid, noSeats };
}
