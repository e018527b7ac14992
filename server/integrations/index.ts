/**
 * A project's integrations (docs/integrations.md): the instances of the catalogue's connectors and
 * their console routes. Their runs (item events, schedules, tests) arrive with the relay.
 */
import type { FastifyInstance } from 'fastify';
import { loadSecretBox } from '../mail/secrets.ts';
import { IntegrationInstanceService } from './instances.ts';
import { integrationRoutes } from './routes.ts';

declare module '../app.ts' {
  interface AppContext {
    /** A project's integration instances (server/integrations); set once registered. */
    integrations?: IntegrationInstanceService;
  }
}

export async function registerIntegrations(app: FastifyInstance): Promise<void> {
  const { config, database } = app.ctx;
  const box = await loadSecretBox(database.db, config.secretsKey);
  const service = new IntegrationInstanceService(database.db, box);
  app.ctx.integrations = service;
  await app.register(integrationRoutes, { prefix: '/api/organization/:org/project/:proj/integrations', service });
}
