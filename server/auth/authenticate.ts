/**
 * Bearer authentication as a hook: routes that need a signed-in user list `app.requireUser` in
 * their `onRequest`. A missing, invalid or expired token is the only reason for a 401.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/errors.ts';
import type { AccessClaims } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessClaims | null;
  }
  interface FastifyInstance {
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The signed-in user of a request that passed `requireUser`. */
export function currentUser(request: FastifyRequest): AccessClaims {
  if (!request.auth) throw unauthorized('missing_token', 'Sign in first: this call needs a bearer token.');
  return request.auth;
}

export function registerAuthentication(app: FastifyInstance) {
  app.decorateRequest('auth', null);
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('missing_token', 'Sign in first: this call needs a bearer token.');
    request.auth = await app.ctx.tokens.verifyAccess(token);
  });
}
