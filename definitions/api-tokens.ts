/**
 * API tokens: the rights a token carries, the form's sections and labels,
 * and the user group that User Admin forces. The rules of the form itself are the state chart in
 * machines/token-form.ts.
 */
import type { MessageKey } from './messages/format.ts';
import type { TokenRights } from './permissions.ts';

export const roleFlags = ['create', 'read', 'update', 'delete'] as const;
export type RoleFlag = (typeof roleFlags)[number];

export const powerFlags = ['powerCreate', 'powerRead', 'powerUpdate', 'powerDelete', 'powerWrite'] as const;
export type PowerFlag = (typeof powerFlags)[number];

export type TokenRole = TokenRights['roles'][number];

/** What the form edits: a token's name and rights. */
export interface TokenDraft extends TokenRights {
  name: string;
  userGroupID: string | null;
}

/** User Admin sets the group to this and locks it. */
export const USER_ADMIN_GROUP_ID = 'admin';

/** The form starts blank. */
export const blankToken: TokenDraft = {
  name: '',
  userAdmin: false,
  userGroupID: null,
  powerCreate: false,
  powerRead: false,
  powerUpdate: false,
  powerDelete: false,
  powerWrite: false,
  roles: [],
};

export const roleFlagLabels: Readonly<Record<RoleFlag, MessageKey>> = {
  create: 'token.flag.create',
  read: 'token.flag.read',
  update: 'token.flag.update',
  delete: 'token.flag.delete',
};

export const powerFlagLabels: Readonly<Record<PowerFlag, MessageKey>> = {
  powerCreate: 'token.flag.create',
  powerRead: 'token.flag.read',
  powerUpdate: 'token.flag.update',
  powerDelete: 'token.flag.delete',
  powerWrite: 'token.flag.write',
};

/** The draft of a saved token: only the fields the form edits. */
export function draftOf(token: Partial<TokenDraft>): TokenDraft {
  return {
    name: token.name ?? '',
    userAdmin: token.userAdmin ?? false,
    userGroupID: token.userAdmin ? USER_ADMIN_GROUP_ID : (token.userGroupID ?? null),
    powerCreate: token.powerCreate ?? false,
    powerRead: token.powerRead ?? false,
    powerUpdate: token.powerUpdate ?? false,
    powerDelete: token.powerDelete ?? false,
    powerWrite: token.powerWrite ?? false,
    roles: (token.roles ?? []).map((role) => ({ ...role })),
  };
}

/** The body sent to the server: the name trimmed, every right present. */
export function tokenBody(draft: TokenDraft) {
  return { ...draftOf(draft), name: draft.name.trim() };
}

/** A name that is not blank: Generate and Save need one. */
export const hasTokenName = (draft: Pick<TokenDraft, 'name'>) => draft.name.trim() !== '';

/** The flags of a role as shown: a collection without a role has none. */
export function roleOf(roles: readonly TokenRole[], collection: string): TokenRole {
  return roles.find((role) => role.collection === collection) ?? { collection, create: false, read: false, update: false, delete: false };
}
