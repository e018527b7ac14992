/** The platform super-admin of the e2e server (SUPER_ADMIN_USERNAMES in e2e/run.ts), shared by the browser tests that need one. */
import { expect, type APIRequestContext } from '@playwright/test';
import { latestMail, passwordGrant, signUpOverApi, type Account } from './accounts.ts';
import { bearer } from './platform.ts';

export const superAdmin: Account = { username: 'e2esuperadmin', email: 'e2esuperadmin@example.test', password: 'pw-e2esuperadmin-secret' };

/** The super-admin's token: signed up (and confirmed) on first use in this run's empty database. */
export async function superAdminToken(request: APIRequestContext): Promise<string> {
  try {
    return await passwordGrant(request, superAdmin);
  } catch {
    await signUpOverApi(request, superAdmin);
    const mail = await latestMail(request, superAdmin.email, 'confirm');
    const confirmID = new URL(mail.link!).pathname.split('/').pop()!;
    const token = await passwordGrant(request, superAdmin);
    const confirmed = await request.post(`/api/user/${confirmID}/confirm`, { headers: bearer(token) });
    expect(confirmed.ok()).toBe(true);
    return token;
  }
}
