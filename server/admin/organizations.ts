/** Every organization's billing row, its detail, and the plan override (docs/admin.md "Organizations"). */
import type { AdminDeps } from './deps.ts';

export class AdminOrganizationService {
  constructor(private readonly deps: AdminDeps) {}
}
