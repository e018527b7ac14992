/** What the admin area's services are built with (server/admin/index.ts). */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app.ts';
import type { AuditLog } from './audit.ts';

export interface AdminDeps {
  /** The application's services (built before the admin area). */
  ctx: AppContext;
  audit: AuditLog;
  log: FastifyBaseLogger;
}
