import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { bearer, lastMailTo, mailsTo, verifiedUser } from './support/flows.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { authCall, mintToken, newEmail, signUpEndUser } from './support/end-users.ts';
import { memberships } from '../../server/db/schema.ts';

describe.each(databaseKinds)('project users in the console on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: string;
  let reader: string;
  let stranger: string;
  const emails: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    token = await mintToken(t, f);
    for (let i = 0; i < 5; i++) {
      const email = newEmail(i % 2 ? 'odd' : 'even');
      emails.push(email);
      await signUpEndUser(t, token, email);
    }
    // A member who may only read, and someone who is not a member at all.
    const readOnly = await verifiedUser(t.app, 'reader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(readOnly.tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    reader = readOnly.tokens.access_token;
    stranger = (await verifiedUser(t.app, 'stranger')).tokens.access_token;
    await createCollection(f, { id: 'posts', name: 'Posts' });
    await addField(f, 'posts', { name: 'Title', slug: 'title', type: 1 });
  });
  afterAll(() => t.close());

  it('lists users oldest first with paging, a total and search by e-mail', async () => {
    const page1 = json(await f.call('GET', 'user?pageNumber=1&perPage=2'));
    expect(page1.total).toBe(5);
    expect(page1.users.map((u: { email: string }) => u.email)).toEqual(emails.slice(0, 2));
    expect(page1.users[0]).toMatchObject({ userID: expect.any(String), verified: false, createdDate: expect.any(String), lastLoggedIn: expect.any(String), userGroups: [] });
    const page3 = json(await f.call('GET', 'user?pageNumber=3&perPage=2'));
    expect(page3.users.map((u: { email: string }) => u.email)).toEqual(emails.slice(4));
    const odd = json(await f.call('GET', 'user?search=ODD'));
    expect(odd.total).toBe(2);
    expect(odd.users.every((u: { email: string }) => u.email.startsWith('odd'))).toBe(true);
    // LIKE wildcards are matched literally.
    expect(json(await f.call('GET', 'user?search=%25')).total).toBe(0);
    expectProblem(await f.call('GET', 'user?perPage=100000'), 400);
  });

  it('reading needs membership; deleting needs the delete right', async () => {
    const { users } = json(await f.call('GET', 'user'));
    const target = users[0].userID;
    expect((await f.call('GET', 'user', undefined, { access: reader })).statusCode).toBe(200);
    expect((await f.call('GET', `user/${target}`, undefined, { access: reader })).statusCode).toBe(200);
    expectProblem(await f.call('GET', 'user', undefined, { access: stranger }), 403);
    expectProblem(await f.call('DELETE', `user/${target}`, undefined, { access: reader }), 403);
    expectProblem(await f.call('GET', 'userGroups', undefined, { access: stranger }), 403);
    expectProblem(await f.call('POST', 'userGroups', { name: 'Nope' }, { access: reader }), 403);
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/organization/${f.org}/project/${f.project}/user` }), 401);
    expect((await f.call('GET', `user/${target}`)).statusCode).toBe(200);
  });

  it('changes a user’s groups (update right): ids of another project are 400 and change nothing', async () => {
    const email = newEmail('grouped');
    const tokens = await signUpEndUser(t, token, email);
    const first = json(await f.call('POST', 'userGroups', { name: 'Assign first' }));
    const second = json(await f.call('POST', 'userGroups', { name: 'Assign second' }));
    const other = await f.otherProject();
    const foreign = json(await other.call('POST', 'userGroups', { name: 'Elsewhere' }));

    const set = await f.call('PUT', `user/${tokens.user_id}`, { userGroups: [first.groupID, first.groupID] });
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set)).toMatchObject({ userID: tokens.user_id, email, userGroups: [first.groupID] });

    // A group of another project: 400 naming it, and the user keeps the groups they had.
    const refused = expectProblem(await f.call('PUT', `user/${tokens.user_id}`, { userGroups: [second.groupID, foreign.groupID] }), 400, 'unknown_user_group');
    expect(refused.detail).toContain(foreign.groupID);
    expect(refused.detail).not.toContain(second.groupID);
    expect(json(await f.call('GET', `user/${tokens.user_id}`)).userGroups).toEqual([first.groupID]);
    expectProblem(await f.call('PUT', `user/${tokens.user_id}`, { userGroups: ['not-an-id'] }), 400, 'unknown_user_group');

    // A member who may only read cannot; nor can another project reach the user.
    expectProblem(await f.call('PUT', `user/${tokens.user_id}`, { userGroups: [second.groupID] }, { access: reader }), 403);
    expectProblem(await other.call('PUT', `user/${tokens.user_id}`, { userGroups: [foreign.groupID] }), 404, 'project_user_not_found');
    expectProblem(await f.call('PUT', `user/${tokens.user_id}`, { groups: [] }), 400);
    expect(json(await f.call('GET', `user/${tokens.user_id}`)).userGroups).toEqual([first.groupID]);

    // Replaced as a whole; the user's own token reads the groups as they are now.
    const replaced = await f.call('PUT', `user/${tokens.user_id}`, { userGroups: [second.groupID] });
    expect(json(replaced).userGroups).toEqual([second.groupID]);
    expect(json(await authCall(t, 'GET', '/user', tokens.access_token)).userGroups).toEqual([second.groupID]);
    expect(json(await f.call('PUT', `user/${tokens.user_id}`, { userGroups: [] })).userGroups).toEqual([]);
    expect(json(await f.call('GET', `user/${tokens.user_id}`)).userGroups).toEqual([]);
  });

  it('a project of another organization or another project’s user is not found', async () => {
    const other = await f.otherProject();
    const { users } = json(await f.call('GET', 'user'));
    expectProblem(await other.call('GET', `user/${users[0].userID}`), 404, 'project_user_not_found');
    expectProblem(await other.call('DELETE', `user/${users[0].userID}`), 404);
    expect(json(await other.call('GET', 'user')).total).toBe(0);
  });

  it('deletes a user: their sessions end, their item links go, and they are gone from the list', async () => {
    const email = newEmail('doomed');
    const tokens = await signUpEndUser(t, token, email);
    const item = await createItem(f, 'posts', { title: 'Linked' });
    expect((await f.call('PUT', `collection/posts/item/${item._id}/bagelUsers`, { userID: tokens.user_id })).statusCode).toBe(200);
    expect((await f.call('DELETE', `user/${tokens.user_id}`)).statusCode).toBe(204);
    expectProblem(await f.call('GET', `user/${tokens.user_id}`), 404);
    expectProblem(await authCall(t, 'GET', '/user', tokens.access_token), 401);
    expect(json(await f.call('GET', `collection/posts/item/${item._id}/bagelUsers`))).toEqual([]);
    expectProblem(await f.call('DELETE', `user/${tokens.user_id}`), 404);
  });

  it('sends a password reset from the console (POST /auth/organization/{org}/project/{proj}/resetPassword)', async () => {
    const email = emails[1]!;
    const url = `/auth/organization/${f.org}/project/${f.project}/resetPassword`;
    expectProblem(await t.app.inject({ method: 'POST', url, headers: bearer(reader), payload: { email } }), 403);
    // Only the sign-up's address verification (docs/mail.md) was mailed: no reset.
    expect((await mailsTo(t.app, email)).map((m) => m.kind)).toEqual(['project-user-verification']);
    const sent = await t.app.inject({ method: 'POST', url, headers: bearer(f.access), payload: { email } });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await lastMailTo(t.app, email, 'project-user-reset');
    const resetID = mail.link!.split('/bagel-auth-reset-password/')[1]!;
    const set = await t.app.inject({ method: 'POST', url: `/auth/public/bagel-auth-reset-password/${resetID}`, payload: { password: 'fresh password 9' } });
    expect(set.statusCode, set.body).toBe(200);
    expect((await authCall(t, 'POST', '/user/verify', token, { password: 'fresh password 9', email })).statusCode).toBe(200);
    expect(json(await f.call('GET', 'user?search=' + encodeURIComponent(email))).users[0].verified).toBe(true);
  });

  describe('item users', () => {
    let item: { _id: string };
    let user: string;
    beforeAll(async () => {
      item = await createItem(f, 'posts', { title: 'Panel' });
      user = json(await f.call('GET', 'user')).users[2].userID;
    });

    it('the Users panel adds and removes users; unknown users are 400 and unknown items 404', async () => {
      const path = `collection/posts/item/${item._id}/bagelUsers`;
      expect(json(await f.call('GET', path))).toEqual([]);
      const added = await f.call('PUT', path, { userID: user });
      expect(added.statusCode, added.body).toBe(200);
      expect(json(added)).toEqual([{ userID: user }]);
      expect(json(await f.call('PUT', path, { userID: user }))).toEqual([{ userID: user }]);
      expectProblem(await f.call('PUT', path, { userID: '0123456789abcdef01234567' }), 400, 'unknown_project_user');
      const foreignUser = (await signUpEndUser(t, await mintToken(t, await f.otherProject()), newEmail('elsewhere'))).user_id;
      expectProblem(await f.call('PUT', path, { userID: foreignUser }), 400, 'unknown_project_user');
      expectProblem(await f.call('PUT', `collection/posts/item/0123456789abcdef01234567/bagelUsers`, { userID: user }), 404);
      expectProblem(await f.call('PUT', path, { userID: user }, { access: reader }), 403);
      expect((await f.call('GET', path, undefined, { access: reader })).statusCode).toBe(200);
      const removed = await f.call('DELETE', path, { userID: user });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(json(removed)).toEqual([]);
    });

    it('deleting an item forgets its users', async () => {
      const doomed = await createItem(f, 'posts', { title: 'Short-lived' });
      expect((await f.call('PUT', `collection/posts/item/${doomed._id}/bagelUsers`, { userID: user })).statusCode).toBe(200);
      expect(await t.app.ctx.itemUsers.itemIdsFor(f.project, 'posts', user)).toContain(doomed._id);
      expect((await f.call('DELETE', `collection/posts/item/${doomed._id}`)).statusCode).toBe(204);
      expect(await t.app.ctx.itemUsers.itemIdsFor(f.project, 'posts', user)).not.toContain(doomed._id);
      expect(await t.app.ctx.itemUsers.list(f.project, 'posts', doomed._id)).toEqual([]);
    });

    it('the public bagelUsers calls need a User Admin token', async () => {
      const admin = await mintToken(t, f, { userAdmin: true });
      const plain = await mintToken(t, f, { powerRead: true, powerWrite: true });
      const url = `/api/public/collection/posts/items/${item._id}/bagelUsers`;
      const headers = (jwt: string) => ({ ...bearer(jwt), 'accept-version': 'v1' });
      expectProblem(await t.app.inject({ method: 'PUT', url, headers: headers(plain), payload: { userID: user } }), 403, 'user_admin_required');
      const added = await t.app.inject({ method: 'PUT', url, headers: headers(admin), payload: JSON.stringify({ userID: user }) });
      expect(added.statusCode, added.body).toBe(200);
      expect(json(await t.app.inject({ method: 'GET', url, headers: headers(admin) }))).toEqual([{ userID: user }]);
      expectProblem(await t.app.inject({ method: 'GET', url, headers: headers(plain) }), 403);
      expectProblem(await t.app.inject({ method: 'DELETE', url, headers: headers(plain), payload: { userID: user } }), 403);
      const removed = await t.app.inject({ method: 'DELETE', url, headers: headers(admin), payload: { userID: user } });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(json(removed)).toEqual([]);
      expectProblem(await t.app.inject({ method: 'GET', url: `/api/public/collection/posts/items/0123456789abcdef01234567/bagelUsers`, headers: headers(admin) }), 404);
      expectProblem(await t.app.inject({ method: 'PUT', url, headers: headers(admin), payload: { user: 'x' } }), 400);
    });
  });
});
