/**
 * `POST /auth/public/bagel-auth-verify-email/{verifyID}`: the console's public page that verifies
 * an app user's e-mail address with the id of the mailed link (no bearer, as the reset page;
 * docs/mail.md "Verification of app users' addresses"). Works once; answers the project's name.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { responses } from '../../lib/schemas.ts';
import { bodyLimit, optionalBody, tags, type PublicAuth } from './shared.ts';

export async function verifyEmailPageRoutes(fastify: FastifyInstance, { shared }: { shared: PublicAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;

  app.post(
    '/bagel-auth-verify-email/:verifyID',
    {
      bodyLimit,
      onRequest: [shared.limits.resetAddress],
      schema: {
        summary: 'Verify a project user’s e-mail address with the id of a mailed link (the console’s public page); once',
        tags,
        params: Type.Object({ verifyID: Type.String({ minLength: 1, maxLength: 200 }) }),
        body: optionalBody(Type.Object({}, { additionalProperties: false })),
        response: responses({ 200: Type.Object({ ok: Type.Literal(true), project: Type.String() }) }),
      },
    },
    async function verifyWithLink(request, reply) {
      const { project } = await endUsers.verifyEmail(request.params.verifyID);
      reply.header('cache-control', 'no-store');
      return { ok: true as const, project };
    },
  );
}
