import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem, sleep } from './support/assertions.ts';
import { FORM, form } from './support/assertions.ts';
import { lastMailTo, mailsTo } from './support/flows.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { authCall, jwtPayload, lastCode, mintToken, multipart, newEmail, refreshEndUser, signUpEndUser, type EndUserTokens } from './support/end-users.ts';

describe.each(databaseKinds)('project users at /auth/public on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let plain: string;
  let admin: string;
  let otherProjectToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { REFRESH_REUSE_GRACE_S: '1' });
    f = await contentFixture(t);
    plain = await mintToken(t, f, { powerRead: true });
    admin = await mintToken(t, f, { userAdmin: true });
    otherProjectToken = await mintToken(t, await f.otherProject());
  });
  afterAll(() => t.close());

  describe('sign-up', () => {
    it('answers exactly 201 with tokens, user_id, a positive expires_in and a bagelUserID claim', async () => {
      const response = await authCall(t, 'POST', '/user', plain, { email: newEmail(), password: 'correct horse 1' });
      expect(response.statusCode, response.body).toBe(201);
      const body = json<EndUserTokens>(response);
      expect(body).toMatchObject({ user_id: expect.stringMatching(/^[0-9a-f]{24}$/), token_type: 'Bearer', refresh_token: expect.any(String) });
      expect(body.expires_in).toBeGreaterThan(0);
      const claims = jwtPayload(body.access_token);
      expect(claims.bagelUserID).toBe(body.user_id);
      expect(claims.proj).toBe(f.project);
      // The client reads the user from the JWT with atob when user_id is missing: no - or _ may occur.
      expect(body.access_token.split('.')[1]).not.toMatch(/[-_]/);
    });

    it('refuses a taken e-mail with 409 problem+json, answering no faster than a new sign-up', async () => {
      const email = newEmail('dup');
      await signUpEndUser(t, plain, email);
      const timings = { fresh: [] as number[], taken: [] as number[] };
      for (let i = 0; i < 3; i++) {
        let start = performance.now();
        expect((await authCall(t, 'POST', '/user', plain, { email: newEmail('fresh'), password: 'correct horse 1' })).statusCode).toBe(201);
        timings.fresh.push(performance.now() - start);
        start = performance.now();
        const taken = await authCall(t, 'POST', '/user', plain, { email: email.toUpperCase(), password: 'another pass 2' });
        timings.taken.push(performance.now() - start);
        expectProblem(taken, 409, 'user_exists');
      }
      const min = (values: number[]) => Math.min(...values);
      // argon2 dominates both: a taken address must not answer markedly faster.
      expect(min(timings.taken)).toBeGreaterThan(min(timings.fresh) * 0.5);
    });

    it('refuses mass-assignment of userGroups, verified, _id and dates, creating nothing', async () => {
      for (const extra of [{ userGroups: ['0123456789abcdef01234567'] }, { verified: true }, { _id: '0123456789abcdef01234567' }, { createdDate: '2020-01-01' }]) {
        const email = newEmail('mass');
        const response = await authCall(t, 'POST', '/user', plain, { email, password: 'correct horse 1', ...extra });
        expectProblem(response, 400);
        expectProblem(await authCall(t, 'POST', '/user/verify', plain, { password: 'correct horse 1', email }), 400, 'invalid_grant');
      }
    });

    it('signs up by phone and refuses a short password or no identity', async () => {
      const phone = `+3161${Date.now().toString().slice(-7)}`;
      const created = await authCall(t, 'POST', '/user', plain, { phone, password: 'correct horse 1' });
      expect(created.statusCode, created.body).toBe(201);
      const verified = await authCall(t, 'POST', '/user/verify', plain, { password: 'correct horse 1', phone });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(json(verified).user_id).toBe(json(created).user_id);
      expectProblem(await authCall(t, 'POST', '/user', plain, { email: newEmail(), password: 'short' }), 400);
      expectProblem(await authCall(t, 'POST', '/user', plain, { password: 'correct horse 1' }), 400);
    });

    it('needs a bearer: none or a tampered one is 401', async () => {
      expectProblem(await authCall(t, 'POST', '/user', undefined, { email: newEmail(), password: 'correct horse 1' }), 401);
      expectProblem(await authCall(t, 'POST', '/user', `${plain}x`, { email: newEmail(), password: 'correct horse 1' }), 401);
    });
  });

  describe('sign-in and the signed-in user', () => {
    it('verifies e-mail and password (any case, trimmed); a wrong password or unknown user is 400, never 401', async () => {
      const email = newEmail('login');
      const signedUp = await signUpEndUser(t, plain, email);
      const ok = await authCall(t, 'POST', '/user/verify', plain, { password: 'correct horse 1', email: ` ${email.toUpperCase()} ` });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(json(ok)).toMatchObject({ user_id: signedUp.user_id, access_token: expect.any(String), refresh_token: expect.any(String) });
      expect(json(ok).expires_in).toBeGreaterThan(0);
      expectProblem(await authCall(t, 'POST', '/user/verify', plain, { password: 'wrong password', email }), 400, 'invalid_grant');
      expectProblem(await authCall(t, 'POST', '/user/verify', plain, { password: 'correct horse 1', email: newEmail('nobody') }), 400, 'invalid_grant');
      // The same e-mail in another project is another user.
      expectProblem(await authCall(t, 'POST', '/user/verify', otherProjectToken, { password: 'correct horse 1', email }), 400, 'invalid_grant');
      // While a user is signed in, the client sends their token: the project comes from it.
      const withUserToken = await authCall(t, 'POST', '/user/verify', signedUp.access_token, { password: 'wrong password', email });
      expectProblem(withUserToken, 400, 'invalid_grant');
    });

    it('GET /user answers the user with their token; an API token is 403; tampered, alg:none or foreign JWTs are 401', async () => {
      const email = newEmail('me');
      const tokens = await signUpEndUser(t, plain, email);
      const me = await authCall(t, 'GET', '/user', tokens.access_token);
      expect(me.statusCode, me.body).toBe(200);
      expect(json(me)).toMatchObject({ userID: tokens.user_id, email, createdDate: expect.any(String), lastLoggedIn: expect.any(String), userGroups: [] });
      expectProblem(await authCall(t, 'GET', '/user', plain), 403, 'user_token_required');

      const [header, payload, signature] = tokens.access_token.split('.') as [string, string, string];
      const forged = Buffer.from(JSON.stringify({ ...jwtPayload(tokens.access_token), bagelUserID: 'someone', sub: '0123456789abcdef01234567' })).toString('base64url');
      expectProblem(await authCall(t, 'GET', '/user', `${header}.${forged}.${signature}`), 401);
      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      expectProblem(await authCall(t, 'GET', '/user', `${none}.${payload}.`), 401);
      const foreignKey = new TextEncoder().encode('x'.repeat(32));
      const hs = await new SignJWT(jwtPayload(tokens.access_token)).setProtectedHeader({ alg: 'HS256' }).sign(foreignKey);
      expectProblem(await authCall(t, 'GET', '/user', hs), 401);
      expect(await t.app.ctx.endUsers.verifyAccessToken(plain)).toBeNull();
      expect(await t.app.ctx.endUsers.verifyAccessToken('not a jwt')).toBeNull();
      await expect(t.app.ctx.endUsers.verifyAccessToken(`${none}.${payload}.`)).rejects.toMatchObject({ status: 401 });
      expect(await t.app.ctx.endUsers.verifyAccessToken(tokens.access_token)).toEqual({
        projectId: f.project,
        userId: tokens.user_id,
        groupIds: [],
        sessionId: expect.any(String),
        apiTokenId: expect.any(String),
      });
    });

    it('an expired access token is 401', async () => {
      const shortLived = await createTestApp(kind, { ACCESS_TOKEN_TTL_S: '3' });
      try {
        const g = await contentFixture(shortLived);
        const token = await mintToken(shortLived, g);
        const tokens = await signUpEndUser(shortLived, token, newEmail('exp'));
        expect((await authCall(shortLived, 'GET', '/user', tokens.access_token)).statusCode).toBe(200);
        await sleep(3100);
        expectProblem(await authCall(shortLived, 'GET', '/user', tokens.access_token), 401, 'token_expired');
        // The refresh the client then makes works and its token is accepted (no 401 loop).
        const refreshed = await refreshEndUser(shortLived, token, tokens.refresh_token);
        expect(refreshed.statusCode, refreshed.body).toBe(200);
        expect((await authCall(shortLived, 'GET', '/user', json(refreshed).access_token)).statusCode).toBe(200);
      } finally {
        await shortLived.close();
      }
    });
  });

  describe('refresh', () => {
    it('rotates with multipart (the client) and urlencoded (the docs), answering exactly 200 with user_id', async () => {
      const first = await signUpEndUser(t, plain, newEmail('rot'));
      const viaMultipart = await refreshEndUser(t, plain, first.refresh_token);
      expect(viaMultipart.statusCode, viaMultipart.body).toBe(200);
      const second = json<EndUserTokens>(viaMultipart);
      expect(second.user_id).toBe(first.user_id);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.expires_in).toBeGreaterThan(0);
      expect(jwtPayload(second.access_token).bagelUserID).toBe(first.user_id);

      const viaForm = await authCall(
        t,
        'POST',
        '/user/token',
        plain,
        form([
          ['grant_type', 'refresh_token'],
          ['refresh_token', second.refresh_token],
          ['client_id', 'project-client'],
        ]),
        FORM,
      );
      expect(viaForm.statusCode, viaForm.body).toBe(200);
      expect(json(viaForm).user_id).toBe(first.user_id);
      expect((await authCall(t, 'GET', '/user', json(viaForm).access_token)).statusCode).toBe(200);
    });

    it('replays the same pair within the grace window, and ends the session on reuse after it', async () => {
      const first = await signUpEndUser(t, plain, newEmail('reuse'));
      const a = json<EndUserTokens>(await refreshEndUser(t, plain, first.refresh_token));
      const again = await refreshEndUser(t, plain, first.refresh_token);
      expect(again.statusCode).toBe(200);
      expect(json(again)).toMatchObject({ access_token: a.access_token, refresh_token: a.refresh_token });
      await sleep(2100);
      expectProblem(await refreshEndUser(t, plain, first.refresh_token), 401, 'invalid_refresh_token');
      // The whole family is gone: the successor and its access token too.
      expectProblem(await refreshEndUser(t, plain, a.refresh_token), 401);
      expectProblem(await authCall(t, 'GET', '/user', a.access_token), 401, 'session_revoked');
    });

    it('refuses a refresh token of another project, an unknown one, and another client_id', async () => {
      const tokens = await signUpEndUser(t, plain, newEmail('cross'));
      expectProblem(await refreshEndUser(t, otherProjectToken, tokens.refresh_token), 401);
      expectProblem(await refreshEndUser(t, plain, 'not-a-token'), 401);
      const { payload, headers } = multipart({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'other' });
      expectProblem(await authCall(t, 'POST', '/user/token', plain, payload, headers), 400, 'invalid_client');
      // Still usable afterwards: the refusals changed nothing.
      expect((await refreshEndUser(t, plain, tokens.refresh_token)).statusCode).toBe(200);
    });
  });

  describe('password reset and change', () => {
    it('mails a link to the console page; the page sets the password once and ends every session', async () => {
      const email = newEmail('reset');
      const tokens = await signUpEndUser(t, plain, email);
      const asked = await authCall(t, 'POST', '/user/resetpassword', plain, { email });
      expect(asked.statusCode, asked.body).toBe(200);
      const mail = await lastMailTo(t.app, email, 'project-user-reset');
      expect(mail.link).toMatch(/^http:\/\/larder\.test\/bagel-auth-reset-password\/[A-Za-z0-9_-]{40,}$/);
      const resetID = mail.link!.split('/').pop()!;

      const set = await t.app.inject({ method: 'POST', url: `/auth/public/bagel-auth-reset-password/${resetID}`, payload: { password: 'brand new pass 3' } });
      expect(set.statusCode, set.body).toBe(200);
      expectProblem(await authCall(t, 'GET', '/user', tokens.access_token), 401, 'session_revoked');
      expectProblem(await authCall(t, 'POST', '/user/verify', plain, { password: 'correct horse 1', email }), 400);
      expect((await authCall(t, 'POST', '/user/verify', plain, { password: 'brand new pass 3', email })).statusCode).toBe(200);
      const twice = await t.app.inject({ method: 'POST', url: `/auth/public/bagel-auth-reset-password/${resetID}`, payload: { password: 'another pass 44' } });
      expectProblem(twice, 400, 'invalid_reset_token');
    });

    it('answers 200 alike for an unknown address, sending nothing', async () => {
      const email = newEmail('ghost');
      expect((await authCall(t, 'POST', '/user/resetpassword', plain, { email })).statusCode).toBe(200);
      expect(await mailsTo(t.app, email)).toEqual([]);
    });

    it('updatePassword needs a User Admin token (403 otherwise) and answers exactly 200', async () => {
      const email = newEmail('admin-set');
      const tokens = await signUpEndUser(t, plain, email);
      expectProblem(await authCall(t, 'POST', '/user/updatePassword', plain, { password: 'set by admin 1', email }), 403, 'user_admin_required');
      expectProblem(await authCall(t, 'POST', '/user/updatePassword', tokens.access_token, { password: 'set by admin 1', email }), 403);
      const done = await authCall(t, 'POST', '/user/updatePassword', admin, { password: 'set by admin 1', email });
      expect(done.statusCode, done.body).toBe(200);
      expect((await authCall(t, 'POST', '/user/verify', plain, { password: 'set by admin 1', email })).statusCode).toBe(200);
      expectProblem(await authCall(t, 'GET', '/user', tokens.access_token), 401);
      expectProblem(await authCall(t, 'POST', '/user/updatePassword', admin, { password: 'set by admin 1', email: newEmail('none') }), 404);
    });
  });

  describe('one-time codes', () => {
    it('signs in (creating the user) with the mailed code; a wrong code is 400', async () => {
      const email = newEmail('otp');
      const asked = await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: email });
      expect(asked.statusCode, asked.body).toBe(200);
      const { nonce, expires_in } = json<{ nonce: string; expires_in: number }>(asked);
      expect(expires_in).toBeGreaterThan(0);
      const code = await lastCode(t, email);
      const wrong = code === '000000' ? '111111' : '000000';
      expectProblem(await authCall(t, 'POST', `/user/otp/verify/${nonce}?t=${Date.now()}`, plain, { otp: wrong }), 400, 'wrong_otp');
      const ok = await authCall(t, 'POST', `/user/otp/verify/${nonce}?t=${Date.now()}`, plain, { otp: code });
      expect(ok.statusCode, ok.body).toBe(200);
      const tokens = json<EndUserTokens>(ok);
      expect(tokens.expires_in).toBeGreaterThan(0);
      const me = json(await authCall(t, 'GET', '/user', tokens.access_token));
      expect(me).toMatchObject({ userID: tokens.user_id, email });
      // Used once: the nonce is dead.
      expectProblem(await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: code }), 400, 'otp_expired');
      // A second code signs in the same user.
      const again = json(await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: email }));
      const second = await authCall(t, 'POST', `/user/otp/verify/${again.nonce}`, plain, { otp: await lastCode(t, email) });
      expect(json(second).user_id).toBe(tokens.user_id);
    });

    it('kills the nonce after the allowed wrong attempts: even the right code fails then', async () => {
      const email = newEmail('guess');
      const { nonce } = json(await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: email }));
      const code = await lastCode(t, email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expectProblem(await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: wrong }), 400, 'wrong_otp');
      expectProblem(await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: code }), 400, 'otp_expired');
      expectProblem(await authCall(t, 'POST', `/user/otp/resend/${nonce}`, plain), 400, 'otp_expired');
    });

    it('resends a new code (the old one stops working) a limited number of times', async () => {
      const email = newEmail('resend');
      const { nonce } = json(await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: email }));
      const first = await lastCode(t, email);
      let latest = first;
      for (let i = 0; i < 3; i++) {
        const resent = await authCall(t, 'POST', `/user/otp/resend/${nonce}`, plain);
        expect(resent.statusCode, resent.body).toBe(200);
        expect(json(resent)).toMatchObject({ nonce, expires_in: expect.any(Number) });
        latest = await lastCode(t, email);
      }
      expectProblem(await authCall(t, 'POST', `/user/otp/resend/${nonce}`, plain), 400, 'otp_resend_limit');
      if (first !== latest) expectProblem(await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: first }), 400, 'wrong_otp');
      expect((await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: latest })).statusCode).toBe(200);
    });

    it('sends codes to phones through the SMS provider (the Dev mailbox by default)', async () => {
      const phone = `+4479${Date.now().toString().slice(-8)}`;
      const { nonce } = json(await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: phone }));
      const [sms] = await mailsTo(t.app, phone);
      expect(sms).toMatchObject({ kind: 'sms', to: phone });
      const ok = await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: await lastCode(t, phone) });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(json(await authCall(t, 'GET', '/user', json(ok).access_token))).toMatchObject({ phone });
    });

    it('refuses a nonce of another project as unknown', async () => {
      const email = newEmail('cross-otp');
      const { nonce } = json(await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: email }));
      expectProblem(await authCall(t, 'POST', `/user/otp/verify/${nonce}`, otherProjectToken, { otp: await lastCode(t, email) }), 400, 'otp_expired');
    });
  });

  it('meters BagelAuthUsers per new user and SMSOTPCount per SMS', async () => {
    const add = vi.spyOn(t.app.ctx.usage, 'add');
    try {
      await signUpEndUser(t, plain, newEmail('metered'));
      expect(add).toHaveBeenCalledWith(f.org, 'BagelAuthUsers', 1);
      add.mockClear();
      // A taken address is no new user.
      const email = newEmail('metered-twice');
      await signUpEndUser(t, plain, email);
      add.mockClear();
      expectProblem(await authCall(t, 'POST', '/user', plain, { email, password: 'correct horse 1' }), 409);
      expect(add).not.toHaveBeenCalled();
      const phone = `+4478${Date.now().toString().slice(-8)}`;
      const { nonce } = json(await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: phone }));
      expect(add).toHaveBeenCalledWith(f.org, 'SMSOTPCount', 1);
      add.mockClear();
      expect((await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: await lastCode(t, phone) })).statusCode).toBe(200);
      expect(add).toHaveBeenCalledWith(f.org, 'BagelAuthUsers', 1);
    } finally {
      add.mockRestore();
    }
  });

  it('limits sign-in and code requests per account (429 with Retry-After)', async () => {
    const limited = await createTestApp(kind, { RATE_LIMIT_LOGIN_ACCOUNT: '3/1m' });
    try {
      const g = await contentFixture(limited);
      const token = await mintToken(limited, g);
      const email = newEmail('limited');
      await signUpEndUser(limited, token, email);
      for (let i = 0; i < 3; i++) expectProblem(await authCall(limited, 'POST', '/user/verify', token, { password: 'wrong password', email }), 400);
      const blocked = expectProblem(await authCall(limited, 'POST', '/user/verify', token, { password: 'correct horse 1', email }), 429, 'rate_limited');
      expect(blocked.detail).toMatch(/Try again in \d+ seconds/);
      // Another account is not held up.
      expect((await authCall(limited, 'POST', '/user/verify', token, { password: 'x', email: newEmail('free') })).statusCode).toBe(400);
      const target = newEmail('otp-limited');
      for (let i = 0; i < 3; i++) expect((await authCall(limited, 'POST', '/user/otp', token, { emailOrPhone: target })).statusCode).toBe(200);
      const response = await authCall(limited, 'POST', '/user/otp', token, { emailOrPhone: target });
      expectProblem(response, 429);
      expect(response.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });

  it('answers CORS preflights for browsers', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/auth/public/user/verify',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, accept-version, content-type' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(String(response.headers['access-control-allow-headers'])).toMatch(/Accept-Version/);
  });
});
