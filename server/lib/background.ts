/**
 * Work a request starts but does not wait for: the answer goes out first, so its timing cannot
 * tell what the work found (docs/security.md, "Reset mail"). Each task runs after the current
 * turn of the event loop, its failure is logged (never lost, never an unhandled rejection), and
 * the process waits for what is still running before it closes. `settled()` lets a reader that
 * must see the work's result (the Dev mailbox) wait for it.
 */
import type { FastifyBaseLogger } from 'fastify';

export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Starts `task` once the current request has had its turn to answer. */
  run(name: string, task: () => Promise<unknown>, log: FastifyBaseLogger = this.log): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error, task: name }, `background task ${name} failed`),
      )
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves when every task started so far (and any they started meanwhile) has ended, or after `timeoutMs`. */
  async settled(timeoutMs = Infinity): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.running.size > 0 && Date.now() < deadline) {
      const all = Promise.all([...this.running]);
      if (timeoutMs === Infinity) await all;
      else await Promise.race([all, new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref())]);
    }
  }

  get size(): number {
    return this.running.size;
  }
}
