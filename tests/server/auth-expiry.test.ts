/**
 * Lifetimes: access tokens (ACCESS_TOKEN_TTL_S), unused refresh tokens (REFRESH_TOKEN_TTL_S),
 * reset links (RESET_TOKEN_TTL_S) and confirmation links (CONFIRMATION_TTL_S), all set to a
 * second or two so the suite can wait them out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { loadServerKeys, type ServerKeys } from '../../server/auth/keys.ts';
import { bearer, lastMailTo, newAccount, passwordGrant, refreshGrant, signIn, signUp, type Tokens } from './support/flows.ts';
import { expectProblem, sleep } from './support/assertions.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

/** JWT times are whole seconds: start just after a second begins so a 1 s token lives ~1 s. */
const startOfNextSecond = () => sleep(1000 - (Date.now() % 1000) + 20);

describe.each(databaseKinds)('token and link lifetimes on %s', (kind) => {
  let t: TestApp;
  let account: ReturnType<typeof newAccount>;
  let preparedAt: number;
  let resetToken: string;
  let confirmId: string;
  let spare: Tokens;
  let keys: ServerKeys;

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });
  const waitUntil = (at: number) => sleep(Math.max(0, at - Date.now()));
  /** The same access token re-signed with ten minutes to live, for checks that are not about its lifetime. */
  const durable = (access: string) => {
    const { sub, sid } = decodeJwt(access);
    return new SignJWT({ sid })
      .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid, typ: 'JWT' })
      .setSubject(sub!)
      .setIssuer('larder')
      .setAudience('larder')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(keys.privateKey);
  };

  beforeAll(async () => {
    t = await createTestApp(kind, {
      ACCESS_TOKEN_TTL_S: '1',
      REFRESH_TOKEN_TTL_S: '2',
      RESET_TOKEN_TTL_S: '1',
      CONFIRMATION_TTL_S: '1',
    });
    account = newAccount('ttl');
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    keys = await loadServerKeys(t.database.db);
    preparedAt = Date.now();
    spare = await signIn(t.app, account.username, account.password);
    confirmId = (await lastMailTo(t.app, account.email, 'confirm')).link!.split('/confirm/')[1]!;
    await t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email: account.email } });
    resetToken = (await lastMailTo(t.app, account.email, 'reset')).link!.split('/resetPassword/')[1]!;
  });
  afterAll(() => t?.close());

  it('expires access tokens after ACCESS_TOKEN_TTL_S with 401 token_expired; a refresh gives a working one', async () => {
    await startOfNextSecond();
    const response = await passwordGrant(t.app, account.username, account.password);
    const tokens = json<Tokens>(response);
    expect(tokens.expires_in).toBeLessThanOrEqual(1);
    expect((await me(tokens.access_token)).statusCode).toBe(200);
    await sleep(1100);
    const expired = await me(tokens.access_token);
    expectProblem(expired, 401, 'token_expired');
    expect(expired.headers['www-authenticate']).toBe('Bearer');
    await startOfNextSecond();
    const refreshed = await refreshGrant(t.app, tokens.refresh_token);
    expect(refreshed.statusCode).toBe(200);
    expect((await me(json<Tokens>(refreshed).access_token)).statusCode).toBe(200);
  });

  it('refuses an expired reset link with 400 and leaves the password as it was', async () => {
    await waitUntil(preparedAt + 1100);
    const response = await t.app.inject({ method: 'POST', url: '/auth/resetPassword', payload: { token: resetToken, password: 'a brand new password' } });
    expectProblem(response, 400, 'invalid_reset_token');
    expect((await passwordGrant(t.app, account.username, 'a brand new password')).statusCode).toBe(400);
    expect((await passwordGrant(t.app, account.username, account.password)).statusCode).toBe(200);
  });

  it('refuses an expired confirmation link with 400; a new link works', async () => {
    await waitUntil(preparedAt + 1100);
    const access = await durable((await signIn(t.app, account.username, account.password)).access_token);
    const confirm = (id: string) => t.app.inject({ method: 'POST', url: `/api/user/${id}/confirm`, headers: bearer(access) });
    expectProblem(await confirm(confirmId), 400, 'confirmation_expired');
    expect(json(await me(access))).toMatchObject({ verified: false });
    expect((await t.app.inject({ method: 'POST', url: '/api/user/me/confirmation', headers: bearer(access) })).statusCode).toBe(202);
    const fresh = (await lastMailTo(t.app, account.email, 'confirm')).link!.split('/confirm/')[1]!;
    expect(fresh).not.toBe(confirmId);
    expect((await confirm(fresh)).statusCode).toBe(200);
    expect(json(await me(access))).toMatchObject({ verified: true });
  });

  it('expires a refresh token left unused for REFRESH_TOKEN_TTL_S', async () => {
    await waitUntil(preparedAt + 2200);
    expectProblem(await refreshGrant(t.app, spare.refresh_token), 401, 'invalid_refresh_token');
  });
});
