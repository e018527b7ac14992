/** `GET /api/admin/organizations` and `GET /api/admin/organizations/:organizationID` (docs/admin.md "Organizations"). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AdminOrganizationDetail, AdminOrganizationPage, AdminOrganizationQuery } from '../../definitions/schemas/admin.ts';
import { responses } from '../lib/schemas.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export async function organizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/organizations',
    {
      schema: {
        summary: 'Every organization with its plan, billing status, seats, next billing date, balance and credit: paged, searchable, sortable (platform super-admins only)',
        tags,
        security,
        querystring: AdminOrganizationQuery,
        response: responses({ 200: AdminOrganizationPage }),
      },
    },
    async function listOrganizations(request) {
      return app.ctx.admin.organizations.list(request.query);
    },
  );

  app.get(
    '/organizations/:organizationID',
    {
      schema: {
        summary: "One organization's row with its members and projects (platform super-admins only)",
        tags,
        security,
        params: Type.Object({ organizationID: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
        response: responses({ 200: AdminOrganizationDetail }),
      },
    },
    async function readOrganization(request) {
      return app.ctx.admin.organizations.detail(request.params.organizationID);
    },
  );
}
