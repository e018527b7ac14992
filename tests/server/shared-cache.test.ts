/**
 * Per-process caches kept right across processes: an invalidation sent inside a transaction
 * drops the entry everywhere at commit (and never before a rollback elsewhere), a load that raced
 * an invalidation is not stored, entries expire, and a lost LISTEN connection clears them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheRegistry, SharedCache } from '../../server/lib/shared-cache.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { databaseKinds, openTestDatabase } from './support/test-app.ts';

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
