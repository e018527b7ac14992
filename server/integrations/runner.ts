/**
 * Integration runs (docs/integrations.md "Runs"), on the subscribers' relay and queue
 * (server/lib/subscribers.ts), so nothing is lost when a service is down or a process dies: a run
 * per enabled instance and item event it listens to (events written before it was switched on are
 * not its own), a run per schedule time, and "send a test". One job is one attempt: the handler of
 * the instance's integration runs with the settings and secrets opened; success ends the run, a
 * failure is logged on the run and the next attempt is enqueued in the same transaction after the
 * next delay of `INTEGRATION_RETRY_SCHEDULE`, until none is left (failed). A job whose attempt is
 * not the run's next one is a repeat and is skipped.
 */
import type { Quiet } from '../lib/foreground.ts';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { query } from '../content/storage.ts';
import { SubscriberRunner, type RunJob } from '../lib/subscribers.ts';
import type { UrlGuard } from '../lib/url-guard.ts';
import { integrationHandlers } from './handlers/index.ts';
import { RunFailure, type RunEvent, type RunInput } from './handlers/types.ts';
import type { IntegrationInstanceService } from './instances.ts';

export const integrationQueue = 'integration-run';

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
  /** Runs on item events give way to requests (server/lib/foreground.ts). */
  quiet?: Quiet;
}

export class IntegrationRunner {
  private readonly runs: SubscriberRunner;

  constructor(private readonly options: IntegrationRunnerOptions) {
    this.runs = new SubscriberRunner({
      database: options.database,
      log: options.log,
      label: 'integration',
      relay: 'integrations',
      queue: integrationQueue,
      tables: { owners: 'integration_instances', runs: 'integration_runs', ownerColumn: 'instance_id', snapshotColumn: 'enabled_snapshot', active: 'enabled' },
      jobOptions: (trigger) => this.jobOptions(trigger),
      attempt: async (jobs) => {
        await Promise.all(jobs.map((job) => this.attempt(job)));
      },
      ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.quiet ? { quiet: options.quiet } : {}),
    });
  }

  get maxAttempts() {
    return this.options.config.retryDelaysMs.length + 1;
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

  start(): Promise<void> {
    return this.runs.start();
  }

  stop(): Promise<void> {
    return this.runs.stop(this.options.config.timeoutMs + 2000);
  }

  /** Runs the relay now, or once more after the run under way. */
  relay(): void {
    this.runs.relay();
  }

  /** Waits for the relay run under way (tests and shutdown). */
  settled(): Promise<void> {
    return this.runs.settled();
  }

  /** Scheduled instances whose time came: a run each, and their next time. */
  scheduleDue(): Promise<number> {
    return this.runs.scheduleDue();
  }

  /** A run a person asked for ("send a test"); its id. */
  test(instanceId: string, projectId: string, requestId?: string): Promise<string> {
    return this.runs.runNow(instanceId, projectId, 'test', {}, requestId);
  }

  /** One attempt of one run (a job). */
  async attempt(job: RunJob): Promise<void> {
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
      if (retryIn !== undefined) await this.runs.enqueueAttempt(tx, { runId: job.runId, attempt: job.attempt + 1, ...(job.requestId ? { requestId: job.requestId } : {}) }, new Date(Date.now() + retryIn), String(run.trigger));
    });
    if (job.requestId) log.info({ reqId: job.requestId, runId: job.runId, attempt: job.attempt, status, error }, 'integration run attempted');
  }
}
