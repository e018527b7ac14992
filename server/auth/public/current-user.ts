/** `GET /auth/public/user`: the signed-in project user (needs the user's access token). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { forbidden } from '../../lib/errors.ts';
import { responses } from '../../lib/schemas.ts';
import { callerOf, security, tags } from './shared.ts';

const CurrentUser = Type.Object({
  userID: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  createdDate: Type.String(),
  lastLoggedIn: Type.Union([Type.String(), Type.Null()]),
  userGroups: Type.Array(Type.String()),
});

export async function currentUserRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;

  app.get(
    '/user',
    {
      schema: {
        summary: 'The signed-in project user (needs the user’s access token)',
        tags,
        security,
        response: responses({ 200: CurrentUser }),
      },
    },
    async function currentUser(request) {
      const caller = callerOf(request);
      if (!caller.endUser) throw forbidden('user_token_required', 'This call needs a signed-in user’s access token, not an API token.');
      const { userID, email, phone, createdDate, lastLoggedIn, userGroups: groups } = await endUsers.get(caller.projectId, caller.endUser.userId);
      return { userID, email, phone, createdDate, lastLoggedIn, userGroups: groups };
    },
  );
}
