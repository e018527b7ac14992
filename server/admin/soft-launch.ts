/** Soft launch: while on, billing applies only to whitelisted organizations (docs/admin.md "Soft launch"). */
import type { AdminDeps } from './deps.ts';

export class SoftLaunchService {
  constructor(private readonly deps: AdminDeps) {}
}
