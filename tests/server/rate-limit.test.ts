/**
 * Rate limits (low values set through the environment): sign-in per account name and per client
 * address (password and third-party), reset mail per e-mail and per address, sign-up per address.
 * Every refusal is a 429 problem with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { CONSOLE, mailsTo, newAccount, signUp } from './support/flows.ts';
import { expectProblem, FORM } from './support/assertions.ts';
import { userByEmail } from './support/db.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';

function expectLimited(response: LightMyRequestResponse) {
  const problem = expectProblem(response, 429, 'rate_limited');
  const wait = Number(response.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
  // The console's text says the same wait (definitions/problems.ts: rate_limited takes `seconds`).
  expect((problem as { params?: unknown }).params).toEqual({ seconds: wait });
}

describe.each(databaseKinds)('rate limits on %s', (kind) => {
  let t: TestApp;
  let registered: ReturnType<typeof newAccount>;

  const login = (username: string, password: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/token',
      remoteAddress,
      headers: FORM,
      payload: new URLSearchParams({ grant_type: 'password', username, password, ...CONSOLE }).toString(),
    });
  const resetMail = (email: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', remoteAddress, payload: { email } });

  beforeAll(async () => {
    t = await createTestApp(kind, {
      RATE_LIMIT_LOGIN_ACCOUNT: '3/1m',
      RATE_LIMIT_LOGIN_ADDRESS: '5/1m',
      RATE_LIMIT_RESET_ACCOUNT: '2/1m',
      RATE_LIMIT_RESET_ADDRESS: '4/1m',
      RATE_LIMIT_SIGNUP_ADDRESS: '3/1m',
      GOOGLE_CLIENT_ID: 'rate-limit-test-client',
      GOOGLE_JWKS_URL: 'http://127.0.0.1:9/jwks',
    });
    registered = newAccount('limited');
    expect((await t.app.inject({ method: 'POST', url: '/api/user', payload: registered, remoteAddress: '203.0.113.250' })).statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  it('limits sign-in attempts per account name, across addresses, in any case and from the query too', async () => {
    const { username, password } = registered;
    expect((await login(username, 'wrong password', '198.51.100.1')).statusCode).toBe(400);
    expect((await login(username.toUpperCase(), 'wrong password', '198.51.100.2')).statusCode).toBe(400);
    // The name in the query string counts against the same account (the password stays in the body:
    // one in the URL is refused outright, before anything is counted).
    const passwordInUrl = await t.app.inject({
      method: 'POST',
      url: `/auth/token?grant_type=password&username=${encodeURIComponent(username)}&password=wrong-password&client_id=${CONSOLE.client_id}&client_secret=${CONSOLE.client_secret}`,
      remoteAddress: '198.51.100.3',
    });
    expectProblem(passwordInUrl, 400, 'invalid_request');
    const viaQuery = await t.app.inject({
      method: 'POST',
      url: `/auth/token?username=${encodeURIComponent(` ${username} `)}`,
      remoteAddress: '198.51.100.3',
      headers: FORM,
      payload: new URLSearchParams({ grant_type: 'password', password: 'wrong-password', ...CONSOLE }).toString(),
    });
    expect(viaQuery.statusCode).toBe(400);
    // Limit reached: even the right password from a fresh address is refused.
    expectLimited(await login(username, password, '198.51.100.4'));
    // The account's e-mail is the same account: it is limited too.
    expectLimited(await login(registered.email, password, '198.51.100.5'));
    // Another account from the same addresses is not affected.
    const other = newAccount('other');
    expect((await login(other.username, 'wrong password', '198.51.100.1')).statusCode).toBe(400);
  });

  it('limits sign-in attempts per client address, whatever the account', async () => {
    const address = '192.0.2.10';
    for (let i = 0; i < 5; i++) expect((await login(`someone${i}`, 'wrong password', address)).statusCode).toBe(400);
    expectLimited(await login('someone-new', 'wrong password', address));
    // Forwarded headers do not change the address counted (no trusted proxy).
    const spoofed = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      remoteAddress: address,
      headers: { ...FORM, 'x-forwarded-for': '192.0.2.99' },
      payload: new URLSearchParams({ grant_type: 'password', username: 'spoof', password: 'wrong password', ...CONSOLE }).toString(),
    });
    expectLimited(spoofed);
    expect((await login('someone-new', 'wrong password', '192.0.2.11')).statusCode).toBe(400);
  });

  it('counts an IPv6 client’s whole /64 network as one address', async () => {
    for (let i = 1; i <= 5; i++) expect((await login(`v6user${i}`, 'wrong password', `2001:db8:1:2::${i}`)).statusCode).toBe(400);
    expectLimited(await login('v6user-next', 'wrong password', '2001:db8:1:2:ffff::99'));
    expect((await login('v6user-next', 'wrong password', '2001:db8:1:3::1')).statusCode).toBe(400);
  });

  it('counts third-party sign-in attempts against the same address limit', async () => {
    const address = '192.0.2.20';
    const google = () => t.app.inject({ method: 'POST', url: '/auth/googleToken', remoteAddress: address, payload: { token: 'not.a.token' } });
    for (let i = 0; i < 3; i++) expectProblem(await google(), 400, 'invalid_third_party_token');
    for (let i = 0; i < 2; i++) expect((await login(`tp${i}`, 'wrong password', address)).statusCode).toBe(400);
    expectLimited(await google());
    expectLimited(await login('tp-next', 'wrong password', address));
  });

  it('limits reset mail per e-mail address, known or not, and sends no more mail', async () => {
    expect((await resetMail(registered.email, '198.51.100.20')).statusCode).toBe(200);
    expect((await resetMail(registered.email.toUpperCase(), '198.51.100.21')).statusCode).toBe(200);
    expectLimited(await resetMail(registered.email, '198.51.100.22'));
    expect((await mailsTo(t.app, registered.email)).filter((m) => m.kind === 'reset')).toHaveLength(2);
    // An unknown address is limited exactly alike, so the limit tells nothing either.
    const unknown = 'nobody-limited@example.com';
    expect((await resetMail(unknown, '198.51.100.20')).statusCode).toBe(200);
    expect((await resetMail(unknown, '198.51.100.21')).statusCode).toBe(200);
    expectLimited(await resetMail(unknown, '198.51.100.22'));
  });

  it('limits reset mail per client address', async () => {
    const address = '192.0.2.30';
    for (let i = 0; i < 4; i++) expect((await resetMail(`reset${i}@example.com`, address)).statusCode).toBe(200);
    expectLimited(await resetMail('reset-next@example.com', address));
    expect((await resetMail('reset-next@example.com', '192.0.2.31')).statusCode).toBe(200);
  });

  it('limits sign-ups per client address and creates no user when refusing', async () => {
    const address = '192.0.2.40';
    const signUpFrom = (account: ReturnType<typeof newAccount>, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/user', payload: account, remoteAddress });
    for (let i = 0; i < 3; i++) expect((await signUpFrom(newAccount('su'), address)).statusCode).toBe(201);
    const refused = newAccount('refused');
    expectLimited(await signUpFrom(refused, address));
    expect(await userByEmail(t.database.db, refused.email)).toBeUndefined();
    expect((await signUpFrom(refused, '192.0.2.41')).statusCode).toBe(201);
    // signUp() from the default loopback address is still fine.
    expect((await signUp(t.app, newAccount('loop'))).statusCode).toBe(201);
  });
});
