/** Invitations by their secret id: reading one needs no sign-in (the join page runs signed out). */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser } from '../auth/authenticate.ts';
import { responses } from '../lib/schemas.ts';

const Secret = Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });

export async function inviteRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { organizations } = app.ctx;
  const params = Type.Object({ id: Secret });

  app.get(
    '/user/invite/:id',
    {
      schema: {
        summary: 'Read an invitation: its e-mail and whether that person already has a verified account',
        tags: ['organizations'],
        params,
        response: responses({
          200: Type.Object({ email: Type.String(), verified: Type.Boolean(), organizationID: Type.String(), organizationName: Type.String() }),
        }),
      },
    },
    async function readInvite(request) {
      return organizations.readInvite(request.params.id);
    },
  );

  app.post(
    '/user/invite/:id/accept',
    {
      onRequest: app.requireUser,
      schema: {
        summary: 'Accept an invitation as the signed-in user (whose e-mail it must be)',
        tags: ['organizations'],
        security: [{ bearer: [] as string[] }],
        params,
        response: responses({ 200: Type.Object({ organizationID: Type.String() }) }),
      },
    },
    async function acceptInvite(request) {
      return { organizationID: await organizations.acceptInvite(request.params.id, currentUser(request).userId) };
    },
  );
}
