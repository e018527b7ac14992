/**
 * The platform admin area (docs/admin.md): its services, reached as `app.ctx.admin`, and its two
 * route plugins — `/api/admin/…` (users, organizations, metrics, audit log) and the admin calls
 * of the billing service under `/billing` (soft launch, `adminBillingDetails`, the plan override). Every
 * route of both is for platform super-admins only (server/admin/guard.ts).
 */
import type { FastifyInstance } from 'fastify';
import { AuditLog } from './audit.ts';
import { PlatformMetrics } from './metrics.ts';
import { AdminOrganizationService } from './organizations.ts';
import { SoftLaunchService } from './soft-launch.ts';
import { AdminUserService } from './users.ts';

export interface AdminContext {
  audit: AuditLog;
  users: AdminUserService;
  organizations: AdminOrganizationService;
  softLaunch: SoftLaunchService;
  metrics: PlatformMetrics;
}

export function createAdmin(app: FastifyInstance): AdminContext {
  const audit = new AuditLog(app.ctx.database.db);
  const deps = { ctx: app.ctx, audit, log: app.log };
  return {
    audit,
    users: new AdminUserService(deps),
    organizations: new AdminOrganizationService(deps),
    softLaunch: new SoftLaunchService(deps),
    metrics: new PlatformMetrics(deps),
  };
}
