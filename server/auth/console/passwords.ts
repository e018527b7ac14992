/** `POST /auth/resetPasswordEmail` and `/auth/resetPassword`: a member's password reset by mailed link. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { resetPasswordEmailSchema, resetPasswordSchema } from '../../../definitions/schemas/account.ts';
import { answered } from '../../lib/background.ts';
import { Ok, responses } from '../../lib/schemas.ts';
import { bodyLimit, tags, type ConsoleAuth } from './shared.ts';

export async function passwordRoutes(fastify: FastifyInstance, { shared }: { shared: ConsoleAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { users, background } = app.ctx;

  app.post(
    '/resetPasswordEmail',
    {
      bodyLimit,
      schema: {
        summary: 'Mail a password reset link (answers alike for known and unknown addresses)',
        tags,
        body: Type.Unsafe<{ email: string }>(resetPasswordEmailSchema),
        response: responses({ 200: Ok }),
      },
    },
    async function mailResetLink(request, reply) {
      await shared.resetByAddress(request);
      await shared.resetByAccount(request);
      // Answered before the address is even looked up: known and unknown addresses cannot be
      // told apart by the time the answer takes (docs/security.md, "Reset mail").
      const { email } = request.body;
      background.run('reset-mail', () => users.requestPasswordReset(email), request.log, answered(reply));
      return { ok: true as const };
    },
  );

  app.post(
    '/resetPassword',
    {
      bodyLimit,
      schema: {
        summary: 'Set a new password with a reset token; ends every session of the user',
        tags,
        body: Type.Unsafe<{ password: string; token: string }>(resetPasswordSchema),
        response: responses({ 200: Ok }),
      },
    },
    async function resetWithToken(request) {
      const { userId } = await users.resetPassword(request.body.token, request.body.password);
      // The owner proved the mailbox from here: this address may sign in even while the account's
      // limit for unknown addresses is reached (docs/security.md, "Sign-in limits").
      await shared.loginLimits.trust(`user:${userId}`, shared.address(request));
      return { ok: true as const };
    },
  );
}
