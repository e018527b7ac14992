/**
 * A @fastify/rate-limit store kept in the database, so that the limits hold across every process
 * of a deployment (the plugin's own store counts per process). One upsert per check: a fixed
 * window that restarts when it has run out.
 */
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { rateLimits } from '../db/schema.ts';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Counts one more in `key`'s fixed window (a new window when the last one has run out): the count so far and the ms left. */
export async function incrementWindow(db: Db, key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
  const rows = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt: sql`now() + make_interval(secs => ${windowMs / 1000})` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= now() then now() + make_interval(secs => ${windowMs / 1000}) else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  const row = rows[0]!;
  return { current: row.count, ttl: Math.max(0, row.resetAt.getTime() - Date.now()) };
}

export function databaseRateLimitStore(db: Db) {
  let checks = 0;

  async function increment(key: string, windowMs: number) {
    const result = await incrementWindow(db, key, windowMs);
    // Now and then, drop windows long over so the table stays small.
    if (++checks % 500 === 0) await db.delete(rateLimits).where(lt(rateLimits.resetAt, new Date(Date.now() - 3_600_000)));
    return result;
  }

  async function read(key: string) {
    const [row] = await db.select().from(rateLimits).where(sql`${rateLimits.key} = ${key} and ${rateLimits.resetAt} > now()`);
    return { current: row?.count ?? 0, ttl: row ? Math.max(0, row.resetAt.getTime() - Date.now()) : 0 };
  }

  class DatabaseStore {
    incr(key: string, callback: Callback, timeWindow: number) {
      increment(key, timeWindow).then((result) => callback(null, result), (error: Error) => callback(error));
    }
    read(key: string, callback: Callback) {
      read(key).then((result) => callback(null, result), (error: Error) => callback(error));
    }
    child() {
      return new DatabaseStore();
    }
  }
  return DatabaseStore;
}
