/**
 * The public API knows its caller from per-process caches (server/public/principal-cache.ts),
 * yet a deleted token, a withdrawn right, a deleted group or project, changed user groups and a
 * deleted user are refused from the very next call — in this process and in another one on the
 * same database. A row load that raced an invalidation is never kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { openDatabase } from '../../server/db/index.ts';
import { CacheRegistry } from '../../server/lib/shared-cache.ts';
import { createAuthCaches, type CachedApiToken } from '../../server/public/principal-cache.ts';
import { createTestApp, databaseKinds, json, openTestDatabase, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { bearer } from './support/flows.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { jwtPayload, mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

const publicGet = (app: App, jwt: string, path: string) => app.inject({ method: 'GET', url: `/api/public/${path}`, headers: { authorization: `Bearer ${jwt}`, 'accept-version': 'v1' } });

/** Sets up a project with a `posts` collection holding one item. */
async function postsProject(t: TestApp): Promise<{ f: ContentFixture; item: string }> {
  const f = await contentFixture(t);
  await createCollection(f, { id: 'posts', name: 'Posts' });
  await addField(f, 'posts', { name: 'Title', slug: 'title', type: 1 });
  const item = (await createItem(f, 'posts', { title: 'Hello' }))._id as string;
  return { f, item };
}

describe.each(databaseKinds)('cached callers of the public API on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let item: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ f, item } = await postsProject(t));
  });
  afterAll(() => t?.close());

  const read = (jwt: string) => publicGet(t.app, jwt, `collection/posts/items/${item}`);

  it('repeated calls with a token read no token row; a deleted token is refused by the very next call', async () => {
    const token = await mintToken(t, f, { powerRead: true });
    const cache = t.app.ctx.authCaches.apiToken;
    expect((await read(token)).statusCode).toBe(200);
    const misses = cache.misses;
    const hits = cache.hits;
    for (let i = 0; i < 5; i += 1) expect((await read(token)).statusCode).toBe(200);
    expect(cache.misses).toBe(misses);
    expect(cache.hits - hits).toBeGreaterThanOrEqual(5);

    const id = jwtPayload(token).sub as string;
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/apiTokens/${id}`, headers: bearer(f.access) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectProblem(await read(token), 401, 'invalid_token');
    expectProblem(await read(token), 401, 'invalid_token');
  });

  it('rights taken off a token (revoked through the console API) hold from the very next call', async () => {
    const token = await mintToken(t, f, { powerRead: true });
    expect((await read(token)).statusCode).toBe(200);
    expect((await read(token)).statusCode).toBe(200);
    const id = jwtPayload(token).sub as string;
    const changed = await t.app.inject({ method: 'PUT', url: `/api/apiTokens/${id}`, headers: bearer(f.access), payload: { name: 'app', powerRead: false } });
    expect(changed.statusCode, changed.body).toBe(200);
    expectProblem(await read(token), 403, 'not_permitted');
    // And given back, at once too.
    const back = await t.app.inject({ method: 'PUT', url: `/api/apiTokens/${id}`, headers: bearer(f.access), payload: { name: 'app', roles: [{ collection: 'posts', read: true }] } });
    expect(back.statusCode, back.body).toBe(200);
    expect((await read(token)).statusCode).toBe(200);
  });

  it('a group that loses its read right, or is deleted, refuses its users’ next read; so do changed user groups', async () => {
    const group = json(await f.call('POST', 'userGroups', { name: 'Readers', permissions: [{ collection: 'posts', read: true }] })).groupID as string;
    const token = await mintToken(t, f, { userGroupID: group });
    const user = await signUpEndUser(t, token, newEmail('reader'));
    expect((await read(user.access_token)).statusCode).toBe(200);
    expect((await read(user.access_token)).statusCode).toBe(200);

    const withdrawn = await f.call('PUT', `userGroups/${group}`, { permissions: [{ collection: 'posts', create: true }] });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expectProblem(await read(user.access_token), 403, 'not_permitted');

    expect((await f.call('PUT', `userGroups/${group}`, { permissions: [{ collection: 'posts', read: true }] })).statusCode).toBe(200);
    expect((await read(user.access_token)).statusCode).toBe(200);

    // The user taken out of the group, and put back.
    expect((await f.call('PUT', `user/${user.user_id}`, { userGroups: [] })).statusCode).toBe(200);
    expectProblem(await read(user.access_token), 403, 'not_permitted');
    expect((await f.call('PUT', `user/${user.user_id}`, { userGroups: [group] })).statusCode).toBe(200);
    expect((await read(user.access_token)).statusCode).toBe(200);

    expect((await f.call('DELETE', `userGroups/${group}`)).statusCode).toBe(204);
    expectProblem(await read(user.access_token), 403, 'not_permitted');
  });

  it('a deleted user’s token is refused by the next call', async () => {
    const group = json(await f.call('POST', 'userGroups', { name: 'Members', permissions: [{ collection: 'posts', read: true }] })).groupID as string;
    const token = await mintToken(t, f, { userGroupID: group });
    const user = await signUpEndUser(t, token, newEmail('leaver'));
    expect((await read(user.access_token)).statusCode).toBe(200);
    expect((await read(user.access_token)).statusCode).toBe(200);
    expect((await f.call('DELETE', `user/${user.user_id}`)).statusCode).toBe(204);
    expectProblem(await read(user.access_token), 401);
  });

  it('a deleted project takes its tokens and its users’ tokens with it at once', async () => {
    const other = await postsProject(t);
    const group = json(await other.f.call('POST', 'userGroups', { name: 'All', permissions: [{ collection: 'posts', read: true }] })).groupID as string;
    const token = await mintToken(t, other.f, { powerRead: true, userGroupID: group });
    const user = await signUpEndUser(t, token, newEmail('orphan'));
    const get = (jwt: string) => publicGet(t.app, jwt, `collection/posts/items/${other.item}`);
    expect((await get(token)).statusCode).toBe(200);
    expect((await get(user.access_token)).statusCode).toBe(200);
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/organization/${other.f.org}/project/${other.f.project}`, headers: bearer(other.f.access) });
    expect(gone.statusCode, gone.body).toBe(204);
    expectProblem(await get(token), 401);
    expectProblem(await get(user.access_token), 401);
  });
});

describe.each(databaseKinds)('the token cache against a racing change on %s', (kind) => {
  it('a row read before a change committed is not kept after the change is heard', async () => {
    const database = await openTestDatabase(kind);
    const registry = new CacheRegistry(database);
    const caches = createAuthCaches(registry);
    await registry.start();
    try {
      const stale: CachedApiToken = {
        id: 'a'.repeat(24),
        projectId: 'p',
        organizationId: 'o',
        tokenHash: 'old',
        userAdmin: false,
        userGroupId: null,
        powerCreate: false,
        powerRead: true,
        powerUpdate: false,
        powerDelete: false,
        powerWrite: false,
        roles: [],
      };
      let release!: () => void;
      // A request read the row as it was before the change and is slow to store it...
      const racing = caches.apiToken.get(stale.id, () => new Promise((resolve) => (release = () => resolve(stale))));
      // ...meanwhile the row changes: migration 0018's trigger function notifies in the writing transaction,
      // and this process drops the entry when it hears that (settle: once it has).
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select larder_invalidate('apiToken', ${stale.id})`);
      });
      await registry.settle();
      release();
      expect(await racing).toBe(stale);
      // What it read is not kept: the next call reads the row again.
      let loads = 0;
      const fresh = await caches.apiToken.get(stale.id, async () => (++loads, null));
      expect(fresh).toBeNull();
      expect(loads).toBe(1);
      // And a load that did not race is kept.
      expect(await caches.apiToken.get(stale.id, async () => (++loads, stale))).toBeNull();
      expect(loads).toBe(1);
    } finally {
      await registry.close();
      await database.close();
    }
  });

  it('the triggers name the entries the caches hold', async () => {
    const t = await createTestApp(kind);
    try {
      const { f, item } = await postsProject(t);
      const token = await mintToken(t, f, { powerRead: true });
      const id = jwtPayload(token).sub as string;
      expect((await publicGet(t.app, token, `collection/posts/items/${item}`)).statusCode).toBe(200);
      const cache = t.app.ctx.authCaches.apiToken;
      const misses = cache.misses;
      // A change straight in the database (no service method involved) still drops the entry.
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`update api_tokens set power_read = false where id = ${id}`);
      });
      await t.app.ctx.caches.settle();
      expectProblem(await publicGet(t.app, token, `collection/posts/items/${item}`), 403, 'not_permitted');
      expect(cache.misses).toBe(misses + 1);
    } finally {
      await t.close();
    }
  });
});

describe.runIf(databaseKinds.includes('postgres'))('cached callers across two server processes', () => {
  let a: TestApp;
  let b: App;
  let f: ContentFixture;
  let item: string;

  beforeAll(async () => {
    a = await createTestApp('postgres');
    b = await buildApp({ config: a.config, database: await openDatabase({ databaseUrl: a.database.url!, skipMigrations: true, poolSize: 2 }), logger: false });
    await b.ready();
    ({ f, item } = await postsProject(a));
  });

  afterAll(async () => {
    const database = b?.ctx.database;
    await b?.close();
    await database?.close();
    await a?.close();
  });

  it('a token deleted through process A is refused by process B at once', async () => {
    const token = await mintToken(a, f, { powerRead: true });
    const onB = () => publicGet(b, token, `collection/posts/items/${item}`);
    expect((await onB()).statusCode).toBe(200);
    expect((await onB()).statusCode).toBe(200);
    const deleted = await a.app.inject({ method: 'DELETE', url: `/api/apiTokens/${jwtPayload(token).sub as string}`, headers: bearer(f.access) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectProblem(await onB(), 401, 'invalid_token');
  });

  it('a read right withdrawn from a group through process A is refused by process B at once', async () => {
    const group = json(await f.call('POST', 'userGroups', { name: 'Two processes', permissions: [{ collection: 'posts', read: true }] })).groupID as string;
    const token = await mintToken(a, f, { userGroupID: group });
    const user = await signUpEndUser(a, token, newEmail('twoproc'));
    const onB = () => publicGet(b, user.access_token, `collection/posts/items/${item}`);
    expect((await onB()).statusCode).toBe(200);
    expect((await onB()).statusCode).toBe(200);
    expect((await f.call('PUT', `userGroups/${group}`, { permissions: [] })).statusCode).toBe(200);
    expectProblem(await onB(), 403, 'not_permitted');
  });
});
