/**
 * The loop of a relay (webhook deliveries, integration and function runs): `run()` runs batches
 * until one reads nothing, or, when a run is under way, once more after it, so a wake-up is never
 * lost and two runs never overlap in one process. A failed run is reported and left to the next
 * wake-up. `soon()` is a write's wake-up: the run comes a little later and spaced from the last
 * one (`RelayTiming`), so the writes of the meantime go in one batch.
 */

import type { Quiet } from './foreground.ts';

/** When a wake-up by `soon()` runs the relay. */
export interface RelayTiming {
  /** At least this much later (ms), so the writes of one moment go in one batch. */
  delayMs: number;
  /** At least this long after the last run began (ms): a run's cost is mostly fixed, so fewer, larger runs keep the relay off busy writers. */
  spacingMs: number;
  /** Then it waits for a moment without requests, at most `maxMs` (server/lib/foreground.ts). */
  quiet?: { wait: Quiet; maxMs: number };
}

export class RelayLoop {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private lastRunAt = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Aborts when the loop stops: a wake-up waiting for a quiet moment stops waiting. */
  private stopping = new AbortController();

  constructor(
    /** One batch; how many rows it read (0: caught up, or another process holds the relay). */
    private readonly batch: () => Promise<number>,
    private readonly onError: (error: unknown) => void,
    private readonly timing: RelayTiming = { delayMs: 0, spacingMs: 0 },
  ) {}

  /** A run shortly (`RelayTiming`), unless one is already coming. */
  soon(): void {
    if (this.timer || this.stopped) return;
    const { delayMs, spacingMs, quiet } = this.timing;
    const delay = Math.max(delayMs, this.lastRunAt + spacingMs - Date.now());
    this.timer = setTimeout(() => {
      const ready = quiet ? quiet.wait(Date.now() + quiet.maxMs, this.stopping.signal) : Promise.resolve();
      void ready.then(() => {
        this.timer = undefined;
        this.run();
      });
    }, delay);
  }

  /** Starts a run, or asks the run under way for one more; true when a run started now. */
  run(): boolean {
    if (this.stopped) return false;
    if (this.running) {
      this.again = true;
      return false;
    }
    this.lastRunAt = Date.now();
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.batch()) > 0) {
            /* more may wait */
          }
        } while (this.again && !this.stopped);
      } catch (error) {
        if (!this.stopped) this.onError(error);
      } finally {
        this.running = undefined;
      }
    })();
    return true;
  }

  /** Waits for the run under way (tests and shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** No run starts after this; the one under way ends after its batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.settled();
  }

  /** Runs may start again (a dispatcher started after a stop). */
  restart(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = new AbortController();
  }
}
