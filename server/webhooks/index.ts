/**
 * Webhooks as one piece of the app: the service, the dispatcher (relay and delivery worker, started
 * with the app and stopped when it closes, before the database is) and the `/api/webhook` routes.
 */
import type { FastifyInstance } from 'fastify';
import { WebhookDispatcher } from './delivery.ts';
import { webhookRoutes } from './routes.ts';
import type { WebhookService } from './webhooks.ts';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: { service: WebhookService; dispatcher: WebhookDispatcher };
  }
}

export async function registerWebhooks(app: FastifyInstance) {
  const { database, outbound, config, webhooks: service } = app.ctx;
  const dispatcher = new WebhookDispatcher({
    database,
    outbound,
    config: config.webhooks,
    log: app.log,
    // Each delivery made of an item write counts once, whatever its attempts (WebhookTriggers).
    countTrigger: (organizationId: string) => app.ctx.usage.add(organizationId, 'WebhookTriggers', 1),
    // Past a hard WebhookTriggers limit (or under a billing block) deliveries are logged as not sent (docs/billing.md "Usage limits").
    refuseDelivery: (organizationId: string) => app.ctx.billing.enforcement.webhookRefusal(organizationId),
    metrics: app.metrics.webhooks,
  });
  await dispatcher.start();
  app.addHook('onClose', () => dispatcher.stop());
  app.decorate('webhooks', { service, dispatcher });
  await app.register(webhookRoutes, { prefix: '/api/webhook', webhooks: service, dispatcher });
}
