/**
 * A project's restricted view (the hidden-collections rule as data,
 * definitions/restricted-view.ts): administrators name members who see only some collections;
 * the server filters the project and the collection list for them and answers 404 for the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { contentCollections, invites, memberships, projects } from '../../server/db/schema.ts';
import { newId } from '../../server/lib/ids.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

interface Person {
  id: string;
  email: string;
  access: string;
}

describe.each(databaseKinds)('restricted view on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let restricted: Person;
  let free: Person;
  let writer: Person;
  let adminEmail: string;
  const invitedEmail = `invited-${newId()}@example.com`;
  let secretItem: string;

  const projectUrl = () => `/api/organization/${f.org}/project/${f.project}`;
  const getProject = async (who: string) => {
    const response = await t.app.inject({ method: 'GET', url: projectUrl(), headers: bearer(who) });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ collections: { id: string }[]; settings: Record<string, unknown> }>(response);
  };
  const putProject = (who: string, payload: unknown) => t.app.inject({ method: 'PUT', url: projectUrl(), headers: bearer(who), payload: payload as object });
  const ids = (list: { id: string }[]) => list.map((c) => c.id);
  const projectRow = async () => (await t.database.db.select().from(projects).where(eq(projects.id, f.project)))[0]!;

  async function person(flags: Record<string, boolean>, prefix: string): Promise<Person> {
    const { account, tokens } = await verifiedUser(t.app, prefix);
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: flags });
    return { id: me._id, email: account.email, access: tokens.access_token };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    adminEmail = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(f.access) })).email;
    restricted = await person({ read: true, write: true }, 'narrow');
    free = await person({ read: true }, 'wide');
    writer = await person({ read: true, write: true }, 'writer');
    await t.database.db.insert(invites).values({ id: newId(), organizationId: f.org, email: invitedEmail, permissions: { read: true }, expiresAt: new Date(Date.now() + 86_400_000) });
    await createCollection(f, { id: 'posts', name: 'Posts' });
    await createCollection(f, { id: 'authors', name: 'Authors' });
    await createCollection(f, { id: 'secrets', name: 'Secrets' });
    await createItem(f, 'posts', {});
    secretItem = (await createItem(f, 'secrets', {}))._id;
  });
  afterAll(() => t.close());

  it('is off at first: everyone sees every collection', async () => {
    expect(ids((await getProject(restricted.access)).collections)).toEqual(['posts', 'authors', 'secrets']);
  });

  it('an admin sets it: listed members (any case, invitations too) and collections, kept normalised', async () => {
    const response = await putProject(f.access, {
      settings: { restrictedView: { members: [restricted.email.toUpperCase(), invitedEmail, restricted.email], collections: ['posts', 'authors'] } },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response).settings.restrictedView).toEqual({ members: [restricted.email.toLowerCase(), invitedEmail], collections: ['posts', 'authors'] });
    const row = await projectRow();
    expect((row.settings as Record<string, unknown>).restrictedView).toEqual({ members: [restricted.email.toLowerCase(), invitedEmail], collections: ['posts', 'authors'] });
    // The admin is not listed: still every collection.
    expect(ids(json(response).collections)).toEqual(['posts', 'authors', 'secrets']);
  });

  it('a restricted member gets only the listed collections in the project and the collection list, and not the setting', async () => {
    const view = await getProject(restricted.access);
    expect(ids(view.collections)).toEqual(['posts', 'authors']);
    expect(view.settings).not.toHaveProperty('restrictedView');
    const list = await f.call('GET', 'collection', undefined, { access: restricted.access });
    expect(list.statusCode).toBe(200);
    expect(ids(json(list))).toEqual(['posts', 'authors']);
    // A visible collection works as before.
    const items = await f.call('GET', 'collection/posts/item', undefined, { access: restricted.access });
    expect(items.statusCode, items.body).toBe(200);
    expect(json(items)).toHaveLength(1);
  });

  it('a hidden collection answers 404 exactly as one that does not exist, for every call under it', async () => {
    const missing = await f.call('GET', 'collection/nothere/schema', undefined, { access: restricted.access });
    const missingBody = expectProblem(missing, 404, 'collection_not_found');
    const calls: [Parameters<ContentFixture['call']>[0], string, unknown?][] = [
      ['GET', 'collection/secrets'],
      ['GET', 'collection/secrets/schema'],
      ['GET', 'collection/secrets/item'],
      ['GET', `collection/secrets/item/${secretItem}`],
      ['POST', 'collection/secrets/item', {}],
      ['PUT', `collection/secrets/item/${secretItem}`, {}],
      ['DELETE', `collection/secrets/item/${secretItem}`],
      ['PUT', 'collection/secrets', { name: 'Renamed' }],
      ['POST', 'collection/secrets/field', { name: 'Title', type: 1 }],
      ['DELETE', 'collection/secrets'],
    ];
    const before = await t.database.db.select().from(contentCollections).orderBy(asc(contentCollections.slug));
    for (const [method, path, payload] of calls) {
      const response = await f.call(method, path, payload, { access: restricted.access });
      const body = expectProblem(response, 404, 'collection_not_found');
      expect(body.detail, `${method} ${path}`).toBe(missingBody.detail.replace('nothere', 'secrets'));
    }
    expect(await t.database.db.select().from(contentCollections).orderBy(asc(contentCollections.slug))).toEqual(before);
    // The secret item is still there for everyone else.
    const item = await f.call('GET', `collection/secrets/item/${secretItem}`, undefined, { access: free.access });
    expect(item.statusCode, item.body).toBe(200);
  });

  it('a restricted member cannot add a collection (it would be hidden from them), nothing is made', async () => {
    const response = await f.call('POST', 'collection', { id: 'mine', name: 'Mine' }, { access: restricted.access });
    expectProblem(response, 403, 'restricted_view');
    const taken = await f.call('POST', 'collection', { id: 'secrets', name: 'Secrets' }, { access: restricted.access });
    expectProblem(taken, 403, 'restricted_view');
    expect(ids(json(await f.call('GET', 'collection')))).toEqual(['posts', 'authors', 'secrets']);
  });

  it('an unrestricted member sees every collection and no setting', async () => {
    const view = await getProject(free.access);
    expect(ids(view.collections)).toEqual(['posts', 'authors', 'secrets']);
    expect(view.settings).not.toHaveProperty('restrictedView');
    expect(ids(json(await f.call('GET', 'collection', undefined, { access: free.access })))).toEqual(['posts', 'authors', 'secrets']);
    expect((await f.call('GET', 'collection/secrets/schema', undefined, { access: free.access })).statusCode).toBe(200);
  });

  it('API tokens are not affected: a token with read power lists every collection', async () => {
    const minted = await t.app.inject({
      method: 'POST',
      url: '/api/apiTokens',
      headers: bearer(f.access),
      payload: { name: 'site', projectID: f.project, organizationID: f.org, powerRead: true },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    const publicView = await t.app.inject({ method: 'GET', url: '/api/public/project', headers: bearer(json(minted).jwtToken) });
    expect(publicView.statusCode, publicView.body).toBe(200);
    expect(ids(json(publicView).collections)).toEqual(['posts', 'authors', 'secrets']);
  });

  it('a member who is not an admin can neither set nor read it (403, nothing changed); their rename still works', async () => {
    const before = await projectRow();
    for (const payload of [
      { settings: { restrictedView: null } },
      { settings: { restrictedView: { members: [writer.email], collections: ['posts'] } } },
      { name: 'Sneaky', settings: { restrictedView: null } },
    ]) {
      const response = await putProject(writer.access, payload);
      expectProblem(response, 403, 'insufficient_permissions');
    }
    // A restricted member with write is no admin either.
    expectProblem(await putProject(restricted.access, { settings: { restrictedView: null } }), 403, 'insufficient_permissions');
    expect(await projectRow()).toEqual(before);
    expectProblem(await t.app.inject({ method: 'GET', url: `${projectUrl()}/restricted-view`, headers: bearer(writer.access) }), 403, 'insufficient_permissions');
    const renamed = await putProject(writer.access, { description: 'changed by a writer' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await projectRow()).settings).toEqual(before.settings);
  });

  it('refuses bad input with 400 naming the bad part, and changes nothing', async () => {
    const before = await projectRow();
    const cases: { payload: unknown; paths: RegExp[] }[] = [
      {
        payload: { name: 'Renamed', settings: { restrictedView: { members: [restricted.email, 'stranger@example.com'], collections: ['posts'] } } },
        paths: [/members\/1$/],
      },
      { payload: { settings: { restrictedView: { members: [restricted.email], collections: ['posts', 'nothere'] } } }, paths: [/collections\/1$/] },
      {
        payload: { settings: { restrictedView: { members: ['nobody@example.com'], collections: ['ghost'] } } },
        paths: [/members\/0$/, /collections\/0$/],
      },
      { payload: { settings: { restrictedView: { members: restricted.email, collections: ['posts'] } } }, paths: [/members/] },
      { payload: { settings: { restrictedView: { members: [restricted.email], collections: [1] } } }, paths: [/collections\/0/] },
      { payload: { settings: { restrictedView: { members: ['not-an-email'], collections: [] } } }, paths: [/members\/0/] },
      { payload: { settings: { restrictedView: { members: [], collections: ['posts'] } } }, paths: [/members/] },
      { payload: { settings: { restrictedView: { members: [restricted.email] } } }, paths: [/restrictedView/] },
      { payload: { settings: { restrictedView: { members: [restricted.email], collections: ['posts'], extra: true } } }, paths: [/restrictedView/] },
      { payload: { settings: { restrictedView: { members: [restricted.email], collections: ['../x'] } } }, paths: [/collections\/0/] },
      { payload: { settings: { other: 1 } }, paths: [/settings/] },
      { payload: { settings: 'off' }, paths: [/settings/] },
      { payload: { settings: { restrictedView: { members: Array.from({ length: 501 }, (_, i) => `m${i}@example.com`), collections: [] } } }, paths: [/members/] },
    ];
    for (const { payload, paths } of cases) {
      const response = await putProject(f.access, payload);
      const body = expectProblem(response, 400) as unknown as { errors?: { path: string }[] };
      expect(body.errors, response.body).toBeDefined();
      for (const path of paths) expect(body.errors!.map((e) => e.path).some((p) => path.test(p)), `${JSON.stringify(payload)} → ${response.body}`).toBe(true);
    }
    expect(await projectRow()).toEqual(before);
  });

  it('an admin may be listed too: they see the restricted view but can still read every collection choice and turn it off', async () => {
    const set = await putProject(f.access, { settings: { restrictedView: { members: [adminEmail], collections: ['authors'] } } });
    expect(set.statusCode, set.body).toBe(200);
    expect(ids(json(set).collections)).toEqual(['authors']);
    // The admin still sees the setting (it is theirs to change).
    expect((await getProject(f.access)).settings.restrictedView).toEqual({ members: [adminEmail.toLowerCase()], collections: ['authors'] });
    expect((await f.call('GET', 'collection/posts/schema')).statusCode).toBe(404);
    const choices = await t.app.inject({ method: 'GET', url: `${projectUrl()}/restricted-view`, headers: bearer(f.access) });
    expect(choices.statusCode, choices.body).toBe(200);
    expect(json(choices)).toEqual({
      restrictedView: { members: [adminEmail.toLowerCase()], collections: ['authors'] },
      collections: [
        { id: 'posts', name: 'Posts' },
        { id: 'authors', name: 'Authors' },
        { id: 'secrets', name: 'Secrets' },
      ],
    });
    // The member from before is no longer listed.
    expect(ids((await getProject(restricted.access)).collections)).toEqual(['posts', 'authors', 'secrets']);

    const off = await putProject(f.access, { settings: { restrictedView: null } });
    expect(off.statusCode, off.body).toBe(200);
    expect(json(off).settings).not.toHaveProperty('restrictedView');
    expect(ids(json(off).collections)).toEqual(['posts', 'authors', 'secrets']);
    expect((await projectRow()).settings).toEqual({});
    expect(json(await t.app.inject({ method: 'GET', url: `${projectUrl()}/restricted-view`, headers: bearer(f.access) })).restrictedView).toBeNull();
  });

  it('a deleted collection simply drops out of what the group sees', async () => {
    await createCollection(f, { id: 'drafts', name: 'Drafts' });
    expect((await putProject(f.access, { settings: { restrictedView: { members: [restricted.email], collections: ['drafts', 'posts'] } } })).statusCode).toBe(200);
    expect((await f.call('DELETE', 'collection/drafts')).statusCode).toBe(204);
    expect(ids((await getProject(restricted.access)).collections)).toEqual(['posts']);
    expect((await f.call('GET', 'collection/drafts', undefined, { access: restricted.access })).statusCode).toBe(404);
    expect((await putProject(f.access, { settings: { restrictedView: null } })).statusCode).toBe(200);
  });
});
