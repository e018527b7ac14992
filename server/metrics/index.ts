/**
 * Metrics for operators (docs/monitoring.md): `GET /metrics` in Prometheus' text format from
 * prom-client, one registry per app (tests build several apps in one process), with
 *
 * - requests by route and status and their latency (./http.ts), counted in this process;
 * - figures read at scrape time: database pools, job queues, outbox, function invocations, live
 *   streams (./gauges.ts);
 * - webhook attempts and failed deliveries, counted by this process's dispatcher;
 * - Node's own process figures (CPU, memory, event loop delay, garbage collection).
 *
 * Only allowed clients are answered (./access.ts); the rest get the 404 of an unknown route.
 * Registered here too: readiness (./readiness.ts) and the request id answered in `x-request-id`
 * (./request-id.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { notFound } from '../lib/errors.ts';
import { metricsAccess } from './access.ts';
import { registerGauges } from './gauges.ts';
import { registerRequestMetrics } from './http.ts';
import { readinessRoute } from './readiness.ts';
import { registerRequestContext, requestIdHeader } from './request-id.ts';

/** What other parts of the app count (the webhook dispatcher's attempts). */
export interface AppMetrics {
  registry: Registry;
  webhooks: {
    /** One attempt sent (or refused by billing) and logged: `delivered`, `failed` or `refused`. */
    attempt(outcome: 'delivered' | 'failed' | 'refused'): void;
    /** A delivery that used up every attempt. */
    deliveryFailed(): void;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

/** Node's own figures belong to the process, not to an app: collected once per process (tests build many apps). */
let processRegistry: Registry | undefined;
function processFigures(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Before the routes: the hooks must be the root's so every route and the not-found handler have them. */
export function registerMetrics(app: FastifyInstance): void {
  const { database, live } = app.ctx;
  const registry = new Registry();
  registerRequestMetrics(app, registry);
  registerGauges(registry, { database, live, log: app.log });

  const attempts = new Counter({
    name: 'larder_webhook_attempts_total',
    help: 'Webhook delivery attempts this process made and logged, by outcome (delivered, failed, refused by billing).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const failedDeliveries = new Counter({
    name: 'larder_webhook_deliveries_failed_total',
    help: 'Webhook deliveries whose last attempt (made by this process) failed: no attempt is left.',
    registers: [registry],
  });
  for (const outcome of ['delivered', 'failed', 'refused']) attempts.inc({ outcome }, 0);
  app.decorate('metrics', {
    registry,
    webhooks: { attempt: (outcome) => attempts.inc({ outcome }), deliveryFailed: () => failedDeliveries.inc() },
  } satisfies AppMetrics);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header(requestIdHeader, request.id);
    done();
  });
  registerRequestContext(app);

}

/** `/metrics` and readiness: after @fastify/swagger, so readiness is in the OpenAPI document. */
export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const { registry } = app.metrics;
  const processRegistry = processFigures();
  const allowed = metricsAccess(app.ctx.config.metrics);
  app.get('/metrics', { schema: { hide: true } }, async function scrape(request, reply) {
    if (!allowed(request.socket.remoteAddress, request.headers)) {
      // The not-found handler's own answer (server/lib/errors.ts), word for word.
      throw notFound('not_found', `No route for ${request.method} ${request.url.split('?')[0]!}.`);
    }
    // Each metric is a block of its own in the text format: the two registries' texts one after the other.
    const text = (await processRegistry.metrics()) + (await registry.metrics());
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
  readinessRoute(app);
}
