/**
 * The Functions sandbox (docs/functions.md "The sandbox"): a pool of worker threads, each running a
 * project's function in QuickJS (WebAssembly) — a fresh runtime and context for every invocation —
 * so a function never runs on the thread that serves requests and shares nothing with another call.
 *
 *   const pool = new SandboxPool({ threads: 2, log });   // threads start now; await pool.ready() if wanted
 *   const result = await pool.run({ code, event, limits, host: async (name, args) => … });
 *   await pool.close();
 *
 * `code` is what compileFunction (compile.ts) made of the source. `host` runs on this thread and
 * answers the function's `ctx.fetch(…)` (name 'fetch') and `ctx.call(name, …args)`: JSON in, JSON
 * out; an Error it throws becomes a rejected promise inside the function, with its message.
 *
 * A worker that does not answer within its invocation's `timeoutMs` + 1 s (stuck outside QuickJS,
 * where the interrupt handler cannot reach) is terminated and replaced; its call answers a timeout.
 */
import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { WorkerAnswer, WorkerRequest } from './sandbox-worker.ts';

export { compileFunction } from './compile.ts';

export interface SandboxLimits {
  /** The function's heap may grow this much (bytes). */
  memoryBytes: number;
  /** Wall-clock time from start to result, waits on the host included (ms). */
  timeoutMs: number;
  /** The result's JSON text, at most (bytes). */
  maxOutputBytes: number;
  /** All log lines together, at most (bytes); what follows is dropped with a note. */
  maxLogBytes: number;
}

export interface Invocation {
  /** Compiled JavaScript: an ES module whose default export is `async (event, ctx) => result`. */
  code: string;
  /** The function's first argument (JSON). */
  event: unknown;
  limits: SandboxLimits;
  /** `ctx.secrets` inside the function (frozen); none: {}. */
  secrets?: Record<string, string>;
  /** Runs on the main thread: 'fetch', 'data', … (JSON in, JSON out). A thrown Error rejects the function's promise with its message. */
  host: (name: string, args: unknown[]) => Promise<unknown>;
}

export interface LogLine {
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
}

export interface InvocationResult {
  ok: boolean;
  /** The function's result (JSON), when ok. */
  value?: unknown;
  /** Why it failed, when not ok: the function's own error (stack positions in its own source) or the sandbox's limit, in plain words. */
  error?: { name: string; message: string; stack?: string };
  logs: LogLine[];
  durationMs: number;
  /** The runtime's memory figure at the end, or the heap's growth during the call if larger (bytes). */
  memoryBytes: number;
}

export interface SandboxPoolOptions {
  /** Worker threads (default: the number of CPUs, at least 1); invocations beyond them wait in line. */
  threads?: number;
  log?: FastifyBaseLogger;
  /** Tests only: lets stallWorker() freeze a thread. */
  testHooks?: boolean;
}

/** Plain JavaScript that loads the TypeScript worker through tsx, whatever started the server. */
const entry = new URL('./sandbox-thread.mjs', import.meta.url);
/** Grace beyond a call's own deadline before its thread is deemed stuck and replaced. */
const STUCK_GRACE_MS = 1000;
/** Threads ending before they are ready this many times in a row: the sandbox cannot start. */
const MAX_FAILED_STARTS = 3;

interface Job {
  id: number;
  invocation: Invocation;
  resolve(result: InvocationResult): void;
  started: number;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  /** Resolves when the thread has loaded QuickJS and warmed it up (or has ended). */
  ready: Promise<void>;
  /** Calls go only to a ready thread, so that a thread's start never counts toward a call's time. */
  isReady: boolean;
}

const failure = (job: Job, name: string, message: string): InvocationResult => ({
  ok: false,
  error: { name, message },
  logs: [],
  durationMs: Math.round((performance.now() - job.started) * 100) / 100,
  memoryBytes: 0,
});

const seconds = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(2))} s` : `${ms} ms`);

export class SandboxPool {
  private readonly threads: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  /** Threads that ended before they were ready, in a row; at MAX_FAILED_STARTS the sandbox gives up. */
  private failedStarts = 0;
  private broken: string | undefined;

  constructor(private readonly options: SandboxPoolOptions = {}) {
    this.threads = Math.max(1, Math.floor(options.threads ?? cpus().length) || 1);
    for (let i = 0; i < this.threads; i++) this.slots.push(this.spawn());
  }

  /** Runs one invocation; resolves with its result (never rejects). */
  run(invocation: Invocation): Promise<InvocationResult> {
    return new Promise((resolve) => {
      const job: Job = { id: ++this.nextId, invocation, resolve, started: performance.now() };
      if (this.closed) return resolve(failure(job, 'Error', 'The sandbox is closed.'));
      if (this.broken) return resolve(failure(job, 'InternalError', this.broken));
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Resolves when every thread has loaded QuickJS and warmed it up (calls made before simply wait for it). */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.ready));
  }

  /** Invocations waiting for a free thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Stops every thread; calls in flight or waiting answer that the sandbox closed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(failure(job, 'Error', 'The sandbox closed before the function ran.'));
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        if (slot.job) this.settle(slot, failure(slot.job, 'Error', 'The sandbox closed while the function ran.'));
        await slot.worker.terminate();
      }),
    );
  }

  /** Tests only (testHooks): the next free thread stops answering for `ms`, as one stuck outside QuickJS. */
  stallWorker(ms: number): void {
    const slot = this.slots.find((candidate) => !candidate.job);
    slot?.worker.postMessage({ type: 'stall', ms } satisfies WorkerRequest);
  }

  private spawn(): Slot {
    // 16 MB of thread stack: QuickJS's frames run on it, and its own stack limit (256 KB, sandbox-worker.ts)
    // must be reached first, or deep recursion would end in the engine's failure instead of a clear error.
    const worker = new Worker(entry, { workerData: { testHooks: this.options.testHooks === true }, resourceLimits: { stackSizeMb: 16 } });
    worker.unref();
    let markReady = () => {};
    const slot: Slot = { worker, job: undefined, ready: new Promise((resolve) => (markReady = resolve)), isReady: false };
    worker.on('message', (answer: WorkerAnswer) => {
      if (answer.type !== 'ready') return this.onAnswer(slot, answer);
      slot.isReady = true;
      this.failedStarts = 0;
      markReady();
      this.dispatch();
    });
    let failure: unknown;
    worker.on('error', (error) => {
      failure = error;
      this.options.log?.error({ err: error }, 'functions sandbox thread failed');
    });
    worker.on('exit', () => {
      markReady();
      if (!slot.isReady && this.slots.includes(slot) && !this.closed && ++this.failedStarts >= MAX_FAILED_STARTS) {
        this.giveUp(`The sandbox could not start: ${failure instanceof Error ? failure.message : 'its threads ended as they started'}.`);
        return;
      }
      this.replace(slot, 'The sandbox stopped while the function ran.');
    });
    return slot;
  }

  /** A thread ended or was ended: its call (if any) answers `message`, and a new thread takes its place. */
  private replace(slot: Slot, message: string, name = 'InternalError') {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    if (slot.job) this.settle(slot, failure(slot.job, name, message));
    if (this.closed) {
      this.slots.splice(index, 1);
      return;
    }
    this.slots[index] = this.spawn();
    this.dispatch();
  }

  /** Threads cannot start (QuickJS does not load): every call, waiting or to come, answers `message`. */
  private giveUp(message: string) {
    this.broken = message;
    this.options.log?.error(message);
    for (const job of this.queue.splice(0)) job.resolve(failure(job, 'InternalError', message));
    for (const slot of this.slots.splice(0)) void slot.worker.terminate();
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (slot.job || !slot.isReady) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      const { code, event, limits, secrets } = job.invocation;
      job.timer = setTimeout(() => {
        this.options.log?.warn({ timeoutMs: limits.timeoutMs }, 'functions sandbox thread did not answer in time; replaced');
        const worker = slot.worker;
        this.replace(slot, `The function ran longer than ${seconds(limits.timeoutMs)} and was stopped.`, 'TimeoutError');
        void worker.terminate();
      }, limits.timeoutMs + STUCK_GRACE_MS);
      try {
        slot.worker.postMessage({ type: 'run', id: job.id, code, event, limits, ...(secrets ? { secrets } : {}) } satisfies WorkerRequest);
      } catch (error) {
        // The event cannot be copied to the thread (a function or a symbol in it).
        this.settle(slot, failure(job, 'TypeError', `The event is not JSON: ${(error as Error).message}`));
      }
    }
  }

  private settle(slot: Slot, result: InvocationResult) {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    job.resolve(result);
    if (!this.closed) queueMicrotask(() => this.dispatch());
  }

  private onAnswer(slot: Slot, answer: WorkerAnswer) {
    const job = slot.job;
    if (!job || answer.type === 'ready' || answer.id !== job.id) return;
    if (answer.type === 'done') {
      this.settle(slot, answer.result);
      return;
    }
    const reply = (message: WorkerRequest) => {
      // The call may be over (answered, timed out, its thread replaced): then nobody waits for this.
      if (slot.job !== job) return;
      try {
        slot.worker.postMessage(message);
      } catch (error) {
        slot.worker.postMessage({ type: 'host', id: job.id, call: answer.call, ok: false, message: `The host's answer is not JSON: ${(error as Error).message}` } satisfies WorkerRequest);
      }
    };
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(job.invocation.host(answer.name, answer.args));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => reply({ type: 'host', id: job.id, call: answer.call, ok: true, value }),
      (error: unknown) => reply({ type: 'host', id: job.id, call: answer.call, ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  }
}
