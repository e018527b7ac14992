/**
 * `/api/admin/users…` (docs/admin.md "Users"): every user of the platform, and disabling,
 * super-admin grants and the resent confirmation. The plugin (server/admin/routes.ts) lets only
 * platform super-admins through; the actions refuse the caller's own account.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AdminDisabledInput, AdminSuperAdminInput, AdminUser, AdminUserPage, AdminUserQuery } from '../../definitions/schemas/admin.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { auditActorOf } from './guard.ts';

const tags = ['admin'];
const security = [{ bearer: [] as string[] }];
// Any text: an id that names no user is a 404 `user_not_found`, as an unknown one is.
const params = Type.Object({ userID: Type.String({ minLength: 1, maxLength: 64 }) });

export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const service = () => app.ctx.admin.users;

  app.get(
    '/users',
    {
      schema: {
        summary: 'Every user of the platform: search by username or e-mail, filters, sorts, server-paged (platform super-admins only)',
        tags,
        security,
        querystring: AdminUserQuery,
        response: responses({ 200: AdminUserPage }),
      },
    },
    async function listUsers(request) {
      return service().list(request.query);
    },
  );

  app.put(
    '/users/:userID/disabled',
    {
      schema: {
        summary: 'Disable (sessions, access tokens and live streams end at once; sign-in refused) or enable a user; not yourself (platform super-admins only)',
        tags,
        security,
        params,
        body: AdminDisabledInput,
        response: responses({ 200: AdminUser }),
      },
    },
    async function setUserDisabled(request) {
      return service().setDisabled(await auditActorOf(app, request), request.params.userID, request.body.disabled);
    },
  );

  app.put(
    '/users/:userID/superAdmin',
    {
      schema: {
        summary: 'Grant or revoke platform super-admin; not yourself, and not one the configuration names (platform super-admins only)',
        tags,
        security,
        params,
        body: AdminSuperAdminInput,
        response: responses({ 200: AdminUser }),
      },
    },
    async function setUserSuperAdmin(request) {
      return service().setSuperAdmin(await auditActorOf(app, request), request.params.userID, request.body.superAdmin);
    },
  );

  app.post(
    '/users/:userID/resendVerification',
    {
      schema: {
        summary: 'Mail the e-mail confirmation again (platform super-admins only)',
        tags,
        security,
        params,
        response: responses({ 204: Empty }),
      },
    },
    async function resendVerification(request, reply) {
      await service().resendVerification(await auditActorOf(app, request), request.params.userID);
      return reply.code(204).send(null);
    },
  );
}
