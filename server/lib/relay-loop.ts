/**
 * The loop of a relay (webhook deliveries, integration runs): `run()` runs batches until one reads
 * nothing, or, when a run is under way, once more after it, so a wake-up is never lost and two
 * runs never overlap in one process. A failed run is reported and left to the next wake-up.
 */
export class RelayLoop {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    /** One batch; how many rows it read (0: caught up, or another process holds the relay). */
    private readonly batch: () => Promise<number>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts a run, or asks the run under way for one more; true when a run started now. */
  run(): boolean {
    if (this.stopped) return false;
    if (this.running) {
      this.again = true;
      return false;
    }
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
    await this.settled();
  }

  /** Runs may start again (a dispatcher started after a stop). */
  restart(): void {
    this.stopped = false;
  }
}
