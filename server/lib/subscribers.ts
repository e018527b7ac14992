/**
 * What runs on a project's item events and schedules through the job queue — integration
 * instances (docs/integrations.md "Runs") and functions (docs/functions.md "Event and schedule
 * triggers") — has one owner here, as webhook deliveries have theirs (docs/webhooks.md):
 *
 * - a subscriber (an instance, a function) names the item events it runs after and the lists it
 *   listens to (collection row ids, with a nested path after a dot; none: every list), and maybe a
 *   cron schedule;
 * - the relay reads `item_events` past its place (`event_relays`, one row per kind of subscriber)
 *   in the order their transactions became final, and in ONE transaction inserts a run per
 *   matching subscriber (one per subscriber and event) and moves its place. Events committed
 *   before a subscriber began listening are not its own (its snapshot). Busy writers are relayed
 *   twice a second, in batches, as webhook deliveries are (docs/webhooks.md);
 * - the relay's process makes the first attempts of its new runs itself once its transaction
 *   committed, a few at a time, each under a lease (`next_attempt_at`); a first attempt whose lease
 *   ran out unmade (its process died) is queued as a pg-boss job by any process. Past
 *   `directAttempts` waiting, first attempts are queued as jobs at once;
 * - subscribers whose `next_run_at` passed get a run and their next time in one transaction
 *   (`for update skip locked`: one process takes each);
 * - one job is one attempt, made by the kind's own `attempt` (given a batch of them at once, so it
 *   may read and write them together), which enqueues the next one (in its own transaction) when
 *   the run is to be tried again.
 */
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import cronParser from 'cron-parser';
import { eq, sql } from 'drizzle-orm';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { Database, Db } from '../db/index.ts';
import { contentCollections } from '../db/schema.ts';
import { levelAt, topLevel } from '../content/schema-tree.ts';
import { query, type Executor } from '../content/storage.ts';
import { contentEventChannel, eventsPastPlace } from '../live/events.ts';
import { newId } from './ids.ts';
import { RelayLoop } from './relay-loop.ts';
import type { Quiet } from './foreground.ts';
import { claimLapsedFirstAttempts } from './first-attempts.ts';
import { bossDb, committedBefore, ensureQueue, inTransaction, type BossDb } from '../webhooks/delivery.ts';
import { eventKeys } from '../webhooks/webhooks.ts';

/**
 * When a write's notification runs the relay (ms): at least `relayDelayMs` later, so writes of the
 * same moment go in one run, and at least `relaySpacingMs` after the relay's last run: each run's
 * cost is mostly fixed, so fewer, larger runs keep the subscribers' work off busy writers.
 */
const relayDelayMs = 20;
const relaySpacingMs = 500;
/**
 * Attempts handed to the kind's `attempt` at once (a queue worker's fetch, or the first attempts
 * the relay's process makes), and first attempts waiting at most before the rest are queued as jobs.
 */
const batchSize = 4;
/** A first attempt that failed outside its subscriber is made again this much later (s), as pg-boss retries a failed job. */
const retryAfterFailureS = 5;
const directAttempts = 1000;
/** A first attempt waits for a moment without requests in flight at most this long after its relay (ms). */
const giveWayMs = 2000;
/** The relay after a write's notification waits for such a moment at most this long (ms). */
const relayGiveWayMs = 1000;

/** A schedule runs at most this often. */
export const minScheduleMinutes = 5;

/** The next time a cron expression fires after `from` (UTC), or the reason it is not one. */
export function nextRun(schedule: string, from: Date): { next: Date } | { error: string } {
  try {
    const parsed = cronParser.parseExpression(schedule, { currentDate: from, tz: 'UTC' });
    const first = parsed.next().toDate();
    const second = parsed.next().toDate();
    if (second.getTime() - first.getTime() < minScheduleMinutes * 60_000) {
      return { error: `must run at most every ${minScheduleMinutes} minutes` };
    }
    return { next: first };
  } catch (error) {
    return { error: `is not a cron expression (${(error as Error).message})` };
  }
}

/** The project's collections' slugs by row id. */
export async function projectSlugs(db: Db, projectId: string): Promise<Map<string, string>> {
  const rows = await db.select({ id: contentCollections.id, slug: contentCollections.slug }).from(contentCollections).where(eq(contentCollections.projectId, projectId));
  return new Map(rows.map((r) => [r.id, r.slug]));
}

/**
 * Lists as answered. They are kept by row id (a renamed slug keeps them) and answered by today's
 * slug (nested path after a dot), as the console and the API name them; a collection that is gone
 * keeps its row id.
 */
export function collectionNames(stored: readonly string[], slugs: ReadonlyMap<string, string>): string[] {
  return stored.map((entry) => {
    const [head = '', ...rest] = entry.split('.');
    return [slugs.get(head) ?? head, ...rest].join('.');
  });
}

/**
 * Lists named as a person names them (a collection's id or slug, then a nested list's slugs after
 * dots) resolved to how they are kept; a message per name that is no list of the project (or a
 * nested one where `topLevelOnly`).
 */
export async function resolveCollections(db: Db, projectId: string, names: readonly string[], topLevelOnly = false): Promise<{ resolved: string[]; errors: string[] }> {
  const wanted = [...new Set(names.map((c) => c.trim()))];
  const rows = wanted.length
    ? await db.select({ id: contentCollections.id, slug: contentCollections.slug, schema: contentCollections.schema }).from(contentCollections).where(eq(contentCollections.projectId, projectId))
    : [];
  const resolved: string[] = [];
  const errors: string[] = [];
  for (const name of wanted) {
    const [head, ...rest] = name.split('.');
    const row = rows.find((r) => r.id === head || r.slug === head);
    if (!row || !levelAt(topLevel(row.id, row.schema as SchemaField[]), rest)) errors.push(`"${name.slice(0, 100)}" is not a collection of this project`);
    else if (topLevelOnly && rest.length) errors.push('must be a top-level collection');
    else resolved.push([row.id, ...rest].join('.'));
  }
  return { resolved, errors };
}

/** An item event as a subscriber's run gets it. */
export interface SubscriberEvent {
  collectionID: string;
  collectionSlug: string;
  itemID: string;
  rootItemID: string | null;
  nestedPath: string;
  trigger: 'create' | 'update' | 'delete';
  /** The item after the write (before it, for a delete). */
  item: Record<string, unknown>;
}

/** One job: one attempt of one run. */
export interface RunJob {
  runId: string;
  attempt: number;
  /** The request that asked for the run (a test a person asked for): the attempt's log line names it (docs/monitoring.md "Request ids"). */
  requestId?: string;
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export interface SubscriberRunnerOptions {
  database: Database;
  log: FastifyBaseLogger;
  /** Words for the log ("integration", "function"). */
  label: string;
  /** The `event_relays` row and the pg-boss queue. */
  relay: string;
  queue: string;
  /**
   * The tables: `owners` has id, project_id, events, collections, schedule, next_run_at and the
   * snapshot column; `runs` has id, the owner column, project_id, trigger, event_id, detail (and a
   * unique index on the owner column and event_id). `active` picks the owners that run at all.
   */
  tables: { owners: string; runs: string; ownerColumn: string; snapshotColumn: string; active: string };
  /** pg-boss options of a job of this trigger ('event', 'schedule', 'test'). */
  jobOptions: (trigger: string) => { retryLimit: number; retryDelay: number; expireInSeconds: number };
  /** Attempts of runs (a batch); each enqueues its next with `enqueueAttempt` when there is to be one. */
  attempt: (jobs: RunJob[]) => Promise<void>;
  /** How often the relay and the schedule look without being told (ms). */
  intervalMs?: number;
  now?: () => Date;
  /**
   * Waits for a moment with no request in flight, or until a time (ms): first attempts of event
   * runs begin only then (server/lib/foreground.ts), at most `giveWayMs` after they were relayed.
   */
  quiet?: Quiet;
}

export class SubscriberRunner {
  private boss: PgBoss | undefined;
  private bossDb: BossDb | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Aborts when `stop` begins: a first attempt waiting for a quiet moment stops waiting. */
  private stopping = new AbortController();
  private workerId: string | undefined;
  private readonly loop: RelayLoop;
  /**
   * First attempts this process is to make itself: the run, and until when it may still begin
   * (half its lease: one begun later might overlap the job another process queues when it runs out).
   */
  private readonly direct: { runId: string; beginBy: number; dueBy: number }[] = [];
  private directRunning = 0;
  private directDone: Promise<void> | undefined;

  constructor(private readonly options: SubscriberRunnerOptions) {
    this.loop = new RelayLoop(
      () => this.relayBatch(),
      (error) => options.log.warn({ err: error }, `${options.label} relay failed; it runs again shortly`),
      // The relay gives way to requests too: its batch is written in one transaction on this thread.
      { delayMs: relayDelayMs, spacingMs: relaySpacingMs, ...(options.quiet ? { quiet: { wait: options.quiet, maxMs: relayGiveWayMs } } : {}) },
    );
  }

  private now() {
    return this.options.now?.() ?? new Date();
  }

  async start(): Promise<void> {
    const { database, log, queue } = this.options;
    this.stopped = false;
    this.stopping = new AbortController();
    this.loop.restart();
    this.bossDb = bossDb(database);
    const boss = new PgBoss({ db: this.bossDb, schedule: false, supervise: true, maintenanceIntervalSeconds: 60 } as unknown as PgBoss.ConstructorOptions);
    boss.on('error', (error) => log.warn({ err: error }, `${this.options.label} queue error`));
    await boss.start();
    await ensureQueue(boss, queue);
    this.boss = boss;
    this.workerId = await boss.work<RunJob>(queue, { pollingIntervalSeconds: 1, batchSize }, async (jobs) => {
      await this.options.attempt(jobs.map((job) => job.data));
    });
    this.stopListening = await database.listen(contentEventChannel, () => this.loop.soon(), () => this.relay());
    this.timer = setInterval(() => {
      this.relay();
      void this.scheduleDue();
      void this.recoverFirstAttempts();
    }, this.options.intervalMs ?? 2000);
    this.timer.unref();
    this.relay();
    void this.recoverFirstAttempts();
  }

  /** How long a first attempt the relay's process makes may take before another process queues it (s). */
  private leaseSeconds(trigger: string) {
    return this.options.jobOptions(trigger).expireInSeconds;
  }

  /** Stops taking work; an attempt under way ends first (at most `drainMs`). */
  async stop(drainMs: number): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    // The loop stops with the rest at once: no batch after this one, no warning of a closing database.
    const relayStopped = this.loop.stop();
    if (this.timer) clearInterval(this.timer);
    await this.stopListening?.();
    await relayStopped;
    // First attempts not begun are left to their lease (another process, or this one's next start, queues them).
    this.direct.length = 0;
    await this.directDone;
    await this.boss?.stop({ graceful: true, wait: true, timeout: drainMs });
    this.boss = undefined;
    await this.bossDb?.close?.();
    this.bossDb = undefined;
  }

  private wake() {
    if (this.workerId && !this.stopped) this.boss?.notifyWorker(this.workerId);
  }

  /** Runs the relay now, or once more after the run under way. */
  relay(): void {
    if (this.stopped || !this.boss) return;
    this.loop.run();
  }

  /**
   * Makes first attempts of new runs now, `batchSize` at a time; a batch that fails is queued again.
   * One that waited past half its lease (slow attempts ahead of it) is left to the lease.
   */
  private attemptDirect(runIds: readonly string[]): void {
    const beginBy = Date.now() + (this.leaseSeconds('event') * 1000) / 2;
    const dueBy = Date.now() + giveWayMs;
    this.direct.push(...runIds.map((runId) => ({ runId, beginBy, dueBy })));
    if (this.directDone) return;
    this.directDone = (async () => {
      while (this.direct.length && !this.stopped) {
        await this.options.quiet?.(this.direct[0]!.dueBy, this.stopping.signal);
        if (this.stopped) break;
        const now = Date.now();
        const batch = this.direct
          .splice(0, batchSize)
          .filter((entry) => entry.beginBy > now)
          .map((entry) => entry.runId);
        if (!batch.length) continue;
        this.directRunning = batch.length;
        try {
          await this.options.attempt(batch.map((runId) => ({ runId, attempt: 1 })));
        } catch (error) {
          if (!this.stopped) {
            this.options.log.warn({ err: error }, `first attempts of ${this.options.label} runs failed outside their subscriber; they are queued again`);
            await this.requeueFirstAttempts(batch);
          }
        }
        this.directRunning = 0;
      }
    })().finally(() => {
      this.directDone = undefined;
    });
  }

  /**
   * First attempts that failed outside their subscriber (a database error): queued as jobs a few
   * seconds on, as a failed job is tried again, instead of waiting out their lease. Those already
   * made (a batch that failed partway) are skipped by the attempt's own check; if this fails too,
   * the lease still brings them back.
   */
  private async requeueFirstAttempts(runIds: readonly string[]): Promise<void> {
    const runs = sql.identifier(this.options.tables.runs);
    try {
      const queued = await this.options.database.db.transaction(async (tx) => {
        // enqueueAttempt moves each one's lease past the job's time.
        const rows = await query(
          tx,
          sql`select id, trigger from ${runs}
              where id in (${sql.join(runIds.map((id) => sql`${id}`), sql`, `)}) and status = 'pending' and attempts = 0 for update`,
        );
        const startAfter = new Date(Date.now() + retryAfterFailureS * 1000);
        for (const row of rows) await this.enqueueAttempt(tx, { runId: String(row.id), attempt: 1 }, startAfter, String(row.trigger));
        return rows.length;
      });
      if (queued) this.wake();
    } catch (error) {
      if (!this.stopped) this.options.log.warn({ err: error }, `queueing ${this.options.label} first attempts again failed; their lease brings them back`);
    }
  }

  /**
   * Queues as jobs the first attempts whose lease ran out unmade: their process died, or the
   * attempt failed outside the subscriber. Runs at start and with the timer, in every process.
   */
  private async recoverFirstAttempts(): Promise<void> {
    if (this.stopped || !this.boss) return;
    try {
      const queued = await this.options.database.db.transaction(async (tx) => {
        const rows = await claimLapsedFirstAttempts(tx, { table: this.options.tables.runs, pending: sql`status = 'pending'`, leaseS: this.leaseSeconds('event'), returning: sql`id, trigger` });
        let count = 0;
        for (const trigger of new Set(rows.map((row) => String(row.trigger)))) {
          count += await this.enqueue(tx, rows.filter((row) => row.trigger === trigger).map((row) => String(row.id)), trigger);
        }
        return count;
      });
      if (queued) this.wake();
    } catch (error) {
      if (!this.stopped) this.options.log.warn({ err: error }, `queueing unmade ${this.options.label} first attempts failed; it runs again shortly`);
    }
  }

  /** Waits for the relay run under way (tests and shutdown). */
  async settled(): Promise<void> {
    await this.loop.settled();
  }

  /** One batch of events into runs; the number of events read (0: caught up, or another process relays). */
  private async relayBatch(): Promise<number> {
    const { relay, tables } = this.options;
    const owners = sql.identifier(tables.owners);
    let queued = 0;
    const direct: string[] = [];
    const read = await this.options.database.db.transaction(async (tx) => {
      // Not waiting for the disk: a crash in the next moment loses the runs and the relay's place
      // together, so the events are relayed again (a first attempt made meanwhile is made again).
      await tx.execute(sql`set local synchronous_commit = off`);
      const [place] = await query(tx, sql`select xid::text as xid, event_id from event_relays where name = ${relay} for update skip locked`);
      if (!place) return 0;
      const events = await eventsPastPlace(tx, { xid: String(place.xid), eventId: String(place.event_id) });
      if (!events.length) return 0;
      const projectIds = [...new Set(events.map((e) => String(e.project_id)))];
      const subscribers = await query(
        tx,
        sql`select id, project_id, collections, events, ${sql.identifier(tables.snapshotColumn)} as snapshot from ${owners}
            where ${sql.raw(tables.active)} and jsonb_array_length(events) > 0 and project_id in (${sql.join(projectIds.map((p) => sql`${p}`), sql`, `)})`,
      );
      const before = new Map(subscribers.map((s) => [s.id, s.snapshot == null ? undefined : committedBefore(String(s.snapshot))]));
      const runs: { id: string; ownerId: string; projectId: string; trigger: string; eventId: number; detail: string }[] = [];
      for (const event of events) {
        // A bulk import's batch event names no item: item-event runs are per item (server/content/import.ts).
        if (event.trigger === 'import') continue;
        const keys = eventKeys({ id: String(event.collection_id), slug: String(event.slug ?? event.collection_id) }, String(event.nested_path ?? ''));
        for (const subscriber of subscribers) {
          if (subscriber.project_id !== event.project_id) continue;
          if (before.get(subscriber.id)?.(BigInt(String(event.xid)))) continue;
          const wanted = json<string[]>(subscriber.events);
          const collections = json<string[]>(subscriber.collections);
          // No lists named: every list.
          if (!wanted.includes(String(event.trigger)) || (collections.length > 0 && !collections.some((entry) => keys.includes(entry)))) continue;
          const detail: SubscriberEvent = {
            collectionID: String(event.collection_id),
            collectionSlug: String(event.slug ?? event.collection_id),
            itemID: String(event.item_id),
            rootItemID: event.root_item_id == null ? null : String(event.root_item_id),
            nestedPath: String(event.nested_path ?? ''),
            trigger: String(event.trigger) as SubscriberEvent['trigger'],
            item: json<Record<string, unknown>>(event.item),
          };
          runs.push({ id: newId(), ownerId: String(subscriber.id), projectId: String(subscriber.project_id), trigger: detail.trigger, eventId: Number(event.id), detail: JSON.stringify({ event: detail }) });
        }
      }
      if (runs.length) {
        const rows = sql.join(
          runs.map((r) => sql`(${r.id}, ${r.ownerId}, ${r.projectId}, ${r.trigger}, ${r.eventId}, ${r.detail}::jsonb, now() + make_interval(secs => ${this.leaseSeconds('event')}))`),
          sql`, `,
        );
        const inserted = await query(
          tx,
          sql`insert into ${sql.identifier(tables.runs)} (id, ${sql.identifier(tables.ownerColumn)}, project_id, trigger, event_id, detail, next_attempt_at) values ${rows}
              on conflict (${sql.identifier(tables.ownerColumn)}, event_id) where event_id is not null do nothing returning id`,
        );
        // The first attempts are this process's own under their lease; past directAttempts waiting, jobs now.
        const room = Math.max(0, directAttempts - this.direct.length - this.directRunning);
        direct.push(...inserted.slice(0, room).map((row) => String(row.id)));
        queued += await this.enqueue(tx, inserted.slice(room).map((row) => String(row.id)), 'event');
      }
      const last = events[events.length - 1]!;
      await tx.execute(sql`update event_relays set xid = ${last.xid}::xid8, event_id = ${last.id}, updated_at = now() where name = ${relay}`);
      return events.length;
    });
    if (queued) this.wake();
    if (direct.length && !this.stopped) this.attemptDirect(direct);
    return read;
  }

  /** Enqueues the first attempts of runs, in the caller's transaction; how many. */
  async enqueue(tx: Executor, runIds: readonly string[], trigger: string, requestId?: string): Promise<number> {
    if (!runIds.length) return 0;
    if (!this.boss) throw new Error(`the ${this.options.label} queue is not started`);
    await this.boss.insert(
      runIds.map((runId) => ({ name: this.options.queue, data: { runId, attempt: 1, ...(requestId ? { requestId } : {}) } satisfies RunJob, ...this.options.jobOptions(trigger) })),
      { db: inTransaction(tx) } as unknown as PgBoss.InsertOptions,
    );
    return runIds.length;
  }

  /**
   * Enqueues a later attempt of a run, in the caller's transaction. A first attempt made again
   * later (its subscriber was busy) keeps a lease past that time, so it is not queued twice.
   */
  async enqueueAttempt(tx: Executor, job: RunJob, startAfter: Date, trigger: string): Promise<void> {
    if (!this.boss) throw new Error(`the ${this.options.label} queue is not started`);
    if (job.attempt === 1) {
      await tx.execute(
        sql`update ${sql.identifier(this.options.tables.runs)} set next_attempt_at = ${startAfter.toISOString()}::timestamptz + make_interval(secs => ${this.leaseSeconds(trigger)})
            where id = ${job.runId} and attempts = 0 and next_attempt_at is not null`,
      );
    }
    await this.boss.insert([{ name: this.options.queue, data: job, startAfter, ...this.options.jobOptions(trigger) }], { db: inTransaction(tx) } as unknown as PgBoss.InsertOptions);
  }

  /** Makes a run now (a test a person asked for, by the request `requestId`) with its first attempt; its id. */
  async runNow(ownerId: string, projectId: string, trigger: string, detail: Record<string, unknown>, requestId?: string): Promise<string> {
    const { tables } = this.options;
    const id = newId();
    await this.options.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`insert into ${sql.identifier(tables.runs)} (id, ${sql.identifier(tables.ownerColumn)}, project_id, trigger, detail) values (${id}, ${ownerId}, ${projectId}, ${trigger}, ${JSON.stringify(detail)}::jsonb)`,
      );
      await this.enqueue(tx, [id], trigger, requestId);
    });
    this.wake();
    return id;
  }

  /** Scheduled subscribers whose time came: a run each, and their next time. */
  async scheduleDue(): Promise<number> {
    if (this.stopped || !this.boss) return 0;
    const { tables } = this.options;
    const owners = sql.identifier(tables.owners);
    try {
      const now = this.now();
      const made = await this.options.database.db.transaction(async (tx) => {
        const due = await query(
          tx,
          sql`select id, project_id, schedule from ${owners}
              where ${sql.raw(tables.active)} and next_run_at is not null and next_run_at <= ${now.toISOString()}::timestamptz
              order by next_run_at limit 50 for update skip locked`,
        );
        const ids: string[] = [];
        for (const owner of due) {
          const next = nextRun(String(owner.schedule), now);
          await tx.execute(sql`update ${owners} set next_run_at = ${'next' in next ? next.next.toISOString() : null}::timestamptz where id = ${owner.id}`);
          const id = newId();
          await tx.execute(
            sql`insert into ${sql.identifier(tables.runs)} (id, ${sql.identifier(tables.ownerColumn)}, project_id, trigger, detail)
                values (${id}, ${owner.id}, ${owner.project_id}, 'schedule', ${JSON.stringify({ scheduledFor: now.toISOString() })}::jsonb)`,
          );
          ids.push(id);
        }
        return this.enqueue(tx, ids, 'schedule');
      });
      if (made) this.wake();
      return made;
    } catch (error) {
      if (!this.stopped) this.options.log.warn({ err: error }, `scheduling ${this.options.label} runs failed; it runs again shortly`);
      return 0;
    }
  }
}
