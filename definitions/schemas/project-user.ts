/** A project's app users and user groups as the console's Auth section reads them (docs/end-users.md). */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './wire.ts';

export const ProjectUser = Type.Object({
  userID: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  verified: Type.Boolean(),
  createdDate: Type.String(),
  lastLoggedIn: Nullable(Type.String()),
  /** Ids of the user's groups. */
  userGroups: Type.Array(Type.String()),
});
export type ProjectUser = Static<typeof ProjectUser>;

export const ProjectUserPage = Type.Object({ users: Type.Array(ProjectUser), total: Type.Integer() });
export type ProjectUserPage = Static<typeof ProjectUserPage>;

/** A group's rights on one collection (definitions/user-groups.ts reads and toggles them). */
export const GroupPermission = Type.Object({
  collection: Type.String(),
  create: Type.Boolean(),
  read: Type.Boolean(),
  update: Type.Boolean(),
  delete: Type.Boolean(),
  associatedOnly: Type.Boolean(),
});
export type GroupPermission = Static<typeof GroupPermission>;

export const UserGroup = Type.Object({
  groupID: Type.String(),
  name: Type.String(),
  /** What the group grants, per top-level collection. */
  permissions: Type.Array(GroupPermission),
  createdDate: Type.String(),
  updatedDate: Type.String(),
});
export type UserGroup = Static<typeof UserGroup>;
