/** A project's API token as `/api/apiTokens` answers it (its rights: definitions/permissions.ts). */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './wire.ts';

export const ApiToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  projectID: Type.String(),
  organizationID: Type.String(),
  userAdmin: Type.Boolean(),
  userGroupID: Nullable(Type.String()),
  powerCreate: Type.Boolean(),
  powerRead: Type.Boolean(),
  powerUpdate: Type.Boolean(),
  powerDelete: Type.Boolean(),
  powerWrite: Type.Boolean(),
  roles: Type.Array(Type.Object({ collection: Type.String(), create: Type.Boolean(), read: Type.Boolean(), update: Type.Boolean(), delete: Type.Boolean() })),
  createdDate: Type.String(),
  updatedDate: Type.String(),
});
export type ApiToken = Static<typeof ApiToken>;

/** The answer to minting a token: the only time its secret is shown. */
export const MintedToken = Type.Composite([ApiToken, Type.Object({ jwtToken: Type.String() })]);
export type MintedToken = Static<typeof MintedToken>;
