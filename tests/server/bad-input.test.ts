/**
 * The bad-input corpus: every request here gets a 4xx problem+json answer and changes nothing in
 * the database (compared before and after).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, CONSOLE, lastMailTo, newAccount, passwordGrant, signIn, verifiedUser } from './support/flows.ts';
import { expectProblem, FORM, form } from './support/assertions.ts';
import { accountSnapshot, userByEmail } from './support/db.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

function expectRefused(response: LightMyRequestResponse, status: number | number[] = 400, label = '') {
  const statuses = Array.isArray(status) ? status : [status];
  expect(statuses, `${label} → ${response.statusCode} ${response.body.slice(0, 200)}`).toContain(response.statusCode);
  expectProblem(response, response.statusCode);
}

describe.each(databaseKinds)('bad input on %s', (kind) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof verifiedUser>>;
  let resetToken: string;
  let before: Awaited<ReturnType<typeof accountSnapshot>>;

  const raw = (method: 'POST' | 'PUT', url: string, payload: string | Buffer, headers: Record<string, string> = JSON_TYPE) =>
    t.app.inject({ method, url, payload, headers });

  beforeAll(async () => {
    t = await createTestApp(kind);
    user = await verifiedUser(t.app, 'bad');
    await t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email: user.account.email } });
    resetToken = (await lastMailTo(t.app, user.account.email, 'reset')).link!.split('/resetPassword/')[1]!;
  });
  beforeEach(async () => {
    before = await accountSnapshot(t.database.db);
  });
  afterAll(() => t?.close());

  const unchanged = async () => expect(await accountSnapshot(t.database.db)).toEqual(before);

  it('refuses malformed JSON with 400 on every JSON route', async () => {
    const auth = { ...JSON_TYPE, ...bearer(user.tokens.access_token) };
    const routes: [method: 'POST' | 'PUT', url: string, headers: Record<string, string>][] = [
      ['POST', '/api/user', JSON_TYPE],
      ['POST', '/auth/token', JSON_TYPE],
      ['POST', '/auth/logout', JSON_TYPE],
      ['POST', '/auth/resetPasswordEmail', JSON_TYPE],
      ['POST', '/auth/resetPassword', JSON_TYPE],
      ['POST', '/auth/googleToken', JSON_TYPE],
      ['PUT', '/api/user/questionnaire', auth],
    ];
    const bodies = [
      '{',
      '{"email": }',
      '{"username": "a", }',
      "{'email': 'x@example.com'}",
      'nul',
      '{"email": "x@example.com"} trailing',
      '\u0000',
      '{"__proto__": {"verified": true}, "username": "proto", "email": "proto@example.com", "password": "long enough"}',
      '{"constructor": {"prototype": {"verified": true}}, "username": "ctor", "email": "ctor@example.com", "password": "long enough"}',
      '',
    ];
    for (const [method, url, headers] of routes) {
      for (const body of bodies) {
        const response = await raw(method, url, body, headers);
        expectRefused(response, 400, `${method} ${url} ${JSON.stringify(body)}`);
      }
    }
    await unchanged();
  });

  it('refuses sign-ups with wrong types, bad values or missing fields with 400 and creates no user', async () => {
    const good = newAccount('typed');
    const bad: unknown[] = [
      null,
      [],
      'string',
      42,
      {},
      { ...good, username: 12345 },
      { ...good, username: ['typed'] },
      { ...good, username: { $ne: null } },
      { ...good, username: null },
      { ...good, username: true },
      { ...good, email: [good.email] },
      { ...good, email: 'not-an-email' },
      { ...good, email: `${'x'.repeat(250)}@example.com` },
      { ...good, password: 12345678 },
      { ...good, password: 'short' },
      { ...good, password: 'x'.repeat(257) },
      { ...good, password: true },
      { ...good, username: 'ab' },
      { ...good, username: '-leading-dash' },
      { ...good, username: 'has space' },
      { ...good, username: 'x'.repeat(41) },
      { ...good, username: 'semi;colon' },
      { ...good, username: 'ünïcödé' },
      { username: good.username, email: good.email },
      { username: good.username, password: good.password },
      { email: good.email, password: good.password },
    ];
    for (const payload of bad) {
      const response = await raw('POST', '/api/user', JSON.stringify(payload));
      expectRefused(response, 400, JSON.stringify(payload).slice(0, 80));
    }
    expect(await userByEmail(t.database.db, good.email)).toBeUndefined();
    await unchanged();
  });

  it('refuses mass-assigned fields in sign-up with 400 and creates no user', async () => {
    const extras = [
      { verified: true },
      { organizations: ['0123456789abcdef01234567'] },
      { _id: '0123456789abcdef01234567' },
      { superAdmin: true },
      { id: 'x' },
      { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$x$y' },
      { googleSubject: 'x' },
      { questionnaire: { role: 'developer' } },
      { admin: true },
      { role: 'admin' },
    ];
    for (const extra of extras) {
      const account = newAccount('mass');
      const response = await t.app.inject({ method: 'POST', url: '/api/user', payload: { ...account, ...extra } });
      expectProblem(response, 400, 'validation_failed');
      expect(await userByEmail(t.database.db, account.email)).toBeUndefined();
    }
    await unchanged();
  });

  it('refuses reset tokens that are not non-empty strings with 400, leaving password, sessions and the reset link intact', async () => {
    for (const token of [{}, [], null, '', true, false, 0, 123456, 1.5, -1, [resetToken], { token: resetToken }]) {
      const response = await t.app.inject({ method: 'POST', url: '/auth/resetPassword', payload: { token, password: 'hijacked password' } as never });
      expectProblem(response, 400, 'validation_failed');
    }
    for (const payload of [{ password: 'hijacked password' }, { token: resetToken }, { token: resetToken, password: 'hijacked password', userId: 'x' }]) {
      expectProblem(await t.app.inject({ method: 'POST', url: '/auth/resetPassword', payload }), 400, 'validation_failed');
    }
    for (const email of [{}, [], null, '', true, 42, [user.account.email]]) {
      expectProblem(await t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email } as never }), 400, 'validation_failed');
    }
    await unchanged();
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(user.tokens.access_token) });
    expect(me.statusCode).toBe(200);
  });

  it('refuses oversized bodies with 413: over 16 KB on auth and sign-up routes, over 1 MB elsewhere', async () => {
    const big = 'x'.repeat(17 * 1024);
    const json = (extra: object) => JSON.stringify(extra);
    const cases: [url: string, payload: string, headers: Record<string, string>][] = [
      ['/auth/token', form([['grant_type', 'password'], ['username', user.account.username], ['password', user.account.password], ['client_id', CONSOLE.client_id], ['client_secret', CONSOLE.client_secret], ['pad', big]]), FORM],
      ['/auth/token', json({ grant_type: 'password', username: user.account.username, pad: big }), JSON_TYPE],
      ['/auth/logout', json({ refresh_token: user.tokens.refresh_token, pad: big }), JSON_TYPE],
      ['/auth/resetPasswordEmail', json({ email: user.account.email, pad: big }), JSON_TYPE],
      ['/auth/resetPassword', json({ token: resetToken, password: 'new password here', pad: big }), JSON_TYPE],
      ['/auth/googleToken', json({ token: big }), JSON_TYPE],
      ['/api/user', json({ ...newAccount('big'), pad: big }), JSON_TYPE],
    ];
    for (const [url, payload, headers] of cases) {
      expectProblem(await raw('POST', url, payload, headers), 413, 'payload_too_large');
    }
    expectProblem(
      await raw('PUT', '/api/user/questionnaire', json({ role: 'developer', teamSize: '1', useCase: big }), { ...JSON_TYPE, ...bearer(user.tokens.access_token) }),
      413,
      'payload_too_large',
    );
    // Under 16 KB the auth routes parse the body (and answer on its merits).
    const small = await raw('POST', '/auth/token', json({ grant_type: 'nothing', pad: 'x'.repeat(15 * 1024) }));
    expectProblem(small, 400, 'unsupported_grant_type');
    // Elsewhere the limit is 1 MB.
    const auth = { ...JSON_TYPE, ...bearer(user.tokens.access_token) };
    const under = await raw('POST', '/api/user/some-id/confirm', json({ pad: 'x'.repeat(900 * 1024) }), auth);
    expectProblem(under, 404, 'confirmation_not_found');
    const over = await raw('POST', '/api/user/some-id/confirm', json({ pad: 'x'.repeat(1024 * 1024) }), auth);
    expectProblem(over, 413, 'payload_too_large');
    await unchanged();
  });

  it('refuses unknown grant types and repeated form keys with 400 and starts no session', async () => {
    const { username, password } = user.account;
    const base: [string, string][] = [
      ['grant_type', 'password'],
      ['username', username],
      ['password', password],
      ['client_id', CONSOLE.client_id],
      ['client_secret', CONSOLE.client_secret],
    ];
    const repeated = (key: string, second: string): [string, string][] => [...base, [key, second]];
    const bodies: [string, string][][] = [
      repeated('username', username),
      repeated('username', 'someone-else'),
      repeated('password', password),
      repeated('grant_type', 'password'),
      repeated('grant_type', 'refresh_token'),
      repeated('client_id', CONSOLE.client_id),
      repeated('client_secret', 'other'),
      [['grant_type', 'refresh_token'], ['refresh_token', user.tokens.refresh_token], ['refresh_token', user.tokens.refresh_token]],
      [...base.filter(([k]) => k !== 'grant_type'), ['grant_type', 'client_credentials']],
      [...base.filter(([k]) => k !== 'grant_type'), ['grant_type', '']],
      [...base.filter(([k]) => k !== 'grant_type'), ['grant_type', 'x'.repeat(65)]],
      [...base.filter(([k]) => k !== 'username'), ['username[]', username]],
    ];
    for (const pairs of bodies) {
      const response = await t.app.inject({ method: 'POST', url: '/auth/token', headers: FORM, payload: form(pairs) });
      expectRefused(response, 400, form(pairs).slice(0, 120));
    }
    const queries = [
      `grant_type=refresh_token&refresh_token=${user.tokens.refresh_token}&refresh_token=${user.tokens.refresh_token}`,
      `grant_type=refresh_token&grant_type=refresh_token&refresh_token=${user.tokens.refresh_token}`,
      `grant_type=refresh_token&refresh_token=${'x'.repeat(129)}`,
      'grant_type=jwt-bearer',
      `grant_type=password&username=${username}&username=${username}&password=${password}&client_id=larder-console&client_secret=larder-console`,
    ];
    for (const query of queries) {
      expectRefused(await t.app.inject({ method: 'POST', url: `/auth/token?${query}` }), 400, query.slice(0, 80));
    }
    // JSON with wrong types is refused the same way.
    for (const payload of [
      { grant_type: ['password'], username, password, ...CONSOLE },
      { grant_type: 'password', username: [username], password, ...CONSOLE },
      { grant_type: 'password', username, password: { $gt: '' }, ...CONSOLE },
      { grant_type: 'password', username, password: true, ...CONSOLE },
      { grant_type: 'refresh_token', refresh_token: 12345 },
      { grant_type: 'refresh_token', refresh_token: null },
    ]) {
      expectRefused(await t.app.inject({ method: 'POST', url: '/auth/token', payload }), 400, JSON.stringify(payload).slice(0, 80));
    }
    await unchanged();
    // The untouched refresh token still rotates: the refusals consumed nothing.
    expect((await t.app.inject({ method: 'POST', url: `/auth/token?grant_type=refresh_token&refresh_token=${user.tokens.refresh_token}` })).statusCode).toBe(200);
    user.tokens = await signIn(t.app, username, password);
  });

  it('refuses repeated keys in a form-encoded sign-up with 400', async () => {
    const account = newAccount('formdup');
    const pairs: [string, string][] = [
      ['username', account.username],
      ['email', account.email],
      ['email', 'second@example.com'],
      ['password', account.password],
    ];
    expectProblem(await t.app.inject({ method: 'POST', url: '/api/user', headers: FORM, payload: form(pairs) }), 400, 'validation_failed');
    expect(await userByEmail(t.database.db, account.email)).toBeUndefined();
    await unchanged();
  });

  it('refuses unsupported media types with 415 (and plain text, which is no object, with 400)', async () => {
    const account = newAccount('media');
    for (const type of ['application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream', 'image/png']) {
      const response = await raw('POST', '/api/user', JSON.stringify(account), { 'content-type': type });
      expectProblem(response, 415, 'unsupported_media_type');
    }
    expectProblem(await raw('POST', '/api/user', JSON.stringify(account), { 'content-type': 'text/plain' }), 400, 'validation_failed');
    expect(await userByEmail(t.database.db, account.email)).toBeUndefined();
    await unchanged();
  });

  it('refuses bad query parameters with 400', async () => {
    const account = newAccount('query');
    expectProblem(
      await t.app.inject({ method: 'POST', url: `/api/user?inviteID=${'x'.repeat(65)}`, payload: account }),
      400,
      'validation_failed',
    );
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/api/user?inviteID=a&inviteID=b', payload: account }),
      400,
      'validation_failed',
    );
    expect(await userByEmail(t.database.db, account.email)).toBeUndefined();
    await unchanged();
  });

  it('leaves the account working after the whole corpus', async () => {
    expect((await passwordGrant(t.app, user.account.username, user.account.password)).statusCode).toBe(200);
  });

  it('answers Authorization garbage on protected routes with 401 and changes nothing', async () => {
    // Logout takes the bearer token as optional: a header that names no token is no token (400).
    const namesNoToken = (authorization: string) => authorization === 'Bearer' || authorization === 'Digest x';
    for (const authorization of ['Bearer', 'Bearer null', 'Bearer undefined', 'Bearer {}', `Bearer ${'A'.repeat(20_000)}`, 'Digest x', 'Bearer\tx.y.z']) {
      for (const [method, url, payload] of [
        ['GET', '/api/user/me', undefined],
        ['PUT', '/api/user/questionnaire', { role: 'developer', teamSize: '1' }],
        ['POST', '/api/user/me/confirmation', undefined],
        ['POST', '/auth/logout', undefined],
      ] as const) {
        const response = await t.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
        expect(response.statusCode, `${method} ${url} ${authorization.slice(0, 20)}`).toBe(url === '/auth/logout' && namesNoToken(authorization) ? 400 : 401);
        expectProblem(response, response.statusCode);
      }
    }
    await unchanged();
  });
});
