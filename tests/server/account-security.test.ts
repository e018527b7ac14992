/**
 * Account security (docs/security.md): a project user's address proved by a one-time code takes
 * the account over from whoever registered it; reset mail is answered before any of its work;
 * sign-in limits slow guessing without letting a stranger lock the owner out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createMailer, type Mailer, type MailMessage } from '../../server/mail/mailer.ts';
import { outbox, projectUsers } from '../../server/db/schema.ts';
import { and, eq } from 'drizzle-orm';
import { expectProblem, FORM, sleep, waitFor } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { authCall, lastCode, mintToken, newEmail, refreshEndUser, signUpEndUser } from './support/end-users.ts';
import { CONSOLE, lastMailTo, newAccount, signUp } from './support/flows.ts';
import { createTestApp, databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';

describe.each(databaseKinds)('project-user pre-hijack through a one-time code on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let plain: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    plain = await mintToken(t, f, { powerRead: true });
  });
  afterAll(() => t?.close());

  it('a code proving the address removes the first registrant’s password, sessions and reset links', async () => {
    const email = newEmail('prehijack');
    const attacker = await signUpEndUser(t, plain, email, 'attacker pass 1');
    expect((await authCall(t, 'POST', '/user/resetpassword', plain, { email })).statusCode).toBe(200);
    const resetID = (await lastMailTo(t.app, email, 'project-user-reset')).link!.split('/').pop()!;

    // The address's owner signs in with a code sent to it.
    const { nonce } = json(await authCall(t, 'POST', '/user/otp', plain, { emailOrPhone: email }));
    const owner = await authCall(t, 'POST', `/user/otp/verify/${nonce}`, plain, { otp: await lastCode(t, email) });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(json(owner).user_id).toBe(attacker.user_id);

    const [row] = await t.database.db.select().from(projectUsers).where(eq(projectUsers.id, attacker.user_id));
    expect(row).toMatchObject({ verified: true, passwordHash: null });
    expectProblem(await authCall(t, 'POST', '/user/verify', plain, { email, password: 'attacker pass 1' }), 400, 'invalid_grant');
    expectProblem(await authCall(t, 'GET', '/user', attacker.access_token), 401, 'session_revoked');
    expectProblem(await refreshEndUser(t, plain, attacker.refresh_token), 401);
    const reset = await t.app.inject({ method: 'POST', url: `/auth/public/bagel-auth-reset-password/${resetID}`, payload: { password: 'attacker pass 2' } });
    expectProblem(reset, 400, 'invalid_reset_token');
    expect((await authCall(t, 'GET', '/user', json(owner).access_token)).statusCode).toBe(200);
  });
});

/** A mailer that holds reset mails until released (or fails them), passing the rest to the outbox. */
function gatedMailer(inner: Mailer) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held: MailMessage[] = [];
  const mailer: Mailer = {
    transport: inner.transport,
    async send(message) {
      if (message.to.startsWith('broken') && message.kind === 'reset') throw new Error('mail transport broke');
      if (message.kind.includes('reset')) {
        held.push(message);
        await gate;
      }
      await inner.send(message);
    },
    deliverDue: () => inner.deliverDue(),
    close: () => inner.close(),
  };
  return { mailer, held, release };
}

describe.each(databaseKinds)('reset mail answered before its work on %s', (kind) => {
  let t: TestApp;
  let gated: ReturnType<typeof gatedMailer>;
  const logs: string[] = [];

  beforeAll(async () => {
    const config = loadConfig(testEnv);
    const database = await openTestDatabase(kind);
    const log = { write: (line: string) => void logs.push(line) };
    gated = gatedMailer(createMailer({ db: database.db, smtpUrl: undefined, from: config.mailFrom, log: { info() {}, error() {} } as never }));
    const app = await buildApp({ config, database, mailer: gated.mailer, logger: { level: 'error', stream: log } as never });
    await app.ready();
    t = { app, config, database, close: async () => (await app.close(), await database.close()) };
  });
  afterAll(() => t?.close());

  /** The answer, or 'pending' when none came within two seconds. */
  const within = (response: Promise<LightMyRequestResponse>) => Promise.race([response, sleep(2000).then(() => 'pending' as const)]);

  it('answers a known address while its mail is still held, and the mail follows', async () => {
    const account = newAccount('resetgate');
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    const answer = await within(t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email: account.email } }));
    expect(answer === 'pending' ? 'pending' : answer.statusCode).toBe(200);
    await waitFor(() => gated.held.some((m) => m.to === account.email));
    // Not written yet (read from the table: the Dev mailbox would wait for it).
    expect(await t.database.db.select().from(outbox).where(and(eq(outbox.to, account.email), eq(outbox.kind, 'reset')))).toEqual([]);
    gated.release();
    expect((await lastMailTo(t.app, account.email, 'reset')).link).toMatch(/\/resetPassword\//);
  });

  it('answers a project user’s reset while its mail is still held (the gate open now: it is sent)', async () => {
    const f = await contentFixture(t);
    const token = await mintToken(t, f);
    const email = newEmail('pureset');
    await signUpEndUser(t, token, email);
    const answer = await within(authCall(t, 'POST', '/user/resetpassword', token, { email }));
    expect(answer === 'pending' ? 'pending' : answer.statusCode).toBe(200);
    expect((await lastMailTo(t.app, email, 'project-user-reset')).link).toMatch(/bagel-auth-reset-password/);
  });

  it('logs a failure of the work done after answering', async () => {
    const account = { ...newAccount('x'), email: `broken${Date.now()}@example.com` };
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email: account.email } })).statusCode).toBe(200);
    await t.app.ctx.background.settled();
    expect(logs.join('\n')).toMatch(/background task reset-mail failed[\s\S]*mail transport broke|mail transport broke[\s\S]*background task reset-mail failed/);
  });
});

describe.each(databaseKinds)('sign-in limits that a stranger cannot use to lock the owner out on %s', (kind) => {
  let t: TestApp;
  const OWNER = '198.51.100.7';
  const ATTACKER = '203.0.113.66';

  const login = (username: string, password: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/token',
      remoteAddress,
      headers: FORM,
      payload: new URLSearchParams({ grant_type: 'password', username, password, ...CONSOLE }).toString(),
    });

  beforeAll(async () => {
    t = await createTestApp(kind, { RATE_LIMIT_LOGIN_ACCOUNT: '6/1m', RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS: '3/1m', RATE_LIMIT_LOGIN_ADDRESS: '100/1m' });
  });
  afterAll(() => t?.close());

  it('console: the owner still signs in from their address; the attacker and a distributed guess are refused', async () => {
    const owner = newAccount('lockout');
    expect((await signUp(t.app, owner)).statusCode).toBe(201);
    expect((await login(owner.username, owner.password, OWNER)).statusCode).toBe(200);

    // One address guessing: refused after three failures, right password or not.
    for (let i = 0; i < 3; i++) expectProblem(await login(owner.username, `guess ${i}`, ATTACKER), 400, 'invalid_grant');
    for (let i = 0; i < 5; i++) expectProblem(await login(owner.username, `guess more ${i}`, ATTACKER), 429, 'rate_limited');
    expectProblem(await login(owner.email, owner.password, ATTACKER), 429, 'rate_limited');
    // Others join in: three more failures reach the account's six, then any new address is refused.
    for (let i = 0; i < 3; i++) expectProblem(await login(owner.username, `spread ${i}`, `192.0.2.${100 + i}`), 400, 'invalid_grant');
    const refused = await login(owner.username, 'spread next', '192.0.2.200');
    expectProblem(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    // The owner, from the address they signed in from before, is not locked out.
    expect((await login(owner.username, owner.password, OWNER)).statusCode).toBe(200);
    // A typo there counts against that address only, and a success clears it.
    expectProblem(await login(owner.username, 'typo', OWNER), 400, 'invalid_grant');
    expect((await login(owner.email, owner.password, OWNER)).statusCode).toBe(200);
    // An address the owner never signed in from is held by the account-wide limit like any other…
    const TRAVEL = '192.0.2.250';
    expectProblem(await login(owner.username, owner.password, TRAVEL), 429, 'rate_limited');
    // …until the owner resets the password from there with the mailed link: that address is theirs.
    expect((await t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', remoteAddress: TRAVEL, payload: { email: owner.email } })).statusCode).toBe(200);
    const token = (await lastMailTo(t.app, owner.email, 'reset')).link!.split('/resetPassword/')[1]!;
    const reset = await t.app.inject({ method: 'POST', url: '/auth/resetPassword', remoteAddress: TRAVEL, payload: { token, password: 'new owner password 1' } });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login(owner.username, 'new owner password 1', TRAVEL)).statusCode).toBe(200);
    expectProblem(await login(owner.username, 'new owner password 1', '192.0.2.251'), 429, 'rate_limited');
  });

  it('project users: the owner still signs in from their address; the attacker is refused', async () => {
    const f = await contentFixture(t);
    const token = await mintToken(t, f);
    const email = newEmail('pulockout');
    await signUpEndUser(t, token, email);
    const verify = (password: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/public/user/verify',
        remoteAddress,
        headers: { authorization: `Bearer ${token}`, 'accept-version': 'v1' },
        payload: { email, password },
      });
    expect((await verify('correct horse 1', OWNER)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expectProblem(await verify(`guess ${i}`, ATTACKER), 400, 'invalid_grant');
    expectProblem(await verify('correct horse 1', ATTACKER), 429, 'rate_limited');
    for (let i = 0; i < 3; i++) expectProblem(await verify(`spread ${i}`, `192.0.2.${110 + i}`), 400, 'invalid_grant');
    expectProblem(await verify('spread next', '192.0.2.210'), 429, 'rate_limited');
    expect((await verify('correct horse 1', OWNER)).statusCode).toBe(200);
    // A reset through the mailed link makes the address it was done from the user's.
    const TRAVEL = '192.0.2.211';
    expectProblem(await verify('correct horse 1', TRAVEL), 429, 'rate_limited');
    expect((await authCall(t, 'POST', '/user/resetpassword', token, { email })).statusCode).toBe(200);
    const resetID = (await lastMailTo(t.app, email, 'project-user-reset')).link!.split('/').pop()!;
    const reset = await t.app.inject({ method: 'POST', url: `/auth/public/bagel-auth-reset-password/${resetID}`, remoteAddress: TRAVEL, payload: { password: 'new user pass 2' } });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await verify('new user pass 2', TRAVEL)).statusCode).toBe(200);
  });
});
