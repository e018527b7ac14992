/**
 * `/api/admin/…` (docs/admin.md): one plugin whose every route is for platform super-admins
 * (server/admin/guard.ts). Each resource has its own file.
 */
import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audit-routes.ts';
import { guardSuperAdmin } from './guard.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { organizationRoutes } from './organization-routes.ts';
import { userRoutes } from './user-routes.ts';

export async function adminRoutes(app: FastifyInstance) {
  guardSuperAdmin(app);
  await userRoutes(app);
  await organizationRoutes(app);
  await metricsRoutes(app);
  await auditRoutes(app);
}
