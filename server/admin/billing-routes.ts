/**
 * The admin calls of the billing service (`/billing/…`, docs/admin.md): soft launch and its
 * whitelist, `adminBillingDetails`, the plan override. Platform super-admins only
 * (server/admin/guard.ts). Credit, add-ons and the billing date are in server/billing/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { guardSuperAdmin } from './guard.ts';

export async function adminBillingRoutes(app: FastifyInstance) {
  guardSuperAdmin(app);
}
