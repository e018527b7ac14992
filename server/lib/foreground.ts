/**
 * Requests before background work (docs/functions.md "Event and schedule triggers"): the process
 * counts the requests from outside it that are in flight (calls it makes to itself with
 * `app.inject`, such as a function's data calls, are not counted; nor is a live stream once it is
 * under way), and background work of lower priority — the first attempts of item-event runs —
 * waits for a quiet moment before it begins, for at most a bounded time. Node runs one thread of
 * JavaScript, so this is how a run's own work keeps off the writes that caused it while they come.
 */
import type { FastifyInstance } from 'fastify';

/** How long no request must have been in flight before background work begins (ms). */
const quietMs = 5;

/** Waits for a quiet moment, at most until `until` (ms), or until `signal` aborts (its owner stops). */
export type Quiet = (until: number, signal?: AbortSignal) => Promise<void>;

export class Foreground {
  private inFlight = 0;
  /** When the last request in flight ended (ms). */
  private idleSince = 0;
  private waiters: (() => void)[] = [];
  /** The responses counted and not yet left. */
  private readonly counted = new WeakSet<object>();

  /** Counts the app's requests from outside, each once, from its start to its answer's end or abort. */
  register(app: FastifyInstance): void {
    app.addHook('onRequest', (request, reply, done) => {
      if (!(request.raw as { _lightMyRequest?: unknown })._lightMyRequest) {
        this.counted.add(reply.raw);
        this.inFlight++;
        // 'close' comes once for every response: sent, failed or abandoned by its client.
        reply.raw.once('close', () => this.release(reply.raw));
      }
      done();
    });
  }

  /** A response that stays open (a live stream) stops counting once it is under way. */
  release(response: object): void {
    if (!this.counted.delete(response)) return;
    this.inFlight--;
    if (this.inFlight > 0) return;
    this.idleSince = Date.now();
    if (!this.waiters.length) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Requests from outside in flight now. */
  get busy(): number {
    return this.inFlight;
  }

  /**
   * Resolves once no request has been in flight for `idleMs` (so background work does not begin in
   * the short gap between a client's answer and its next request), or at `until` (a time in ms),
   * or when `signal` aborts, whichever comes first.
   */
  quiet: Quiet = async (until, signal, idleMs = quietMs) => {
    while (!signal?.aborted) {
      const now = Date.now();
      if (now >= until) return;
      const idleFor = this.inFlight === 0 ? this.idleSince + idleMs - now : undefined;
      if (idleFor !== undefined && idleFor <= 0) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((waiter) => waiter !== wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        // Idle: the rest of the quiet time; busy: until the last request in flight ends.
        const timer = setTimeout(wake, Math.min(idleFor ?? Infinity, until - now));
        if (idleFor === undefined) this.waiters.push(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  };
}
