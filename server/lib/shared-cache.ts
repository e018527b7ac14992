/**
 * Small per-process caches of rows every request reads (sessions, memberships, projects,
 * collection schemas), kept right across server processes: a write names what it changed with
 * `invalidate(tx, cache, key)` inside its transaction; PostgreSQL delivers that NOTIFY to every
 * process at commit (PGlite: in-process), and each drops the entry. A lost LISTEN connection
 * clears every cache; entries also expire after a short time, so a missed message cannot keep a
 * stale row for long.
 *
 * A load that began before an invalidation is never stored: each key has a generation, bumped by
 * every invalidation, and a load stores its result only if the generation is unchanged.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/index.ts';
import { contentEventChannel } from '../live/events.ts';

export const invalidationChannel = 'larder_invalidate';

/**
 * The channel every statement writing an item table notifies at commit, with its collection's id
 * (migration 0038, whatever wrote the rows): it moves the collection's item version here.
 */
export const itemWritesChannel = 'larder_item_writes';

type Executor = { execute: Db['execute'] };

/** The entries (`cache` NUL `key`) a tracked check reads, wherever in its async calls (CacheRegistry.track). */
const reading = new AsyncLocalStorage<Set<string>>();
const entryName = (cache: string, key: string) => `${cache}\u0000${key}`;

interface Entry<V> {
  value: V;
  expires: number;
}

export class SharedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly generations = new Map<string, number>();
  private readonly loading = new Map<string, { generation: number; clears: number; value: Promise<V> }>();
  private clearCount = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly name: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached value of `key`, or what `load` gives (stored unless invalidated meanwhile). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    reading.getStore()?.add(entryName(this.name, key));
    const entry = this.entries.get(key);
    if (entry && entry.expires > Date.now()) {
      this.hits += 1;
      return entry.value;
    }
    this.misses += 1;
    const generation = this.generations.get(key) ?? 0;
    const clears = this.clearCount;
    // Callers missing the same key at once share one load, begun after the same invalidations
    // (every load of a key reads the same row): many live streams rechecked after one change
    // read it once.
    const pending = this.loading.get(key);
    if (pending && pending.generation === generation && pending.clears === clears) return pending.value;
    const value = (async () => {
      const loaded = await load();
      if ((this.generations.get(key) ?? 0) === generation && this.clearCount === clears) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value: loaded, expires: Date.now() + this.ttlMs });
      }
      return loaded;
    })();
    this.loading.set(key, { generation, clears, value });
    try {
      return await value;
    } finally {
      if (this.loading.get(key)?.value === value) this.loading.delete(key);
    }
  }

  /**
   * The cached value of `key` if it is held and fresh, else undefined, without waiting: for hot
   * paths that fall back to `get` only on a miss. Named as read to a tracked check, as `get` is.
   */
  peek(key: string): V | undefined {
    reading.getStore()?.add(entryName(this.name, key));
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= Date.now()) return undefined;
    this.hits += 1;
    return entry.value;
  }

  /** Drops one entry (`*`: all) in this process. */
  drop(key: string) {
    if (key === '*') {
      this.clear();
      return;
    }
    this.entries.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    // Generations only matter while a load is in flight; keep the map from growing without bound.
    if (this.generations.size > this.maxEntries * 2) this.generations.clear(), (this.clearCount += 1);
  }

  clear() {
    this.entries.clear();
    this.generations.clear();
    this.clearCount += 1;
  }
}

/** The caches of one process and the LISTEN that keeps them right. */
export class CacheRegistry {
  private readonly caches = new Map<string, SharedCache<unknown>>();
  private unlisten: (() => Promise<void>) | undefined;
  private readonly syncs = new Map<string, () => void>();
  private syncCount = 0;
  /**
   * How often each collection's items changed as this process heard it (every statement writing an
   * item table notifies itemWritesChannel, and every item write of the API sends a content event:
   * server/live/events.ts), and when last; `epoch` moves when anything may have
   * been missed (a lost connection, a settle given up) or a schema changed. Per-process caches of
   * what a list looks like compare versions (server/content/query/engine.ts, deep-page anchors).
   */
  private readonly itemVersions = new Map<string, { n: number; at: number }>();
  private epoch = 0;
  /** Who wants to hear that an entry changed (`watch`), by entry name; `*` entries by cache name. */
  private readonly watchers = new Map<string, Set<() => void>>();
  /** How many changes watchers were told of: a check that saw it move while it ran may have read a row just before it changed. */
  changeCount = 0;

  constructor(private readonly database: Database) {}

  create<V>(name: string, ttlMs: number, maxEntries?: number): SharedCache<V> {
    const cache = new SharedCache<V>(name, ttlMs, maxEntries);
    this.caches.set(name, cache as SharedCache<unknown>);
    return cache;
  }

  async start(): Promise<void> {
    // One connection for both channels: a settle marker heard means every content event committed before it was heard too.
    this.unlisten = await this.database.listen(
      [invalidationChannel, contentEventChannel, itemWritesChannel],
      (payload, channel) => {
        if (channel === itemWritesChannel) {
          this.itemsChanged(payload);
          return;
        }
        if (channel === contentEventChannel) {
          let event: { c?: unknown };
          try {
            event = JSON.parse(payload) as typeof event;
          } catch {
            this.epoch += 1;
            return;
          }
          if (typeof event.c === 'string') this.itemsChanged(event.c);
          else this.epoch += 1;
          return;
        }
        let message: { c?: unknown; k?: unknown; sync?: unknown };
        try {
          message = JSON.parse(payload) as typeof message;
        } catch {
          return;
        }
        if (typeof message.sync === 'string') {
          this.syncs.get(message.sync)?.();
          return;
        }
        if (typeof message.c === 'string' && typeof message.k === 'string') {
          this.caches.get(message.c)?.drop(message.k);
          this.changed(message.c, message.k);
        }
        if (message.c === 'collection') this.epoch += 1;
      },
      () => this.clearAll(),
    );
  }

  /**
   * Waits until this process has heard every invalidation committed so far (PostgreSQL delivers
   * notifications in commit order, so when a marker sent now comes back, the earlier ones have).
   * The server calls it before answering a write, so the caller's next request reads fresh rows.
   * Gives up after `timeoutMs` by clearing every cache.
   */
  async settle(timeoutMs = 2000): Promise<void> {
    if (!this.unlisten) return;
    // Callers in the same turn share one marker: it is sent after every one of them asked (so after
    // their writes committed), and its return proves the same for all. Many writes answered at
    // once (a batch of creates) then cost one marker instead of one each.
    if (!this.nextMarker) {
      const marker = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          this.nextMarker = undefined;
          this.sendMarker(timeoutMs).then(resolve, reject);
        });
      });
      this.nextMarker = marker;
    }
    return this.nextMarker;
  }

  private nextMarker: Promise<void> | undefined;

  private async sendMarker(timeoutMs: number): Promise<void> {
    const id = `${process.pid}-${++this.syncCount}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.syncs.set(id, () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await this.database.db.execute(sql`select pg_notify(${invalidationChannel}, ${JSON.stringify({ sync: id })})`);
      if (!(await heard)) this.clearAll();
    } catch {
      // The database is out of reach (the answer is settled already: a write that committed stays
      // answered as it was): forget every entry, so this process reads fresh rows once it is back.
      this.clearAll();
    } finally {
      clearTimeout(timer);
      this.syncs.delete(id);
    }
  }

  clearAll() {
    for (const cache of this.caches.values()) cache.clear();
    this.epoch += 1;
    this.changed();
  }

  /**
   * Runs a check and names the cache entries it read (through `SharedCache.get`, at any depth),
   * so that whoever relies on its answer can `watch` them. A check that throws throws here.
   */
  async track<T>(check: () => Promise<T>): Promise<{ value: T; reads: Set<string> }> {
    const reads = new Set<string>();
    const value = await reading.run(reads, check);
    return { value, reads };
  }

  /**
   * Calls `onChange` when a committed change of one of these entries is heard (every process hears
   * every change: the triggers of migrations 0006 and 0018), when a whole cache they are in is
   * dropped, and when changes may have been missed (a lost LISTEN connection, a settle given up).
   * The returned function stops it.
   */
  watch(entries: Iterable<string>, onChange: () => void): () => void {
    const names = [...new Set(entries)];
    for (const name of names) {
      let set = this.watchers.get(name);
      if (!set) this.watchers.set(name, (set = new Set()));
      set.add(onChange);
    }
    return () => {
      for (const name of names) {
        const set = this.watchers.get(name);
        set?.delete(onChange);
        if (set?.size === 0) this.watchers.delete(name);
      }
    };
  }

  /** Tells the watchers of an entry (of a whole cache when the key is `*`; of everything without a cache). */
  private changed(cache?: string, key?: string) {
    this.changeCount += 1;
    const called = new Set<() => void>();
    if (cache !== undefined && key !== '*') {
      for (const watcher of this.watchers.get(entryName(cache, key!)) ?? []) called.add(watcher);
    } else {
      const prefix = cache === undefined ? '' : entryName(cache, '');
      for (const [name, set] of this.watchers) if (name.startsWith(prefix)) for (const watcher of set) called.add(watcher);
    }
    // Everything at once (a lost connection): spread over a second, so that every watcher's check does not reach the database in one burst.
    const spread = cache === undefined ? 1000 : 0;
    for (const watcher of called) {
      const call = () => {
        try {
          watcher();
        } catch {
          // A watcher's failure is its own (each catches what it does); the others still hear.
        }
      };
      if (spread) setTimeout(call, Math.random() * spread).unref();
      else call();
    }
  }

  /** Whether this process hears item writes (it listens): only then may it cache what lists hold. */
  get listening(): boolean {
    return this.unlisten !== undefined;
  }

  private itemsChanged(collectionId: string) {
    const entry = this.itemVersions.get(collectionId);
    if (entry) {
      entry.n += 1;
      entry.at = Date.now();
      return;
    }
    if (this.itemVersions.size >= 100_000) {
      this.itemVersions.clear();
      this.epoch += 1;
    }
    this.itemVersions.set(collectionId, { n: 1, at: Date.now() });
  }

  /**
   * The version of a collection's items (nested ones included) as this process has heard: equal
   * versions before a read and after a `settle()` that followed it mean no item write of the
   * collection committed in between (nor before the read without being heard).
   */
  itemsVersion(collectionId: string): string {
    return `${this.epoch}.${this.itemVersions.get(collectionId)?.n ?? 0}`;
  }

  /** When this process last heard of a write to the collection's items (0: not since it started). */
  itemsChangedAt(collectionId: string): number {
    return this.itemVersions.get(collectionId)?.at ?? 0;
  }

  /**
   * Says, inside the writing transaction, that `key` of `cache` changed: every process drops it
   * at commit. This process drops it now as well, and again at commit.
   */
  async invalidate(tx: Executor, cache: SharedCache<unknown> | string, key: string): Promise<void> {
    const name = typeof cache === 'string' ? cache : cache.name;
    this.caches.get(name)?.drop(key);
    await tx.execute(sql`select pg_notify(${invalidationChannel}, ${JSON.stringify({ c: name, k: key })})`);
  }

  async close(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
  }
}
