/**
 * `/api/user`: sign-up (with and without an invite), e-mail confirmation, the signed-in user and
 * the first-time questionnaire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { emailConfirmations, invites, organizations } from '../../server/db/schema.ts';
import { hashSecret, newId, newSecret } from '../../server/lib/ids.ts';
import { bearer, lastMailTo, mailsTo, newAccount, passwordGrant, signIn, signUp, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { countRows, userByEmail } from './support/db.ts';
import { users } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

describe.each(databaseKinds)('users on %s', (kind) => {
  let t: TestApp;

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });
  const confirm = (id: string, token?: string) =>
    t.app.inject({ method: 'POST', url: `/api/user/${encodeURIComponent(id)}/confirm`, headers: token ? bearer(token) : {} });
  const confirmIdOf = async (email: string) => (await lastMailTo(t.app, email, 'confirm')).link!.split('/confirm/')[1]!;

  /** An invitation as the organization service makes it: the link carries a secret, the row its hash. */
  async function makeInvite(email: string, expiresInMs = 86_400_000) {
    const organizationId = newId();
    await t.database.db.insert(organizations).values({ id: organizationId, name: `Org ${organizationId.slice(0, 6)}` });
    const secret = newSecret();
    await t.database.db
      .insert(invites)
      .values({ id: hashSecret(secret), organizationId, email, permissions: { read: true }, expiresAt: new Date(Date.now() + expiresInMs) });
    return secret;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  describe('sign-up', () => {
    it('creates an unverified user, hashes the password and mails a confirmation link built from PUBLIC_URL', async () => {
      const account = newAccount('Fresh');
      const response = await signUp(t.app, { ...account, email: account.email.toUpperCase() });
      expect(response.statusCode).toBe(201);
      expect(json(response)).toEqual({ status: 'accepted' });
      const row = await userByEmail(t.database.db, account.email);
      expect(row).toMatchObject({ username: account.username, email: account.email.toLowerCase(), verified: false, superAdmin: false });
      expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(row!.passwordHash).not.toContain(account.password);

      const mails = await mailsTo(t.app, account.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.kind).toBe('confirm');
      expect(mails[0]!.link).toMatch(/^http:\/\/larder\.test\/confirm\/[A-Za-z0-9_-]{43}$/);
      expect(mails[0]!.text).toContain(mails[0]!.link);
      // The confirmation id is kept only as a hash.
      const id = mails[0]!.link!.split('/confirm/')[1]!;
      const stored = await t.database.db.select().from(emailConfirmations).where(eq(emailConfirmations.userId, row!.id));
      expect(stored.map((s) => s.idHash)).toEqual([createHash('sha256').update(id).digest('base64url')]);
    });

    it('builds the confirmation link from PUBLIC_URL even when Host says otherwise', async () => {
      const account = newAccount('host');
      await t.app.inject({ method: 'POST', url: '/api/user', payload: account, headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' } });
      expect((await lastMailTo(t.app, account.email, 'confirm')).link).toMatch(/^http:\/\/larder\.test\/confirm\//);
    });

    it('answers a registered e-mail exactly like a new one, mails its owner and changes nothing', async () => {
      const { account } = await verifiedUser(t.app, 'owner');
      const before = await userByEmail(t.database.db, account.email);
      const usersBefore = await countRows(t.database.db, users);
      const fresh = await signUp(t.app, newAccount('newcomer'));
      const again = await signUp(t.app, { username: newAccount('impostor').username, email: account.email.toUpperCase(), password: 'another password' });
      expect(again.statusCode).toBe(fresh.statusCode);
      expect(again.body).toBe(fresh.body);
      expect(again.headers['content-type']).toBe(fresh.headers['content-type']);
      expect(await countRows(t.database.db, users)).toBe(usersBefore + 1);
      expect(await userByEmail(t.database.db, account.email)).toEqual(before);
      const mail = await lastMailTo(t.app, account.email);
      expect(mail.kind).toBe('signup-existing');
      expect(mail.link).toBe('http://larder.test/login');
      expect(mail.text).toContain(account.username);
      // The old password still works; the one from the second sign-up does not.
      expect((await passwordGrant(t.app, account.username, account.password)).statusCode).toBe(200);
      expect((await passwordGrant(t.app, account.email, 'another password')).statusCode).toBe(400);
    });

    it('refuses a taken username with 409, whatever the case, and whether or not the e-mail is registered', async () => {
      const { account } = await verifiedUser(t.app, 'named');
      const other = await verifiedUser(t.app, 'registered');
      const newEmail = await signUp(t.app, { ...newAccount('x'), username: account.username.toUpperCase() });
      const registeredEmail = await signUp(t.app, { ...newAccount('y'), username: account.username, email: other.account.email });
      expectProblem(newEmail, 409, 'username_taken');
      // A registered e-mail with a taken name answers the same: the answer depends on the public name only.
      expect(registeredEmail.statusCode).toBe(409);
      expect(registeredEmail.body).toBe(newEmail.body);
    });

    it('creates an invited user verified, without a confirmation mail', async () => {
      const account = newAccount('invited');
      const inviteId = await makeInvite(account.email.toUpperCase());
      expect((await signUp(t.app, account, inviteId)).statusCode).toBe(201);
      expect((await userByEmail(t.database.db, account.email))!.verified).toBe(true);
      expect(await mailsTo(t.app, account.email)).toEqual([]);
      const tokens = await signIn(t.app, account.username, account.password);
      expect(json(await me(tokens.access_token))).toMatchObject({ verified: true });
    });

    it('ignores an invite for another e-mail, an expired invite and an unknown invite id', async () => {
      const cases = [
        { account: newAccount('wrongmail'), invite: () => makeInvite('someone-else@example.com') },
        { account: newAccount('expired'), invite: (email: string) => makeInvite(email, -1000) },
        { account: newAccount('unknown'), invite: async () => newSecret() },
      ];
      for (const { account, invite } of cases) {
        const id = await invite(account.email);
        expect((await signUp(t.app, account, id)).statusCode).toBe(201);
        expect((await userByEmail(t.database.db, account.email))!.verified).toBe(false);
        expect((await lastMailTo(t.app, account.email)).kind).toBe('confirm');
      }
    });
  });

  describe('confirmation', () => {
    it('confirms the signed-in user’s e-mail; confirming twice is harmless', async () => {
      const account = newAccount('confirm');
      await signUp(t.app, account);
      const tokens = await signIn(t.app, account.username, account.password);
      expect(json(await me(tokens.access_token))).toMatchObject({ verified: false });
      const id = await confirmIdOf(account.email);
      const response = await confirm(id, tokens.access_token);
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ ok: true });
      expect(json(await me(tokens.access_token))).toMatchObject({ verified: true });
      expect((await confirm(id, tokens.access_token)).statusCode).toBe(200);
    });

    it('needs a bearer token (401), and the link of the signed-in account (404)', async () => {
      const account = newAccount('victimconfirm');
      await signUp(t.app, account);
      const id = await confirmIdOf(account.email);
      expectProblem(await confirm(id), 401, 'missing_token');
      const stranger = await verifiedUser(t.app, 'stranger');
      expectProblem(await confirm(id, stranger.tokens.access_token), 404, 'confirmation_not_found');
      expectProblem(await confirm('not-a-real-id', stranger.tokens.access_token), 404, 'confirmation_not_found');
      expect((await userByEmail(t.database.db, account.email))!.verified).toBe(false);
    });

    it('sends a new link on request, and refuses with 409 once verified', async () => {
      const account = newAccount('resend');
      await signUp(t.app, account);
      const tokens = await signIn(t.app, account.username, account.password);
      const resend = () => t.app.inject({ method: 'POST', url: '/api/user/me/confirmation', headers: bearer(tokens.access_token) });
      const first = await confirmIdOf(account.email);
      expect((await resend()).statusCode).toBe(202);
      const second = await confirmIdOf(account.email);
      expect(second).not.toBe(first);
      expect((await confirm(second, tokens.access_token)).statusCode).toBe(200);
      expectProblem(await resend(), 409, 'already_verified');
    });
  });

  describe('the signed-in user', () => {
    it('answers GET /api/user/me with the public fields only', async () => {
      const { account, tokens } = await verifiedUser(t.app, 'me');
      const response = await me(tokens.access_token);
      expect(response.statusCode).toBe(200);
      const body = json(response);
      expect(Object.keys(body).sort()).toEqual(
        ['_id', 'createdDate', 'email', 'lastLoggedIn', 'organizations', 'questionnaireCompleted', 'superAdmin', 'username', 'verified'].sort(),
      );
      expect(body).toMatchObject({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        username: account.username,
        email: account.email,
        organizations: [],
        verified: true,
        superAdmin: false,
        questionnaireCompleted: false,
      });
      expect(new Date(body.createdDate).toISOString()).toBe(body.createdDate);
      expect(Date.now() - new Date(body.lastLoggedIn).getTime()).toBeLessThan(60_000);
      expect(response.body).not.toMatch(/argon2|password|hash/i);
    });

    it('saves the questionnaire', async () => {
      const { tokens } = await verifiedUser(t.app, 'quest');
      const answers = { role: 'developer', teamSize: '2-10', useCase: 'A blog', heardFrom: 'a friend' };
      const response = await t.app.inject({ method: 'PUT', url: '/api/user/questionnaire', headers: bearer(tokens.access_token), payload: answers });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ ok: true });
      expect(json(await me(tokens.access_token))).toMatchObject({ questionnaireCompleted: true });
      const row = await userByEmail(t.database.db, json(await me(tokens.access_token)).email);
      expect(row!.questionnaire).toEqual(answers);
    });

    it('refuses bad questionnaires with 400 and stores nothing', async () => {
      const { account, tokens } = await verifiedUser(t.app, 'badquest');
      const bad = [
        { role: 'astronaut', teamSize: '1' },
        { role: 'developer' },
        { teamSize: '1' },
        { role: 'developer', teamSize: 1 },
        { role: 'developer', teamSize: '1', useCase: 'x'.repeat(1001) },
        { role: 'developer', teamSize: '1', admin: true },
        ['developer', '1'],
        'developer',
        null,
      ];
      for (const payload of bad) {
        const response = await t.app.inject({
          method: 'PUT',
          url: '/api/user/questionnaire',
          headers: { ...bearer(tokens.access_token), 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expectProblem(response, 400);
      }
      expect((await userByEmail(t.database.db, account.email))!.questionnaire).toBeNull();
      expectProblem(await t.app.inject({ method: 'PUT', url: '/api/user/questionnaire', payload: { role: 'developer', teamSize: '1' } }), 401, 'missing_token');
    });
  });
});
