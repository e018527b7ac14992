/**
 * The platform super-admin of the e2e server, shared by the browser tests that need one. Its
 * username is configured (SUPER_ADMIN_USERNAMES in e2e/run.ts), so sign-up refuses it: e2e/run.ts
 * makes the user with `larder admin create` before the server starts (docs/admin.md "Access").
 */
import type { APIRequestContext } from '@playwright/test';
import { passwordGrant, type Account } from './accounts.ts';

export const superAdmin: Account = { username: 'e2esuperadmin', email: 'e2esuperadmin@example.test', password: 'pw-e2esuperadmin-secret' };

/** The super-admin's access token (a password sign-in). */
export function superAdminToken(request: APIRequestContext): Promise<string> {
  return passwordGrant(request, superAdmin);
}
