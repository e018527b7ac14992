/** Platform figures per day for the metrics screen, and the job that writes them (docs/admin.md "Metrics"). */
import type { AdminDeps } from './deps.ts';

export class PlatformMetrics {
  constructor(private readonly deps: AdminDeps) {}

  /** Starts the daily job (app.ts, once the routes are registered). */
  start(): void {}

  /** Stops the job (the server closing). */
  async close(): Promise<void> {}
}
