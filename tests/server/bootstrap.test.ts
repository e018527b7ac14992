/**
 * First-start super-admin: with ADMIN_EMAIL and ADMIN_PASSWORD set and no user with that e-mail,
 * `UserService.bootstrapAdmin()` creates a verified platform super-admin; otherwise it changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { UserService } from '../../server/main/users.ts';
import { bearer, newAccount, passwordGrant, signIn, signUp } from './support/flows.ts';
import { countRows, userByEmail } from './support/db.ts';
import { users } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, testEnv, type TestApp } from './support/test-app.ts';

describe.each(databaseKinds)('super-admin bootstrap on %s', (kind) => {
  let t: TestApp;
  const admin = { email: 'Root.Admin@Example.com', password: 'a long admin password' };

  /** A UserService on the same database with other settings, as another start would have. */
  const serviceWith = (env: Record<string, string>) =>
    new UserService(t.database.db, loadConfig({ ...testEnv, ...env }), t.app.ctx.mailer, t.app.ctx.tokens);

  beforeAll(async () => {
    t = await createTestApp(kind, { ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  });
  afterAll(() => t?.close());

  it('creates a verified super-admin once, who can sign in by e-mail or by the name admin', async () => {
    expect(await t.app.ctx.users.bootstrapAdmin()).toBe('created');
    const row = await userByEmail(t.database.db, admin.email);
    expect(row).toMatchObject({ email: admin.email.toLowerCase(), username: 'admin', verified: true, superAdmin: true });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);

    const tokens = await signIn(t.app, admin.email, admin.password);
    expect(json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }))).toMatchObject({
      username: 'admin',
      verified: true,
      superAdmin: true,
    });
    expect((await passwordGrant(t.app, 'admin', admin.password)).statusCode).toBe(200);

    // A second start finds the admin and changes nothing.
    const count = await countRows(t.database.db, users);
    expect(await t.app.ctx.users.bootstrapAdmin()).toBe('exists');
    expect(await serviceWith({ ADMIN_EMAIL: admin.email.toUpperCase(), ADMIN_PASSWORD: 'another password' }).bootstrapAdmin()).toBe('exists');
    expect(await countRows(t.database.db, users)).toBe(count);
    expect((await passwordGrant(t.app, admin.email, 'another password')).statusCode).toBe(400);
  });

  it('does nothing without both ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const count = await countRows(t.database.db, users);
    expect(await serviceWith({}).bootstrapAdmin()).toBe('skipped');
    expect(await serviceWith({ ADMIN_EMAIL: 'only-email@example.com' }).bootstrapAdmin()).toBe('skipped');
    expect(await serviceWith({ ADMIN_PASSWORD: 'only a password' }).bootstrapAdmin()).toBe('skipped');
    expect(await countRows(t.database.db, users)).toBe(count);
  });

  it('never promotes an existing account with that e-mail', async () => {
    const account = newAccount('existing');
    await signUp(t.app, account);
    expect(await serviceWith({ ADMIN_EMAIL: account.email, ADMIN_PASSWORD: 'take over attempt' }).bootstrapAdmin()).toBe('exists');
    expect(await userByEmail(t.database.db, account.email)).toMatchObject({ superAdmin: false, verified: false });
    expect((await passwordGrant(t.app, account.email, 'take over attempt')).statusCode).toBe(400);
  });

  it('picks a free username when ADMIN_USERNAME is taken', async () => {
    const taken = newAccount('boss');
    await signUp(t.app, taken);
    const email = 'second-admin@example.com';
    expect(await serviceWith({ ADMIN_EMAIL: email, ADMIN_PASSWORD: 'second admin password', ADMIN_USERNAME: taken.username }).bootstrapAdmin()).toBe('created');
    const row = await userByEmail(t.database.db, email);
    expect(row).toMatchObject({ superAdmin: true, verified: true });
    expect(row!.username).not.toBe(taken.username);
    expect(row!.username.startsWith(taken.username)).toBe(true);
    expect(await userByEmail(t.database.db, taken.email)).toMatchObject({ superAdmin: false });
  });
});
