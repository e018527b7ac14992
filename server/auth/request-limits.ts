/**
 * What the sign-in route plugins (server/auth/routes.ts, server/auth/public-routes.ts) share for
 * their rate limits: the client address they count by, and a limit checked by hand.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import type { RateLimitRule } from '../config.ts';
import { tooManyRequests } from '../lib/errors.ts';

/** IPv6 clients own whole /64 networks: count the network, not each of its addresses. */
export const clientAddress = (request: FastifyRequest) => normalizeIP(request.ip);

/**
 * A limit checked from a handler or a preHandler (the body is read by then), counted in the
 * app's rate-limit store. @fastify/rate-limit runs one route hook per request, so a route's
 * further limits (per account, or only for some requests) are checked this way. Over the limit:
 * a 429 problem `rate_limited` saying what was too many and when to try again (with Retry-After).
 */
export function checkedLimit(app: FastifyInstance, rule: RateLimitRule, name: string, key: (request: FastifyRequest) => string, tooMany: string) {
  const limiter = app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: (request) => `${name}:${key(request)}` });
  return async (request: FastifyRequest): Promise<void> => {
    const result = await limiter(request);
    // `isAllowed` only marks the allow-list; `isExceeded` is the verdict.
    if (!result.isAllowed && result.isExceeded) {
      const wait = result.ttlInSeconds ?? 60;
      throw tooManyRequests(`${tooMany} Try again in ${wait} seconds.`, wait);
    }
  };
}
