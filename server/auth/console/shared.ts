/**
 * What the console's sign-in routes (`/auth`, server/auth/routes.ts) share: the token grant's
 * parameters, the optional body, and the rate limits.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { LoginLimits } from '../login-limits.ts';
import { checkedLimit, clientAddress } from '../request-limits.ts';

export const tags = ['auth'];
export const bodyLimit = 16 * 1024;

export const short = (max = 512) => Type.Optional(Type.String({ maxLength: max }));

/**
 * Fastify validates a request without a body as `null`, so a route whose body may be left out
 * (the refresh grant in the query, a logout with the bearer token only) must admit it.
 */
export const optionalBody = <T extends TObject>(schema: T) => Type.Optional(Type.Unsafe<Static<T> | null>({ ...schema, nullable: true }));

// The account a request names, read where the handler reads it: the body, else the query
// (the token route merges both), so moving a field into the URL does not escape the limit.
const field = (request: FastifyRequest, name: string) => {
  const body = request.body as Record<string, unknown> | null | undefined;
  const query = request.query as Record<string, unknown> | null | undefined;
  const value = body?.[name] ?? query?.[name];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
};

/** The rate limits every route file of `/auth` is given; each is checked by the handler, where its order matters. */
export type ConsoleAuth = ReturnType<typeof consoleAuthShared>;

export function consoleAuthShared(fastify: FastifyInstance) {
  const { config } = fastify.ctx;
  const address = clientAddress;
  const tooMany = 'Too many attempts.';
  return {
    address,
    loginByAddress: checkedLimit(fastify, config.rateLimits.loginAddress, 'login-ip', address, tooMany),
    // Failed attempts per (account, address) and per account from unknown addresses: a stranger
    // cannot lock the owner out of their known addresses (server/auth/login-limits.ts).
    loginLimits: new LoginLimits(fastify.ctx.database.db, { pair: config.rateLimits.loginAccountAddress, account: config.rateLimits.loginAccount }, 'login'),
    resetByAddress: checkedLimit(fastify, config.rateLimits.resetAddress, 'reset-ip', address, tooMany),
    resetByAccount: checkedLimit(fastify, config.rateLimits.resetAccount, 'reset-account', (r) => field(r, 'email'), tooMany),
  };
}
