/** `POST /auth/googleToken`: sign in (or, with `?signup`, sign up) with a third-party ID token. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TokenResponse } from '../../../definitions/schemas/token-response.ts';
import { responses } from '../../lib/schemas.ts';
import { createThirdPartyVerifier } from '../third-party.ts';
import { bodyLimit, tags, type ConsoleAuth } from './shared.ts';

export async function thirdPartyRoutes(fastify: FastifyInstance, { shared }: { shared: ConsoleAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, users } = app.ctx;
  const verifyThirdParty = createThirdPartyVerifier(config.google);

  app.post(
    '/googleToken',
    {
      bodyLimit,
      schema: {
        summary: 'Sign in (or, with ?signup, sign up) with a third-party ID token',
        tags,
        querystring: Type.Object({ signup: Type.Optional(Type.String({ maxLength: 10 })) }),
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 8192 }) }, { additionalProperties: false }),
        response: responses({ 200: TokenResponse }),
      },
    },
    async function thirdPartySignIn(request, reply) {
      reply.header('cache-control', 'no-store');
      await shared.loginByAddress(request);
      const identity = await verifyThirdParty(request.body.token);
      const signup = request.query.signup !== undefined && request.query.signup !== 'false';
      return users.thirdPartySignIn(identity, signup, config.consoleClient.id);
    },
  );
}
