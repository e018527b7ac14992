import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { authCall, mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

const full = { create: true, read: true, update: true, delete: true, associatedOnly: false };

describe.each(databaseKinds)('user groups on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let other: ContentFixture;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    other = await f.otherProject();
    await createCollection(f, { id: 'posts', name: 'Posts' });
    await addField(f, 'posts', { name: 'Title', slug: 'title', type: 1 });
    await addField(f, 'posts', { name: 'Comments', slug: 'comments', type: 12 });
    await addField(f, 'posts', { name: 'Text', slug: 'text', type: 1 }, 'comments');
    await createCollection(f, { id: 'notes', name: 'Notes' });
    await createCollection(other, { id: 'posts', name: 'Posts' });
  });
  afterAll(() => t.close());

  const createGroup = async (fixture: ContentFixture, body: Record<string, unknown>) => {
    const response = await fixture.call('POST', 'userGroups', body);
    expect(response.statusCode, response.body).toBe(201);
    return json(response) as { groupID: string; name: string; permissions: unknown[] };
  };

  it('creates, lists, renames, changes rights and deletes a group', async () => {
    const group = await createGroup(f, { name: 'Readers', permissions: [{ collection: 'posts', read: true }] });
    expect(group).toMatchObject({ groupID: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Readers', permissions: [{ collection: 'posts', read: true, create: false, update: false, delete: false, associatedOnly: false }] });
    expect(json(await f.call('GET', 'userGroups')).map((g: { groupID: string }) => g.groupID)).toContain(group.groupID);

    const renamed = await f.call('PUT', `userGroups/${group.groupID}`, { groupID: group.groupID, name: 'Readers 2' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json(renamed)).toMatchObject({ name: 'Readers 2', permissions: [{ collection: 'posts', read: true }] });
    // The other form: PUT with the groupID in the body.
    const rights = await f.call('PUT', 'userGroups', { groupID: group.groupID, permissions: [{ collection: 'notes', ...full }] });
    expect(rights.statusCode, rights.body).toBe(200);
    expect(json(rights)).toMatchObject({ name: 'Readers 2', permissions: [{ collection: 'notes', ...full }] });

    expect((await f.call('DELETE', `userGroups/${group.groupID}`)).statusCode).toBe(204);
    expectProblem(await f.call('GET', `userGroups/${group.groupID}`), 404, 'user_group_not_found');
    expectProblem(await f.call('DELETE', `userGroups/${group.groupID}`), 404);
  });

  it('refuses a blank or taken name (any case), unknown collections and unknown fields with a readable reason', async () => {
    await createGroup(f, { name: 'Editors' });
    const taken = expectProblem(await f.call('POST', 'userGroups', { name: 'editors' }), 409, 'user_group_exists');
    expect(taken.detail).toMatch(/already exists/);
    expect((taken as { params?: unknown }).params).toEqual({ name: 'editors' });
    expectProblem(await f.call('POST', 'userGroups', { name: '   ' }), 400, 'group_name_required');
    const unknown = expectProblem(await f.call('POST', 'userGroups', { name: 'Ghosts', permissions: [{ collection: 'nope', read: true }] }), 400, 'unknown_collection');
    expect(unknown.detail).toContain('nope');
    expect((unknown as { params?: unknown }).params).toEqual({ collections: 'nope' });
    expectProblem(await f.call('POST', 'userGroups', { name: 'Sneaky', projectID: other.project }), 400);
    expect(json(await f.call('GET', 'userGroups')).some((g: { name: string }) => g.name === 'Ghosts' || g.name === 'Sneaky')).toBe(false);
  });

  it('a group of another project is not reachable through this one', async () => {
    const foreign = await createGroup(other, { name: 'Theirs' });
    expectProblem(await f.call('GET', `userGroups/${foreign.groupID}`), 404);
    expectProblem(await f.call('PUT', `userGroups/${foreign.groupID}`, { name: 'Mine now' }), 404);
    expectProblem(await f.call('DELETE', `userGroups/${foreign.groupID}`), 404);
    expect(json(await other.call('GET', `userGroups/${foreign.groupID}`)).name).toBe('Theirs');
  });

  it('rights: any group grants, nested paths use their top-level collection, never up, and other projects’ groups count for nothing', async () => {
    const { userGroups } = t.app.ctx;
    const readers = await createGroup(f, { name: 'R', permissions: [{ collection: 'posts', read: true }] });
    const writers = await createGroup(f, { name: 'W', permissions: [{ collection: 'posts', create: true, update: true }] });
    const foreign = await createGroup(other, { name: 'All', permissions: [{ collection: 'posts', ...full }] });

    expect(await userGroups.rights(f.project, [readers.groupID, writers.groupID], 'posts')).toEqual({ create: true, read: true, update: true, delete: false, associatedOnly: false });
    expect(await userGroups.rights(f.project, [readers.groupID], 'posts.0123456789abcdef01234567.comments')).toMatchObject({ read: true, create: false });
    expect(await userGroups.rights(f.project, [readers.groupID], 'notes')).toEqual({ create: false, read: false, update: false, delete: false, associatedOnly: false });
    expect(await userGroups.rights(f.project, [foreign.groupID], 'posts')).toEqual({ create: false, read: false, update: false, delete: false, associatedOnly: false });
    expect(await userGroups.rights(f.project, ['not-an-id'], 'posts')).toMatchObject({ read: false });

    // A grant can only name a top-level collection: a nested path is refused, so nothing flows up.
    expectProblem(await f.call('POST', 'userGroups', { name: 'Nested', permissions: [{ collection: 'posts.comments', ...full }] }), 400, 'unknown_collection');
  });

  it('associatedOnly holds only while every granting group limits it; it reaches the items whose Users panel lists the user', async () => {
    const { userGroups, itemUsers } = t.app.ctx;
    const limited = await createGroup(f, { name: 'Own', permissions: [{ collection: 'posts', read: true, update: true, associatedOnly: true }] });
    const open = await createGroup(f, { name: 'Open', permissions: [{ collection: 'posts', read: true }] });
    expect(await userGroups.rights(f.project, [limited.groupID], 'posts')).toEqual({ create: false, read: true, update: true, delete: false, associatedOnly: true });
    expect((await userGroups.rights(f.project, [limited.groupID, open.groupID], 'posts')).associatedOnly).toBe(false);

    const token = await mintToken(t, f, { powerRead: true });
    const alice = await signUpEndUser(t, token, newEmail('alice'));
    const bob = await signUpEndUser(t, token, newEmail('bob'));
    const first = await createItem(f, 'posts', { title: 'First' });
    const second = await createItem(f, 'posts', { title: 'Second' });
    const linked = await f.call('PUT', `collection/posts/item/${first._id}/bagelUsers`, { userID: alice.user_id });
    expect(linked.statusCode, linked.body).toBe(200);
    await f.call('PUT', `collection/posts/item/${second._id}/bagelUsers`, { userID: bob.user_id });

    expect(await itemUsers.itemIdsFor(f.project, 'posts', alice.user_id)).toEqual([first._id]);
    expect(await itemUsers.itemsOf(f.project, 'posts', bob.user_id)).toEqual([second._id]);
    expect(await itemUsers.isAssociated(f.project, 'posts', second._id, alice.user_id)).toBe(false);
    expect(await itemUsers.list(f.project, 'posts', first._id)).toEqual([{ userID: alice.user_id }]);
  });

  it('through the public API: a user reads what their groups grant, associated items only where limited, nested lists with their top level', async () => {
    const own = await createGroup(f, { name: 'Own posts', permissions: [{ collection: 'posts', read: true, associatedOnly: true }] });
    const grouped = await mintToken(t, f, { userGroupID: own.groupID });
    const none = await mintToken(t, f);
    const carol = await signUpEndUser(t, grouped, newEmail('carol'));
    const dave = await signUpEndUser(t, none, newEmail('dave'));
    const mine = await createItem(f, 'posts', { title: 'Carol’s' });
    const theirs = await createItem(f, 'posts', { title: 'Not Carol’s' });
    await createItem(f, 'posts', { text: 'A comment' }, { item: mine._id, nestedID: 'comments' });
    expect((await f.call('PUT', `collection/posts/item/${mine._id}/bagelUsers`, { userID: carol.user_id })).statusCode).toBe(200);
    const get = (jwt: string, path: string) => t.app.inject({ method: 'GET', url: `/api/public/${path}`, headers: { authorization: `Bearer ${jwt}`, 'accept-version': 'v1' } });

    const list = await get(carol.access_token, 'collection/posts/items');
    expect(list.statusCode, list.body).toBe(200);
    expect(json(list).map((item: { _id: string }) => item._id)).toEqual([mine._id]);
    expect((await get(carol.access_token, `collection/posts/items/${mine._id}`)).statusCode).toBe(200);
    expectProblem(await get(carol.access_token, `collection/posts/items/${theirs._id}`), 403);
    const nested = await get(carol.access_token, `collection/posts/items/${mine._id}?nestedID=comments`);
    expect(nested.statusCode, nested.body).toBe(200);
    expectProblem(await get(carol.access_token, 'collection/notes/items'), 403);
    expectProblem(await get(dave.access_token, 'collection/posts/items'), 403);
  });

  it('a token’s group goes to the users it signs up, except while User Admin is on; a deleted group leaves its users', async () => {
    const group = await createGroup(f, { name: 'Members', permissions: [{ collection: 'notes', read: true }] });
    const grouped = await mintToken(t, f, { userGroupID: group.groupID });
    const adminToken = await mintToken(t, f, { userAdmin: true, userGroupID: group.groupID });
    const member = await signUpEndUser(t, grouped, newEmail('member'));
    expect(json(await authCall(t, 'GET', '/user', member.access_token)).userGroups).toEqual([group.groupID]);
    expect((await t.app.ctx.endUsers.verifyAccessToken(member.access_token))?.groupIds).toEqual([group.groupID]);
    const viaAdmin = await signUpEndUser(t, adminToken, newEmail('viaadmin'));
    expect(json(await authCall(t, 'GET', '/user', viaAdmin.access_token)).userGroups).toEqual([]);
    // While signed in, the client sends the user's token: the group of the token they came with applies.
    const chained = await authCall(t, 'POST', '/user', member.access_token, { email: newEmail('chained'), password: 'correct horse 1' });
    expect(chained.statusCode, chained.body).toBe(201);
    expect(json(await authCall(t, 'GET', '/user', json(chained).access_token)).userGroups).toEqual([group.groupID]);

    expect((await f.call('DELETE', `userGroups/${group.groupID}`)).statusCode).toBe(204);
    expect(json(await authCall(t, 'GET', '/user', member.access_token)).userGroups).toEqual([]);
  });

  it('a token naming a group of another project gives its users no group', async () => {
    const foreign = await createGroup(other, { name: 'Foreign' });
    const token = await mintToken(t, f, { userGroupID: foreign.groupID });
    const user = await signUpEndUser(t, token, newEmail('foreign'));
    expect(json(await authCall(t, 'GET', '/user', user.access_token)).userGroups).toEqual([]);
  });

  it('assigning groups to a user refuses ids of another project, changing nothing', async () => {
    const mine = await createGroup(f, { name: 'Assignable' });
    const foreign = await createGroup(other, { name: 'Not yours' });
    const token = await mintToken(t, f);
    const user = await signUpEndUser(t, token, newEmail('assign'));
    const foreignGroup = expectProblem(await f.call('PUT', `user/${user.user_id}`, { userGroups: [mine.groupID, foreign.groupID] }), 400, 'unknown_user_group');
    expect((foreignGroup as { params?: unknown }).params).toEqual({ groups: foreign.groupID });
    expect(json(await f.call('GET', `user/${user.user_id}`)).userGroups).toEqual([]);
    const ok = await f.call('PUT', `user/${user.user_id}`, { userGroups: [mine.groupID] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok).userGroups).toEqual([mine.groupID]);
  });
});
