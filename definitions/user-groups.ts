/**
 * User groups of a project's app users: what a group grants,
 * per collection, and the labels of the rights matrix. Pure, shared by the Groups screen and its
 * tests; the server enforces the same rights.
 */
import type { MessageKey } from './messages/format.ts';
import type { GroupPermission } from './schemas/project-user.ts';

/** The four operations a group grants on a collection. */
export const groupRightFlags = ['create', 'read', 'update', 'delete'] as const;
export type GroupRightFlag = (typeof groupRightFlags)[number];

/** A group's rights on one collection; `associatedOnly` narrows them to items whose Users panel lists the user. */
export type { GroupPermission };

/** The matrix's columns: the four operations, then the narrowing to associated items. */
export const groupMatrixColumns = [...groupRightFlags, 'associatedOnly'] as const;
export type GroupMatrixColumn = (typeof groupMatrixColumns)[number];

export const groupColumnLabels: Readonly<Record<GroupMatrixColumn, MessageKey>> = {
  create: 'token.flag.create',
  read: 'token.flag.read',
  update: 'token.flag.update',
  delete: 'token.flag.delete',
  associatedOnly: 'userGroups.associatedOnly',
};

/** The rights of a collection as shown: a collection without an entry grants nothing. */
export function permissionOf(permissions: readonly GroupPermission[], collection: string): GroupPermission {
  return (
    permissions.find((entry) => entry.collection === collection) ?? { collection, create: false, read: false, update: false, delete: false, associatedOnly: false }
  );
}

/** Flips one right of a collection, adding the collection's entry when it has none. Entries granting nothing are dropped. */
export function togglePermission(permissions: readonly GroupPermission[], collection: string, column: GroupMatrixColumn): GroupPermission[] {
  const current = permissionOf(permissions, collection);
  const next = { ...current, [column]: !current[column] };
  const others = permissions.filter((entry) => entry.collection !== collection);
  const grantsSomething = groupMatrixColumns.some((key) => next[key]);
  return grantsSomething ? [...others, next] : others;
}

/** Whether two permission lists grant the same (order of entries aside). */
export function samePermissions(a: readonly GroupPermission[], b: readonly GroupPermission[]): boolean {
  const keyed = (list: readonly GroupPermission[]) =>
    list
      .filter((entry) => groupMatrixColumns.some((key) => entry[key]))
      .map((entry) => [entry.collection, ...groupMatrixColumns.map((key) => (entry[key] ? 1 : 0))].join(':'))
      .sort()
      .join('|');
  return keyed(a) === keyed(b);
}

/** A group name that is not blank: Create and Rename need one. */
export const hasGroupName = (name: string) => name.trim() !== '';

/** Project users per page in the Users list (default page size 50, pages from 1). */
export const PROJECT_USERS_PER_PAGE = 50;
