/**
 * The admin area's users (docs/admin.md "Users"): the server-paged list (search by username or
 * e-mail, filters, sorts, the first organizations and their count), disabling (the user's access
 * token refused at once, sign-in and refresh refused with 403 `account_disabled`, the live stream
 * ended; enabling restores sign-in), super-admin grants with their refusals (yourself, a
 * configured one, who cannot be disabled either), the resent confirmation, and an audit entry for every action. On PostgreSQL a
 * disable through one server process cuts the user off on another at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app.ts';
import { openDatabase } from '../../server/db/index.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema.ts';
import type { AdminUser, AdminUserPage, AuditPage } from '../../definitions/schemas/admin.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, lastMailTo, mailsTo, newAccount, passwordGrant, refreshGrant, signIn, signUp, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection } from './support/content.ts';
import { Sse } from './support/sse.ts';
import { AUDIENCE, ISSUER, startIssuer, type Issuer } from './support/issuer.ts';

/** A username the configuration makes a super-admin (each test database is fresh). */
const configured = 'configboss';
const env = { SUPER_ADMIN_USERNAMES: configured };

async function idOf(app: App, access: string): Promise<string> {
  return json(await app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(access) }))._id as string;
}

/** Signs up a verified user, made a super-admin in the database; answers the token and id. */
async function grantedAdmin(t: TestApp, prefix: string) {
  const { account, tokens } = await verifiedUser(t.app, prefix);
  await t.database.db.update(users).set({ superAdmin: true }).where(eq(users.email, account.email));
  await t.app.ctx.caches.settle();
  return { account, access: tokens.access_token, id: await idOf(t.app, tokens.access_token) };
}

describe.each(databaseKinds)('admin users on %s', (kind) => {
  let t: TestApp;
  let issuer: Issuer;
  let boss: { access: string; id: string };
  let root: { access: string; id: string };
  /** A tag in every user this file makes, so searches find only them. */
  const tag = `q${Array.from({ length: 4 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('')}`;

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, access = boss.access) =>
    t.app.inject({ method, url, headers: bearer(access), ...(payload ? { payload } : {}) });
  const list = async (query: Record<string, string | number | boolean>) => {
    const response = await call('GET', `/api/admin/users?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<AdminUserPage>(response);
  };
  const audit = async (targetID: string) => json<AuditPage>(await call('GET', `/api/admin/audit?targetKind=user&targetID=${targetID}`)).entries;

  beforeAll(async () => {
    issuer = await startIssuer();
    t = await createTestApp(kind, { ...env, GOOGLE_CLIENT_ID: AUDIENCE, GOOGLE_JWKS_URL: issuer.jwksUrl, GOOGLE_ISSUER: ISSUER });
    boss = await grantedAdmin(t, `${tag}boss`);
    // A configured name cannot be signed up (docs/admin.md "Access"), and `larder admin create` would
    // also grant it in the database: this user holds the name from before it was configured
    // (signed up under another, renamed here), a super-admin by the configuration alone.
    const account = { username: `${configured}-then`, email: `${configured}@example.com`, password: 'correct horse battery' };
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    await t.database.db.update(users).set({ username: configured }).where(eq(users.username, account.username));
    const tokens = await signIn(t.app, configured, account.password);
    root = { access: tokens.access_token, id: await idOf(t.app, tokens.access_token) };
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  it('lists users server-paged: search by username or e-mail, filters, sorts with the id as tie-breaker, organizations', async () => {
    const made: { username: string; email: string; id: string; access: string }[] = [];
    for (const name of ['alpha', 'bravo', 'charlie']) {
      const { account, tokens } = await verifiedUser(t.app, `${tag}${name}`);
      made.push({ ...account, id: await idOf(t.app, tokens.access_token), access: tokens.access_token });
    }
    const unverified = newAccount(`${tag}delta`);
    expect((await signUp(t.app, unverified)).statusCode).toBe(201);
    // Six organizations for alpha: the row names the first five by name, and counts six.
    for (const name of ['Foxtrot', 'echo', 'Delta', 'charlie', 'Bravo', 'alpha']) {
      expect((await call('POST', '/api/organization', { name: `${name} ${tag}` }, made[0]!.access)).statusCode).toBe(201);
    }

    const all = await list({ search: tag.toUpperCase(), sort: 'username', order: 'asc' });
    expect(all.total).toBe(5);
    expect(all.users.map((u) => u.username.replace(/\d.*$/, ''))).toEqual([`${tag}alpha`, `${tag}boss`, `${tag}bravo`, `${tag}charlie`, `${tag}delta`]);
    const alpha = all.users[0]!;
    expect(alpha).toMatchObject({ id: made[0]!.id, verified: true, disabled: false, disabledDate: null, superAdmin: false, configuredSuperAdmin: false, organizationCount: 6 });
    expect(alpha.organizations.map((o) => o.name)).toEqual(['alpha', 'Bravo', 'charlie', 'Delta', 'echo'].map((n) => `${n} ${tag}`));
    expect(alpha.lastLoggedIn).not.toBeNull();

    // By e-mail, case-insensitively; a pattern character is matched as itself.
    expect((await list({ search: made[1]!.email.toUpperCase() })).users.map((u) => u.id)).toEqual([made[1]!.id]);
    expect((await list({ search: `${tag}%` })).total).toBe(0);
    expect((await list({ search: `${tag}_lpha` })).total).toBe(0);

    const page2 = await list({ search: tag, sort: 'username', order: 'desc', perPage: 2, page: 2 });
    expect(page2).toMatchObject({ total: 5, page: 2, perPage: 2 });
    expect(page2.users.map((u) => u.username.replace(/\d.*$/, ''))).toEqual([`${tag}bravo`, `${tag}boss`]);
    const byEmail = await list({ search: tag, sort: 'email', order: 'asc' });
    expect(byEmail.users.map((u) => u.email)).toEqual([...byEmail.users.map((u) => u.email)].sort());
    // Newest first by default.
    expect((await list({ search: tag })).users[0]!.username).toBe(unverified.username);
    // Never signed in comes last, either direction.
    for (const order of ['asc', 'desc']) expect((await list({ search: tag, sort: 'lastLoggedIn', order })).users.at(-1)!.username).toBe(unverified.username);

    expect((await list({ search: tag, verified: false })).users.map((u) => u.username)).toEqual([unverified.username]);
    expect((await list({ search: tag, verified: true })).total).toBe(4);
    const supers = await list({ superAdmin: true, sort: 'username', order: 'asc' });
    expect(supers.users.map((u) => [u.id, u.superAdmin, u.configuredSuperAdmin])).toEqual([
      [root.id, false, true],
      [boss.id, true, false],
    ]);
    expect((await list({ superAdmin: false })).users.some((u) => u.id === boss.id || u.id === root.id)).toBe(false);
    expect((await list({ search: tag, disabled: true })).total).toBe(0);

    expectProblem(await call('GET', '/api/admin/users?sort=password'), 400);
    expectProblem(await call('GET', '/api/admin/users?perPage=1000'), 400);
  });

  it('disabling ends the access token at once, refuses sign-in and refresh (403 account_disabled) and ends the live stream; enabling restores sign-in', async () => {
    const f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts' });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const me = () => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(f.access) });
    const userId = json(await me())._id as string;
    const email = json(await me()).email as string;
    const username = json(await me()).username as string;
    // A second session of the same user, by password, for the refresh grant.
    const second = await signIn(t.app, username, 'correct horse battery');
    const sse = await Sse.open(`${base}/api/organization/${f.org}/project/${f.project}/collection/posts/live?${new URLSearchParams({ authorization: f.access })}`);
    try {
      expect(sse.status).toBe(200);
      const requestID = await sse.started();

      const disabled = await call('PUT', `/api/admin/users/${userId}/disabled`, { disabled: true });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expect(json<AdminUser>(disabled)).toMatchObject({ id: userId, disabled: true, disabledDate: expect.any(String) });
      expect((await me()).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(second.access_token) })).statusCode).toBe(401);
      await sse.until(() => sse.stop() !== undefined, 3000);
      expect(sse.stop()?.data).toBe(requestID);

      expectProblem(await passwordGrant(t.app, username, 'correct horse battery'), 403, 'account_disabled');
      expectProblem(await passwordGrant(t.app, email, 'correct horse battery'), 403, 'account_disabled');
      // A wrong password says only that it is wrong.
      expectProblem(await passwordGrant(t.app, username, 'not the password'), 400, 'invalid_grant');
      expectProblem(await refreshGrant(t.app, second.refresh_token), 403, 'account_disabled');
      // Google sign-in by the account's e-mail: refused before the identity is linked.
      const google = await t.app.inject({ method: 'POST', url: '/auth/googleToken', payload: { token: await issuer.sign(issuer.claims(email)) } });
      expectProblem(google, 403, 'account_disabled');
      expect((await t.database.db.select({ subject: users.googleSubject }).from(users).where(eq(users.id, userId)))[0]!.subject).toBeNull();
      expect((await list({ search: email, disabled: true })).users.map((u) => u.id)).toEqual([userId]);

      // Disabling again changes nothing and records nothing.
      expect((await call('PUT', `/api/admin/users/${userId}/disabled`, { disabled: true })).statusCode).toBe(200);
      const enabled = await call('PUT', `/api/admin/users/${userId}/disabled`, { disabled: false });
      expect(json<AdminUser>(enabled)).toMatchObject({ disabled: false, disabledDate: null });
      // The ended sessions stay ended; a new sign-in works.
      expect((await me()).statusCode).toBe(401);
      const again = await signIn(t.app, username, 'correct horse battery');
      expect((await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(again.access_token) })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/auth/googleToken', payload: { token: await issuer.sign(issuer.claims(email)) } })).statusCode).toBe(200);

      const entries = await audit(userId);
      expect(entries.map((e) => e.action)).toEqual(['user.enable', 'user.disable']);
      expect(entries[1]).toMatchObject({ actorID: boss.id, actor: expect.stringContaining('@example.com'), targetKind: 'user', before: { disabled: false }, after: { disabled: true } });
    } finally {
      sse.close();
    }
  });

  it('refuses yourself, unknown users and bad bodies, changing nothing', async () => {
    expectProblem(await call('PUT', `/api/admin/users/${boss.id}/disabled`, { disabled: true }), 409, 'not_self_admin');
    expectProblem(await call('PUT', `/api/admin/users/${boss.id}/superAdmin`, { superAdmin: false }), 409, 'not_self_admin');
    expect((await call('GET', '/api/user/me')).statusCode).toBe(200);
    for (const id of ['0123456789abcdef01234567', 'not-an-id']) {
      expectProblem(await call('PUT', `/api/admin/users/${id}/disabled`, { disabled: true }), 404, 'user_not_found');
      expectProblem(await call('PUT', `/api/admin/users/${id}/superAdmin`, { superAdmin: true }), 404, 'user_not_found');
      expectProblem(await call('POST', `/api/admin/users/${id}/resendVerification`), 404, 'user_not_found');
    }
    expectProblem(await call('PUT', `/api/admin/users/${root.id}/disabled`, { disabled: 'yes' }), 400);
    expectProblem(await call('PUT', `/api/admin/users/${root.id}/disabled`, {}), 400);
    expectProblem(await call('PUT', `/api/admin/users/${root.id}/superAdmin`, { superAdmin: true, extra: 1 }), 400);
    expect((await audit(boss.id)).length).toBe(0);
    expect((await audit(root.id)).length).toBe(0);
  });

  it('refuses bad query strings of the admin lists with a 400 and a code, and answers a page past the end empty with its total', async () => {
    const refused: [string, string][] = [
      ['/api/admin/users?page=0', 'validation_failed'],
      ['/api/admin/users?page=-1', 'validation_failed'],
      ['/api/admin/users?page=1.5', 'validation_failed'],
      ['/api/admin/users?page=99999999999999999999', 'validation_failed'],
      ['/api/admin/users?perPage=101', 'validation_failed'],
      ['/api/admin/users?sort=passwordHash', 'validation_failed'],
      ['/api/admin/users?order=sideways', 'validation_failed'],
      ['/api/admin/users?verified=maybe', 'validation_failed'],
      ['/api/admin/users?unknown=1', 'validation_failed'],
      [`/api/admin/users?search=${'a'.repeat(201)}`, 'validation_failed'],
      ['/api/admin/users?search=a%00b', 'invalid_text'],
      ['/api/admin/organizations?search=a%00b', 'invalid_text'],
      ['/api/admin/organizations?sort=bogus', 'validation_failed'],
      ['/api/admin/organizations?status=bogus', 'validation_failed'],
      ['/api/admin/organizations/not-an-id', 'validation_failed'],
      ['/api/admin/metrics?days=31', 'validation_failed'],
      ['/api/admin/audit?action=bogus', 'validation_failed'],
      ['/api/admin/audit?targetID=%00', 'invalid_text'],
    ];
    for (const [url, code] of refused) expectProblem(await call('GET', url), 400, code);
    for (const url of ['/api/admin/users', '/api/admin/organizations', '/api/admin/audit']) {
      const last = await call('GET', `${url}?page=100000&perPage=100`);
      expect(last.statusCode, `${url}: ${last.body}`).toBe(200);
      const body = json<{ total: number; page: number } & Record<string, unknown>>(last);
      expect(body.page).toBe(100000);
      expect(Object.values(body).find(Array.isArray)).toEqual([]);
      expect(body.total).toBeGreaterThanOrEqual(0);
    }
    expect((await list({ search: '%_\\' })).users).toEqual([]);
  });

  it('grants and revokes super-admin; a configured super-admin cannot be revoked nor disabled', async () => {
    const { tokens } = await verifiedUser(t.app, `${tag}promoted`);
    const id = await idOf(t.app, tokens.access_token);
    const adminCall = () => t.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(tokens.access_token) });
    expectProblem(await adminCall(), 403, 'super_admin_required');

    const granted = await call('PUT', `/api/admin/users/${id}/superAdmin`, { superAdmin: true });
    expect(json<AdminUser>(granted)).toMatchObject({ id, superAdmin: true, configuredSuperAdmin: false });
    expect((await adminCall()).statusCode).toBe(200);
    expect(json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) })).superAdmin).toBe(true);
    const revoked = await call('PUT', `/api/admin/users/${id}/superAdmin`, { superAdmin: false });
    expect(json<AdminUser>(revoked)).toMatchObject({ superAdmin: false });
    expectProblem(await adminCall(), 403, 'super_admin_required');

    // The configured one: a super-admin without the database flag, seen as one by the console too.
    expect(json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(root.access) })).superAdmin).toBe(true);
    expectProblem(await call('PUT', `/api/admin/users/${root.id}/superAdmin`, { superAdmin: false }), 409, 'configured_super_admin');
    // Nor disabled: another super-admin cannot lock the configured operator out of the console.
    expectProblem(await call('PUT', `/api/admin/users/${root.id}/disabled`, { disabled: true }), 409, 'configured_super_admin');
    expect((await call('GET', '/api/admin/users', undefined, root.access)).statusCode).toBe(200);
    expect((await list({ search: configured })).users[0]).toMatchObject({ id: root.id, disabled: false });

    expect((await audit(id)).map((e) => [e.action, (e.before as { superAdmin: boolean }).superAdmin, (e.after as { superAdmin: boolean }).superAdmin])).toEqual([
      ['user.revokeSuperAdmin', true, false],
      ['user.grantSuperAdmin', false, true],
    ]);
    expect(await audit(root.id)).toEqual([]);
  });

  it('resends the e-mail confirmation; a verified user is 409 already_verified', async () => {
    const account = newAccount(`${tag}resend`);
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    const id = json<AdminUserPage>(await call('GET', `/api/admin/users?search=${account.username}`)).users[0]!.id;
    const before = (await mailsTo(t.app, account.email)).filter((m) => m.kind === 'confirm').length;
    const sent = await call('POST', `/api/admin/users/${id}/resendVerification`);
    expect(sent.statusCode, sent.body).toBe(204);
    expect((await mailsTo(t.app, account.email)).filter((m) => m.kind === 'confirm').length).toBe(before + 1);
    // The new link confirms the address.
    const link = (await lastMailTo(t.app, account.email, 'confirm')).link!;
    const tokens = await signIn(t.app, account.username, account.password);
    const confirmed = await t.app.inject({ method: 'POST', url: `/api/user/${link.split('/confirm/')[1]}/confirm`, headers: bearer(tokens.access_token) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expectProblem(await call('POST', `/api/admin/users/${id}/resendVerification`), 409, 'already_verified');
    const entries = await audit(id);
    expect(entries.map((e) => e.action)).toEqual(['user.resendVerification']);
    expect(entries[0]!.after).toMatchObject({ mailedTo: account.email.toLowerCase() });
  });
});

describe.runIf(databaseKinds.includes('postgres'))('admin users across two server processes', () => {
  let a: TestApp;
  let b: App;

  beforeAll(async () => {
    a = await createTestApp('postgres', env);
    b = await buildApp({ config: a.config, database: await openDatabase({ databaseUrl: a.database.url!, skipMigrations: true, poolSize: 2 }), logger: false });
    await b.ready();
  });
  afterAll(async () => {
    const database = b?.ctx.database;
    await b?.close();
    await database?.close();
    await a?.close();
  });

  it('a user disabled through process B is cut off on process A at once: their calls and their live stream', async () => {
    const boss = await grantedAdmin(a, 'twoprocboss');
    const f = await contentFixture(a);
    await createCollection(f, { id: 'posts', name: 'Posts' });
    const base = await a.app.listen({ port: 0, host: '127.0.0.1' });
    const me = () => a.app.inject({ method: 'GET', url: '/api/organizations', headers: bearer(f.access) });
    // Twice: the session is cached on A.
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    const userId = await idOf(a.app, f.access);
    const sse = await Sse.open(`${base}/api/organization/${f.org}/project/${f.project}/collection/posts/live?${new URLSearchParams({ authorization: f.access })}`);
    try {
      await sse.started();
      const disabled = await b.inject({ method: 'PUT', url: `/api/admin/users/${userId}/disabled`, headers: bearer(boss.access), payload: { disabled: true } });
      expect(disabled.statusCode, disabled.body).toBe(200);
      const answered = Date.now();
      // The write was answered once B heard its own invalidations; A hears them by the same NOTIFY.
      let status = 0;
      while (Date.now() - answered < 1000 && (status = (await me()).statusCode) === 200) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(status).toBe(401);
      await sse.until(() => sse.stop() !== undefined, 2000);
      expect(sse.stop()).toBeDefined();
      expect(sse.stop()!.at - answered).toBeLessThan(1000);
    } finally {
      sse.close();
    }
  });
});
