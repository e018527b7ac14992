/**
 * A project user's password: the console's public reset page (no bearer), the reset mail and a
 * User Admin's new password for a user.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { answered } from '../../lib/background.ts';
import { responses } from '../../lib/schemas.ts';
import { identityFrom, normaliseEmail } from '../end-users.ts';
import { bodyLimit, callerOf, Credentials, Done, Email, Password, security, tags, type PublicAuth } from './shared.ts';

/** `POST /auth/public/bagel-auth-reset-password/{resetID}`: the console's public reset page's call, outside the bearer scope. */
export async function resetPageRoutes(fastify: FastifyInstance, { shared }: { shared: PublicAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;

  app.post(
    '/bagel-auth-reset-password/:resetID',
    {
      bodyLimit,
      onRequest: [shared.limits.resetAddress],
      schema: {
        summary: 'Set a project user’s new password with the id of a mailed reset link (the console’s public page)',
        tags,
        params: Type.Object({ resetID: Type.String({ minLength: 1, maxLength: 200 }) }),
        body: Type.Object({ password: Password }, { additionalProperties: false }),
        response: responses({ 200: Done }),
      },
    },
    async function resetWithLink(request) {
      const { projectId, identity } = await endUsers.resetPassword(request.params.resetID, request.body.password);
      // The user proved the mailbox from here: this address may sign in even while the account's
      // limit for unknown addresses is reached (docs/security.md, "Sign-in limits").
      await shared.loginLimits.trust(`${projectId}:${identity}`, shared.address(request));
      return { ok: true as const };
    },
  );
}

/** `POST /auth/public/user/resetpassword` and `/user/updatePassword` (each answers exactly 200). */
export async function passwordRoutes(fastify: FastifyInstance, { shared }: { shared: PublicAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers, background } = app.ctx;

  app.post(
    '/user/resetpassword',
    {
      bodyLimit,
      onRequest: [shared.limits.resetAddress],
      preHandler: [shared.limits.resetAccount],
      schema: {
        summary: 'Mail a project user a password reset link (exactly 200, alike for known and unknown addresses)',
        tags,
        security,
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: responses({ 200: Done }),
      },
    },
    async function mailResetLink(request, reply) {
      const { projectId } = callerOf(request);
      const email = normaliseEmail(request.body.email);
      // Answered before the address is even looked up: known and unknown addresses cannot be
      // told apart by the time the answer takes (docs/security.md, "Reset mail").
      background.run('project-user-reset-mail', () => endUsers.requestPasswordReset(projectId, email), request.log, answered(reply));
      return reply.code(200).send({ ok: true as const });
    },
  );

  app.post(
    '/user/updatePassword',
    {
      bodyLimit,
      schema: {
        summary: 'Set a project user’s password (User Admin API token; exactly 200); their sessions end',
        tags,
        security,
        body: Credentials,
        response: responses({ 200: Done }),
      },
    },
    async function setPassword(request, reply) {
      const caller = callerOf(request);
      shared.requireUserAdmin(caller);
      await endUsers.updatePassword(caller.projectId, identityFrom(request.body), request.body.password);
      return reply.code(200).send({ ok: true as const });
    },
  );
}
