/**
 * Where webhook deliveries are sent from: a worker thread with its own URL guard (the app's guard's
 * options), so a burst of deliveries — connections, requests, answers — does not queue behind or
 * ahead of the requests the server is answering (issue 12: writes slow by 10 % at most). The guard
 * checks every address exactly as the app's would. When the app's guard cannot cross threads
 * (a test's own name resolver) or the thread fails, deliveries are sent in-process instead.
 */
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { OutboundError, type GuardedSendOptions, type GuardedSendResponse, type UrlGuard } from '../lib/url-guard.ts';

export interface DeliverySender {
  send(uri: string, options: GuardedSendOptions): Promise<GuardedSendResponse>;
  close(): Promise<void>;
}

type Answer = { id: number; ok: true; status: number; body: Uint8Array; truncated: boolean } | { id: number; ok: false; kind: OutboundError['kind']; message: string };

/** Sends through a worker thread; falls back to the app's guard if the thread cannot start or dies. */
export class ThreadSender implements DeliverySender {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(response: GuardedSendResponse): void; reject(error: unknown): void }>();
  private broken = false;

  constructor(
    private readonly guard: UrlGuard,
    private readonly log: FastifyBaseLogger,
  ) {}

  private start(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    const options = this.guard.threadOptions();
    if (!options) {
      this.broken = true;
      return undefined;
    }
    try {
      const worker = new Worker(new URL('./sender-thread.mjs', import.meta.url), { workerData: options });
      worker.unref();
      worker.on('message', (answer: Answer) => {
        const waiting = this.pending.get(answer.id);
        if (!waiting) return;
        this.pending.delete(answer.id);
        if (answer.ok) waiting.resolve({ status: answer.status, body: Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength), truncated: answer.truncated });
        else waiting.reject(new OutboundError(answer.kind, answer.message));
      });
      worker.on('error', (error) => {
        this.log.warn({ err: error }, 'webhook sender thread failed; deliveries are sent in-process');
        this.broken = true;
      });
      worker.on('exit', () => {
        if (this.worker === worker) this.worker = undefined;
        // Attempts in flight are failed: pg-boss runs their jobs again (a delivery may then arrive twice; it is never lost).
        for (const [, waiting] of this.pending) waiting.reject(new OutboundError('unreachable', 'the sender stopped'));
        this.pending.clear();
      });
      this.worker = worker;
      return worker;
    } catch (error) {
      this.log.warn({ err: error }, 'webhook sender thread could not start; deliveries are sent in-process');
      this.broken = true;
      return undefined;
    }
  }

  send(uri: string, options: GuardedSendOptions): Promise<GuardedSendResponse> {
    const worker = this.start();
    if (!worker) return this.guard.send(uri, options);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, uri, options });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.broken = true;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
