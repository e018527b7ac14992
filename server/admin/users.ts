/** Users of the whole platform: search, disable and enable, super-admin grants (docs/admin.md "Users"). */
import type { AdminDeps } from './deps.ts';

export class AdminUserService {
  constructor(private readonly deps: AdminDeps) {}
}
