/**
 * Opens the database: embedded PGlite in a data directory by default, a PostgreSQL server when a
 * connection string is given. Both are reached through one drizzle type, and migrations in
 * ./drizzle are applied on open.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, parse as pgliteParse, protocol, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, NodePgSession } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { lockDataDirectory } from './lock.ts';

export type Schema = typeof schema;

export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The SQLSTATE of a database error (the error or one it wraps: drizzle wraps the driver's), if any. */
export function databaseCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export interface Database {
  db: Db;
  /**
   * For the lists and searches people ask for: on PostgreSQL a pool of its own whose
   * connections stop any statement after `readTimeoutMs` (a filter that would run away cannot
   * hold the server); on PGlite the same database (one in-process backend, no timeout).
   */
  read: Db;
  kind: 'pglite' | 'postgres';
  /** Round-trip check for the health endpoint. */
  ping(): Promise<boolean>;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel` (or on any of several channels,
   * with the channel) — delivered at commit, in commit order, across the channels of one call. On
   * PostgreSQL a dedicated connection listens; when it is lost it is made again and `onReconnect`
   * runs, since notifications sent meanwhile are gone (catch up from the table). Resolves to a
   * function that stops listening.
   */
  listen(channel: string | readonly string[], onNotify: (payload: string, channel: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface OpenOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; absent means in memory (tests only). */
  dataDir?: string | undefined;
  /** A migrated data directory dump to start from (tests clone one template). */
  loadDataDir?: Blob | undefined;
  /** Skip migrations (the caller already applied them). */
  skipMigrations?: boolean;
  poolSize?: number;
  /** Size of the read pool (PostgreSQL). */
  readPoolSize?: number;
  /** The statement timeout of the read pool, in milliseconds. */
  readTimeoutMs?: number;
  /** Whether PGlite runs repeated reads as named statements (default on; `LARDER_PGLITE_NAMED=0` turns it off to measure the difference). */
  namedStatements?: boolean;
}

export const defaultReadTimeoutMs = 10_000;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options);
}

/**
 * A client the pool has lent out (a transaction, a statement under way) has no 'error' listener
 * of the pool's, so a connection lost under it (a PostgreSQL restart) would be an uncaught
 * exception and end the process. Every client keeps one listener: the statement under way fails
 * with the error (answered 503 database_unavailable: server/lib/errors.ts) and the pool replaces
 * the client.
 */
export function keepClientErrors(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.on('error', () => {
      /* the statement under way has failed with it; the pool discards the client on release */
    });
  });
}

/**
 * drizzle-orm 0.45.4's node-postgres `transaction` takes a pool client and sends BEGIN before its
 * `try`: when BEGIN fails (the database went away, docs/errors.md "When the database is away") the
 * client is never released. Each such failure held a connection of the pool for good, so a busy
 * outage could leave the pool empty once the database was back, and closing it waited for ever.
 * Here the client is taken and released around drizzle's own method, which, given a session on that
 * one client, runs BEGIN, the work and COMMIT or ROLLBACK without touching the pool. The pool drops a
 * released client whose connection is gone.
 */
type PooledSession = { client: unknown; dialect: unknown; schema: unknown; options: unknown };
const drizzleTransaction = NodePgSession.prototype.transaction;
NodePgSession.prototype.transaction = async function transaction(this: NodePgSession<never, never>, work, config) {
  const self = this as unknown as PooledSession;
  if (!(self.client instanceof pg.Pool)) return drizzleTransaction.call(this, work, config);
  const client = await self.client.connect();
  try {
    const session = new NodePgSession(client, self.dialect as never, self.schema as never, self.options as never);
    return await drizzleTransaction.call(session, work, config);
  } finally {
    client.release();
  }
} as typeof drizzleTransaction;

/** The advisory lock key processes migrating one database take turns on ('larder.migrate'). */
const MIGRATE_LOCK = 7_316_202_611;

/**
 * Applies the missing migrations, one process at a time: copies started together on one database
 * would otherwise each apply the same migrations and fail each other. Under the lock the next one
 * finds them applied and does nothing (docs/operations.md "Several processes").
 */
async function migrateOnce(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATE_LOCK]);
    try {
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATE_LOCK]);
    }
  } finally {
    client.release();
  }
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  pool.on('error', () => {
    /* an idle client lost its connection; the pool replaces it on next use */
  });
  keepClientErrors(pool);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  if (!options.skipMigrations) await migrateOnce(pool);
  const readPool = new pg.Pool({
    connectionString: url,
    max: options.readPoolSize ?? options.poolSize ?? 10,
    statement_timeout: options.readTimeoutMs ?? defaultReadTimeoutMs,
    // No JIT for lists: their statements are short, but a never-run branch priced high (a kept
    // total's fallback count) makes PostgreSQL compile the whole plan, 20-40 ms for a 1 ms page
    // (docs/performance.md "Peer benchmark"). A connection string's own `options` replace this.
    options: '-c jit=off',
  });
  readPool.on('error', () => {
    /* as above */
  });

  keepClientErrors(readPool);
  const read = drizzlePg({ client: readPool, schema }) as unknown as Db;
  return {
    db,
    read,
    kind: 'postgres',
    ping: async () => (await pool.query('select 1 as ok')).rows[0]?.ok === 1,
    listen: (channel, onNotify, onReconnect) => listenPostgres(url, channel, onNotify, onReconnect),
    close: async () => {
      await Promise.all([pool.end(), readPool.end()]);
    },
  };
}

async function openPglite(options: OpenOptions): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    release = await lockDataDirectory(options.dataDir);
    dataDir = path.join(options.dataDir, 'pglite');
  }
  let client: PGlite;
  try {
    client = await PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      // Every commit reaches the disk before it is acknowledged.
      relaxedDurability: false,
      // Content text search uses trigram indexes (migration 0004); PGlite loads extensions here.
      extensions: { pg_trgm },
    });
  } catch (error) {
    await release?.();
    throw error;
  }
  if (options.namedStatements === false) pgliteUnnamed.add(client);
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  if (!options.skipMigrations) await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  return {
    db,
    read: db,
    kind: 'pglite',
    ping: async () => (await client.query<{ ok: number }>('select 1 as ok')).rows[0]?.ok === 1,
    listen: async (channel, onNotify) => {
      const stops: (() => Promise<void>)[] = [];
      for (const name of typeof channel === 'string' ? [channel] : channel) stops.push(await client.listen(name, (payload) => onNotify(payload, name)));
      return async () => {
        if (!client.closed) for (const stop of stops) await stop();
      };
    },
    close: async () => {
      if (!client.closed) await client.close();
      await release?.();
    },
  };
}

/** A LISTEN connection of its own that comes back after a loss (PostgreSQL restart, network). */
async function listenPostgres(url: string, channel: string | readonly string[], onNotify: (payload: string, channel: string) => void, onReconnect?: () => void): Promise<() => Promise<void>> {
  const channels = typeof channel === 'string' ? [channel] : channel;
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = 100;
  const connect = async (first: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (channels.includes(message.channel)) onNotify(message.payload ?? '', message.channel);
    });
    const lost = () => {
      if (stopped || client !== next) return;
      client = undefined;
      next.removeAllListeners('error');
      next.on('error', () => {});
      void next.end().catch(() => {});
      schedule();
    };
    next.on('error', lost);
    next.on('end', lost);
    await next.connect();
    for (const name of channels) await next.query(`LISTEN "${name.replace(/"/g, '""')}"`);
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delay = 100;
    if (!first) onReconnect?.();
  };
  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect(false).catch(() => {
        delay = Math.min(delay * 2, 5000);
        schedule();
      });
    }, delay);
    retry.unref();
  };
  await connect(true);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}

/** The raw PGlite client behind a Database, for test templates. */
export async function createPgliteTemplate(): Promise<Blob> {
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  return dump;
}

/** How many statements a process names (each connection keeps those it ran); past it, statements run unnamed. */
const preparedNamesMax = 200;
/** Statement text → its name (a hash of the text, computed once per text). */
const preparedNames = new Map<string, string>();

/**
 * Runs a statement of the read pool; with `prepare`, on PostgreSQL as a named prepared statement:
 * each pool connection parses it once and keeps it, and later calls send only the parameters. For
 * statements whose text repeats call after call (an unfiltered list page of a collection); the
 * name is a hash of the text, so one name is always one text, and a process names at most
 * `preparedNamesMax` texts; on PGlite the same (pglitePrepared). Rows come parsed by the driver's
 * own type parsers.
 */
export async function queryText<T = Record<string, unknown>>(db: Db, text: string, params: unknown[], prepare = false): Promise<T[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  let name = prepare ? preparedNames.get(text) : undefined;
  if (prepare && name === undefined && preparedNames.size < preparedNamesMax) {
    name = `larder_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  if (client instanceof pg.Pool) {
    const result = await client.query<T & pg.QueryResultRow>(name ? { name, text, values: params } : { text, values: params });
    return result.rows;
  }
  if (client instanceof PGlite) {
    const plain = params.every((value) => value === null || typeof value === 'string' || typeof value === 'number');
    return name && plain && !pgliteUnnamed.has(client) ? pglitePrepared<T>(client, name, text, params) : (await client.query<T>(text, params)).rows;
  }
  throw new Error('queryText needs a database opened by openDatabase');
}

/** The PGlite instances opened with `namedStatements: false`: their repeated reads run as plain queries. */
const pgliteUnnamed = new WeakSet<PGlite>();

/** The statement names each PGlite instance has parsed (its one backend keeps them). */
const pgliteParsed = new WeakMap<PGlite, Set<string>>();

/**
 * A read statement on PGlite as a named prepared statement, in the wire protocol PGlite's own
 * `query` speaks (parse, bind, describe, execute, sync) with the parse sent once per instance:
 * PGlite runs every statement on the server's one thread, and parsing and planning a list page's
 * statement (a few kilobytes of JSON building) is a large part of its cost. Locked as `query` is
 * (no other statement or transaction in between); parameters (text and numbers only: the caller
 * checks) sent as text, as `query` sends them.
 */
async function pglitePrepared<T>(client: PGlite, name: string, text: string, params: unknown[]): Promise<T[]> {
  return client._runExclusiveTransaction(() =>
    client._runExclusiveQuery(async () => {
      const parsed = pgliteParsed.get(client) ?? new Set<string>();
      pgliteParsed.set(client, parsed);
      const run = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false });
      const messages: Awaited<ReturnType<typeof run>> = [];
      try {
        if (!parsed.has(name)) {
          messages.push(...(await run(protocol.serialize.parse({ name, text }))));
          parsed.add(name);
        }
        const values = params.map((value) => (value === null || value === undefined ? null : String(value)));
        messages.push(...(await run(protocol.serialize.bind({ statement: name, values }))));
        messages.push(...(await run(protocol.serialize.describe({ type: 'P' }))));
        messages.push(...(await run(protocol.serialize.execute({}))));
      } finally {
        messages.push(...(await run(protocol.serialize.sync())));
      }
      return (pgliteParse.parseResults(messages, client.parsers) as Results<T>[])[0]!.rows;
    }),
  );
}
