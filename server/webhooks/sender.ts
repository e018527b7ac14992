/**
 * Where webhook deliveries are sent from: a worker thread (or a child process, which can run at a
 * lower priority) with its own URL guard made with the app's guard's options, so a burst of
 * deliveries — connections, requests, answers — does not queue behind or ahead of the requests the
 * server is answering (writes slow by 10 % at most). The guard checks every address
 * exactly as the app's would. When the app's guard cannot cross threads (a test's own name
 * resolver) or the sender fails, deliveries are sent in-process instead.
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { OutboundError, type GuardedSendOptions, type GuardedSendResponse, type UrlGuard } from '../lib/url-guard.ts';

export interface DeliverySender {
  send(uri: string, options: GuardedSendOptions): Promise<GuardedSendResponse>;
  close(): Promise<void>;
}

type Answer = { id: number; ok: true; status: number; body: Uint8Array; truncated: boolean } | { id: number; ok: false; kind: OutboundError['kind']; message: string };

/** The sender's end of the line: a worker thread or a child process. */
interface Channel {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (answer: Answer) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'exit', listener: () => void): unknown;
  once(event: 'exit', listener: () => void): unknown;
  kill(): void;
}

/** Plain JavaScript that loads the TypeScript worker through tsx, whatever started the server. */
const entry = new URL('./sender-thread.mjs', import.meta.url);

function threadChannel(options: object): Channel {
  const worker = new Worker(entry, { workerData: options });
  worker.unref();
  return Object.assign(worker, { kill: () => void worker.terminate() }) as unknown as Channel;
}

function processChannel(options: object, nice: number): Channel {
  // The guard's options travel as the child's one argument (JSON), read by sender-worker.ts.
  const child = fork(entry, [JSON.stringify(options)], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (nice && child.pid) setPriority(child.pid, nice);
  child.unref();
  child.channel?.unref();
  return Object.assign(child, { postMessage: (message: unknown) => child.send(message as never) }) as unknown as Channel;
}

/** Sends off the server's thread (a worker thread or a child process); falls back to the app's guard if it cannot start or dies. */
export class OffThreadSender implements DeliverySender {
  private worker: Channel | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(response: GuardedSendResponse): void; reject(error: unknown): void }>();
  private broken = false;

  constructor(
    private readonly guard: UrlGuard,
    private readonly log: FastifyBaseLogger,
    private readonly kind: 'thread' | 'process' = 'thread',
    /** The child process's priority (0–19; `process` only). */
    private readonly nice = 0,
  ) {}

  private start(): Channel | undefined {
    if (this.worker || this.broken) return this.worker;
    const options = this.guard.threadOptions();
    if (!options) {
      this.broken = true;
      return undefined;
    }
    try {
      const worker = this.kind === 'process' ? processChannel(options, this.nice) : threadChannel(options);
      worker.on('message', (answer) => {
        const waiting = this.pending.get(answer.id);
        if (!waiting) return;
        this.pending.delete(answer.id);
        if (answer.ok) waiting.resolve({ status: answer.status, body: Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength), truncated: answer.truncated });
        else waiting.reject(new OutboundError(answer.kind, answer.message));
      });
      worker.on('error', (error) => {
        this.log.warn({ err: error }, 'webhook sender failed; deliveries are sent in-process');
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
      this.log.warn({ err: error }, 'webhook sender could not start; deliveries are sent in-process');
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
    const timer = setTimeout(() => worker.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
