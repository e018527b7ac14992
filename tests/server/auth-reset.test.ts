/**
 * Password reset: `POST /auth/resetPasswordEmail` answers alike for known and unknown addresses;
 * `POST /auth/resetPassword` takes single-use, expiring, hashed tokens and ends every session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { passwordResets } from '../../server/db/schema.ts';
import { bearer, lastMailTo, mailsTo, newAccount, passwordGrant, refreshGrant, signIn, signUp, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { userByEmail } from './support/db.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

describe.each(databaseKinds)('password reset on %s', (kind) => {
  let t: TestApp;

  const requestReset = (email: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email }, headers });
  const reset = (token: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/resetPassword', payload: { token, password } });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });
  const resetTokenFrom = (link: string) => link.split('/resetPassword/')[1]!;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  it('answers known and unknown addresses alike and mails only the owner', async () => {
    const { account } = await verifiedUser(t.app, 'known');
    const unknown = 'nobody-at-all@example.com';
    const known = await requestReset(account.email);
    const stranger = await requestReset(unknown);
    expect(known.statusCode).toBe(200);
    expect(stranger.statusCode).toBe(known.statusCode);
    expect(stranger.body).toBe(known.body);
    expect(json(known)).toEqual({ ok: true });
    expect(stranger.headers['content-type']).toBe(known.headers['content-type']);
    expect(await mailsTo(t.app, unknown)).toEqual([]);
    const mail = await lastMailTo(t.app, account.email, 'reset');
    expect(mail.text).toContain(account.username);
    expect(mail.text).toContain(mail.link!);
  });

  it('finds the account whatever the case of the address', async () => {
    const { account } = await verifiedUser(t.app, 'casing');
    expect((await requestReset(`  ${account.email.toUpperCase()} `)).statusCode).toBe(200);
    expect((await mailsTo(t.app, account.email)).filter((m) => m.kind === 'reset')).toHaveLength(1);
  });

  it('builds the link from PUBLIC_URL, never from Host or forwarded headers', async () => {
    const { account } = await verifiedUser(t.app, 'hosts');
    await requestReset(account.email, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      forwarded: 'host=evil.example;proto=https',
      origin: 'https://evil.example',
      referer: 'https://evil.example/login',
    });
    const mail = await lastMailTo(t.app, account.email, 'reset');
    expect(mail.link).toMatch(/^http:\/\/larder\.test\/resetPassword\/[A-Za-z0-9_-]{43}$/);
    expect(mail.text).not.toContain('evil');
  });

  it('keeps only a hash of the reset token', async () => {
    const { account } = await verifiedUser(t.app, 'hashed');
    await requestReset(account.email);
    const token = resetTokenFrom((await lastMailTo(t.app, account.email, 'reset')).link!);
    const user = await userByEmail(t.database.db, account.email);
    const rows = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, user!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('base64url'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('sets the new password and ends every session of the user, and only of that user', async () => {
    const { account, tokens } = await verifiedUser(t.app, 'reset');
    const second = await signIn(t.app, account.username, account.password);
    const bystander = await verifiedUser(t.app, 'bystander');
    await requestReset(account.email);
    const token = resetTokenFrom((await lastMailTo(t.app, account.email, 'reset')).link!);

    const response = await reset(token, 'a whole new password');
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ ok: true });

    for (const session of [tokens, second]) {
      expectProblem(await me(session.access_token), 401, 'session_revoked');
      expectProblem(await refreshGrant(t.app, session.refresh_token), 401, 'invalid_refresh_token');
    }
    expectProblem(await passwordGrant(t.app, account.username, account.password), 400, 'invalid_grant');
    const fresh = await signIn(t.app, account.username, 'a whole new password');
    expect((await me(fresh.access_token)).statusCode).toBe(200);
    expect((await me(bystander.tokens.access_token)).statusCode).toBe(200);
  });

  it('uses a token once, and a reset ends the user’s other reset links', async () => {
    const { account } = await verifiedUser(t.app, 'once');
    await requestReset(account.email);
    const first = resetTokenFrom((await lastMailTo(t.app, account.email, 'reset')).link!);
    await requestReset(account.email);
    const second = resetTokenFrom((await lastMailTo(t.app, account.email, 'reset')).link!);
    expect(second).not.toBe(first);

    expect((await reset(second, 'password number two')).statusCode).toBe(200);
    expectProblem(await reset(second, 'password number three'), 400, 'invalid_reset_token');
    expectProblem(await reset(first, 'password number four'), 400, 'invalid_reset_token');
    expect((await passwordGrant(t.app, account.username, 'password number two')).statusCode).toBe(200);
  });

  it('marks the e-mail verified, since the link proved the mailbox', async () => {
    const account = newAccount('unverified');
    await signUp(t.app, account);
    expect((await userByEmail(t.database.db, account.email))!.verified).toBe(false);
    await requestReset(account.email);
    expect((await reset(resetTokenFrom((await lastMailTo(t.app, account.email, 'reset')).link!), 'verified by mailbox')).statusCode).toBe(200);
    expect((await userByEmail(t.database.db, account.email))!.verified).toBe(true);
  });

  it('refuses unknown tokens and bad passwords with 400 and changes nothing; the token survives a refused password', async () => {
    const { account, tokens } = await verifiedUser(t.app, 'refused');
    await requestReset(account.email);
    const token = resetTokenFrom((await lastMailTo(t.app, account.email, 'reset')).link!);
    const before = await userByEmail(t.database.db, account.email);

    expectProblem(await reset('x'.repeat(43), 'a fine new password'), 400, 'invalid_reset_token');
    expectProblem(await reset(`${token}x`, 'a fine new password'), 400, 'invalid_reset_token');
    expectProblem(await reset(token.toUpperCase(), 'a fine new password'), 400, 'invalid_reset_token');
    expectProblem(await reset(token, 'short'), 400, 'validation_failed');
    expectProblem(await reset(token, 'x'.repeat(257)), 400, 'validation_failed');

    expect(await userByEmail(t.database.db, account.email)).toEqual(before);
    expect((await me(tokens.access_token)).statusCode).toBe(200);
    expect((await reset(token, 'a fine new password')).statusCode).toBe(200);
  });
});
