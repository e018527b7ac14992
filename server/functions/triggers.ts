/**
 * A function's item-event and schedule triggers (docs/functions.md "Event and schedule
 * triggers"), on the subscribers' relay and queue (server/lib/subscribers.ts): a run per deployed
 * function and item event it listens to (events committed before it began listening are not its
 * own), a run per schedule time. One job is one attempt: the deployed version runs with the event,
 * logged as an invocation with the run and the attempt; a run whose function failed is tried again
 * after the next delay of `FUNCTION_RETRY_SCHEDULE`, until none is left (failed). A job whose
 * attempt is not the run's next one is a repeat and is skipped.
 */
import type { Quiet } from '../lib/foreground.ts';
import type { FastifyBaseLogger } from 'fastify';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { functionRuns, functions } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { SubscriberRunner, type RunJob, type SubscriberEvent } from '../lib/subscribers.ts';
import type { Executor } from '../content/storage.ts';
import type { FunctionService, InvocationInsert } from './service.ts';

type RunRow = typeof functionRuns.$inferSelect;
interface Failure {
  message: string;
  retry: boolean;
}
/** An attempt made (or refused): its run, its job, its log row if the function ran, and why it failed. */
interface Outcome {
  run: RunRow;
  job: RunJob;
  log?: InvocationInsert;
  failure?: Failure;
}

/** Functions of one batch run at once, at most (the sandbox has a thread per CPU; data calls overlap). */
const inParallel = 4;

export const functionQueue = 'function-run';

/** When every sandbox slot of the project is taken, the attempt waits this long and is made again (not counted). */
const BUSY_DELAY_MS = 1000;

/** What a function gets as its event (docs/functions.md "Event and schedule triggers"). */
export type FunctionTriggerEvent = ({ kind: 'item' } & SubscriberEvent) | { kind: 'schedule'; scheduledFor: string };

export interface FunctionTriggersOptions {
  database: Database;
  service: FunctionService;
  config: { retryDelaysMs: number[]; timeoutMs: number };
  log: FastifyBaseLogger;
  /** Whether the organization's apps are suspended by billing (BLOCK): its runs then fail, not retried. */
  suspended?: (organizationId: string) => Promise<boolean>;
  intervalMs?: number;
  now?: () => Date;
  /** Runs on item events give way to requests (server/lib/foreground.ts). */
  quiet?: Quiet;
}

export class FunctionTriggers {
  private readonly runs: SubscriberRunner;

  constructor(private readonly options: FunctionTriggersOptions) {
    this.runs = new SubscriberRunner({
      database: options.database,
      log: options.log,
      label: 'function',
      relay: 'functions',
      queue: functionQueue,
      // Only a deployed function runs: events of a function with nothing deployed are not queued.
      tables: { owners: 'functions', runs: 'function_runs', ownerColumn: 'function_id', snapshotColumn: 'triggers_snapshot', active: 'deployed_version_id is not null' },
      // A job that fails (a database error) runs again; one whose worker died after its expiry: four
      // deadlines and 30 s, as a batch's function may first wait for a sandbox thread other calls hold.
      jobOptions: () => ({ retryLimit: 3, retryDelay: 5, expireInSeconds: Math.ceil(options.config.timeoutMs / 1000) * 4 + 30 }),
      attempt: (jobs) => this.attemptAll(jobs),
      ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.quiet ? { quiet: options.quiet } : {}),
    });
  }

  get maxAttempts() {
    return this.options.config.retryDelaysMs.length + 1;
  }

  start(): Promise<void> {
    return this.runs.start();
  }

  stop(): Promise<void> {
    return this.runs.stop(this.options.config.timeoutMs + 2000);
  }

  /** Waits for the relay run under way (tests and shutdown). */
  settled(): Promise<void> {
    return this.runs.settled();
  }

  /** Functions whose schedule came due: a run each, and their next time. */
  scheduleDue(): Promise<number> {
    return this.runs.scheduleDue();
  }

  /**
   * Attempts of runs (jobs, or first attempts the relay's process makes), as few statements as
   * possible for the batch: one read of the runs and their functions, the functions run
   * `inParallel` at a time, then ONE transaction writes every invocation's log row and every run's
   * outcome (and enqueues the retries), without waiting for the disk (docs/functions.md "Event and
   * schedule triggers": at least once).
   */
  async attemptAll(jobs: readonly RunJob[]): Promise<void> {
    const { database, service, log } = this.options;
    const db = database.db;
    const byRun = new Map<string, RunJob>();
    for (const job of jobs) if (!byRun.has(job.runId)) byRun.set(job.runId, job);
    if (!byRun.size) return;
    const pairs = await db
      .select({ run: functionRuns, fn: functions })
      .from(functionRuns)
      .innerJoin(functions, eq(functions.id, functionRuns.functionId))
      .where(inArray(functionRuns.id, [...byRun.keys()]));
    const outcomes: Outcome[] = [];
    const busy: { job: RunJob; trigger: string }[] = [];
    const due = pairs.filter(({ run }) => run.status === 'pending' && run.attempts === byRun.get(run.id)!.attempt - 1);
    // Gone (its function deleted), over, or not this attempt's turn: a repeated job, left out above.
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < due.length; i = next++) {
        const { run, fn } = due[i]!;
        const job = byRun.get(run.id)!;
        try {
          if (await this.options.suspended?.(fn.organizationId)) {
            outcomes.push({ run, job, failure: { message: 'Not run: the organization’s API services are suspended (billing account unpaid).', retry: false } });
            continue;
          }
          const version = await service.version(fn.id, fn.deployedVersionId);
          if (!version) {
            outcomes.push({ run, job, failure: { message: 'Not run: the function has no deployed version.', retry: false } });
            continue;
          }
          const detail = run.detail as { event?: SubscriberEvent; scheduledFor?: string };
          const event: FunctionTriggerEvent = detail.event ? { kind: 'item', ...detail.event } : { kind: 'schedule', scheduledFor: String(detail.scheduledFor ?? run.createdAt.toISOString()) };
          const executed = await service.execute(fn, version, event, run.trigger === 'schedule' ? 'schedule' : 'event', { runId: run.id, attempt: job.attempt });
          const error = executed.result.error;
          outcomes.push({ run, job, log: executed.log, ...(executed.result.ok ? {} : { failure: { message: `${error?.name ?? 'Error'}: ${error?.message ?? 'failed'}`, retry: true } }) });
        } catch (error) {
          // Every slot of the project is taken (HTTP calls count too): the same attempt, a moment later.
          if (error instanceof AppError && error.code === 'function_busy') busy.push({ job, trigger: run.trigger });
          else {
            log.warn({ err: error, runId: run.id }, 'a function run failed outside the function');
            outcomes.push({ run, job, failure: { message: (error as Error).message || String(error), retry: true } });
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(inParallel, due.length) }, worker));
    if (!outcomes.length && !busy.length) return;
    await db.transaction(async (tx) => {
      await service.logInvocations(tx, outcomes.flatMap((o) => (o.log ? [o.log] : [])));
      await this.finish(tx, outcomes);
      for (const { job, trigger } of busy) await this.runs.enqueueAttempt(tx, job, new Date(Date.now() + BUSY_DELAY_MS), trigger);
    });
  }

  /** The runs after their attempts, in one statement: succeeded, failed, or pending with the next attempt enqueued. */
  private async finish(tx: Executor, outcomes: readonly Outcome[]): Promise<void> {
    if (!outcomes.length) return;
    const { config } = this.options;
    const now = Date.now();
    const rows = outcomes.map(({ run, job, failure }) => {
      const retryIn = failure?.retry && job.attempt < this.maxAttempts ? config.retryDelaysMs[job.attempt - 1]! : undefined;
      const status = failure ? (retryIn === undefined ? 'failed' : 'pending') : 'succeeded';
      return { run, job, status, error: failure ? failure.message.slice(0, 1000) : null, next: retryIn === undefined ? null : new Date(now + retryIn) };
    });
    await tx.execute(sql`update function_runs r set status = v.status, attempts = v.attempt, error = v.error, next_attempt_at = v.next,
                           finished_at = case when v.status = 'pending' then null else now() end
                         from (values ${sql.join(
                           rows.map((r) => sql`(${r.run.id}::text, ${r.status}::text, ${r.job.attempt}::int, ${r.error}::text, ${r.next?.toISOString() ?? null}::timestamptz)`),
                           sql`, `,
                         )}) as v(id, status, attempt, error, next)
                         where r.id = v.id`);
    for (const r of rows) if (r.next) await this.runs.enqueueAttempt(tx, { runId: r.run.id, attempt: r.job.attempt + 1 }, r.next, r.run.trigger);
  }
}
