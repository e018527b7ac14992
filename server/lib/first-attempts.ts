/**
 * First attempts under a lease, as webhook deliveries (docs/webhooks.md) and integration and
 * function runs (server/lib/subscribers.ts) make them: the relay's process makes a new row's first
 * attempt itself while the row's `next_attempt_at` — its lease — lies ahead. A row still pending
 * with no attempt past its lease was not made (its process died, or the attempt failed outside
 * the kind's own code): any process claims it here, moving the lease on so no other process takes
 * it too (`for update skip locked`), and queues it as a job in the same transaction.
 */
import { sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../content/storage.ts';

/** At most this many are claimed by one call (the rest by the next). */
const claimLimit = 500;

/**
 * Claims the lapsed first attempts of `table` (`pending`: the condition of a row still to be made)
 * and answers the `returning` columns of each; `touch` is more to set on the rows claimed.
 */
export function claimLapsedFirstAttempts(tx: Executor, options: { table: string; pending: SQL; leaseS: number; returning: SQL; touch?: SQL }): Promise<Record<string, unknown>[]> {
  const table = sql.identifier(options.table);
  return query(
    tx,
    sql`update ${table} set next_attempt_at = now() + make_interval(secs => ${options.leaseS})${options.touch ? sql`, ${options.touch}` : sql``}
        where id in (select id from ${table} where ${options.pending} and attempts = 0 and next_attempt_at < now()
                     order by next_attempt_at limit ${claimLimit} for update skip locked)
        returning ${options.returning}`,
  );
}
