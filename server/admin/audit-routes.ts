/** `GET /api/admin/audit`: the audit log, newest first (docs/admin.md "Audit log"). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AuditPage, AuditQuery } from '../../definitions/schemas/admin.ts';
import { responses } from '../lib/schemas.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/audit',
    {
      schema: {
        summary: 'The audit log of admin actions, newest first (platform super-admins only)',
        tags,
        security,
        querystring: AuditQuery,
        response: responses({ 200: AuditPage }),
      },
    },
    async function listAudit(request) {
      return app.ctx.admin.audit.list(request.query);
    },
  );
}
