/** `POST /auth/public/user`: sign up a project user (exactly 201 with tokens). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { answered } from '../../lib/background.ts';
import { responses } from '../../lib/schemas.ts';
import { identityFrom } from '../end-users.ts';
import { bodyLimit, callerOf, Credentials, security, tags, TokenAnswer, type PublicAuth } from './shared.ts';

export async function signUpRoutes(fastify: FastifyInstance, { shared }: { shared: PublicAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers, background } = app.ctx;

  app.post(
    '/user',
    {
      bodyLimit,
      onRequest: [shared.limits.signupAddress],
      schema: {
        summary: 'Sign up a project user (exactly 201 with tokens; a taken e-mail or phone is 409)',
        tags,
        security,
        body: Credentials,
        response: responses({ 201: TokenAnswer }),
      },
    },
    async function signUp(request, reply) {
      const caller = callerOf(request);
      const identity = identityFrom(request.body);
      const { token, groupId } = await shared.groupForNewUsers(caller);
      reply.header('cache-control', 'no-store');
      const pair = await endUsers.signUp(caller.projectId, identity, request.body.password, groupId, token?.tokenId ?? null);
      // The address's verification mail (docs/mail.md) goes once the answer has: the answer and its timing stay as they were.
      if ('email' in identity) background.run('project-user-verification-mail', () => endUsers.sendVerification(caller.projectId, pair.user_id), request.log, answered(reply));
      return reply.code(201).send(pair);
    },
  );
}
