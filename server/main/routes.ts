/** The main API (`/api`): health, public configuration and the user calls. Later issues add their resources here. */
import { liveRoutes } from '../content/live-routes.ts';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { responses } from '../lib/schemas.ts';
import { userRoutes } from './user-routes.ts';
import { inviteRoutes } from './invite-routes.ts';
import { memberRoutes } from './member-routes.ts';
import { organizationRoutes } from './organization-routes.ts';
import { projectRoutes } from './project-routes.ts';
import { apiTokenRoutes } from './api-token-routes.ts';
import { contentRoutes } from '../content/routes.ts';
import { rankRoutes } from '../content/rank-routes.ts';
import { layoutRoutes } from '../content/layout-routes.ts';
import { linkPreviewRoutes } from './link-preview-routes.ts';
import { mapsRoutes } from '../maps/routes.ts';
import { isLoopback } from '../mail/dev-mailbox-routes.ts';
import { contactRoutes } from '../billing/contact.ts';

export async function mainRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, config, mailer } = app.ctx;

  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness: the process serves (the database is not asked; readiness is /api/health/ready)',
        tags: ['system'],
        response: responses({ 200: Type.Object({ status: Type.Literal('ok'), db: Type.String() }) }),
      },
    },
    // A database outage must not make a liveness probe restart a process that recovers by itself (docs/monitoring.md "Liveness and readiness").
    async () => ({ status: 'ok' as const, db: database.kind }),
  );

  app.get(
    '/config',
    {
      schema: {
        summary: 'What the console needs to know before sign-in',
        tags: ['system'],
        response: responses({
          200: Type.Object({
            consoleClient: Type.Object({ id: Type.String(), secret: Type.String() }),
            googleClientId: Type.Union([Type.String(), Type.Null()]),
            devMailbox: Type.Boolean(),
            mapTiles: Type.Union([Type.Object({ url: Type.String(), attribution: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
            billing: Type.Boolean({ description: 'false with BILLING=0: the console shows no billing and nothing is enforced' }),
          }),
        }),
      },
    },
    async (request) => ({
      // The console is a public client: its "secret" identifies it, it protects nothing.
      consoleClient: config.consoleClient,
      googleClientId: config.google?.clientId ?? null,
      // True only where the Dev mailbox API answers this client (server/mail/dev-mailbox-routes.ts:
      // registered with the outbox transport unless DEV_MAILBOX=0, loopback sockets only), so the
      // console links to it only where it works.
      devMailbox: config.devMailbox && mailer.transport === 'outbox' && isLoopback(request.socket.remoteAddress),
      // Without a tile URL the console draws its offline world layer (docs/field-types.md "Places and maps").
      mapTiles: config.maps.tileUrl ? { url: config.maps.tileUrl, attribution: config.maps.tileAttribution ?? null } : null,
      billing: config.billing.enabled,
    }),
  );

  await app.register(userRoutes, { prefix: '/user' });
  await app.register(inviteRoutes);
  await app.register(organizationRoutes);
  await app.register(memberRoutes);
  await app.register(projectRoutes);
  await app.register(apiTokenRoutes, { prefix: '/apiTokens' });
  await app.register(contentRoutes, { prefix: '/organization/:org/project/:proj' });
  await app.register(liveRoutes, { prefix: '/organization/:org/project/:proj' });
  await app.register(rankRoutes, { prefix: '/organization/:org/project/:proj' });
  await app.register(layoutRoutes, { prefix: '/organization/:org/project/:proj' });
  await app.register(linkPreviewRoutes);
  await app.register(mapsRoutes);
  await app.register(contactRoutes);
}
