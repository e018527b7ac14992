/**
 * A function's item-event and schedule triggers (docs/functions.md "Event and schedule
 * triggers"), on the subscribers' relay and queue (server/lib/subscribers.ts): a run per deployed
 * function and item event it listens to (events committed before it began listening are not its
 * own), a run per schedule time. One job is one attempt: the deployed version runs with the event,
 * logged as an invocation with the run and the attempt; a run whose function failed is tried again
 * after the next delay of `FUNCTION_RETRY_SCHEDULE`, until none is left (failed). A job whose
 * attempt is not the run's next one is a repeat and is skipped.
 */
import type { FastifyBaseLogger } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { functionRuns, functions } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { SubscriberRunner, type RunJob, type SubscriberEvent } from '../lib/subscribers.ts';
import type { Executor } from '../content/storage.ts';
import type { FunctionService } from './service.ts';

type RunRow = typeof functionRuns.$inferSelect;
interface Failure {
  message: string;
  retry: boolean;
}

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
      // A job that fails (a database error) runs again; one whose worker died after its expiry.
      jobOptions: () => ({ retryLimit: 3, retryDelay: 5, expireInSeconds: Math.ceil(options.config.timeoutMs / 1000) * 2 + 30 }),
      attempt: (job) => this.attempt(job),
      ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
      ...(options.now ? { now: options.now } : {}),
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
   * One attempt of one run (a job, or a first attempt the relay's process makes). The run's
   * outcome is written in the transaction of the invocation's log row (docs/functions.md "Event
   * and schedule triggers").
   */
  async attempt(job: RunJob): Promise<void> {
    const { database, service, log } = this.options;
    const db = database.db;
    const [pair] = await db.select({ run: functionRuns, fn: functions }).from(functionRuns).innerJoin(functions, eq(functions.id, functionRuns.functionId)).where(eq(functionRuns.id, job.runId));
    // Gone (its function deleted), over, or not this attempt's turn: a repeated job.
    if (!pair || pair.run.status !== 'pending' || pair.run.attempts !== job.attempt - 1) return;
    const { run, fn } = pair;

    let failure: Failure | undefined;
    try {
      if (await this.options.suspended?.(fn.organizationId)) {
        failure = { message: 'Not run: the organization’s API services are suspended (billing account unpaid).', retry: false };
      } else {
        const version = await service.version(fn.id, fn.deployedVersionId);
        if (!version) failure = { message: 'Not run: the function has no deployed version.', retry: false };
        else {
          const detail = run.detail as { event?: SubscriberEvent; scheduledFor?: string };
          const event: FunctionTriggerEvent = detail.event ? { kind: 'item', ...detail.event } : { kind: 'schedule', scheduledFor: String(detail.scheduledFor ?? run.createdAt.toISOString()) };
          await service.run(fn, version, event, run.trigger === 'schedule' ? 'schedule' : 'event', {
            runId: run.id,
            attempt: job.attempt,
            record: (tx, outcome) =>
              this.finish(tx, run, job, outcome.ok ? undefined : { message: `${outcome.error?.name ?? 'Error'}: ${outcome.error?.message ?? 'failed'}`, retry: true }),
          });
          return;
        }
      }
    } catch (error) {
      if (error instanceof AppError && error.code === 'function_busy') {
        // Every slot of the project is taken (HTTP calls count too): the same attempt, a moment later.
        await db.transaction((tx) => this.runs.enqueueAttempt(tx, job, new Date(Date.now() + BUSY_DELAY_MS), run.trigger));
        return;
      }
      log.warn({ err: error, runId: run.id }, 'a function run failed outside the function');
      failure = { message: (error as Error).message || String(error), retry: true };
    }
    await db.transaction((tx) => this.finish(tx, run, job, failure));
  }

  /** The run after an attempt: succeeded, failed, or pending with its next attempt enqueued. */
  private async finish(tx: Executor, run: RunRow, job: RunJob, failure: Failure | undefined): Promise<void> {
    const { config } = this.options;
    const retryIn = failure?.retry && job.attempt < this.maxAttempts ? config.retryDelaysMs[job.attempt - 1]! : undefined;
    const status = failure ? (retryIn === undefined ? 'failed' : 'pending') : 'succeeded';
    await tx.execute(sql`update function_runs set status = ${status}, attempts = ${job.attempt}, error = ${failure ? failure.message.slice(0, 1000) : null},
                           next_attempt_at = ${retryIn === undefined ? null : new Date(Date.now() + retryIn).toISOString()}::timestamptz,
                           finished_at = ${status === 'pending' ? null : sql`now()`}
                         where id = ${run.id}`);
    if (retryIn !== undefined) await this.runs.enqueueAttempt(tx, { runId: run.id, attempt: job.attempt + 1 }, new Date(Date.now() + retryIn), run.trigger);
  }
}
