/**
 * `POST /auth/googleToken[?signup]`: third-party ID tokens verified against a configurable JWKS
 * URL, issuer and audience, here a local issuer on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { bearer, lastMailTo, newAccount, passwordGrant, refreshGrant, signIn, signUp, verifiedUser, type Tokens } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { accountSnapshot, userByEmail } from './support/db.ts';
import { AUDIENCE, ISSUER, startIssuer, type Issuer } from './support/issuer.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(databaseKinds)('third-party sign-in on %s', (kind) => {
  let t: TestApp;
  let issuer: Issuer;

  const googleToken = (token: unknown, query = '') =>
    t.app.inject({ method: 'POST', url: `/auth/googleToken${query}`, payload: { token } as Record<string, unknown> });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });

  beforeAll(async () => {
    issuer = await startIssuer();
    t = await createTestApp(kind, { GOOGLE_CLIENT_ID: AUDIENCE, GOOGLE_JWKS_URL: issuer.jwksUrl, GOOGLE_ISSUER: ISSUER });
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  it('announces the client id to the console', async () => {
    expect(json(await t.app.inject({ method: 'GET', url: '/api/config' }))).toMatchObject({ googleClientId: AUDIENCE });
  });

  it('signs an existing user in by e-mail with a good token, and marks the e-mail verified', async () => {
    const account = newAccount('google');
    await signUp(t.app, account);
    const user = await userByEmail(t.database.db, account.email);
    expect(user!.verified).toBe(false);
    const response = await googleToken(await issuer.sign(issuer.claims(account.email.toUpperCase())));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const tokens = json<Tokens>(response);
    expect(tokens).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String), expires_in: expect.any(Number) });
    expect(decodeJwt(tokens.access_token).sub).toBe(user!.id);
    expect(json(await me(tokens.access_token))).toMatchObject({ _id: user!.id, verified: true });
    // Nobody had proved the address: whoever chose the password may not be its owner, so it is gone.
    expectProblem(await passwordGrant(t.app, account.username, account.password), 400, 'invalid_grant');
  });

  it('linking to an account nobody proved the e-mail of removes its password, sessions and reset links (pre-hijack); a proved one keeps them', async () => {
    // Someone registers the victim's address with their own password and never confirms it.
    const attacker = newAccount('prehijack');
    expect((await signUp(t.app, attacker)).statusCode).toBe(201);
    const attackerTokens = await signIn(t.app, attacker.username, attacker.password);
    expect((await t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email: attacker.email } })).statusCode).toBe(200);
    const resetLink = (await lastMailTo(t.app, attacker.email, 'reset')).link!;
    expect((await me(attackerTokens.access_token)).statusCode).toBe(200);

    // The owner of the address signs in with the provider.
    const response = await googleToken(await issuer.sign(issuer.claims(attacker.email, { sub: 'prehijack-victim' })));
    expect(response.statusCode, response.body).toBe(200);
    const victim = json<Tokens>(response);
    expect(json(await me(victim.access_token))).toMatchObject({ verified: true, email: attacker.email });

    // Nothing the first registrant holds works any more.
    expect((await userByEmail(t.database.db, attacker.email))!.passwordHash).toBeNull();
    expectProblem(await passwordGrant(t.app, attacker.username, attacker.password), 400, 'invalid_grant');
    expectProblem(await refreshGrant(t.app, attackerTokens.refresh_token), 401, 'invalid_refresh_token');
    expectProblem(await me(attackerTokens.access_token), 401, 'session_revoked');
    const token = resetLink.split('/resetPassword/')[1]!;
    expectProblem(await t.app.inject({ method: 'POST', url: '/auth/resetPassword', payload: { token, password: 'attacker again 123' } }), 400, 'invalid_reset_token');
    // The new owner's own session is alive.
    expect((await me(victim.access_token)).statusCode).toBe(200);

    // An account whose e-mail was already proved keeps its password and sessions when linked.
    const { account, tokens } = await verifiedUser(t.app, 'provedlink');
    const linked = await googleToken(await issuer.sign(issuer.claims(account.email, { sub: 'proved-link-1' })));
    expect(linked.statusCode, linked.body).toBe(200);
    expect((await passwordGrant(t.app, account.username, account.password)).statusCode).toBe(200);
    expect((await me(tokens.access_token)).statusCode).toBe(200);
  });

  it('accepts ES256 tokens from the same JWKS', async () => {
    const account = newAccount('ecdsa');
    await signUp(t.app, account);
    const response = await googleToken(await issuer.sign(issuer.claims(account.email), { key: 'ec' }));
    expect(response.statusCode, response.body).toBe(200);
  });

  it('creates a verified user with ?signup, and signs the same user in afterwards', async () => {
    const email = 'New.Person+tag@example.com';
    const token = await issuer.sign(issuer.claims(email, { sub: 'new-person-1', name: 'New Person' }));
    const response = await googleToken(token, '?signup');
    expect(response.statusCode, response.body).toBe(200);
    const user = await userByEmail(t.database.db, email);
    expect(user).toMatchObject({ email: email.toLowerCase(), verified: true, passwordHash: null, superAdmin: false });
    expect(user!.username).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]{2,}$/);
    const tokens = json<Tokens>(response);
    expect(json(await me(tokens.access_token))).toMatchObject({ _id: user!.id, verified: true, email: email.toLowerCase() });

    const again = await googleToken(await issuer.sign(issuer.claims(email, { sub: 'new-person-1' })));
    expect(again.statusCode).toBe(200);
    expect(decodeJwt(json<Tokens>(again).access_token).sub).toBe(user!.id);
    // An account without a password cannot be signed into with one.
    expectProblem(await passwordGrant(t.app, email, ''), 400);
    expectProblem(await passwordGrant(t.app, email, 'any password at all'), 400, 'invalid_grant');
  });

  it('answers 404 for an unknown identity without ?signup (or with signup=false) and creates nothing', async () => {
    const email = 'stranger@example.com';
    const token = await issuer.sign(issuer.claims(email));
    expectProblem(await googleToken(token), 404, 'account_not_found');
    expectProblem(await googleToken(token, '?signup=false'), 404, 'account_not_found');
    expect(await userByEmail(t.database.db, email)).toBeUndefined();
  });

  it('refuses forged, foreign, expired and unverified tokens with 400 and creates nothing, even with ?signup', async () => {
    const email = 'forger-target@example.com';
    const good = issuer.claims(email);
    const now = Math.floor(Date.now() / 1000);
    const rsaJwk = issuer.jwks.keys[0]!;
    const hs256 = (secret: string) => new SignJWT(good).setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' }).sign(new TextEncoder().encode(secret));
    const goodToken = await issuer.sign(good);
    const [, goodPayload, goodSignature] = goodToken.split('.');
    const cases: Record<string, string> = {
      'alg none, unsigned': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(good)}.`,
      'alg none with a kid': `${b64({ alg: 'none', kid: 'rsa-1' })}.${b64(good)}.`,
      'HS256 with a random secret': await hs256('some secret'),
      'HS256 with the public JWK as secret': await hs256(JSON.stringify(rsaJwk)),
      'HS256 with the public modulus as secret': await hs256(rsaJwk.n as string),
      'RS256 header on an HS256 signature': `${b64({ alg: 'RS256', kid: 'rsa-1' })}.${goodPayload}.${(await hs256('x')).split('.')[2]}`,
      'wrong issuer': await issuer.sign({ ...good, iss: 'https://accounts.evil.example' }),
      'wrong audience': await issuer.sign({ ...good, aud: 'some-other-client' }),
      'audience list without ours': await issuer.sign({ ...good, aud: ['a', 'b'] }),
      expired: await issuer.sign({ ...good, iat: now - 7200, exp: now - 3600 }),
      'not yet valid': await issuer.sign({ ...good, nbf: now + 3600 }),
      'no iat': await issuer.sign({ ...good, iat: undefined }),
      'no sub': await issuer.sign({ ...good, sub: undefined }),
      'signed by a key not in the JWKS, claiming a published kid': await issuer.sign(good, { key: 'outsider' }),
      'signed by a key not in the JWKS, with its own kid': await issuer.sign(good, { key: 'outsider', kid: 'outsider-1' }),
      'email_verified false': await issuer.sign({ ...good, email_verified: false }),
      'email_verified missing': await issuer.sign({ ...good, email_verified: undefined }),
      'email_verified "false"': await issuer.sign({ ...good, email_verified: 'false' }),
      'no email': await issuer.sign({ ...good, email: undefined }),
      'email not a string': await issuer.sign({ ...good, email: [email] }),
      'payload swapped under a good signature': `${goodToken.split('.')[0]}.${b64({ ...good, email: 'admin@example.com' })}.${goodSignature}`,
      'not a JWT': 'a.b.c',
      garbage: 'garbage',
    };
    const before = await accountSnapshot(t.database.db);
    for (const [name, token] of Object.entries(cases)) {
      for (const query of ['', '?signup']) {
        const response = await googleToken(token, query);
        expect(response.statusCode, `${name}${query}: ${response.body}`).toBe(400);
        expectProblem(response, 400, 'invalid_third_party_token');
      }
    }
    expect(await accountSnapshot(t.database.db)).toEqual(before);
    // The good token with the same claims is accepted: each refusal is about its one change.
    expect((await googleToken(goodToken, '?signup')).statusCode).toBe(200);
  });

  it('refuses bodies that are not a single token string with 400', async () => {
    for (const token of [undefined, null, '', 42, true, {}, [], ['a.b.c'], 'x'.repeat(8193)]) {
      expectProblem(await googleToken(token, '?signup'), 400, 'validation_failed');
    }
    const extra = await t.app.inject({ method: 'POST', url: '/auth/googleToken?signup', payload: { token: 'a.b.c', email: 'x@example.com' } });
    expectProblem(extra, 400, 'validation_failed');
  });
});

describe.each(databaseKinds)('third-party sign-in with the provider unreachable on %s', (kind) => {
  let t: TestApp;
  let issuer: Issuer;

  beforeAll(async () => {
    issuer = await startIssuer();
    await issuer.close();
    // The issuer's port is closed now: key fetches fail.
    t = await createTestApp(kind, { GOOGLE_CLIENT_ID: AUDIENCE, GOOGLE_JWKS_URL: issuer.jwksUrl, GOOGLE_ISSUER: ISSUER });
  });
  afterAll(() => t?.close());

  it('answers 503 when the JWKS cannot be fetched, and signs nobody in', async () => {
    const token = await issuer.sign(issuer.claims('unreachable@example.com'));
    const response = await t.app.inject({ method: 'POST', url: '/auth/googleToken?signup', payload: { token } });
    expectProblem(response, 503, 'third_party_unavailable');
    expect(await userByEmail(t.database.db, 'unreachable@example.com')).toBeUndefined();
  });
});
