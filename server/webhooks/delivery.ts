/**
 * Webhook deliveries that never lose an event (docs/webhooks.md).
 *
 * - The outbox is `item_events`: every item write inserts its row in the write's own transaction.
 * - The relay reads rows past its cursor (`webhook_relay`, one row) in the order their
 *   transactions became final (`xid`, then id; only rows older than every transaction still
 *   running), and in ONE transaction inserts a delivery per matching webhook, enqueues its first
 *   attempt as a pg-boss job and moves the cursor. A crash anywhere leaves either all or none.
 * - One job is one attempt. The attempt goes through the URL guard (`app.ctx.outbound.send`: the
 *   address checked again, a deadline, a byte cap, no redirect followed), is logged, and on failure
 *   the next attempt is enqueued in the same transaction as the log row, after the configured delay
 *   with ±20 % jitter. A job whose attempt number is not the next one is a duplicate and is skipped.
 * - A delivery that used up its attempts counts as a failure of its webhook; after
 *   `disableAfter` such failures in a row (no success between) the webhook is disabled.
 * - pg-boss 10 runs on the same database: on PostgreSQL over the app's pool, on PGlite through
 *   its `db` adapter (pg-boss runs its SQL through the app's own connection).
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { webhookHeaders, webhookLimits } from '../../definitions/webhooks.ts';
import { keepClientErrors, type Database } from '../db/index.ts';
import { query, type Executor } from '../content/storage.ts';
import { contentEventChannel, eventsPastPlace } from '../live/events.ts';
import { newId } from '../lib/ids.ts';
import { RelayLoop } from '../lib/relay-loop.ts';
import { claimLapsedFirstAttempts } from '../lib/first-attempts.ts';
import { OutboundError, type UrlGuard } from '../lib/url-guard.ts';
import { eventKeys, matches } from './webhooks.ts';
import { OffThreadSender, type DeliverySender } from './sender.ts';

export const webhookQueue = 'webhook-delivery';

/**
 * When a write's notification runs the relay (ms): at least `relayDelayMs` later, so writes of the
 * same moment go in one batch, and at least `relaySpacingMs` after the relay's last run. A lone
 * write is relayed at once; busy writers are relayed twice a second, in batches: each run's cost is
 * mostly fixed (its statements, the queue's fetch and completion, the log), so fewer, larger runs
 * keep deliveries off the writers' CPU (docs/webhooks.md, `npm run bench -- webhooks`).
 */
const relayDelayMs = 20;
const relaySpacingMs = 500;

/** Jobs (attempts) a worker takes at once; first attempts the relay sends at once. */
const batchSize = 50;

/** The default of WebhookDeliveryConfig.directAttempts. */
export const defaultDirectAttempts = 4 * batchSize;

export interface WebhookDeliveryConfig {
  /** Delays before the 2nd, 3rd, … attempt (ms); attempts = length + 1. */
  retryDelaysMs: number[];
  /** Deadline of one attempt (ms). */
  timeoutMs: number;
  /** Deliveries in a row that used up their attempts before the webhook is disabled. */
  disableAfter: number;
  /** How often the relay looks for events besides being told at commit (ms). */
  relayIntervalMs: number;
  /** How often pg-boss looks for due jobs (seconds, at least 0.5). */
  pollingIntervalS: number;
  /**
   * How often pg-boss's maintenance runs (seconds): among other things it fails a job whose worker
   * died mid-attempt once the job's expiry (twice the attempt deadline plus 5 s) passed, so it runs again.
   */
  maintenanceIntervalS: number;
  /**
   * Where requests are sent from: a child process at priority `senderNice` (the default), a worker
   * thread, or the server's own thread (`inline`).
   */
  sender?: 'process' | 'thread' | 'inline';
  senderNice?: number;
  /**
   * First attempts in flight from the relay at most (default 200); past that, new deliveries'
   * first attempts are queued as jobs instead, so a slow receiver cannot pile up requests.
   */
  directAttempts?: number;
}

interface AttemptResult {
  job: JobData;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  /** Not sent: the organization's billing refuses it (the reason is `error`); final, and no failure of the webhook. */
  refused?: true;
}

interface JobData {
  deliveryId: string;
  attempt: number;
  manual?: boolean;
  /** The request that queued this attempt (a redelivery a person asked for): its log line names it (docs/monitoring.md "Request ids"). */
  requestId?: string;
}

/** pg-boss's way to reach the database. */
export interface BossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  close?(): Promise<void>;
}

/** A statement with `$n` placeholders as drizzle SQL, so pg-boss can write inside our transaction. */
function toSql(text: string, values: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`));
  return sql.join(chunks, sql.raw(''));
}

export const inTransaction = (tx: Executor): BossDb => ({
  executeSql: async (text, values = []) => ({ rows: await query(tx, toSql(text, values)) }),
});

const bossPools = new WeakMap<Database, { pool: pg.Pool; users: number }>();

/**
 * pg-boss's way to the database: on PostgreSQL a small pool of its own with asynchronous commit (a
 * job lost to a crash runs again; the outbox is the write's own transaction), the PGlite client
 * through option A.
 */
export function bossDb(database: Database): BossDb {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    // One pool per database for every queue of the app (webhooks, billing, integrations), ended when the last lets go.
    let shared = bossPools.get(database);
    if (!shared) {
      // Setting `options` replaces what pg would take from PostgreSQL's own PGOPTIONS variable, so it is passed on here.
      const pool = new pg.Pool({ ...(client as unknown as { options: pg.PoolConfig }).options, max: 3, options: `-c synchronous_commit=off ${process.env.PGOPTIONS ?? ''}` });
      pool.on('error', () => undefined);
      keepClientErrors(pool);
      shared = { pool, users: 0 };
      bossPools.set(database, shared);
    }
    const { pool } = shared;
    shared.users++;
    let closed = false;
    return {
      executeSql: (text, values = []) => pool.query(text, values as unknown[]),
      close: async () => {
        if (closed) return;
        closed = true;
        if (--shared.users === 0) {
          bossPools.delete(database);
          await pool.end();
        }
      },
    };
  }
  if (client instanceof PGlite) {
    return {
      async executeSql(text, values = []) {
        if (values.length) return client.query(text, values as unknown[]);
        const results = await client.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      },
    };
  }
  throw new Error('webhooks need a database opened by openDatabase');
}

/**
 * pg-boss's createQueue, made again when it loses a deadlock: each new queue attaches a partition
 * to pg-boss's job table, and processes starting at once on a fresh database (several copies
 * started together) deadlock there (40P01). The loser's statement rolled back whole; made again,
 * it finds the queue the other made, or makes it.
 */
export async function ensureQueue(boss: PgBoss, name: string, options?: Omit<PgBoss.Queue, 'name'>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, { name, ...options } as PgBoss.Queue);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100 * attempt));
    }
  }
}

/** `t=<unix seconds>` and the hex HMAC-SHA256 of `<timestamp>.<body>` with the webhook's secret. */
export function signDelivery(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Whether a transaction had committed by the time of a snapshot (pg_current_snapshot() as text,
 * `xmin:xmax:xip,…`), as pg_visible_in_snapshot reads it: below xmin, or below xmax and not running
 * then. Only committed transactions leave events, so for an event's xid that is "written before".
 */
export function committedBefore(snapshot: string): (xid: bigint) => boolean {
  const [xmin = '', xmax = '', running = ''] = snapshot.split(':');
  const low = BigInt(xmin);
  const high = BigInt(xmax);
  const inProgress = new Set(running ? running.split(',').map((x) => BigInt(x)) : []);
  return (xid) => xid < low || (xid < high && !inProgress.has(xid));
}

const jittered = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

export interface WebhookDispatcherOptions {
  database: Database;
  outbound: UrlGuard;
  config: WebhookDeliveryConfig;
  log: FastifyBaseLogger;
  /** Counts a delivery against the organization's WebhookTriggers usage, when metering exists. */
  countTrigger?: (organizationId: string) => void;
  /**
   * Why a delivery of the organization is not to be sent (billing: its WebhookTriggers hard limit
   * reached, or its API services suspended), or null: server/billing/enforcement.ts.
   */
  refuseDelivery?: (organizationId: string) => Promise<string | null>;
  /** Counts attempts and failed deliveries for `/metrics` (server/metrics). */
  metrics?: { attempt(outcome: 'delivered' | 'failed' | 'refused'): void; deliveryFailed(): void };
}

export class WebhookDispatcher {
  private boss: PgBoss | undefined;
  private bossDb: BossDb | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly loop = new RelayLoop(
    () => this.relayBatch(),
    (error) => this.options.log.warn({ err: error }, 'webhook relay failed; it runs again shortly'),
    { delayMs: relayDelayMs, spacingMs: relaySpacingMs },
  );
  private stopped = false;
  private workerId: string | undefined;
  /** First attempts sent from the relay, not yet logged. */
  private directInFlight = 0;
  private readonly directRuns = new Set<Promise<void>>();
  private sender: DeliverySender | undefined;

  /** Tells this process's worker to fetch now (new first attempts, a full batch). */
  private wake() {
    if (this.workerId && !this.stopped) this.boss?.notifyWorker(this.workerId);
  }

  constructor(private readonly options: WebhookDispatcherOptions) {}

  get maxAttempts() {
    return this.options.config.retryDelaysMs.length + 1;
  }

  /** A job that fails (a database error) runs again; one whose worker died runs again after its expiry. */
  private jobOptions() {
    return { retryLimit: 3, retryDelay: 5, expireInSeconds: Math.ceil(this.options.config.timeoutMs / 1000) * 2 + 5 };
  }

  async start(): Promise<void> {
    const { database, config, log } = this.options;
    this.stopped = false;
    this.loop.restart();
    this.sender = config.sender === 'inline' ? undefined : new OffThreadSender(this.options.outbound, log, config.sender ?? 'thread', config.senderNice ?? 0);
    this.bossDb = bossDb(database);
    const boss = new PgBoss({
      db: this.bossDb,
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: config.maintenanceIntervalS,
    } as unknown as PgBoss.ConstructorOptions);
    boss.on('error', (error) => log.warn({ err: error }, 'webhook queue error'));
    await boss.start();
    await ensureQueue(boss, webhookQueue);
    this.boss = boss;
    this.workerId = await boss.work<JobData>(webhookQueue, { pollingIntervalSeconds: config.pollingIntervalS, batchSize }, async (jobs) => {
      await this.attemptAll(jobs.map((job) => job.data));
      // A full batch: more may be due, so the worker fetches again at once instead of waiting to poll.
      if (jobs.length >= batchSize) this.wake();
    });
    this.stopListening = await database.listen(contentEventChannel, () => this.loop.soon(), () => this.relay());
    this.timer = setInterval(() => {
      this.relay();
      void this.recoverFirstAttempts();
    }, config.relayIntervalMs);
    this.timer.unref();
    this.relay();
    void this.recoverFirstAttempts();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // The loop stops with the rest at once: no batch after this one, no warning of a closing database.
    const relayStopped = this.loop.stop();
    if (this.timer) clearInterval(this.timer);
    await this.stopListening?.();
    await relayStopped;
    await Promise.all([...this.directRuns]);
    await this.boss?.stop({ graceful: true, wait: true, timeout: this.options.config.timeoutMs + 2000 });
    await this.sender?.close();
    this.sender = undefined;
    await this.bossDb?.close?.();
    this.bossDb = undefined;
  }

  /** Runs the relay now, or once more after the run under way. */
  relay(): void {
    if (this.stopped || !this.boss) return;
    this.loop.run();
  }

  /** Waits for the relay run under way (tests and shutdown). */
  async settled(): Promise<void> {
    await this.loop.settled();
  }

  /** One batch of events into deliveries; the number of events read (0: caught up, or another process relays). */
  private async relayBatch(): Promise<number> {
    const counted: string[] = [];
    const direct: string[] = [];
    let queued = 0;
    const read = await this.options.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      const [cursor] = await query(tx, sql`select xid::text as xid, event_id from webhook_relay where id = 1 for update skip locked`);
      if (!cursor) return 0;
      const events = await eventsPastPlace(tx, { xid: String(cursor.xid), eventId: String(cursor.event_id) });
      if (!events.length) return 0;
      const projectIds = [...new Set(events.map((e) => String(e.project_id)))];
      const hooks = await query(
        tx,
        sql`select id, organization_id, project_id, trigger, collections, enabled_snapshot from webhooks
            where disabled_at is null and project_id in (${sql.join(projectIds.map((p) => sql`${p}`), sql`, `)})`,
      );
      const deliveries: { id: string; webhookId: string; eventId: number; trigger: string; body: string }[] = [];
      // An event that had committed when its webhook was created or turned back on is not its own.
      const before = new Map(hooks.map((hook) => [hook.id, hook.enabled_snapshot == null ? undefined : committedBefore(String(hook.enabled_snapshot))]));
      for (const event of events) {
        const keys = eventKeys({ id: String(event.collection_id), slug: String(event.slug ?? event.collection_id) }, String(event.nested_path));
        for (const hook of hooks) {
          if (hook.project_id !== event.project_id) continue;
          if (before.get(hook.id)?.(BigInt(String(event.xid)))) continue;
          const collections = typeof hook.collections === 'string' ? JSON.parse(hook.collections) : hook.collections;
          if (!matches({ trigger: String(hook.trigger), collections }, String(event.trigger), keys)) continue;
          const item = typeof event.item === 'string' ? JSON.parse(event.item) : event.item;
          const nested = event.root_item_id != null;
          const body = JSON.stringify({
            collectionID: event.slug ?? event.collection_id,
            // A nested item is addressed as the API addresses it: its top item and the chain to it.
            itemID: nested ? event.root_item_id : event.item_id,
            nestedID: nested ? `${event.nested_path}.${event.item_id}` : null,
            trigger: event.trigger,
            item,
          });
          deliveries.push({ id: newId(), webhookId: String(hook.id), eventId: Number(event.id), trigger: String(event.trigger), body });
          counted.push(String(hook.organization_id));
        }
      }
      if (deliveries.length) {
        const rows = sql.join(
          deliveries.map((d) => sql`(${d.id}, ${d.webhookId}, ${d.eventId}, ${d.trigger}, ${d.body}, now() + make_interval(secs => ${this.jobOptions().expireInSeconds}))`),
          sql`, `,
        );
        const inserted = await query(
          tx,
          sql`insert into webhook_deliveries (id, webhook_id, event_id, trigger, body, next_attempt_at) values ${rows}
              on conflict (webhook_id, event_id) do nothing returning id`,
        );
        // First attempts are sent by this process as soon as the transaction commits, each under a
        // lease (next_attempt_at: the job expiry) that recoverFirstAttempts turns into a job if the
        // attempt is never logged. Past directAttempts in flight, they are queued as jobs now.
        const room = Math.max(0, (this.options.config.directAttempts ?? defaultDirectAttempts) - this.directInFlight - direct.length);
        direct.push(...inserted.slice(0, room).map((row) => String(row.id)));
        queued += await this.queueFirstAttempts(tx, inserted.slice(room).map((row) => String(row.id)));
      }
      const last = events[events.length - 1]!;
      await tx.execute(sql`update webhook_relay set xid = ${last.xid}::xid8, event_id = ${last.id}, updated_at = now() where id = 1`);
      return events.length;
    });
    for (const organizationId of counted) this.options.countTrigger?.(organizationId);
    if (direct.length) this.attemptDirect(direct);
    if (queued) this.wake();
    return read;
  }

  /** Enqueues the first attempts of deliveries as jobs, in the caller's transaction; how many. */
  private async queueFirstAttempts(tx: Executor, deliveryIds: readonly string[]): Promise<number> {
    if (!deliveryIds.length) return 0;
    await this.boss!.insert(
      deliveryIds.map((deliveryId) => ({ name: webhookQueue, data: { deliveryId, attempt: 1 } satisfies JobData, ...this.jobOptions() })),
      { db: inTransaction(tx) } as unknown as PgBoss.InsertOptions,
    );
    return deliveryIds.length;
  }

  /** Sends the first attempts of new deliveries now, in batches, and logs them as the worker does. */
  private attemptDirect(deliveryIds: readonly string[]): void {
    this.directInFlight += deliveryIds.length;
    const run = (async () => {
      for (let i = 0; i < deliveryIds.length; i += batchSize) {
        const chunk = deliveryIds.slice(i, i + batchSize);
        try {
          await this.attemptAll(chunk.map((deliveryId) => ({ deliveryId, attempt: 1 })));
        } catch (error) {
          // Not logged: the lease runs out and the attempt is queued as a job (recoverFirstAttempts).
          if (!this.stopped) this.options.log.warn({ err: error }, 'webhook first attempts failed; they are queued after their lease');
        } finally {
          this.directInFlight -= chunk.length;
        }
      }
    })();
    this.directRuns.add(run);
    void run.finally(() => this.directRuns.delete(run));
  }

  /**
   * Queues as jobs the first attempts whose lease ran out unlogged: their process died, or the
   * attempt could not be logged. Runs at start and with the relay's timer, in every process.
   */
  private async recoverFirstAttempts(): Promise<void> {
    if (this.stopped || !this.boss) return;
    try {
      const leaseS = this.jobOptions().expireInSeconds;
      const queued = await this.options.database.db.transaction(async (tx) => {
        const rows = await claimLapsedFirstAttempts(tx, { table: 'webhook_deliveries', pending: sql`state = 'pending'`, leaseS, returning: sql`id`, touch: sql`updated_at = now()` });
        return this.queueFirstAttempts(tx, rows.map((row) => String(row.id)));
      });
      if (queued) this.wake();
    } catch (error) {
      if (!this.stopped) this.options.log.warn({ err: error }, 'queueing unlogged first attempts failed; it runs again shortly');
    }
  }

  /** Enqueues one more attempt of a logged delivery now (a person asked); no automatic retry follows it. */
  async redeliver(deliveryId: string, requestId?: string): Promise<void> {
    await this.options.database.db.transaction(async (tx) => {
      const [row] = await query(tx, sql`update webhook_deliveries set state = 'pending', next_attempt_at = now(), updated_at = now() where id = ${deliveryId} returning attempts`);
      if (!row) return;
      await this.boss!.send(webhookQueue, { deliveryId, attempt: Number(row.attempts) + 1, manual: true, ...(requestId ? { requestId } : {}) } satisfies JobData, {
        ...this.jobOptions(),
        db: inTransaction(tx),
      } as PgBoss.SendOptions);
    });
    this.wake();
  }

  /**
   * One attempt of each delivery of a batch of jobs: one read of the deliveries, the requests sent
   * in parallel, then ONE transaction logs every attempt, moves every delivery's state, resets or
   * counts its webhook's failures and enqueues the retries. The work per attempt stays small, so
   * deliveries do not slow the writes they follow (writes slow by 10 % at most).
   */
  private async attemptAll(jobs: readonly JobData[]): Promise<void> {
    const { database, outbound, config } = this.options;
    // A delivery twice in one batch (a duplicate job): its first job only.
    const byDelivery = new Map<string, JobData>();
    for (const job of jobs) if (!byDelivery.has(job.deliveryId)) byDelivery.set(job.deliveryId, job);
    if (!byDelivery.size) return;
    const ids = [...byDelivery.keys()];
    const rows = await query(
      database.db,
      sql`select d.id, d.body, d.attempts, d.state, w.uri, w.method, w.secret, w.disabled_at, w.trigger, w.organization_id
          from webhook_deliveries d join webhooks w on w.id = d.webhook_id where d.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
    );
    const abandoned: string[] = [];
    const due: { job: JobData; row: Record<string, unknown> }[] = [];
    for (const row of rows) {
      const job = byDelivery.get(String(row.id))!;
      // This attempt ran already (a duplicate job). A deleted webhook took its deliveries with it.
      if (Number(row.attempts) !== job.attempt - 1) continue;
      if (!job.manual && (row.disabled_at != null || row.state !== 'pending')) {
        abandoned.push(job.deliveryId);
        continue;
      }
      due.push({ job, row });
    }
    const sender = this.sender ?? outbound;
    const results = await Promise.all(
      due.map(async ({ job, row }): Promise<AttemptResult> => {
        // Past the plan's hard limit the attempt is logged as not sent, with the reason.
        const refusal = (await this.options.refuseDelivery?.(String(row.organization_id))) ?? null;
        if (refusal) return { job, statusCode: null, responseBody: null, error: refusal, durationMs: 0, refused: true };
        return this.send(job, row, sender, config.timeoutMs);
      }),
    );
    if (!abandoned.length && !results.length) return;
    // The usual case, every attempt answered 2xx: one statement logs them, marks the deliveries
    // delivered (only those still at the attempt before: a duplicate job changes nothing) and
    // clears their webhooks' failure runs.
    if (!abandoned.length && results.every((r) => r.error === null)) {
      await database.db.transaction(async (tx) => { await tx.execute(sql`set local synchronous_commit = off`); await tx.execute(sql`
        with v (id, attempt, manual, status_code, response_body, duration_ms) as (
          values ${sql.join(
            results.map(
              (r) => sql`(${r.job.deliveryId}::text, ${r.job.attempt}::int, ${r.job.manual === true}::boolean, ${r.statusCode}::int, ${r.responseBody}::text, ${r.durationMs}::int)`,
            ),
            sql`, `,
          )}
        ), moved as (
          update webhook_deliveries d set attempts = v.attempt, state = 'delivered', next_attempt_at = null, updated_at = now()
          from v where d.id = v.id and d.attempts = v.attempt - 1
          returning d.id, d.webhook_id
        ), logged as (
          insert into webhook_attempts (delivery_id, webhook_id, attempt, manual, status_code, response_body, error, duration_ms)
          select v.id, moved.webhook_id, v.attempt, v.manual, v.status_code, v.response_body, null, v.duration_ms from v join moved on moved.id = v.id
        )
        update webhooks set consecutive_failures = 0 where consecutive_failures <> 0 and id in (select webhook_id from moved)`); });
      this.observe(results, results.map(() => false));
      return;
    }
    let observed: { results: AttemptResult[]; failedDeliveries: boolean[] } | undefined;
    await database.db.transaction(async (tx) => {
      if (abandoned.length) {
        await tx.execute(sql`update webhook_deliveries set state = 'failed', next_attempt_at = null, updated_at = now()
                             where state = 'pending' and id in (${sql.join(abandoned.map((id) => sql`${id}`), sql`, `)})`);
      }
      if (!results.length) return;
      // Locked in one order, so two workers never wait on each other in a circle.
      const current = await query(
        tx,
        sql`select id, attempts, webhook_id from webhook_deliveries
            where id in (${sql.join(results.map((r) => sql`${r.job.deliveryId}`), sql`, `)}) order by id for update`,
      );
      const webhookOf = new Map<string, string>();
      for (const row of current) {
        const result = results.find((r) => r.job.deliveryId === row.id);
        if (result && Number(row.attempts) === result.job.attempt - 1) webhookOf.set(String(row.id), String(row.webhook_id));
      }
      const logged = results.filter((r) => webhookOf.has(r.job.deliveryId));
      if (!logged.length) return;
      const now = Date.now();
      const outcomes = logged.map((r) => {
        const ok = r.error === null;
        const final = ok || r.refused === true || r.job.manual === true || r.job.attempt >= this.maxAttempts;
        const next = final ? null : new Date(now + jittered(config.retryDelaysMs[r.job.attempt - 1] ?? 0));
        return { ...r, ok, final, next, webhookId: webhookOf.get(r.job.deliveryId)!, state: ok ? 'delivered' : final ? 'failed' : 'pending' };
      });
      await tx.execute(sql`insert into webhook_attempts (delivery_id, webhook_id, attempt, manual, status_code, response_body, error, duration_ms) values ${sql.join(
        outcomes.map(
          (o) => sql`(${o.job.deliveryId}, ${o.webhookId}, ${o.job.attempt}, ${o.job.manual === true}, ${o.statusCode}, ${o.responseBody}, ${o.error}, ${o.durationMs})`,
        ),
        sql`, `,
      )}`);
      await tx.execute(sql`update webhook_deliveries d set attempts = v.attempt, state = v.state, next_attempt_at = v.next, updated_at = now()
                           from (values ${sql.join(
                             outcomes.map((o) => sql`(${o.job.deliveryId}, ${o.job.attempt}::int, ${o.state}, ${o.next?.toISOString() ?? null}::timestamptz)`),
                             sql`, `,
                           )}) as v(id, attempt, state, next)
                           where d.id = v.id`);
      const delivered = [...new Set(outcomes.filter((o) => o.ok).map((o) => o.webhookId))];
      if (delivered.length) {
        await tx.execute(sql`update webhooks set consecutive_failures = 0
                             where consecutive_failures <> 0 and id in (${sql.join(delivered.map((id) => sql`${id}`), sql`, `)})`);
      }
      // Deliveries that used up their attempts, in the order they ended: each counts once.
      for (const o of outcomes) {
        if (o.ok || !o.final || o.job.manual || o.refused) continue;
        await tx.execute(sql`update webhooks set consecutive_failures = consecutive_failures + 1,
                               disabled_at = case when disabled_at is null and consecutive_failures + 1 >= ${config.disableAfter} then now() else disabled_at end,
                               disabled_reason = case when disabled_at is null and consecutive_failures + 1 >= ${config.disableAfter}
                                 then ${`Disabled after ${config.disableAfter} deliveries in a row failed every attempt.`} else disabled_reason end
                             where id = ${o.webhookId}`);
      }
      observed = { results: outcomes, failedDeliveries: outcomes.map((o) => !o.ok && o.final && !o.job.manual && !o.refused) };
      const retries = outcomes.filter((o) => o.next !== null);
      if (retries.length) {
        await this.boss!.insert(
          retries.map((o) => ({
            name: webhookQueue,
            data: { deliveryId: o.job.deliveryId, attempt: o.job.attempt + 1 } satisfies JobData,
            startAfter: o.next!,
            ...this.jobOptions(),
          })),
          { db: inTransaction(tx) } as unknown as PgBoss.InsertOptions,
        );
      }
    });
    if (observed) this.observe(observed.results, observed.failedDeliveries);
  }

  /** After the attempts are logged (committed): counts them for `/metrics`, and logs the ones a request queued with its id. */
  private observe(results: readonly AttemptResult[], failedDeliveries: readonly boolean[]): void {
    const { metrics, log } = this.options;
    results.forEach((r, i) => {
      metrics?.attempt(r.refused ? 'refused' : r.error === null ? 'delivered' : 'failed');
      if (failedDeliveries[i]) metrics?.deliveryFailed();
      if (r.job.requestId) {
        log.info({ reqId: r.job.requestId, deliveryId: r.job.deliveryId, attempt: r.job.attempt, statusCode: r.statusCode, error: r.error }, 'webhook redelivery attempted');
      }
    });
  }

  /** Sends one attempt through the URL guard; never throws. */
  private async send(job: JobData, row: Record<string, unknown>, outbound: Pick<DeliverySender, 'send'>, timeoutMs: number): Promise<AttemptResult> {
    const body = String(row.body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const started = Date.now();
    let statusCode: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    try {
      const response = await outbound.send(String(row.uri), {
        method: row.method === 'PUT' ? 'PUT' : 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Larder-Webhooks/1',
          [webhookHeaders.signature]: signDelivery(String(row.secret), timestamp, body),
          [webhookHeaders.timestamp]: timestamp,
          [webhookHeaders.delivery]: job.deliveryId,
          [webhookHeaders.trigger]: String(row.trigger),
          [webhookHeaders.attempt]: String(job.attempt),
        },
        body,
        maxBytes: webhookLimits.responseBodyMax,
        timeoutMs,
      });
      statusCode = response.status;
      responseBody = response.body.toString('utf8').replace(/\u0000/g, '');
      if (response.status < 200 || response.status > 299) error = `The receiver answered ${response.status}.`;
    } catch (failure) {
      error = failure instanceof OutboundError ? `${failure.kind}: ${failure.message}` : 'the delivery failed';
    }
    return { job, statusCode, responseBody, error, durationMs: Date.now() - started };
  }
}
