/**
 * A member never hands out, through a user group, a right they do not hold (docs/end-users.md
 * "Rights handed out through groups"): not by creating or editing a group, not by minting or
 * changing an API token that gives a group to the users it signs up, not by assigning a group to
 * a user. The attack chain — a create-only member makes a group with delete, mints a token that
 * gives it out, signs up an app user and deletes items as them — stops at its first step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, memberships, userGroups as userGroupsTable } from '../../server/db/schema.ts';
import { eq } from 'drizzle-orm';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

const rights = (r: Partial<Record<'create' | 'read' | 'update' | 'delete' | 'associatedOnly', boolean>>) => ({ create: false, read: false, update: false, delete: false, associatedOnly: false, ...r });

describe.each(databaseKinds)('rights handed out through user groups on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const member: Record<'creator' | 'updater', string> = { creator: '', updater: '' };

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts' });
    await addField(f, 'posts', { name: 'Title', slug: 'title', type: 1 });
    for (const [who, flags] of [
      ['creator', { read: true, create: true }],
      ['updater', { read: true, update: true }],
    ] as const) {
      const { tokens } = await verifiedUser(t.app, who);
      member[who] = tokens.access_token;
      const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
      await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: flags });
    }
  });
  afterAll(() => t.close());

  const mint = (access: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(access), payload: { name: 'app', projectID: f.project, organizationID: f.org, ...body } });
  const deleteAsUser = (userAccess: string, item: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/public/collection/posts/items/${item}`, headers: { ...bearer(userAccess), 'accept-version': 'v1' } });
  const groupsInDb = async () => (await t.database.db.select({ name: userGroupsTable.name }).from(userGroupsTable).where(eq(userGroupsTable.projectId, f.project))).map((g) => g.name);

  it('the create-only member’s chain is refused at its first step: a group with delete (403, nothing stored)', async () => {
    const refused = expectProblem(
      await f.call('POST', 'userGroups', { name: 'Deleters', permissions: [{ collection: 'posts', create: true, read: true, delete: true }] }, { access: member.creator }),
      403,
      'group_exceeds_permissions',
    );
    expect(refused.detail).toContain('posts.delete');
    expect(await groupsInDb()).not.toContain('Deleters');
    // What the member may grant, they may: create and read.
    const allowed = await f.call('POST', 'userGroups', { name: 'Writers', permissions: [{ collection: 'posts', create: true, read: true }] }, { access: member.creator });
    expect(allowed.statusCode, allowed.body).toBe(201);
  });

  it('the same chain by an administrator works end to end: group, token, sign-up, delete as the app user', async () => {
    const group = json(await f.call('POST', 'userGroups', { name: 'Admin deleters', permissions: [{ collection: 'posts', read: true, delete: true }] }));
    const token = await mintToken(t, f, { userGroupID: group.groupID });
    const user = await signUpEndUser(t, token, newEmail('chain'));
    const item = await createItem(f, 'posts', { title: 'doomed' });
    const deleted = await deleteAsUser(user.access_token, item._id);
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it('a token that gives out a group carries that group’s rights: the create-only member cannot mint one for a delete group', async () => {
    const group = json(await f.call('POST', 'userGroups', { name: 'Made by admin', permissions: [{ collection: 'posts', read: true, delete: true }] }));
    const refused = expectProblem(await mint(member.creator, { userGroupID: group.groupID }), 403, 'token_exceeds_permissions');
    expect(refused.detail).toContain('userGroup.posts.delete');
    expect((await t.database.db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.userGroupId, group.groupID))).length).toBe(0);
    // A group within the member's rights is fine, and so is a User Admin token by an admin (it gives out no group).
    const writers = json(await f.call('POST', 'userGroups', { name: 'Creators only', permissions: [{ collection: 'posts', create: true }] }));
    expect((await mint(member.creator, { userGroupID: writers.groupID })).statusCode).toBe(201);
  });

  it('changing a token to give out a delete group needs delete', async () => {
    const group = json(await f.call('POST', 'userGroups', { name: 'Deleters 2', permissions: [{ collection: 'posts', delete: true }] }));
    const created = json(await mint(f.access, { name: 'plain' }));
    const changed = await t.app.inject({ method: 'PUT', url: `/api/apiTokens/${created.id}`, headers: bearer(member.updater), payload: { name: 'plain', userGroupID: group.groupID } });
    expectProblem(changed, 403, 'token_exceeds_permissions');
    const asAdmin = await t.app.inject({ method: 'PUT', url: `/api/apiTokens/${created.id}`, headers: bearer(f.access), payload: { name: 'plain', userGroupID: group.groupID } });
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
  });

  it('editing a group cannot add a right its editor lacks, nor widen one to all items; rights it already had may be sent back', async () => {
    const group = json(
      await f.call('POST', 'userGroups', { name: 'Mixed', permissions: [{ collection: 'posts', read: true, update: true, delete: true, associatedOnly: true }] }),
    );
    // Sent back as read (the console does this on rename): kept rights are not granted ones.
    const renamed = await f.call('PUT', `userGroups/${group.groupID}`, { ...group, name: 'Mixed 2' }, { access: member.updater });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const widened = await f.call(
      'PUT',
      `userGroups/${group.groupID}`,
      { permissions: [{ collection: 'posts', read: true, update: true, delete: true, associatedOnly: false }] },
      { access: member.updater },
    );
    expect(expectProblem(widened, 403, 'group_exceeds_permissions').detail).toContain('posts.delete');
    const added = await f.call('PUT', 'userGroups', { groupID: group.groupID, permissions: [{ collection: 'posts', create: true, delete: true, associatedOnly: true }] }, { access: member.updater });
    expect(expectProblem(added, 403, 'group_exceeds_permissions').detail).toContain('posts.create');
    expect(json(await f.call('GET', `userGroups/${group.groupID}`)).permissions).toEqual([{ collection: 'posts', ...rights({ read: true, update: true, delete: true, associatedOnly: true }) }]);
    // The updater may widen update (a right they hold) and drop delete.
    const own = await f.call('PUT', `userGroups/${group.groupID}`, { permissions: [{ collection: 'posts', read: true, update: true }] }, { access: member.updater });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('assigning a group to a user cannot hand out a right the assigner lacks; groups the user already has may stay', async () => {
    const deleters = json(await f.call('POST', 'userGroups', { name: 'Deleters 3', permissions: [{ collection: 'posts', delete: true }] }));
    const editors = json(await f.call('POST', 'userGroups', { name: 'Editors 3', permissions: [{ collection: 'posts', read: true, update: true }] }));
    const token = await mintToken(t, f, { userGroupID: deleters.groupID });
    const user = await signUpEndUser(t, token, newEmail('assign'));
    const plain = await signUpEndUser(t, await mintToken(t, f), newEmail('assign'));

    const refused = await f.call('PUT', `user/${plain.user_id}`, { userGroups: [deleters.groupID] }, { access: member.updater });
    expect(expectProblem(refused, 403, 'group_exceeds_permissions').detail).toContain('Deleters 3');
    expect(json(await f.call('GET', `user/${plain.user_id}`)).userGroups).toEqual([]);

    const kept = await f.call('PUT', `user/${user.user_id}`, { userGroups: [deleters.groupID, editors.groupID] }, { access: member.updater });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(json(kept).userGroups).toEqual([deleters.groupID, editors.groupID]);
    const byAdmin = await f.call('PUT', `user/${plain.user_id}`, { userGroups: [deleters.groupID] });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });
});
