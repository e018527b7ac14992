/**
 * A route's own rate limit (@fastify/rate-limit, counted in the database store the app registers,
 * so it holds across processes): `rule` from the configuration, one count per `key`, and a 429
 * problem `rate_limited` that says what was too many and when to try again (with Retry-After).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimitRule } from '../config.ts';
import { tooManyRequests } from './errors.ts';

export function routeRateLimit(app: FastifyInstance, rule: RateLimitRule, key: (request: FastifyRequest) => string, tooMany: string) {
  return app.rateLimit({
    max: rule.max,
    timeWindow: rule.windowMs,
    keyGenerator: key,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.ceil(context.ttl / 1000);
      return tooManyRequests(`${tooMany} Try again in ${seconds} seconds.`, seconds);
    },
  });
}
