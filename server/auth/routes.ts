/**
 * The auth service (`/auth`): the console's sign-in. Token grants follow OAuth 2 (form-encoded),
 * errors are problem details whose `code` is the OAuth error where one fits. The routes live one
 * file per resource in server/auth/console/.
 */
import type { FastifyInstance } from 'fastify';
import { logoutRoutes } from './console/logout.ts';
import { passwordRoutes } from './console/passwords.ts';
import { consoleAuthShared } from './console/shared.ts';
import { thirdPartyRoutes } from './console/third-party.ts';
import { tokenRoutes } from './console/tokens.ts';

export async function authRoutes(fastify: FastifyInstance) {
  const shared = consoleAuthShared(fastify);
  await fastify.register(tokenRoutes, { shared });
  await fastify.register(logoutRoutes);
  await fastify.register(passwordRoutes, { shared });
  await fastify.register(thirdPartyRoutes, { shared });
}
