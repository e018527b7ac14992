/**
 * Per-process caches kept right across processes: an invalidation sent inside a transaction
 * drops the entry everywhere at commit (and never before a rollback elsewhere), a load that raced
 * an invalidation is not stored, entries expire, and a lost LISTEN connection clears them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheRegistry, SharedCache } from '../../server/lib/shared-cache.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { buildApp, type App } from '../../server/app.ts';
import { createTestApp, databaseKinds, json, openTestDatabase, type TestApp } from './support/test-app.ts';
import { bearer, lastMailTo, verifiedUser } from './support/flows.ts';

const until = async (check: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return check();
};

describe('SharedCache', () => {
  it('loads once, then serves from memory until dropped', async () => {
    const cache = new SharedCache<number>('c', 60_000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    cache.drop('k');
    expect(await cache.get('k', load)).toBe(2);
    expect([cache.hits, cache.misses]).toEqual([1, 2]);
  });

  it('does not keep a value whose load raced an invalidation', async () => {
    const cache = new SharedCache<string>('c', 60_000);
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('old'))));
    cache.drop('k');
    release();
    expect(await slow).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('callers missing one key at once share a load; one that comes after an invalidation loads again', async () => {
    const cache = new SharedCache<number>('c', 60_000);
    let loads = 0;
    const releases: (() => void)[] = [];
    const load = () => new Promise<number>((resolve) => releases.push(() => resolve(++loads)));
    const first = cache.get('k', load);
    const second = cache.get('k', load);
    await Promise.resolve();
    expect(releases).toHaveLength(1);
    cache.drop('k');
    const third = cache.get('k', load);
    await Promise.resolve();
    expect(releases).toHaveLength(2);
    for (const release of releases) release();
    expect(await Promise.all([first, second, third])).toEqual([1, 1, 2]);
  });

  it('does not keep a value whose load raced a clear', async () => {
    const cache = new SharedCache<string>('c', 60_000);
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('old'))));
    cache.clear();
    release();
    await slow;
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('expires entries', async () => {
    const cache = new SharedCache<number>('c', 20);
    let loads = 0;
    await cache.get('k', async () => ++loads);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.get('k', async () => ++loads)).toBe(2);
  });

  it('peek serves a held, fresh entry and nothing else, without loading', async () => {
    const cache = new SharedCache<number>('c', 20);
    expect(cache.peek('k')).toBeUndefined();
    await cache.get('k', async () => 7);
    expect(cache.peek('k')).toBe(7);
    cache.drop('k');
    expect(cache.peek('k')).toBeUndefined();
    await cache.get('k', async () => 8);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.peek('k')).toBeUndefined();
  });

  it('stays within its size', async () => {
    const cache = new SharedCache<number>('c', 60_000, 3);
    for (let i = 0; i < 10; i += 1) await cache.get(`k${i}`, async () => i);
    let loads = 0;
    await cache.get('k0', async () => ++loads);
    expect(loads).toBe(1);
  });
});

describe.each(databaseKinds)('CacheRegistry on %s', (kind) => {
  let database: Database & { url?: string };
  let registry: CacheRegistry;
  let cache: SharedCache<string>;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    registry = new CacheRegistry(database);
    cache = registry.create<string>('rows', 60_000);
    await registry.start();
  });

  afterAll(async () => {
    await registry?.close();
    await database?.close();
  });

  it('an invalidation committed in a transaction drops the entry', async () => {
    await cache.get('a', async () => 'v1');
    await database.db.transaction(async (tx) => {
      await registry.invalidate(tx, cache, 'a');
    });
    expect(await cache.get('a', async () => 'v2')).toBe('v2');
  });

  it.runIf(kind === 'postgres')('reaches another process at commit, not at a rollback', async () => {
    const other = await openDatabase({ databaseUrl: database.url!, skipMigrations: true, poolSize: 2 });
    const otherRegistry = new CacheRegistry(other);
    const otherCache = otherRegistry.create<string>('rows', 60_000);
    await otherRegistry.start();
    try {
      await otherCache.get('b', async () => 'v1');
      // Rolled back: the other process keeps its entry.
      await database.db
        .transaction(async (tx) => {
          await registry.invalidate(tx, cache, 'b');
          throw new Error('rollback');
        })
        .catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await otherCache.get('b', async () => 'v2')).toBe('v1');
      // Committed: dropped there too.
      await database.db.transaction(async (tx) => {
        await registry.invalidate(tx, cache, 'b');
      });
      let value = '';
      await until(() => {
        void otherCache.get('b', async () => 'v2').then((v) => (value = v));
        return value === 'v2';
      });
      expect(value).toBe('v2');
    } finally {
      await otherRegistry.close();
      await other.close();
    }
  });
});

describe.runIf(databaseKinds.includes('postgres'))('cached sessions and memberships across two server processes', () => {
  let a: TestApp;
  let b: App;

  beforeAll(async () => {
    a = await createTestApp('postgres');
    b = await buildApp({ config: a.config, database: await openDatabase({ databaseUrl: a.database.url!, skipMigrations: true, poolSize: 2 }), logger: false });
    await b.ready();
  });

  afterAll(async () => {
    const database = b?.ctx.database;
    await b?.close();
    await database?.close();
    await a?.close();
  });

  /** Polls `call` on process A until it answers `status` (the NOTIFY needs a moment to arrive). */
  const eventually = async (call: () => Promise<{ statusCode: number }>, status: number) => {
    let last = 0;
    for (let i = 0; i < 100; i += 1) {
      last = (await call()).statusCode;
      if (last === status) return last;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return last;
  };

  it('a sign-out through process B ends the session on process A at once', async () => {
    const { tokens } = await verifiedUser(a.app, 'twoproc');
    const organizations = () => a.app.inject({ method: 'GET', url: '/api/organizations', headers: bearer(tokens.access_token) });
    expect((await organizations()).statusCode).toBe(200);
    expect((await organizations()).statusCode).toBe(200);
    const out = await b.inject({ method: 'POST', url: '/auth/logout', headers: bearer(tokens.access_token) });
    expect(out.statusCode).toBe(204);
    expect(await eventually(organizations, 401)).toBe(401);
  });

  it('a member removed through process B is refused on process A', async () => {
    const admin = await verifiedUser(a.app, 'owner2p');
    const member = await verifiedUser(a.app, 'member2p');
    const org = json(await a.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(admin.tokens.access_token), payload: { name: 'Two processes' } })).id as string;
    const invited = await a.app.inject({
      method: 'PUT',
      url: `/api/organization/${org}/users`,
      headers: bearer(admin.tokens.access_token),
      payload: [{ email: member.account.email, permissions: { read: true } }],
    });
    expect(invited.statusCode, invited.body).toBeLessThan(300);
    const inviteId = (await lastMailTo(a.app, member.account.email, 'invite')).link!.split('/join/')[1]!;
    const accepted = await a.app.inject({ method: 'POST', url: `/api/user/invite/${inviteId}/accept`, headers: bearer(member.tokens.access_token) });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const read = () => a.app.inject({ method: 'GET', url: `/api/organization/${org}`, headers: bearer(member.tokens.access_token) });
    expect((await read()).statusCode).toBe(200);
    const removed = await b.inject({ method: 'DELETE', url: `/api/organization/${org}/users/${member.account.email}`, headers: bearer(admin.tokens.access_token) });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect(await eventually(read, 403)).toBe(403);
  });
});
