/** `GET /api/admin/metrics?days=30|90`: the platform's figures per day and now (docs/admin.md "Metrics"). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AdminMetrics, AdminMetricsQuery } from '../../definitions/schemas/admin.ts';
import { responses } from '../lib/schemas.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export async function metricsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Platform figures per UTC day over the last 30 or 90 days, and now (platform super-admins only)',
        tags,
        security,
        querystring: AdminMetricsQuery,
        response: responses({ 200: AdminMetrics }),
      },
    },
    async function adminMetrics(request) {
      return app.ctx.admin.metrics.report(request.query.days ?? 30);
    },
  );
}
