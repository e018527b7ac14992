/**
 * A project's integrations (docs/integrations.md): the instances of the catalogue's connectors,
 * their runs (the relay from item events, schedules, tests; started with the app and stopped when
 * it closes, before the database) and their console routes.
 */
import type { FastifyInstance } from 'fastify';
import { IntegrationInstanceService } from './instances.ts';
import { integrationRoutes } from './routes.ts';
import { IntegrationRunner } from './runner.ts';

declare module '../app.ts' {
  interface AppContext {
    /** A project's integration instances (server/integrations); set once registered. */
    integrations?: IntegrationInstanceService;
    /** Their runs; set once registered. */
    integrationRunner?: IntegrationRunner;
  }
}

export async function registerIntegrations(app: FastifyInstance): Promise<void> {
  const { config, database, outbound } = app.ctx;
  const box = app.ctx.secrets;
  const service = new IntegrationInstanceService(database.db, box, outbound);
  app.ctx.integrations = service;
  const runner = new IntegrationRunner({
    database,
    instances: service,
    outbound,
    config: config.integrations,
    publicUrl: config.publicUrl,
    log: app.log,
    // Under a billing BLOCK the organization's data is not sent out on its behalf (docs/billing.md).
    suspended: (organizationId) => app.ctx.billing.enforcement.suspended(organizationId),
    quiet: app.ctx.foreground.quiet,
  });
  await runner.start();
  app.ctx.integrationRunner = runner;
  app.addHook('onClose', () => runner.stop());
  await app.register(integrationRoutes, { prefix: '/api/organization/:org/project/:proj/integrations', service, runner });
}
