/**
 * Refresh-token rotation and reuse detection: every use rotates the token; an already-used token
 * presented again within REFRESH_REUSE_GRACE_S returns the very same new pair (two tabs refreshing
 * at once); presented later it is refused with 401 and its whole session (family) is revoked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { refreshTokens, sessions } from '../../server/db/schema.ts';
import { bearer, refreshGrant, signIn, verifiedUser, type Tokens } from './support/flows.ts';
import { expectProblem, sleep } from './support/assertions.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

const pairOf = (tokens: Tokens) => ({ access_token: tokens.access_token, refresh_token: tokens.refresh_token });

describe.each(databaseKinds)('refresh token rotation on %s (default grace window)', (kind) => {
  let t: TestApp;
  let account: { username: string; password: string };

  const refresh = async (token: string) => {
    const response = await refreshGrant(t.app, token);
    expect(response.statusCode, response.body).toBe(200);
    return json<Tokens>(response);
  };
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ account } = await verifiedUser(t.app, 'rot'));
  });
  afterAll(() => t?.close());

  it('rotates on every use: each refresh gives a new pair in the same session', async () => {
    const start = await signIn(t.app, account.username, account.password);
    const seen = new Set([start.refresh_token]);
    let current = start;
    for (let i = 0; i < 4; i++) {
      const next = await refresh(current.refresh_token);
      expect(seen.has(next.refresh_token)).toBe(false);
      seen.add(next.refresh_token);
      expect(decodeJwt(next.access_token).sid).toBe(decodeJwt(start.access_token).sid);
      expect(decodeJwt(next.access_token).jti).not.toBe(decodeJwt(current.access_token).jti);
      expect((await me(next.access_token)).statusCode).toBe(200);
      current = next;
    }
  });

  it('answers a reuse inside the grace window with the very same new pair, which keeps working', async () => {
    const start = await signIn(t.app, account.username, account.password);
    const first = await refresh(start.refresh_token);
    const again = await refresh(start.refresh_token);
    const third = await refresh(start.refresh_token);
    expect(pairOf(again)).toEqual(pairOf(first));
    expect(pairOf(third)).toEqual(pairOf(first));
    expect((await me(again.access_token)).statusCode).toBe(200);
    // The session was not harmed: the successor rotates normally.
    const next = await refresh(again.refresh_token);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect((await me(next.access_token)).statusCode).toBe(200);
  });

  it('gives concurrent refreshes with one token the same pair', async () => {
    const start = await signIn(t.app, account.username, account.password);
    const responses = await Promise.all([1, 2, 3].map(() => refreshGrant(t.app, start.refresh_token)));
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const pairs = responses.map((r) => pairOf(json<Tokens>(r)));
    expect(pairs[1]).toEqual(pairs[0]);
    expect(pairs[2]).toEqual(pairs[0]);
    // Exactly one successor was made.
    const sid = decodeJwt(start.access_token).sid as string;
    expect(await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, sid))).toHaveLength(2);
  });

  it('stores refresh tokens only as hashes', async () => {
    const start = await signIn(t.app, account.username, account.password);
    const next = await refresh(start.refresh_token);
    const sid = decodeJwt(start.access_token).sid as string;
    const rows = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, sid));
    const hash = (raw: string) => createHash('sha256').update(raw).digest('base64url');
    expect(rows.map((r) => r.tokenHash).sort()).toEqual([hash(start.refresh_token), hash(next.refresh_token)].sort());
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(start.refresh_token);
    expect(stored).not.toContain(next.refresh_token);
  });

  it('refuses every token of a signed-out session, even inside the grace window', async () => {
    const start = await signIn(t.app, account.username, account.password);
    const next = await refresh(start.refresh_token);
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(next.access_token) })).statusCode).toBe(204);
    expectProblem(await refreshGrant(t.app, start.refresh_token), 401, 'invalid_refresh_token');
    expectProblem(await refreshGrant(t.app, next.refresh_token), 401, 'invalid_refresh_token');
  });
});

describe.each(databaseKinds)('refresh token reuse after the grace window on %s', (kind) => {
  let t: TestApp;
  let account: { username: string; password: string };

  beforeAll(async () => {
    t = await createTestApp(kind, { REFRESH_REUSE_GRACE_S: '1' });
    ({ account } = await verifiedUser(t.app, 'reuse'));
  });
  afterAll(() => t?.close());

  it('refuses a used token after the window with 401 and revokes its whole family, and only it', async () => {
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });
    // Session A: a token is rotated, then replayed late (a stolen copy).
    const a0 = await signIn(t.app, account.username, account.password);
    const a1 = json<Tokens>(await refreshGrant(t.app, a0.refresh_token));
    // Inside the window the replay is still the same pair.
    expect(pairOf(json<Tokens>(await refreshGrant(t.app, a0.refresh_token)))).toEqual(pairOf(a1));
    // Session B of the same user: rotated once, then used normally after the window.
    const b0 = await signIn(t.app, account.username, account.password);
    const b1 = json<Tokens>(await refreshGrant(t.app, b0.refresh_token));
    // Session C: never refreshed; an unused token is not subject to the window.
    const c0 = await signIn(t.app, account.username, account.password);

    await sleep(1150);

    const late = await refreshGrant(t.app, a0.refresh_token);
    expectProblem(late, 401, 'invalid_refresh_token');
    expect(late.headers['www-authenticate']).toBe('Bearer');
    // The whole family is dead: the successor and its access token too.
    expectProblem(await refreshGrant(t.app, a1.refresh_token), 401, 'invalid_refresh_token');
    expectProblem(await me(a1.access_token), 401, 'session_revoked');
    expectProblem(await me(a0.access_token), 401, 'session_revoked');
    const [session] = await t.database.db.select().from(sessions).where(eq(sessions.id, decodeJwt(a0.access_token).sid as string));
    expect(session).toMatchObject({ revokedReason: 'refresh_token_reuse', revokedAt: expect.any(Date) });

    // Other sessions of the user are untouched.
    expect((await me(b1.access_token)).statusCode).toBe(200);
    const b2 = await refreshGrant(t.app, b1.refresh_token);
    expect(b2.statusCode).toBe(200);
    expect((await refreshGrant(t.app, c0.refresh_token)).statusCode).toBe(200);
  });
});
