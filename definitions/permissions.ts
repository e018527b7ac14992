/**
 * Who may do what. Shared by the server, which enforces it, and the console, which
 * only mirrors it. Member flags: admin, read, create, update, delete, write; write means create +
 * update + delete, admin means everything, and every member may read their organization.
 */

export const memberFlags = ['admin', 'read', 'create', 'update', 'delete', 'write'] as const;
export type MemberFlag = (typeof memberFlags)[number];
export type MemberPermissions = Record<MemberFlag, boolean>;

/** What a call needs: reading, the three kinds of write, or administration. */
export type Action = 'read' | 'create' | 'update' | 'delete' | 'admin';

export const noPermissions: MemberPermissions = { admin: false, read: false, create: false, update: false, delete: false, write: false };

/** The flags of a member as stored: every flag present, missing ones false. */
export function normalisePermissions(flags: Partial<Record<string, unknown>> | null | undefined): MemberPermissions {
  const out = { ...noPermissions };
  for (const flag of memberFlags) out[flag] = flags?.[flag] === true;
  return out;
}

/** The actions a member's flags allow. */
export function allowedActions(flags: Partial<MemberPermissions>): Record<Action, boolean> {
  const p = normalisePermissions(flags);
  const write = p.admin || p.write;
  return {
    admin: p.admin,
    read: true,
    create: write || p.create,
    update: write || p.update,
    delete: write || p.delete,
  };
}

export function isAllowed(flags: Partial<MemberPermissions>, action: Action): boolean {
  return allowedActions(flags)[action];
}

/** Flags saved for a member when an admin edits them: write expands to create, update and delete. */
export function expandWrite(flags: Partial<MemberPermissions>): MemberPermissions {
  const p = normalisePermissions(flags);
  if (p.write) return { ...p, create: true, update: true, delete: true };
  return p;
}

/** Choosing admin in the console forces create, update, delete and admin on. */
export function forceAdmin(flags: Partial<MemberPermissions>): MemberPermissions {
  const p = normalisePermissions(flags);
  return p.admin ? { ...p, create: true, update: true, delete: true, admin: true } : p;
}

/** Invites send read true, the chosen flags, and write false. */
export function invitePermissions(chosen: Partial<MemberPermissions>): MemberPermissions {
  return { ...forceAdmin(chosen), read: true, write: false };
}

/** The flags of the person who creates an organization. */
export const ownerPermissions: MemberPermissions = { admin: true, read: true, create: true, update: true, delete: true, write: true };

/** Rights an API token can carry. */
export interface TokenRights {
  userAdmin: boolean;
  powerCreate: boolean;
  powerRead: boolean;
  powerUpdate: boolean;
  powerDelete: boolean;
  powerWrite: boolean;
  roles: { collection: string; create: boolean; read: boolean; update: boolean; delete: boolean }[];
}

/**
 * The rights of a token that its minter does not hold (empty when the token may be minted):
 * a token never carries more than its minter. powerWrite needs write, User Admin needs admin.
 */
export function rightsBeyond(minter: Partial<MemberPermissions>, token: TokenRights): string[] {
  const can = allowedActions(minter);
  const p = normalisePermissions(minter);
  const missing: string[] = [];
  if (token.userAdmin && !can.admin) missing.push('userAdmin');
  if (token.powerCreate && !can.create) missing.push('powerCreate');
  if (token.powerRead && !can.read) missing.push('powerRead');
  if (token.powerUpdate && !can.update) missing.push('powerUpdate');
  if (token.powerDelete && !can.delete) missing.push('powerDelete');
  if (token.powerWrite && !(p.write || p.admin)) missing.push('powerWrite');
  for (const role of token.roles) {
    for (const action of ['create', 'read', 'update', 'delete'] as const) {
      if (role[action] && !can[action]) missing.push(`roles.${role.collection}.${action}`);
    }
  }
  return missing;
}

/** What a user group grants on one top-level collection (flags left out are false). */
export interface GroupGrant {
  collection: string;
  create?: boolean | undefined;
  read?: boolean | undefined;
  update?: boolean | undefined;
  delete?: boolean | undefined;
  associatedOnly?: boolean | undefined;
}

/**
 * The rights in a user group's `roles` that a member with `holder`'s flags cannot hand out, as
 * `collection.action` (empty when they may): a group gives its app users operations, so making,
 * editing or handing out a group needs the flags for what it grants (docs/end-users.md "Rights
 * handed out through groups"). A right the group already held in `before` — on all items, or on
 * associated items only and still so limited — is kept, not granted, so it is not counted.
 */
export function groupRightsBeyond(holder: Partial<MemberPermissions>, roles: readonly GroupGrant[], before: readonly GroupGrant[] = []): string[] {
  const can = allowedActions(holder);
  const missing: string[] = [];
  for (const role of roles) {
    const held = before.find((b) => b.collection === role.collection);
    for (const action of ['create', 'read', 'update', 'delete'] as const) {
      if (role[action] !== true || can[action]) continue;
      const kept = held?.[action] === true && (held.associatedOnly !== true || role.associatedOnly === true);
      if (!kept) missing.push(`${role.collection}.${action}`);
    }
  }
  return [...new Set(missing)];
}
