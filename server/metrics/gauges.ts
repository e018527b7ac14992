/**
 * Figures read when `/metrics` is scraped (docs/monitoring.md "What is measured"): a few indexed
 * statements per scrape, never a scan of a big table.
 *
 * - the database pools (PostgreSQL only: PGlite is one backend inside this process, no pool);
 * - the job queue (pg-boss): waiting jobs per queue and how long the oldest due one has waited,
 *   served by pg-boss's own partial index on (name, start_after) of jobs not yet active;
 * - mail waiting in the outbox (index outbox_due on status, next_attempt_at);
 * - function invocations logged in the last minute, by status (index function_invocations_created);
 * - live streams of this process.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Gauge, type Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/index.ts';
import { query } from '../content/storage.ts';
import type { LiveHub } from '../live/hub.ts';

/** The window of `larder_function_invocations_recent`, in seconds. */
export const invocationWindowS = 60;

interface Snapshot {
  queues: { name: string; waiting: number; due: number; oldest_due_s: number | null }[];
  outbox: { pending: number; oldest_due_s: number | null };
  invocations: { status: string; n: number }[];
}

/** A scrape asks every gauge at once: they share one read of the database (at most one per second). */
function sharedSnapshot(database: Database, log: FastifyBaseLogger): () => Promise<Snapshot | undefined> {
  let last: { at: number; value: Promise<Snapshot | undefined> } | undefined;
  let warned = false;
  const read = async (): Promise<Snapshot> => {
    const [queues, outbox, invocations] = await Promise.all([
      query<Snapshot['queues'][number]>(
        database.db,
        sql`select q.name, coalesce(j.waiting, 0)::int as waiting, coalesce(j.due, 0)::int as due, j.oldest_due_s
            from pgboss.queue q left join (
              select name, count(*) as waiting, count(*) filter (where start_after <= now()) as due,
                     extract(epoch from now() - min(start_after) filter (where start_after <= now()))::float8 as oldest_due_s
              from pgboss.job where state < 'active' group by name) j on j.name = q.name`,
      ),
      query<Snapshot['outbox']>(
        database.db,
        sql`select count(*)::int as pending, extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now()))::float8 as oldest_due_s
            from outbox where status = 'pending'`,
      ),
      query<Snapshot['invocations'][number]>(
        database.db,
        sql`select status, count(*)::int as n from function_invocations where created_at > now() - make_interval(secs => ${invocationWindowS}) group by status`,
      ),
    ]);
    return { queues, outbox: outbox[0] ?? { pending: 0, oldest_due_s: null }, invocations };
  };
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= 1000) {
      last = {
        at: now,
        value: read().then(
          (value) => {
            warned = false;
            return value;
          },
          (error: unknown) => {
            // The figures are left out of this scrape; readiness (/api/health/ready) says whether the database answers.
            if (!warned) log.warn({ err: error }, 'metrics: the database figures could not be read');
            warned = true;
            return undefined;
          },
        ),
      };
    }
    return last.value;
  };
}

const clientOf = (db: unknown) => (db as { $client?: unknown }).$client;

export function registerGauges(registry: Registry, deps: { database: Database; live: LiveHub; log: FastifyBaseLogger }): void {
  const { database, live } = deps;
  const snapshot = sharedSnapshot(database, deps.log);

  new Gauge({
    name: 'larder_database_info',
    help: 'Always 1; the label names the database: pglite (embedded, one backend, no pool) or postgres.',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      this.set({ kind: database.kind }, 1);
    },
  });

  const pools = database.kind === 'postgres' ? ([['main', clientOf(database.db)], ['read', clientOf(database.read)]] as const) : [];
  const poolGauge = (name: string, help: string, pick: (pool: pg.Pool) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        for (const [label, pool] of pools) if (pool instanceof pg.Pool) this.set({ pool: label }, pick(pool));
      },
    });
  poolGauge('larder_db_pool_connections', 'Connections a PostgreSQL pool holds (main: writes and most reads; read: lists and searches).', (pool) => pool.totalCount);
  poolGauge('larder_db_pool_idle_connections', 'Connections of a PostgreSQL pool not running a statement.', (pool) => pool.idleCount);
  poolGauge('larder_db_pool_waiting_clients', 'Statements waiting for a connection of a PostgreSQL pool (above 0 for long: the pool is too small).', (pool) => pool.waitingCount);

  new Gauge({
    name: 'larder_job_queue_waiting',
    help: 'Jobs of a queue not yet taken by a worker, due now or later (retries wait for their time).',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await snapshot())?.queues ?? []) this.set({ queue: q.name }, q.waiting);
    },
  });
  new Gauge({
    name: 'larder_job_queue_due',
    help: 'Jobs of a queue whose time has come and that no worker has taken yet.',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await snapshot())?.queues ?? []) this.set({ queue: q.name }, q.due);
    },
  });
  new Gauge({
    name: 'larder_job_queue_oldest_due_seconds',
    help: 'How long the oldest due job of a queue has waited past its time, in seconds (0: none waiting).',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await snapshot())?.queues ?? []) this.set({ queue: q.name }, Math.max(0, q.oldest_due_s ?? 0));
    },
  });

  new Gauge({
    name: 'larder_mail_outbox_pending',
    help: 'Mails waiting in the outbox for an SMTP server (with SMTP_URL; without it mail is kept, not pending).',
    registers: [registry],
    async collect() {
      const outbox = (await snapshot())?.outbox;
      if (outbox) this.set(outbox.pending);
      else this.reset();
    },
  });
  new Gauge({
    name: 'larder_mail_outbox_oldest_due_seconds',
    help: 'How long the oldest due pending mail has waited past its next attempt, in seconds (0: none).',
    registers: [registry],
    async collect() {
      const outbox = (await snapshot())?.outbox;
      if (outbox) this.set(Math.max(0, outbox.oldest_due_s ?? 0));
      else this.reset();
    },
  });

  new Gauge({
    name: 'larder_function_invocations_recent',
    help: `Function invocations logged by the whole installation in the last ${invocationWindowS} seconds, by status (ok, error).`,
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = (await snapshot())?.invocations;
      this.reset();
      if (!rows) return;
      const byStatus = new Map(rows.map((r) => [r.status, r.n]));
      for (const status of ['ok', 'error']) this.set({ status }, byStatus.get(status) ?? 0);
    },
  });

  new Gauge({
    name: 'larder_live_streams',
    help: 'Live streams (server-sent events) this process is serving.',
    registers: [registry],
    collect() {
      this.set(live.streamCount);
    },
  });
}
