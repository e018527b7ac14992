/** `POST /auth/logout`: ends the session of the bearer token and/or of a refresh token. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../lib/errors.ts';
import { Empty, responses } from '../../lib/schemas.ts';
import { bearerToken } from '../authenticate.ts';
import { bodyLimit, optionalBody, short, tags } from './shared.ts';

export async function logoutRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { tokens } = app.ctx;

  app.post(
    '/logout',
    {
      bodyLimit,
      schema: {
        summary: 'End the session of the bearer token and/or of a refresh token',
        tags,
        body: optionalBody(Type.Object({ refresh_token: short(128) })),
        response: responses({ 204: Empty }),
      },
    },
    async function logout(request, reply) {
      const access = bearerToken(request);
      const refresh = request.body?.refresh_token;
      if (!access && !refresh) throw badRequest('invalid_request', 'Send the bearer token or a refresh_token to sign out.');
      // The refresh token first: an access token that has expired meanwhile (a 401 below) must
      // not leave the session it came with alive.
      if (refresh) await tokens.revokeByRefreshToken(refresh, 'logout');
      if (access) {
        const claims = await tokens.verifyAccess(access);
        await tokens.revokeSession(claims.sessionId, 'logout');
      }
      return reply.code(204).send(null);
    },
  );
}
