/**
 * Work a request starts but does not wait for: the answer goes out first, so its timing cannot
 * tell what the work found (docs/security.md, "Reset mail"). Each task runs after the current
 * turn of the event loop, its failure is logged (never lost, never an unhandled rejection), and
 * the process waits for what is still running before it closes. `settled()` lets a reader that
 * must see the work's result (the Dev mailbox) wait for it.
 */
import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Resolves once a reply has gone out (or its connection closed). Work started only then cannot
 * hold the answer up, not even through the database (one connection on PGlite) or the write
 * hooks' settle marker (server/lib/shared-cache.ts).
 */
export function answered(reply: { raw: EventEmitter }, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    reply.raw.once('finish', resolve);
    reply.raw.once('close', resolve);
    // Never later than this, so the work is done (and a close waiting for it ends) whatever the socket did.
    setTimeout(resolve, timeoutMs).unref();
  });
}

export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Starts `task` after `after` (by default: once the current turn of the event loop is over). */
  run(name: string, task: () => Promise<unknown>, log: FastifyBaseLogger = this.log, after: Promise<void> = Promise.resolve()): void {
    const done: Promise<void> = after
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
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
