/**
 * A member adds a project user by hand from the console (docs/console.md "Project users"):
 * `POST /api/organization/{org}/project/{proj}/user {email, password, verified?}` needs the
 * create right; the user can then sign in to the app with that password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { authCall, mintToken, newEmail, signUpEndUser } from './support/end-users.ts';
import { memberships } from '../../server/db/schema.ts';

describe.each(databaseKinds)('adding a project user from the console on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: string;
  let reader: string;
  let stranger: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    token = await mintToken(t, f);
    const readOnly = await verifiedUser(t.app, 'reader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(readOnly.tokens.access_token) }));
    // May read and update, not create: adding users needs create.
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true, update: true } });
    reader = readOnly.tokens.access_token;
    stranger = (await verifiedUser(t.app, 'stranger')).tokens.access_token;
  });
  afterAll(() => t.close());

  it('creates an unverified user (201) who signs in with the password given, and is listed', async () => {
    const email = newEmail('byhand');
    const created = await f.call('POST', 'user', { email: `  ${email.toUpperCase()} `, password: 'correct horse 1' });
    expect(created.statusCode, created.body).toBe(201);
    const user = json(created);
    expect(user).toMatchObject({ userID: expect.stringMatching(/^[0-9a-f]{24}$/), email, phone: null, verified: false, lastLoggedIn: null, userGroups: [] });
    expect(json(await f.call('GET', `user/${user.userID}`))).toMatchObject({ email, verified: false });
    expect(json(await f.call('GET', 'user?search=' + encodeURIComponent(email))).total).toBe(1);
    const signIn = await authCall(t, 'POST', '/user/verify', token, { email, password: 'correct horse 1' });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(json(signIn).user_id).toBe(user.userID);
  });

  it('marks the user verified when asked', async () => {
    const email = newEmail('verified');
    const created = await f.call('POST', 'user', { email, password: 'correct horse 1', verified: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created).verified).toBe(true);
    expect(json(await f.call('GET', `user/${json(created).userID}`)).verified).toBe(true);
  });

  it('a taken e-mail is 409; bad input is 400 and creates nothing', async () => {
    const email = newEmail('taken');
    await signUpEndUser(t, token, email);
    expectProblem(await f.call('POST', 'user', { email, password: 'another pass 2' }), 409, 'user_exists');
    expectProblem(await f.call('POST', 'user', { email: 'not an address', password: 'correct horse 1' }), 400, 'invalid_email');
    expectProblem(await f.call('POST', 'user', { email: '12345678', password: 'correct horse 1' }), 400, 'invalid_email');
    expectProblem(await f.call('POST', 'user', { email: newEmail('short'), password: 'x' }), 400);
    expectProblem(await f.call('POST', 'user', { email: newEmail('nopass') }), 400);
    expectProblem(await f.call('POST', 'user', { email: newEmail('extra'), password: 'correct horse 1', userGroups: ['x'] }), 400);
    expectProblem(await f.call('POST', 'user', { email: newEmail('typed'), password: 'correct horse 1', verified: 'yes' }), 400);
    expect(json(await f.call('GET', 'user?search=short')).total).toBe(0);
  });

  it('needs the create right in the organization; another organization’s project is refused', async () => {
    const email = newEmail('refused');
    expectProblem(await f.call('POST', 'user', { email, password: 'correct horse 1' }, { access: reader }), 403);
    expectProblem(await f.call('POST', 'user', { email, password: 'correct horse 1' }, { access: stranger }), 403);
    expectProblem(await t.app.inject({ method: 'POST', url: `/api/organization/${f.org}/project/${f.project}/user`, payload: { email, password: 'correct horse 1' } }), 401);
    expect(json(await f.call('GET', 'user?search=' + encodeURIComponent(email))).total).toBe(0);
    // The same address may be a user of another project.
    const other = await f.otherProject();
    expect((await other.call('POST', 'user', { email, password: 'correct horse 1' })).statusCode).toBe(201);
    expect(json(await f.call('GET', 'user?search=' + encodeURIComponent(email))).total).toBe(0);
  });
});
