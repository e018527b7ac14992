/**
 * Usernames the configuration makes super-admin (SUPER_ADMIN_USERNAMES, definitions/platform.ts)
 * are reserved (docs/admin.md "Access"): a console sign-up with one is refused, a third-party
 * sign-up never picks one for its made-up username, and `larder admin create` is the way to make
 * such a user — in any letter case.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { users } from '../../server/db/schema.ts';
import { UserService } from '../../server/main/users.ts';
import { inProcessLarder } from './support/cli.ts';
import { expectProblem } from './support/assertions.ts';
import { countRows, userByEmail } from './support/db.ts';
import { bearer, mailsTo, newAccount, passwordGrant, signUp, verifiedUser, type Tokens } from './support/flows.ts';
import { AUDIENCE, ISSUER, startIssuer, type Issuer } from './support/issuer.ts';
import { createTestApp, databaseKinds, json, testEnv, type TestApp } from './support/test-app.ts';

describe.each(databaseKinds)('reserved usernames on %s', (kind) => {
  let t: TestApp;
  let issuer: Issuer;
  // Unique per run: a PostgreSQL test database may outlive one run.
  const reserved = `keeper${Math.random().toString(36).slice(2, 8)}`;
  const other = `${reserved}b`;
  const env = { SUPER_ADMIN_USERNAMES: `${reserved.toUpperCase()}, ${other}` };

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });
  const googleSignUp = async (email: string) =>
    t.app.inject({ method: 'POST', url: '/auth/googleToken?signup=true', payload: { token: await issuer.sign(issuer.claims(email)) } });
  const named = async (name: string) => (await t.database.db.select().from(users).where(sql`lower(${users.username}) = ${name.toLowerCase()}`))[0];

  beforeAll(async () => {
    issuer = await startIssuer();
    t = await createTestApp(kind, { ...env, GOOGLE_CLIENT_ID: AUDIENCE, GOOGLE_JWKS_URL: issuer.jwksUrl, GOOGLE_ISSUER: ISSUER });
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  it('refuses a console sign-up with a configured name, in any letter case, with 409 username_reserved; nothing is made or mailed', async () => {
    const before = await countRows(t.database.db, users);
    for (const username of [reserved, reserved.toUpperCase(), `${reserved[0]!.toUpperCase()}${reserved.slice(1)}`, other]) {
      const account = { ...newAccount('claim'), username };
      const response = await signUp(t.app, account);
      expectProblem(response, 409, 'username_reserved');
      expect(json(response).detail).toMatch(/reserved/);
      expect(await userByEmail(t.database.db, account.email)).toBeUndefined();
      expect(await mailsTo(t.app, account.email)).toEqual([]);
    }
    expect(await countRows(t.database.db, users)).toBe(before);
    expect(await named(reserved)).toBeUndefined();
  });

  it('answers a registered e-mail with a configured name exactly as a new one: the answer depends on the name only', async () => {
    const { account } = await verifiedUser(t.app, 'registered');
    const fresh = await signUp(t.app, { ...newAccount('fresh'), username: reserved });
    const registered = await signUp(t.app, { ...newAccount('again'), username: reserved, email: account.email });
    expectProblem(registered, 409, 'username_reserved');
    expect(registered.body).toBe(fresh.body);
    // The owner of the registered address was not mailed about a sign-up that never was.
    expect((await mailsTo(t.app, account.email)).map((m) => m.kind)).toEqual(['confirm']);
  });

  it('still lets a name that only starts like a configured one sign up, and it is no super-admin', async () => {
    const account = { ...newAccount('near'), username: `${other}c` };
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    const tokens = json<Tokens>(await passwordGrant(t.app, account.username, account.password));
    expect(json(await me(tokens.access_token))).toMatchObject({ username: account.username, superAdmin: false });
  });

  it('never gives a third-party sign-up a configured name: it is suffixed as a taken one is', async () => {
    const response = await googleSignUp(`${reserved.toUpperCase()}@example.com`);
    expect(response.statusCode, response.body).toBe(200);
    const user = json(await me(json<Tokens>(response).access_token));
    expect(user.username.toLowerCase()).not.toBe(reserved);
    expect(user.username.toLowerCase().startsWith(`${reserved}-`)).toBe(true);
    expect(user.superAdmin).toBe(false);
    expect(await named(reserved)).toBeUndefined();
    // A name nobody reserved is taken as it is.
    const plain = `plain${Math.random().toString(36).slice(2, 8)}`;
    const free = await googleSignUp(`${plain}@example.com`);
    expect(json(await me(json<Tokens>(free).access_token)).username).toBe(plain);
  });

  it('lets `larder admin create` make the configured user, who signs in as a super-admin; sign-up stays refused', async () => {
    const larder = inProcessLarder(t.database, { DATA_DIR: os.tmpdir() });
    const email = `${reserved}@example.org`;
    const created = await larder(['--json', 'admin', 'create', '--email', email, '--username', reserved.toUpperCase(), '--password', 'a long admin password'], env);
    expect(created.code, created.stderr + created.stdout).toBe(0);
    expect(created.json).toMatchObject({ user: { username: reserved.toUpperCase(), configuredSuperAdmin: true, superAdmin: true, verified: true } });
    const tokens = json<Tokens>(await passwordGrant(t.app, reserved, 'a long admin password'));
    expect(json(await me(tokens.access_token))).toMatchObject({ email, superAdmin: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(tokens.access_token) })).statusCode).toBe(200);
    expectProblem(await signUp(t.app, { ...newAccount('late'), username: reserved }), 409, 'username_reserved');
  });

  it('lets the first administrator (ADMIN_EMAIL) take a configured ADMIN_USERNAME: the configuration names both', async () => {
    const email = `${other}@example.org`;
    const start = new UserService(t.database.db, loadConfig({ ...testEnv, ...env, ADMIN_EMAIL: email, ADMIN_PASSWORD: 'another admin password', ADMIN_USERNAME: other }), t.app.ctx.mailer, t.app.ctx.tokens);
    expect(await start.bootstrapAdmin()).toBe('created');
    expect(await userByEmail(t.database.db, email)).toMatchObject({ username: other, superAdmin: true, verified: true });
  });
});
