/** `POST /auth/public/user/verify`: sign in a project user with e-mail or phone and password. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { responses } from '../../lib/schemas.ts';
import { identityFrom } from '../end-users.ts';
import { bodyLimit, callerOf, security, SignIn, tags, TokenAnswer, type PublicAuth } from './shared.ts';

export async function signInRoutes(fastify: FastifyInstance, { shared }: { shared: PublicAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;

  app.post(
    '/user/verify',
    {
      bodyLimit,
      onRequest: [shared.limits.loginAddress],
      schema: {
        summary: 'Sign in a project user with e-mail or phone and password (bad credentials: 400)',
        tags,
        security,
        body: SignIn,
        response: responses({ 200: TokenAnswer }),
      },
    },
    async function signIn(request, reply) {
      const caller = callerOf(request);
      const identity = identityFrom(request.body);
      const attempt = await shared.loginLimits.begin(`${caller.projectId}:${'email' in identity ? identity.email : identity.phone}`, shared.address(request));
      const token = await shared.tokenBehind(caller);
      reply.header('cache-control', 'no-store');
      const pair = await endUsers.signIn(caller.projectId, identity, request.body.password, token?.tokenId ?? null);
      await attempt.succeeded();
      return pair;
    },
  );
}
