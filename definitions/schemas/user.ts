/** The signed-in user as `GET /api/user/me` answers it. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './wire.ts';

export const PublicUser = Type.Object(
  {
    _id: Type.String(),
    username: Type.String(),
    email: Type.String(),
    organizations: Type.Array(Type.String()),
    verified: Type.Boolean(),
    superAdmin: Type.Boolean(),
    questionnaireCompleted: Type.Boolean(),
    createdDate: Type.String({ format: 'date-time' }),
    lastLoggedIn: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'User' },
);
export type PublicUser = Static<typeof PublicUser>;
