/**
 * Live streams end when the caller's access ends (docs/live.md "Access withdrawn"): a console
 * stream after sign-out, a removed membership or a restricted view that hides the collection; a
 * public stream after its API token is deleted or loses the read right, and an app user's stream
 * after the user's sessions end, the user is deleted or their groups change. Each ends with
 * `stop` within a second of the change's answer, and the client's resume is refused. On
 * PostgreSQL the change is made through another server process than the one holding the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, testEnv, type TestApp } from './support/test-app.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { authCall, newEmail, signUpEndUser } from './support/end-users.ts';
import { Sse } from './support/sse.ts';

/** How soon after the change's answer the stream must have said stop. */
const withinMs = 1000;

describe.each(databaseKinds)('live streams end when access is withdrawn, on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let base: string;
  const streams: Sse[] = [];

  const consoleUrl = (access: string, query: Record<string, string> = {}) =>
    `${base}/api/organization/${f.org}/project/${f.project}/collection/posts/live?${new URLSearchParams({ authorization: access, ...query })}`;
  const publicUrl = (token: string, query: Record<string, string> = {}) => `${base}/api/public/collection/posts/live?${new URLSearchParams({ authorization: token, ...query })}`;
  const open = async (url: string) => {
    const sse = await Sse.open(url);
    streams.push(sse);
    expect(sse.status, sse.body).toBe(200);
    return sse;
  };
  /** A member of the organization with these flags, signed in. */
  const member = async (prefix: string, flags: Record<string, boolean> = { read: true }) => {
    const { account, tokens } = await verifiedUser(t.app, prefix);
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: flags });
    return { email: account.email as string, access: tokens.access_token };
  };
  const mint = async (rights: Record<string, unknown>) => {
    const minted = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'app', projectID: f.project, organizationID: f.org, ...rights } });
    expect(minted.statusCode, minted.body).toBe(201);
    return { id: json(minted).id as string, jwt: json(minted).jwtToken as string };
  };
  /**
   * Makes the change and expects the stream to end with stop (its request id) within a second of
   * the answer, after the events written before; a stream that keeps its access goes on.
   */
  const expectStopped = async (sse: Sse, change: () => Promise<{ statusCode: number; body: string }>, kept: Sse[] = []) => {
    const requestID = await sse.started();
    const response = await change();
    expect(response.statusCode, response.body).toBeLessThan(300);
    const answered = Date.now();
    await sse.until(() => sse.stop() !== undefined && sse.closed, 5000);
    const stop = sse.stop();
    expect(stop?.data).toBe(requestID);
    expect(stop!.at - answered).toBeLessThan(withinMs);
    expect(sse.closed).toBe(true);
    for (const other of kept) expect(other.stop()).toBeUndefined();
    return requestID;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts' });
    await addField(f, 'posts', { name: 'Title', slug: 'title', type: 1 });
    await createCollection(f, { id: 'notes', name: 'Notes' });
  });

  afterAll(async () => {
    for (const sse of streams) sse.close();
    await t?.close();
  });

  it('console: sign-out ends the stream with stop; its resume is refused', async () => {
    const person = await member('signout');
    const other = await member('stays');
    const sse = await open(consoleUrl(person.access));
    const kept = await open(consoleUrl(other.access));
    await kept.started();
    const requestID = await expectStopped(sse, () => t.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(person.access), payload: {} }), [kept]);
    const resumed = await Sse.open(consoleUrl(person.access, { requestID }));
    expect(resumed.status).toBe(401);
    // The other member's stream still delivers.
    const item = await createItem(f, 'posts', { title: 'Still live' });
    expect(await kept.until(() => kept.messages().some((m) => m.itemID === item._id))).toBe(true);
  });

  it('console: a removed membership ends the stream', async () => {
    const person = await member('removed');
    const sse = await open(consoleUrl(person.access));
    const owner = await open(consoleUrl(f.access));
    await owner.started();
    const requestID = await expectStopped(
      sse,
      () => t.app.inject({ method: 'DELETE', url: `/api/organization/${f.org}/users/${encodeURIComponent(person.email)}`, headers: bearer(f.access) }),
      [owner],
    );
    expect((await Sse.open(consoleUrl(person.access, { requestID }))).status).toBe(403);
  });

  it('console: a restricted view that hides the collection ends the stream', async () => {
    const person = await member('narrowed', { read: true, write: true });
    const sse = await open(consoleUrl(person.access));
    const requestID = await expectStopped(sse, () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/organization/${f.org}/project/${f.project}`,
        headers: bearer(f.access),
        payload: { settings: { restrictedView: { members: [person.email], collections: ['notes'] } } },
      }),
    );
    expect((await Sse.open(consoleUrl(person.access, { requestID }))).status).toBe(404);
    const lifted = await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}`, headers: bearer(f.access), payload: { settings: { restrictedView: null } } });
    expect(lifted.statusCode, lifted.body).toBe(200);
  });

  it('public: a deleted API token ends the stream; another token’s stream goes on', async () => {
    const token = await mint({ powerRead: true });
    const other = await mint({ powerRead: true });
    const sse = await open(publicUrl(token.jwt, { itemID: 'undefined', nestedID: '' }));
    const kept = await open(publicUrl(other.jwt));
    await kept.started();
    const requestID = await expectStopped(sse, () => t.app.inject({ method: 'DELETE', url: `/api/apiTokens/${token.id}`, headers: bearer(f.access) }), [kept]);
    expect((await Sse.open(publicUrl(token.jwt, { requestID }))).status).toBe(401);
  });

  it('public: a token whose read right is withdrawn is stopped; a change that keeps it is not', async () => {
    const token = await mint({ roles: [{ collection: 'posts', read: true }] });
    const sse = await open(publicUrl(token.jwt));
    await sse.started();
    // Renamed and given another collection: still reads posts, the stream goes on.
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/apiTokens/${token.id}`,
      headers: bearer(f.access),
      payload: { name: 'renamed', roles: [{ collection: 'posts', read: true }, { collection: 'notes', read: true }] },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const item = await createItem(f, 'posts', { title: 'After rename' });
    expect(await sse.until(() => sse.messages().some((m) => m.itemID === item._id))).toBe(true);
    expect(sse.stop()).toBeUndefined();
    const requestID = await expectStopped(sse, () =>
      t.app.inject({ method: 'PUT', url: `/api/apiTokens/${token.id}`, headers: bearer(f.access), payload: { name: 'renamed', roles: [{ collection: 'notes', read: true }] } }),
    );
    expect((await Sse.open(publicUrl(token.jwt, { requestID }))).status).toBe(403);
  });

  it('when changes may have been missed (a lost connection clears every cache), every stream is checked again', async () => {
    const token = await mint({ powerRead: true });
    const sse = await open(publicUrl(token.jwt));
    await sse.started();
    // A deletion no process hears of (its trigger off for this transaction), as while a LISTEN connection is down.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`delete from api_tokens where id = ${token.id}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sse.stop()).toBeUndefined();
    t.app.ctx.caches.clearAll();
    // Such checks are spread over a second.
    await sse.until(() => sse.stop() !== undefined, 3000);
    expect(sse.stop()).toBeDefined();
  });

  describe('app users', () => {
    let groupID: string;
    let signUpToken: string;
    let admin: string;

    beforeAll(async () => {
      const group = await f.call('POST', 'userGroups', { name: 'Readers', permissions: [{ collection: 'posts', read: true }] });
      expect(group.statusCode, group.body).toBe(201);
      groupID = json(group).groupID;
      signUpToken = (await mint({ userGroupID: groupID })).jwt;
      admin = (await mint({ userAdmin: true })).jwt;
    });

    it('their sessions ending (a new password) stops their stream', async () => {
      const email = newEmail('signedout');
      const user = await signUpEndUser(t, signUpToken, email);
      const sse = await open(publicUrl(user.access_token));
      const requestID = await expectStopped(sse, () => authCall(t, 'POST', '/user/updatePassword', admin, { email, password: 'another long password' }));
      expect((await Sse.open(publicUrl(user.access_token, { requestID }))).status).toBe(401);
    });

    it('the user deleted stops their stream', async () => {
      const user = await signUpEndUser(t, signUpToken, newEmail('deleted'));
      const sse = await open(publicUrl(user.access_token));
      const requestID = await expectStopped(sse, () => f.call('DELETE', `user/${user.user_id}`));
      expect((await Sse.open(publicUrl(user.access_token, { requestID }))).status).toBe(401);
    });

    it('their groups changed stops their stream; their group losing the right stops the others', async () => {
      const moved = await signUpEndUser(t, signUpToken, newEmail('moved'));
      const stays = await signUpEndUser(t, signUpToken, newEmail('stays'));
      const sse = await open(publicUrl(moved.access_token));
      const kept = await open(publicUrl(stays.access_token));
      await kept.started();
      const requestID = await expectStopped(sse, () => f.call('PUT', `user/${moved.user_id}`, { userGroups: [] }), [kept]);
      expect((await Sse.open(publicUrl(moved.access_token, { requestID }))).status).toBe(403);
      await expectStopped(kept, () => f.call('PUT', `userGroups/${groupID}`, { name: 'Readers', permissions: [{ collection: 'notes', read: true }] }));
    });
  });
});

describe.runIf(databaseKinds.includes('postgres'))('live streams end when access is withdrawn through another process (PostgreSQL)', () => {
  let t: TestApp;
  let other: App;
  let f: ContentFixture;
  let base: string;
  const streams: Sse[] = [];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts' });
    // Another server process: its own pool, caches and LISTEN connection on the same database.
    const { openDatabase } = await import('../../server/db/index.ts');
    other = await buildApp({ config: loadConfig({ ...testEnv }), database: await openDatabase({ databaseUrl: t.database.url!, skipMigrations: true, poolSize: 2 }), logger: false });
    await other.ready();
  });

  afterAll(async () => {
    for (const sse of streams) sse.close();
    await other?.close();
    await other?.ctx.database.close();
    await t?.close();
  });

  const expectStoppedBy = async (url: string, change: () => Promise<{ statusCode: number; body: string }>) => {
    const sse = await Sse.open(url);
    streams.push(sse);
    expect(sse.status, sse.body).toBe(200);
    const requestID = await sse.started();
    const response = await change();
    expect(response.statusCode, response.body).toBeLessThan(300);
    const answered = Date.now();
    await sse.until(() => sse.stop() !== undefined && sse.closed, 5000);
    expect(sse.stop()?.data).toBe(requestID);
    expect(sse.stop()!.at - answered).toBeLessThan(withinMs);
  };

  it('an API token deleted on one process stops its stream on the other within a second', async () => {
    const minted = await other.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'app', projectID: f.project, organizationID: f.org, powerRead: true } });
    expect(minted.statusCode, minted.body).toBe(201);
    const { id, jwtToken } = json(minted);
    await expectStoppedBy(`${base}/api/public/collection/posts/live?authorization=${jwtToken}`, () =>
      other.inject({ method: 'DELETE', url: `/api/apiTokens/${id}`, headers: bearer(f.access) }),
    );
  });

  it('a sign-out on one process stops the console stream on the other within a second', async () => {
    const { tokens } = await verifiedUser(t.app, 'elsewhere');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    await expectStoppedBy(`${base}/api/organization/${f.org}/project/${f.project}/collection/posts/live?authorization=${tokens.access_token}`, () =>
      other.inject({ method: 'POST', url: '/auth/logout', headers: bearer(tokens.access_token), payload: {} }),
    );
  });
});
