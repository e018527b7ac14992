/**
 * Verification of app users' addresses (docs/mail.md): a sign-up with an e-mail address is
 * answered exactly as before, then mailed a link to the console's page; the page's tokenless call
 * verifies the address once, before the link expires, and answers the project's name. A project
 * can turn it off; phone sign-ups and taken addresses get no mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { projectUserVerifications } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { mailsTo } from './support/flows.ts';
import { authCall, mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

describe.each(databaseKinds)('app-user address verification on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let apiToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    apiToken = await mintToken(t, f);
  });
  afterAll(() => t?.close());

  const verify = (id: string, payload?: unknown) =>
    t.app.inject({ method: 'POST', url: `/auth/public/bagel-auth-verify-email/${encodeURIComponent(id)}`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const verified = async (email: string) => json(await f.call('GET', `user?search=${encodeURIComponent(email)}`)).users[0].verified as boolean;
  const linkIdOf = async (email: string) => {
    const mails = (await mailsTo(t.app, email)).filter((m) => m.kind === 'project-user-verification');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.link).toMatch(/^http:\/\/larder\.test\/bagel-auth-verify-email\/[\w-]{40,}$/);
    expect(mails[0]!.text).toContain(mails[0]!.link!);
    return mails[0]!.link!.split('/bagel-auth-verify-email/')[1]!;
  };

  it('answers the sign-up exactly as before, then mails a link that verifies the address once', async () => {
    const email = newEmail('verify');
    const answer = await authCall(t, 'POST', '/user', apiToken, { email, password: 'correct horse 1' });
    expect(answer.statusCode).toBe(201);
    expect(Object.keys(json(answer)).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type', 'user_id']);
    const id = await linkIdOf(email);
    expect(await verified(email)).toBe(false);

    const first = await verify(id);
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toEqual({ ok: true, project: 'Content' });
    expect(await verified(email)).toBe(true);
    expectProblem(await verify(id), 400, 'invalid_verification_token');
  });

  it('refuses an unknown, an expired or a malformed link with 400, verifying nobody', async () => {
    const email = newEmail('expired');
    await signUpEndUser(t, apiToken, email);
    const id = await linkIdOf(email);
    await t.database.db.update(projectUserVerifications).set({ expiresAt: new Date(Date.now() - 1000) });
    expectProblem(await verify(id), 400, 'invalid_verification_token');
    expectProblem(await verify('x'.repeat(43)), 400, 'invalid_verification_token');
    expect((await verify('x'.repeat(201))).statusCode).toBeGreaterThanOrEqual(400);
    expectProblem(await verify(id, { extra: true }), 400);
    expect(await verified(email)).toBe(false);
  });

  it('mails nobody for a phone sign-up or a taken address, nor while the project turns verification off', async () => {
    const phone = await authCall(t, 'POST', '/user', apiToken, { phone: '+4915112345678', password: 'correct horse 1' });
    expect(phone.statusCode).toBe(201);
    const email = newEmail('taken');
    await signUpEndUser(t, apiToken, email);
    expect((await authCall(t, 'POST', '/user', apiToken, { email, password: 'correct horse 1' })).statusCode).toBe(409);
    await linkIdOf(email); // still exactly one

    expect((await f.call('PUT', 'mail/settings', { verifyOnSignup: false })).statusCode).toBe(200);
    const quiet = newEmail('quiet');
    await signUpEndUser(t, apiToken, quiet);
    expect(await mailsTo(t.app, quiet)).toEqual([]);
    const users = json(await f.call('GET', 'user?perPage=500')).users as { userID: string; phone: string | null; email: string | null }[];
    const phoneUser = users.find((u) => u.phone)!;
    const quietUser = users.find((u) => u.email === quiet)!;
    for (const user of [phoneUser, quietUser]) {
      expect(await t.database.db.select().from(projectUserVerifications).where(eq(projectUserVerifications.userId, user.userID))).toEqual([]);
    }
    expect((await f.call('PUT', 'mail/settings', { verifyOnSignup: true })).statusCode).toBe(200);
  });
});
