/**
 * Typed calls of a project's app users and user groups (the Auth section's Users and
 * Groups, an item's bagelUsers): the Users list (paging, search), one user, changing their groups, deleting one,
 * the password-reset mail, the groups and their rights, the users of an item, and the public page
 * that sets an app user's new password. Every path is named here once. All reject with ApiError.
 */
import type { ProjectUser as ProjectUserWire, ProjectUserPage as ProjectUserPageWire, UserGroup as UserGroupWire } from '../../definitions/schemas/project-user.ts';
import type { GroupPermission } from '../../definitions/user-groups.ts';
import { getApiClient, type ApiClient } from './client.ts';
import type { ProjectScope } from './content.ts';
import { toApiError } from './errors.ts';
import { requestJson } from './request-json.ts';
import { anonymous } from './token-grants.ts';

/**
 * An app user as the console reads it: the wire's shape (definitions/schemas/project-user.ts), where
 * anything but the id may be unknown (null) when the server did not say (toProjectUser).
 */
export type ProjectUser = Pick<ProjectUserWire, 'userID'> & { [K in Exclude<keyof ProjectUserWire, 'userID'>]?: ProjectUserWire[K] | null };

export type ProjectUserPage = Omit<ProjectUserPageWire, 'users'> & { users: ProjectUser[] };

export interface ProjectUserQuery {
  pageNumber?: number;
  perPage?: number;
  /** Part of an e-mail address or phone number. */
  search?: string;
}

/** A user group as the console keeps it: the wire's shape without its dates. */
export type UserGroup = Pick<UserGroupWire, 'groupID' | 'name' | 'permissions'>;

/** A user added by hand: e-mail, password, and whether the address counts as verified. */
export interface NewProjectUser {
  email: string;
  password: string;
  verified: boolean;
}

/** POST a group: its name and, optionally, its first rights. */
export interface UserGroupDraft {
  name: string;
  permissions?: GroupPermission[];
}

/** The project a call is made in (src/api/content.ts). */
export type ProjectScopeIds = ProjectScope;

/** Where an item lives: its collection and id (top-level items only). */
export interface ItemPlace extends ProjectScopeIds {
  collectionID: string;
  itemID: string;
}

export interface ProjectUsersApi {
  users(scope: ProjectScopeIds, query?: ProjectUserQuery): Promise<ProjectUserPage>;
  user(scope: ProjectScopeIds, userID: string): Promise<ProjectUser>;
  deleteUser(scope: ProjectScopeIds, userID: string): Promise<void>;
  /** POST a user made by hand (409 when the e-mail is taken); answers the user. */
  addUser(scope: ProjectScopeIds, draft: NewProjectUser): Promise<ProjectUser>;
  /** PUT the user's whole list of group ids (each a group of this project, else 400); answers the user as now. */
  setUserGroups(scope: ProjectScopeIds, userID: string, groupIDs: string[]): Promise<ProjectUser>;
  /** Mails the user a link to the console's public `bagel-auth-reset-password/{resetID}` page. */
  sendPasswordReset(scope: ProjectScopeIds, email: string): Promise<void>;
  groups(scope: ProjectScopeIds): Promise<UserGroup[]>;
  createGroup(scope: ProjectScopeIds, draft: UserGroupDraft): Promise<UserGroup>;
  /** PUT with groupID: the name and the whole rights list. */
  updateGroup(scope: ProjectScopeIds, group: UserGroup): Promise<UserGroup>;
  deleteGroup(scope: ProjectScopeIds, groupID: string): Promise<void>;
  itemUsers(place: ItemPlace): Promise<{ userID: string }[]>;
  addItemUser(place: ItemPlace, userID: string): Promise<void>;
  removeItemUser(place: ItemPlace, userID: string): Promise<void>;
  /** Public (no sign-in): sets the new password of the app user the reset link was sent to. */
  resetAppUserPassword(resetID: string, password: string): Promise<void>;
}

const seg = encodeURIComponent;
const projectPath = (scope: ProjectScopeIds) => `api/organization/${seg(scope.organizationID)}/project/${seg(scope.projectID)}`;

/** Every path of these calls (relative to the console's origin). */
export const projectUserPaths = {
  users: (scope: ProjectScopeIds) => `${projectPath(scope)}/user`,
  user: (scope: ProjectScopeIds, userID: string) => `${projectPath(scope)}/user/${seg(userID)}`,
  resetPassword: (scope: ProjectScopeIds) => `auth/organization/${seg(scope.organizationID)}/project/${seg(scope.projectID)}/resetPassword`,
  groups: (scope: ProjectScopeIds) => `${projectPath(scope)}/userGroups`,
  group: (scope: ProjectScopeIds, groupID: string) => `${projectPath(scope)}/userGroups/${seg(groupID)}`,
  itemUsers: (place: ItemPlace) => `${projectPath(place)}/collection/${seg(place.collectionID)}/item/${seg(place.itemID)}/bagelUsers`,
  appUserReset: (resetID: string) => `auth/public/bagel-auth-reset-password/${seg(resetID)}`,
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A user as sent: `_id` or `id` stand for `userID` when that is missing. */
export function toProjectUser(wire: Record<string, unknown>): ProjectUser {
  const text = (key: string) => (typeof wire[key] === 'string' ? (wire[key] as string) : null);
  return {
    userID: text('userID') ?? text('_id') ?? text('id') ?? '',
    email: text('email'),
    phone: text('phone'),
    verified: typeof wire.verified === 'boolean' ? wire.verified : null,
    createdDate: text('createdDate'),
    lastLoggedIn: text('lastLoggedIn'),
    userGroups: Array.isArray(wire.userGroups) ? wire.userGroups.map((group) => (isRecord(group) ? String(group.groupID ?? group.id ?? '') : String(group))) : [],
  };
}

/** A group as sent: `id` for `groupID` and `roles` for `permissions` are accepted too. */
export function toUserGroup(wire: Record<string, unknown>): UserGroup {
  const list = Array.isArray(wire.permissions) ? wire.permissions : Array.isArray(wire.roles) ? wire.roles : [];
  return {
    groupID: String(wire.groupID ?? wire.id ?? ''),
    name: String(wire.name ?? ''),
    permissions: list.filter(isRecord).map((entry) => ({
      collection: String(entry.collection ?? entry.collectionID ?? ''),
      create: entry.create === true,
      read: entry.read === true,
      update: entry.update === true,
      delete: entry.delete === true,
      associatedOnly: entry.associatedOnly === true,
    })),
  };
}

export function createProjectUsersApi(client: ApiClient): ProjectUsersApi {
  const { json, http } = client;
  return {
    async users(scope, query = {}) {
      const searchParams: Record<string, string | number> = {};
      if (query.pageNumber) searchParams.pageNumber = query.pageNumber;
      if (query.perPage) searchParams.perPage = query.perPage;
      if (query.search?.trim()) searchParams.search = query.search.trim();
      let response: Response;
      try {
        response = await http(projectUserPaths.users(scope), { searchParams });
      } catch (error) {
        throw await toApiError(error);
      }
      const body = await requestJson<unknown>(Promise.resolve(response));
      // A list with the `item-count` header, as the item lists, or `{users, total}`.
      const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.users) ? body.users : [];
      const users = list.filter(isRecord).map(toProjectUser);
      const header = Number(response.headers.get('item-count'));
      const total = response.headers.has('item-count') && Number.isFinite(header) ? header : isRecord(body) && typeof body.total === 'number' ? body.total : users.length;
      return { users, total };
    },
    user: async (scope, userID) => toProjectUser(await json<Record<string, unknown>>(projectUserPaths.user(scope, userID))),
    deleteUser: (scope, userID) => json<void>(projectUserPaths.user(scope, userID), { method: 'delete' }),
    addUser: async (scope, draft) => toProjectUser(await json<Record<string, unknown>>(projectUserPaths.users(scope), { method: 'post', json: draft })),
    setUserGroups: async (scope, userID, groupIDs) =>
      toProjectUser(await json<Record<string, unknown>>(projectUserPaths.user(scope, userID), { method: 'put', json: { userGroups: groupIDs } })),
    sendPasswordReset: (scope, email) => json<void>(projectUserPaths.resetPassword(scope), { method: 'post', json: { email } }),
    groups: async (scope) => (await json<Record<string, unknown>[]>(projectUserPaths.groups(scope))).map(toUserGroup),
    createGroup: async (scope, draft) => toUserGroup(await json<Record<string, unknown>>(projectUserPaths.groups(scope), { method: 'post', json: draft })),
    updateGroup: async (scope, group) =>
      toUserGroup(await json<Record<string, unknown>>(projectUserPaths.group(scope, group.groupID), { method: 'put', json: group })),
    deleteGroup: (scope, groupID) => json<void>(projectUserPaths.group(scope, groupID), { method: 'delete' }),
    itemUsers: (place) => json<{ userID: string }[]>(projectUserPaths.itemUsers(place)),
    addItemUser: (place, userID) => json<void>(projectUserPaths.itemUsers(place), { method: 'put', json: { userID } }),
    removeItemUser: (place, userID) => json<void>(projectUserPaths.itemUsers(place), { method: 'delete', json: { userID } }),
    resetAppUserPassword: (resetID, password) => json<void>(projectUserPaths.appUserReset(resetID), { method: 'post', json: { password }, context: anonymous }),
  };
}

let browserProjectUsersApi: ProjectUsersApi | null = null;

/** These calls over the page's client. */
export function getProjectUsersApi(): ProjectUsersApi {
  browserProjectUsersApi ??= createProjectUsersApi(getApiClient());
  return browserProjectUsersApi;
}
