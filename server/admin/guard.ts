/**
 * Who may use the platform admin area: platform super-admins only (docs/admin.md "Access"), the
 * users granted it in the database and those the configuration names. Every admin route plugin
 * adds `requireUser` and this check as hooks, so no admin call runs for anyone else: 401 without a
 * token, 403 `super_admin_required` for a signed-in user who is not one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser } from '../auth/authenticate.ts';
import { forbidden } from '../lib/errors.ts';
import type { AuditActor } from './audit.ts';

/** Adds the sign-in and super-admin checks to every route of an (encapsulated) plugin. */
export function guardSuperAdmin(app: FastifyInstance): void {
  app.addHook('onRequest', app.requireUser);
  // Before the body or query is validated: a caller who is not a super-admin learns nothing else.
  app.addHook('onRequest', async (request) => {
    if (!(await app.ctx.access.isSuperAdmin(currentUser(request).userId))) {
      throw forbidden('super_admin_required', 'Only platform super-admins may use the admin area.');
    }
  });
}

/** The audit log's actor for a request of a signed-in super-admin. */
export async function auditActorOf(app: FastifyInstance, request: FastifyRequest): Promise<AuditActor> {
  const { userId } = currentUser(request);
  return { id: userId, name: (await app.ctx.access.emailOf(userId)) || userId };
}
