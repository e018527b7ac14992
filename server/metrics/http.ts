/**
 * Requests by route and status (docs/monitoring.md "Requests"): every answered request is counted
 * once in `onResponse`, 404s of unknown addresses and refusals included, labelled by the route's
 * pattern (`/api/organization/:org/…`), never the raw address, so the number of series stays bounded.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

/** The label of a request no route matched (404s, and 405s of known paths). */
export const unmatchedRoute = 'unmatched';

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function registerRequestMetrics(app: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'larder_http_requests_total',
    help: 'Requests answered by this process, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'larder_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by method, route pattern and status class (2xx, 4xx, …).',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // A callback hook: nothing to await, and it runs for every answer (the not-found handler's too).
  app.addHook('onResponse', (request, reply, done) => {
    const method = methods.has(request.method) ? request.method : 'other';
    const route = request.routeOptions.url ?? unmatchedRoute;
    const status = reply.statusCode;
    requests.inc({ method, route, status: String(status) });
    duration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, reply.elapsedTime / 1000);
    done();
  });
}
