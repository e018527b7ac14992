/**
 * `POST /auth/token` (password and refresh grants), `POST /auth/logout` and bearer-token
 * verification: what gets a 401 (only a missing, invalid or expired bearer token, or a refused
 * refresh token) and what gets a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, exportSPKI } from 'jose';
import { loadServerKeys, type ServerKeys } from '../../server/auth/keys.ts';
import { bearer, CONSOLE, newAccount, passwordGrant, refreshGrant, signIn, signUp, verifiedUser, type Tokens } from './support/flows.ts';
import { expectProblem, FORM, form } from './support/assertions.ts';
import { sessionsOfUser, userByEmail } from './support/db.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(databaseKinds)('auth token endpoint on %s', (kind) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof verifiedUser>>;
  let userId: string;
  let keys: ServerKeys;

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });
  const meWith = (authorization: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization } });
  /** An access token signed with the server's own key, with chosen claims. */
  const forge = (claims: Record<string, unknown>, edit: (jwt: SignJWT) => SignJWT = (j) => j) =>
    edit(
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid, typ: 'JWT' })
        .setIssuer('larder')
        .setAudience('larder')
        .setIssuedAt()
        .setExpirationTime('10m'),
    ).sign(keys.privateKey);

  beforeAll(async () => {
    t = await createTestApp(kind);
    user = await verifiedUser(t.app, 'tok');
    userId = (await userByEmail(t.database.db, user.account.email))!.id;
    keys = await loadServerKeys(t.database.db);
  });
  afterAll(() => t?.close());

  describe('password grant', () => {
    it('signs in with the username and answers the OAuth token shape, not cached', async () => {
      const response = await passwordGrant(t.app, user.account.username, user.account.password);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = json<Tokens>(response);
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect(body.token_type).toBe('Bearer');
      expect(body.expires_in).toBeGreaterThanOrEqual(899);
      expect(body.expires_in).toBeLessThanOrEqual(900);
      expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: 'EdDSA', typ: 'JWT' });
      const claims = decodeJwt(body.access_token);
      expect(claims).toMatchObject({ sub: userId, iss: 'larder', aud: 'larder', sid: expect.any(String) });
      expect(claims.exp! - claims.iat!).toBe(900);
      const who = await me(body.access_token);
      expect(who.statusCode).toBe(200);
      expect(json(who)).toMatchObject({ _id: userId, username: user.account.username, email: user.account.email, verified: true });
    });

    it('signs in with the e-mail address, in any case and with stray spaces', async () => {
      for (const login of [user.account.email, user.account.email.toUpperCase(), `  ${user.account.email} `, user.account.username.toUpperCase()]) {
        const response = await passwordGrant(t.app, login, user.account.password);
        expect(response.statusCode, login).toBe(200);
        expect(decodeJwt(json<Tokens>(response).access_token).sub).toBe(userId);
      }
    });

    it('gives every sign-in a session of its own', async () => {
      const before = (await sessionsOfUser(t.database.db, userId)).length;
      const a = await signIn(t.app, user.account.username, user.account.password);
      const b = await signIn(t.app, user.account.username, user.account.password);
      expect(decodeJwt(a.access_token).sid).not.toBe(decodeJwt(b.access_token).sid);
      expect((await sessionsOfUser(t.database.db, userId)).length).toBe(before + 2);
    });

    it('signs in unverified users too (the console decides what to do with them)', async () => {
      const account = newAccount('unverified');
      expect((await signUp(t.app, account)).statusCode).toBe(201);
      const response = await passwordGrant(t.app, account.username, account.password);
      expect(response.statusCode).toBe(200);
      expect(json(await me(json<Tokens>(response).access_token))).toMatchObject({ verified: false });
    });

    it('answers a wrong password and an unknown user with the same 400 invalid_grant', async () => {
      const wrong = await passwordGrant(t.app, user.account.username, 'not the password');
      const unknown = await passwordGrant(t.app, 'nobody-here', 'not the password');
      const unknownEmail = await passwordGrant(t.app, 'nobody@example.com', user.account.password);
      const bodies = [wrong, unknown, unknownEmail].map((r) => expectProblem(r, 400, 'invalid_grant'));
      expect(bodies[1]).toEqual(bodies[0]);
      expect(bodies[2]).toEqual(bodies[0]);
      expect(wrong.headers['www-authenticate']).toBeUndefined();
    });

    it('refuses unknown clients and wrong client secrets with 400 invalid_client', async () => {
      const cases = [
        { client_id: 'someone-else', client_secret: 'larder-console' },
        { client_id: 'larder-console', client_secret: 'wrong' },
        { client_id: '', client_secret: '' },
      ];
      for (const client of cases) {
        expectProblem(await passwordGrant(t.app, user.account.username, user.account.password, client), 400, 'invalid_client');
      }
      const withoutClient = await t.app.inject({
        method: 'POST',
        url: '/auth/token',
        headers: FORM,
        payload: form([['grant_type', 'password'], ['username', user.account.username], ['password', user.account.password]]),
      });
      expectProblem(withoutClient, 400, 'invalid_client');
    });

    it('requires username and password', async () => {
      expectProblem(await passwordGrant(t.app, '', user.account.password), 400, 'invalid_request');
      expectProblem(await passwordGrant(t.app, user.account.username, ''), 400, 'invalid_request');
    });

    it('requires a grant type and refuses unknown ones', async () => {
      const none = await t.app.inject({ method: 'POST', url: '/auth/token', headers: FORM, payload: form(Object.entries(CONSOLE)) });
      expectProblem(none, 400, 'invalid_request');
      for (const grant of ['client_credentials', 'authorization_code', 'PASSWORD', 'implicit', 'urn:ietf:params:oauth:grant-type:jwt-bearer']) {
        const response = await passwordGrant(t.app, user.account.username, user.account.password, { grant_type: grant });
        expectProblem(response, 400, 'unsupported_grant_type');
      }
    });
  });

  describe('refresh grant', () => {
    it('rotates the refresh token given in the query', async () => {
      const first = await signIn(t.app, user.account.username, user.account.password);
      const response = await refreshGrant(t.app, first.refresh_token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const next = json<Tokens>(response);
      expect(next.token_type).toBe('Bearer');
      expect(next.refresh_token).not.toBe(first.refresh_token);
      expect(next.access_token).not.toBe(first.access_token);
      expect(decodeJwt(next.access_token)).toMatchObject({ sub: userId, sid: decodeJwt(first.access_token).sid });
      expect((await me(next.access_token)).statusCode).toBe(200);
    });

    it('accepts the refresh grant as form fields too', async () => {
      const first = await signIn(t.app, user.account.username, user.account.password);
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/token',
        headers: FORM,
        payload: form([['grant_type', 'refresh_token'], ['refresh_token', first.refresh_token]]),
      });
      expect(response.statusCode).toBe(200);
      expect(json<Tokens>(response).refresh_token).not.toBe(first.refresh_token);
    });

    it('refuses unknown and malformed refresh tokens with 401', async () => {
      for (const token of ['not-a-token', 'A'.repeat(43), user.tokens.access_token.slice(0, 100)]) {
        const response = await refreshGrant(t.app, token);
        expectProblem(response, 401, 'invalid_refresh_token');
        expect(response.headers['www-authenticate']).toBe('Bearer');
      }
    });

    it('refuses a refresh grant without a refresh token with 400', async () => {
      expectProblem(await t.app.inject({ method: 'POST', url: '/auth/token?grant_type=refresh_token' }), 400, 'invalid_request');
    });
  });

  describe('logout', () => {
    it('ends the session of the bearer token: its access and refresh tokens stop working', async () => {
      const tokens = await signIn(t.app, user.account.username, user.account.password);
      const other = await signIn(t.app, user.account.username, user.account.password);
      const response = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(tokens.access_token) });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expectProblem(await me(tokens.access_token), 401, 'session_revoked');
      expectProblem(await refreshGrant(t.app, tokens.refresh_token), 401, 'invalid_refresh_token');
      // Other sessions of the same user live on.
      expect((await me(other.access_token)).statusCode).toBe(200);
    });

    it('ends the session of a refresh token sent as JSON or as a form', async () => {
      const a = await signIn(t.app, user.account.username, user.account.password);
      const b = await signIn(t.app, user.account.username, user.account.password);
      expect((await t.app.inject({ method: 'POST', url: '/auth/logout', payload: { refresh_token: a.refresh_token } })).statusCode).toBe(204);
      expect(
        (await t.app.inject({ method: 'POST', url: '/auth/logout', headers: FORM, payload: form([['refresh_token', b.refresh_token]]) })).statusCode,
      ).toBe(204);
      for (const tokens of [a, b]) {
        expectProblem(await me(tokens.access_token), 401, 'session_revoked');
        expectProblem(await refreshGrant(t.app, tokens.refresh_token), 401, 'invalid_refresh_token');
      }
    });

    it('ends the refresh token’s session even when the access token sent with it has expired', async () => {
      const tokens = await signIn(t.app, user.account.username, user.account.password);
      const sid = decodeJwt(tokens.access_token).sid;
      const expired = await forge({ sid }, (j) => j.setSubject(userId).setIssuedAt(Math.floor(Date.now() / 1000) - 1000).setExpirationTime(Math.floor(Date.now() / 1000) - 100));
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: bearer(expired),
        payload: { refresh_token: tokens.refresh_token },
      });
      expectProblem(response, 401, 'token_expired');
      expectProblem(await refreshGrant(t.app, tokens.refresh_token), 401, 'invalid_refresh_token');
      expectProblem(await me(tokens.access_token), 401, 'session_revoked');
    });

    it('needs something to sign out, and ignores unknown refresh tokens', async () => {
      expectProblem(await t.app.inject({ method: 'POST', url: '/auth/logout' }), 400, 'invalid_request');
      expect((await t.app.inject({ method: 'POST', url: '/auth/logout', payload: { refresh_token: 'unknown' } })).statusCode).toBe(204);
      expect((await me(user.tokens.access_token)).statusCode).toBe(200);
    });
  });

  describe('bearer tokens', () => {
    it('answers 401 with WWW-Authenticate when the token is missing', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/user/me' });
      expectProblem(response, 401, 'missing_token');
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });

    it('answers 401, never 500, to Authorization header garbage', async () => {
      const garbage = [
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        `Token ${user.tokens.access_token}`,
        'Bearer a b c',
        'Bearer ....',
        'Bearer not.a.jwt',
        'Bearer eyJhbGciOiJFZERTQSJ9.e30.',
        `Bearer ${'x'.repeat(8000)}`,
        `Bearer ${user.tokens.access_token}${user.tokens.access_token}`,
        `Bearer ${user.tokens.refresh_token}`,
        'Bearer \u00e9\u00e8',
        `Bearer ${Buffer.from('{"alg":"EdDSA"}').toString('base64url')}.${'%'.repeat(10)}.x`,
      ];
      for (const header of garbage) {
        const response = await meWith(header);
        expect(response.statusCode, header.slice(0, 40)).toBe(401);
        expectProblem(response, 401);
      }
    });

    it('accepts the scheme name in any case', async () => {
      expect((await meWith(`bearer ${user.tokens.access_token}`)).statusCode).toBe(200);
      expect((await meWith(`BEARER ${user.tokens.access_token}`)).statusCode).toBe(200);
    });

    it('refuses tampered tokens: changed claims, changed signature, swapped parts', async () => {
      const [header, payload, signature] = user.tokens.access_token.split('.') as [string, string, string];
      const other = await verifiedUser(t.app, 'victim');
      const otherId = (await userByEmail(t.database.db, other.account.email))!.id;
      const claims = decodeJwt(user.tokens.access_token);
      const tampered = [
        // Claims of another user, original signature.
        `${header}.${b64({ ...claims, sub: otherId })}.${signature}`,
        // Longer lifetime, original signature.
        `${header}.${b64({ ...claims, exp: claims.exp! + 86_400 })}.${signature}`,
        // One bit of the signature flipped.
        `${header}.${payload}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`,
        // Signature of another token.
        `${header}.${payload}.${other.tokens.access_token.split('.')[2]}`,
        // No signature.
        `${header}.${payload}.`,
        // alg: none.
        `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      ];
      for (const token of tampered) expectProblem(await me(token), 401, 'invalid_token');
      // The untouched token still works: the refusals are about the changes.
      expect((await me(user.tokens.access_token)).statusCode).toBe(200);
    });

    it('refuses HS256 tokens signed with the server’s public key (algorithm confusion)', async () => {
      const claims = decodeJwt(user.tokens.access_token);
      const publicJwk = await exportJWK(keys.publicKey);
      const spki = await exportSPKI(keys.publicKey);
      for (const secret of [JSON.stringify(publicJwk), spki, publicJwk.x!, 'secret']) {
        const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: keys.kid }).sign(new TextEncoder().encode(secret));
        expectProblem(await me(token), 401, 'invalid_token');
      }
    });

    it('refuses tokens signed with the server key but with the wrong issuer, audience or claims', async () => {
      const sid = decodeJwt(user.tokens.access_token).sid;
      const cases = [
        await forge({ sid }, (j) => j.setSubject(userId).setIssuer('someone-else')),
        await forge({ sid }, (j) => j.setSubject(userId).setAudience('another-service')),
        await forge({ sid }, (j) => j), // no subject
        await forge({}, (j) => j.setSubject(userId)), // no session
        await forge({ sid: 42 }, (j) => j.setSubject(userId)),
      ];
      for (const token of cases) expectProblem(await me(token), 401, 'invalid_token');
      // The same forgery with every claim right is accepted: the cases above fail on their one change.
      expect((await me(await forge({ sid }, (j) => j.setSubject(userId)))).statusCode).toBe(200);
    });

    it('refuses an expired token with 401 token_expired', async () => {
      const sid = decodeJwt(user.tokens.access_token).sid;
      const now = Math.floor(Date.now() / 1000);
      const expired = await forge({ sid }, (j) => j.setSubject(userId).setIssuedAt(now - 1000).setExpirationTime(now - 1));
      expectProblem(await me(expired), 401, 'token_expired');
    });

    it('refuses a validly signed token naming a session of another user, or no session', async () => {
      const other = await verifiedUser(t.app, 'other');
      const otherSid = decodeJwt(other.tokens.access_token).sid;
      expectProblem(await me(await forge({ sid: otherSid }, (j) => j.setSubject(userId))), 401, 'session_revoked');
      expectProblem(await me(await forge({ sid: 'f'.repeat(24) }, (j) => j.setSubject(userId))), 401, 'session_revoked');
    });
  });

  it('answers third-party sign-in with 404 while it is not configured', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/googleToken?signup', payload: { token: 'a.b.c' } });
    expectProblem(response, 404, 'third_party_disabled');
    const config = json(await t.app.inject({ method: 'GET', url: '/api/config' }));
    expect(config).toMatchObject({ consoleClient: { id: CONSOLE.client_id, secret: CONSOLE.client_secret }, googleClientId: null, devMailbox: true });
  });
});
