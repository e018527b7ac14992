/**
 * Integration runs (docs/integrations.md "Runs"), as webhook deliveries are made
 * (docs/webhooks.md), so nothing is lost when a service is down or a process dies:
 *
 * - The relay reads `item_events` past its place (`event_relays`, name 'integrations') in the order
 *   their transactions became final, and in ONE transaction inserts a run per matching enabled
 *   instance (one per instance and event: `integration_runs_event`), enqueues its first attempt as
 *   a pg-boss job and moves its place. Events written before an instance was switched on are not
 *   its own (`enabled_snapshot`).
 * - Scheduled instances whose `next_run_at` passed get a run and their next time in one
 *   transaction (`for update skip locked`: one process takes each).
 * - One job is one attempt: the handler of the instance's integration runs with the settings and
 *   secrets opened; success ends the run, a failure is logged on the run and the next attempt is
 *   enqueued in the same transaction after the next delay of `INTEGRATION_RETRY_SCHEDULE`, until
 *   none is left (failed). A job whose attempt is not the run's next one is a repeat and is skipped.
 */
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { query, type Executor } from '../content/storage.ts';
import { contentEventChannel, eventsPastPlace } from '../live/events.ts';
import { newId } from '../lib/ids.ts';
import { RelayLoop } from '../lib/relay-loop.ts';
import type { UrlGuard } from '../lib/url-guard.ts';
import { bossDb, committedBefore, inTransaction, type BossDb } from '../webhooks/delivery.ts';
import { eventKeys } from '../webhooks/webhooks.ts';
import { integrationHandlers } from './handlers/index.ts';
import { RunFailure, type RunEvent, type RunInput } from './handlers/types.ts';
import { nextRun, type IntegrationInstanceService } from './instances.ts';

export const integrationQueue = 'integration-run';

interface JobData {
  runId: string;
  attempt: number;
}

export interface IntegrationRunnerOptions {
  database: Database;
  instances: IntegrationInstanceService;
  outbound: UrlGuard;
  config: { retryDelaysMs: number[]; timeoutMs: number };
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Whether the organization's apps are suspended by billing (BLOCK): its runs then fail, not retried. */
  suspended?: (organizationId: string) => Promise<boolean>;
  /** How often the relay and the schedule look without being told (ms). */
  intervalMs?: number;
  now?: () => Date;
}

/** Whether an instance listening to `collections` ([]: every list) hears an event of a list with these keys. */
const hears = (collections: readonly string[], keys: readonly string[]) => collections.length === 0 || collections.some((entry) => keys.includes(entry));

export class IntegrationRunner {
  private boss: PgBoss | undefined;
  private bossDb: BossDb | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly loop = new RelayLoop(
    () => this.relayBatch(),
    (error) => this.options.log.warn({ err: error }, 'integration relay failed; it runs again shortly'),
  );
  private workerId: string | undefined;

  constructor(private readonly options: IntegrationRunnerOptions) {}

  get maxAttempts() {
    return this.options.config.retryDelaysMs.length + 1;
  }

  private now() {
    return this.options.now?.() ?? new Date();
  }

  /**
   * A job that fails (a database error) runs again; one whose worker died runs again after its
   * expiry. An item event's attempt is a few requests, each under the deadline; a schedule's or a
   * test's (an export, an index rebuild) reads a whole collection, so its expiry is an hour: sooner,
   * pg-boss would start a second copy while the first still runs.
   */
  private jobOptions(trigger: string) {
    const long = trigger === 'schedule' || trigger === 'test';
    return { retryLimit: 3, retryDelay: 5, expireInSeconds: long ? 3600 : Math.ceil(this.options.config.timeoutMs / 1000) * 2 + 5 };
  }

  async start(): Promise<void> {
    const { database, log } = this.options;
    this.stopped = false;
    this.loop.restart();
    this.bossDb = bossDb(database);
    const boss = new PgBoss({ db: this.bossDb, schedule: false, supervise: true, maintenanceIntervalSeconds: 60 } as unknown as PgBoss.ConstructorOptions);
    boss.on('error', (error) => log.warn({ err: error }, 'integration queue error'));
    await boss.start();
    await boss.createQueue(integrationQueue);
    this.boss = boss;
    this.workerId = await boss.work<JobData>(integrationQueue, { pollingIntervalSeconds: 1, batchSize: 10 }, async (jobs) => {
      await Promise.all(jobs.map((job) => this.attempt(job.data)));
    });
    this.stopListening = await database.listen(contentEventChannel, () => this.relaySoon(), () => this.relay());
    this.timer = setInterval(() => {
      this.relay();
      void this.scheduleDue();
    }, this.options.intervalMs ?? 2000);
    this.timer.unref();
    this.relay();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // The loop stops with the rest at once: no batch after this one, no warning of a closing database.
    const relayStopped = this.loop.stop();
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    await this.stopListening?.();
    await relayStopped;
    await this.boss?.stop({ graceful: true, wait: true, timeout: this.options.config.timeoutMs + 2000 });
    this.boss = undefined;
    await this.bossDb?.close?.();
    this.bossDb = undefined;
  }

  private wake() {
    if (this.workerId && !this.stopped) this.boss?.notifyWorker(this.workerId);
  }

  /** Relays shortly after a write's notification, so the writes of one moment go in one batch. */
  private relaySoon(): void {
    if (this.soon || this.stopped) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.relay();
    }, 50);
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

  /** One batch of events into runs; the number of events read (0: caught up, or another process relays). */
  private async relayBatch(): Promise<number> {
    let queued = 0;
    const read = await this.options.database.db.transaction(async (tx) => {
      const [place] = await query(tx, sql`select xid::text as xid, event_id from event_relays where name = 'integrations' for update skip locked`);
      if (!place) return 0;
      const events = await eventsPastPlace(tx, { xid: String(place.xid), eventId: String(place.event_id) });
      if (!events.length) return 0;
      const projectIds = [...new Set(events.map((e) => String(e.project_id)))];
      const instances = await query(
        tx,
        sql`select id, project_id, collections, events, enabled_snapshot from integration_instances
            where enabled and jsonb_array_length(events) > 0 and project_id in (${sql.join(projectIds.map((p) => sql`${p}`), sql`, `)})`,
      );
      const runs: { id: string; instanceId: string; projectId: string; trigger: string; eventId: number; detail: string }[] = [];
      const before = new Map(instances.map((i) => [i.id, i.enabled_snapshot == null ? undefined : committedBefore(String(i.enabled_snapshot))]));
      for (const event of events) {
        const keys = eventKeys({ id: String(event.collection_id), slug: String(event.slug ?? event.collection_id) }, String(event.nested_path ?? ''));
        for (const instance of instances) {
          if (instance.project_id !== event.project_id) continue;
          if (before.get(instance.id)?.(BigInt(String(event.xid)))) continue;
          const wanted = (typeof instance.events === 'string' ? JSON.parse(instance.events) : instance.events) as string[];
          const collections = (typeof instance.collections === 'string' ? JSON.parse(instance.collections) : instance.collections) as string[];
          if (!wanted.includes(String(event.trigger)) || !hears(collections, keys)) continue;
          const detail: RunEvent = {
            collectionID: String(event.collection_id),
            collectionSlug: String(event.slug ?? event.collection_id),
            itemID: String(event.item_id),
            rootItemID: event.root_item_id == null ? null : String(event.root_item_id),
            nestedPath: String(event.nested_path ?? ''),
            trigger: String(event.trigger) as RunEvent['trigger'],
            item: (typeof event.item === 'string' ? JSON.parse(event.item) : event.item) as Record<string, unknown>,
          };
          runs.push({ id: newId(), instanceId: String(instance.id), projectId: String(instance.project_id), trigger: detail.trigger, eventId: Number(event.id), detail: JSON.stringify({ event: detail }) });
        }
      }
      if (runs.length) {
        const rows = sql.join(
          runs.map((r) => sql`(${r.id}, ${r.instanceId}, ${r.projectId}, ${r.trigger}, ${r.eventId}, ${r.detail}::jsonb)`),
          sql`, `,
        );
        const inserted = await query(
          tx,
          sql`insert into integration_runs (id, instance_id, project_id, trigger, event_id, detail) values ${rows}
              on conflict (instance_id, event_id) where event_id is not null do nothing returning id`,
        );
        queued += await this.enqueue(tx, inserted.map((row) => String(row.id)), 'event');
      }
      const last = events[events.length - 1]!;
      await tx.execute(sql`update event_relays set xid = ${last.xid}::xid8, event_id = ${last.id}, updated_at = now() where name = 'integrations'`);
      return events.length;
    });
    if (queued) this.wake();
    return read;
  }

  /** Enqueues the first attempts of runs, in the caller's transaction; how many. */
  private async enqueue(tx: Executor, runIds: readonly string[], trigger: string): Promise<number> {
    if (!runIds.length) return 0;
    await this.boss!.insert(
      runIds.map((runId) => ({ name: integrationQueue, data: { runId, attempt: 1 } satisfies JobData, ...this.jobOptions(trigger) })),
      { db: inTransaction(tx) } as unknown as PgBoss.InsertOptions,
    );
    return runIds.length;
  }

  /** Scheduled instances whose time came: a run each, and their next time. */
  async scheduleDue(): Promise<number> {
    if (this.stopped || !this.boss) return 0;
    try {
      const now = this.now();
      const made = await this.options.database.db.transaction(async (tx) => {
        const due = await query(
          tx,
          sql`select id, project_id, schedule from integration_instances
              where enabled and next_run_at is not null and next_run_at <= ${now.toISOString()}::timestamptz
              order by next_run_at limit 50 for update skip locked`,
        );
        const ids: string[] = [];
        for (const instance of due) {
          const next = nextRun(String(instance.schedule), now);
          await tx.execute(sql`update integration_instances set next_run_at = ${'next' in next ? next.next.toISOString() : null}::timestamptz where id = ${instance.id}`);
          const id = newId();
          await tx.execute(sql`insert into integration_runs (id, instance_id, project_id, trigger, detail) values (${id}, ${instance.id}, ${instance.project_id}, 'schedule', ${JSON.stringify({ scheduledFor: now.toISOString() })}::jsonb)`);
          ids.push(id);
        }
        return this.enqueue(tx, ids, 'schedule');
      });
      if (made) this.wake();
      return made;
    } catch (error) {
      if (!this.stopped) this.options.log.warn({ err: error }, 'scheduling integration runs failed; it runs again shortly');
      return 0;
    }
  }

  /** A run a person asked for ("send a test"); its id. */
  async test(instanceId: string, projectId: string): Promise<string> {
    const id = newId();
    await this.options.database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into integration_runs (id, instance_id, project_id, trigger, detail) values (${id}, ${instanceId}, ${projectId}, 'test', '{}'::jsonb)`);
      await this.enqueue(tx, [id], 'test');
    });
    this.wake();
    return id;
  }

  /** One attempt of one run (a job). */
  async attempt(job: JobData): Promise<void> {
    const { database, instances, outbound, config, publicUrl, log } = this.options;
    const [run] = await query(database.db, sql`select id, instance_id, trigger, status, attempts, detail from integration_runs where id = ${job.runId}`);
    // Gone (its instance deleted), over, or not this attempt's turn: a repeated job.
    if (!run || run.status !== 'pending' || Number(run.attempts) !== job.attempt - 1) return;
    const started = Date.now();
    let result: Record<string, unknown> | undefined;
    let failure: RunFailure | undefined;
    try {
      const loaded = await instances.forRun(String(run.instance_id));
      if (!loaded) return;
      if ('error' in loaded) throw new RunFailure(loaded.error, false);
      if (await this.options.suspended?.(loaded.row.organizationId)) {
        throw new RunFailure('Not run: the organization’s API services are suspended (billing account unpaid).', false);
      }
      const handler = integrationHandlers.get(loaded.entry.id);
      if (!handler) throw new RunFailure(`Runs of "${loaded.entry.id}" are not available in this version of Larder.`, false);
      const detail = (typeof run.detail === 'string' ? JSON.parse(run.detail) : run.detail) as { event?: RunEvent };
      const input: RunInput = {
        trigger: String(run.trigger) as RunInput['trigger'],
        ...(detail.event ? { event: detail.event } : {}),
        instance: { id: loaded.row.id, projectId: loaded.row.projectId, organizationId: loaded.row.organizationId, name: loaded.row.name, collections: loaded.row.collections },
        entry: loaded.entry,
        settings: loaded.settings,
      };
      result = await handler.run({ db: database.db, outbound, timeoutMs: config.timeoutMs, publicUrl, log }, input);
    } catch (error) {
      failure = error instanceof RunFailure ? error : new RunFailure((error as Error).message || String(error));
    }
    const durationMs = Date.now() - started;
    const retryIn = failure?.retry && job.attempt < this.maxAttempts ? config.retryDelaysMs[job.attempt - 1]! : undefined;
    const status = failure ? (retryIn === undefined ? 'failed' : 'pending') : 'succeeded';
    const error = failure ? failure.message.slice(0, 1000) : null;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`
        update integration_runs set status = ${status}, attempts = ${job.attempt}, error = ${error}, duration_ms = ${durationMs},
          detail = detail || ${JSON.stringify(result ? { result } : {})}::jsonb,
          next_attempt_at = ${retryIn === undefined ? null : new Date(Date.now() + retryIn).toISOString()}::timestamptz,
          finished_at = ${status === 'pending' ? null : new Date().toISOString()}::timestamptz
        where id = ${job.runId}`);
      await tx.execute(sql`
        update integration_instances set last_run_at = now(), last_status = ${failure ? (retryIn === undefined ? 'failed' : 'retrying') : 'succeeded'}, last_error = ${error}
        where id = ${run.instance_id}`);
      if (retryIn !== undefined) {
        await this.boss!.insert(
          [{ name: integrationQueue, data: { runId: job.runId, attempt: job.attempt + 1 } satisfies JobData, startAfter: new Date(Date.now() + retryIn), ...this.jobOptions(String(run.trigger)) }],
          { db: inTransaction(tx) } as unknown as PgBoss.InsertOptions,
        );
      }
    });
  }
}
