/** Wire shapes of a project's users, shared by the console routes that list, read and create them. */
import { Type } from '@sinclair/typebox';
import { Id } from '../content/route-schemas.ts';

export const ProjectParams = Type.Object({ org: Id, proj: Id });
export const ProjectUser = Type.Object({
  userID: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  verified: Type.Boolean(),
  createdDate: Type.String(),
  lastLoggedIn: Type.Union([Type.String(), Type.Null()]),
  userGroups: Type.Array(Type.String()),
});
