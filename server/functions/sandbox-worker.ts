/**
 * The Functions sandbox's worker thread (server/functions/sandbox.ts; docs/functions.md "The sandbox"):
 * runs one invocation at a time in QuickJS compiled to WebAssembly — a fresh runtime and context
 * for each call, so nothing is shared between calls — and answers with its result, its logs and
 * its figures. The function's host calls (`ctx.fetch`, `ctx.call`) travel to the main thread and
 * back as messages; while it waits for them, this thread's event loop is free.
 *
 * Limits: time by the runtime's interrupt handler (a deadline, host waits included); stack by the
 * runtime's stack limit (the thread's own stack is larger, see sandbox.ts); memory by the growth of
 * the WebAssembly heap, checked in the interrupt handler. The runtime's own memory limit is set too
 * but only refuses single allocations larger than the limit: QuickJS built with Emscripten counts
 * 8 bytes an allocation, whatever its size, so it cannot bound the total.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { InvocationResult, LogLine, SandboxLimits } from './sandbox.ts';

export type WorkerRequest =
  | { type: 'run'; id: number; code: string; event: unknown; limits: SandboxLimits; secrets?: Record<string, string> }
  | { type: 'host'; id: number; call: number; ok: true; value: unknown }
  | { type: 'host'; id: number; call: number; ok: false; message: string }
  | { type: 'stall'; ms: number }
  | 'close';

export type WorkerAnswer =
  | { type: 'host'; id: number; call: number; name: string; args: unknown[] }
  | { type: 'done'; id: number; result: InvocationResult }
  | { type: 'ready' };

/** The module's file name in stacks. */
const FILE = 'function.js';
/** The stack QuickJS may use, in bytes (the thread's own stack is 16 MB: sandbox.ts). */
const STACK_BYTES = 256 * 1024;
/** A heap grown this far above its start is replaced after the call (WebAssembly memory never shrinks). */
const RECYCLE_ABOVE_BYTES = 8 * 1024 * 1024;
/** At most this many stack lines are kept (a recursion's stack repeats one line thousands of times). */
const STACK_LINES = 20;

/**
 * Runs inside each fresh context before the function's module: defines `console` and returns the
 * runner, which builds `ctx` on the two native bridges. Its own names are not globals: the
 * function reaches the bridges only through `console` and `ctx`.
 */
const PRELUDE = `(function (nativeLog, nativeCall) {
  'use strict';
  const stringify = JSON.stringify, parse = JSON.parse, freeze = Object.freeze;
  const format = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.name + ': ' + value.message;
    try { const text = stringify(value); return text === undefined ? String(value) : text; } catch (e) { return String(value); }
  };
  const console = {};
  for (const level of ['log', 'info', 'warn', 'error']) console[level] = (...args) => { nativeLog(level, args.map(format).join(' ')); };
  console.debug = console.log;
  Object.defineProperty(globalThis, 'console', { value: freeze(console), writable: false, configurable: false, enumerable: false });
  const call = (name, ...args) => nativeCall(String(name), stringify(args)).then((text) => (text === undefined ? undefined : parse(text)));
  const fetch = (url, init) => {
    const options = init || {};
    return call('fetch', String(url), { method: options.method || 'GET', headers: options.headers || {}, body: options.body === undefined ? null : options.body });
  };
  // The project's data with the rights of the function's API token: each is one host call 'data'
  // (server/functions/data-client.ts), answered by the public API.
  const data = freeze({
    list: (collection, options) => call('data', 'list', String(collection), options || {}),
    get: (collection, id) => call('data', 'get', String(collection), String(id)),
    create: (collection, item) => call('data', 'create', String(collection), item),
    update: (collection, id, values) => call('data', 'update', String(collection), String(id), values),
    delete: (collection, id) => call('data', 'delete', String(collection), String(id)),
  });
  return freeze({
    run(fn, eventJson, secretsJson) {
      if (typeof fn !== 'function') throw new TypeError('The function has no default export to run: write export default async function (event, ctx) { … }.');
      const ctx = freeze({ call, fetch, data, secrets: freeze(parse(secretsJson)) });
      return fn(parse(eventJson), ctx);
    },
    toJson(value) { return stringify(value); },
  });
})`;

class Stop extends Error {}

const post = (answer: WorkerAnswer) => parentPort!.postMessage(answer);

/** QuickJS's WebAssembly code, compiled once; each instance of it gets a memory of its own. */
const wasmModule = await WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
/** The memory an instance starts with (what the module declares, 16 MB). */
const INITIAL_BYTES = 16 * 1024 * 1024;
/** Room above the start and the limit for the runtime itself, the prelude and fragmentation. */
const HEADROOM_BYTES = 8 * 1024 * 1024;

let quickjs: QuickJSWASMModule;
/** The memory limit the instance's heap ceiling was made for. */
let ceilingFor = -1;
let baseline = 0;
/** The WebAssembly heap's size (the module keeps it as HEAPU8, renewed when memory grows). */
const heapBytes = () => (quickjs as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8.byteLength;

/**
 * A new QuickJS instance whose heap cannot grow past its start + `memoryBytes` + headroom: the
 * allocation that would pass it fails (QuickJS's "out of memory") even between two checks of the
 * interrupt handler, which sees the growth only every few thousand operations.
 */
async function recycle(memoryBytes = ceilingFor) {
  const pages = (bytes: number) => Math.ceil(bytes / 65536);
  const wasmMemory = new WebAssembly.Memory({ initial: pages(INITIAL_BYTES), maximum: Math.min(32768, pages(INITIAL_BYTES + memoryBytes + HEADROOM_BYTES)) });
  quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule, wasmMemory }));
  ceilingFor = memoryBytes;
  baseline = heapBytes();
}
/** The memory limit the first instance is made for (and warmed up with); another limit gets an instance of its own. */
const DEFAULT_CEILING_FOR = 64 * 1024 * 1024;
await recycle(DEFAULT_CEILING_FOR);

/** The invocation being run: the host calls it waits for, and how to wake it when one answers. */
let current: { id: number; calls: Map<number, QuickJSDeferredPromise>; wake: () => void; context: QuickJSContext } | undefined;

const megabytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`);
const seconds = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(2))} s` : `${ms} ms`);
const timeoutMessage = (limits: SandboxLimits) => `The function ran longer than ${seconds(limits.timeoutMs)} and was stopped.`;
const memoryMessage = (limits: SandboxLimits) => `The function used more than ${megabytes(limits.memoryBytes)} of memory and was stopped.`;

/**
 * A stack's positions as the function's author wrote them: the module carries an inline source map
 * (compile.ts), read here; frames of the sandbox's own code are left out.
 */
function ownStack(stack: string | undefined, map: SourceMap | undefined): string | undefined {
  if (!stack) return undefined;
  const lines = stack.split('\n').filter((line) => line.includes(`(${FILE}`) || line.includes('(native)'));
  const kept = lines.slice(0, STACK_LINES).map((line) =>
    line.replace(new RegExp(`\\(${FILE.replace('.', '\\.')}:(\\d+)(?::(\\d+))?\\)`), (whole, line: string, column: string | undefined) => {
      const original = map?.find(Number(line), column ? Number(column) : 1);
      return original ? `(function:${original.line}:${original.column})` : `(function:${line}${column ? `:${column}` : ''})`;
    }),
  );
  if (lines.length > STACK_LINES) kept.push(`    … ${lines.length - STACK_LINES} more`);
  return kept.join('\n') || undefined;
}

async function run(request: Extract<WorkerRequest, { type: 'run' }>): Promise<InvocationResult> {
  const { limits } = request;
  const started = performance.now();
  let eventText: string;
  try {
    eventText = JSON.stringify(request.event ?? null);
  } catch (error) {
    return { ok: false, error: { name: 'TypeError', message: `The event is not JSON: ${(error as Error).message}` }, logs: [], durationMs: 0, memoryBytes: 0 };
  }
  const deadline = Date.now() + limits.timeoutMs;
  const logs: LogLine[] = [];
  let logBytes = 0;
  let logsCut = false;
  let stopped: 'time' | 'memory' | undefined;
  let peakHeap = heapBytes();
  if (ceilingFor !== limits.memoryBytes || peakHeap - baseline > Math.min(limits.memoryBytes, RECYCLE_ABOVE_BYTES)) {
    await recycle(limits.memoryBytes);
    peakHeap = heapBytes();
  }
  const heapAtStart = peakHeap;
  // Read only when a stack is to be shown (an error), once per invocation.
  let sourceMap: SourceMap | undefined | null = null;
  const map = () => (sourceMap === null ? (sourceMap = SourceMap.fromCode(request.code)) : sourceMap);

  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  /** The heap ran out: QuickJS may have failed half-way somewhere, so its instance is not used again. */
  let exhausted = false;
  const finish = (result: Omit<InvocationResult, 'logs' | 'durationMs' | 'memoryBytes'>, growth: number): InvocationResult => {
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    let memoryBytes = growth;
    try {
      memoryBytes = Math.max(growth, heapBytes() - heapAtStart);
    } catch {
      // The instance failed: the growth seen so far stands.
    }
    if (runtime && context && !stopped) {
      try {
        memoryBytes = memoryUsed(runtime, context, growth);
      } catch {
        // The heap's growth stands.
      }
    }
    if (result.error?.name === 'MemoryLimitError') exhausted = true;
    return { ...result, logs, durationMs, memoryBytes };
  };
  const calls = new Map<number, QuickJSDeferredPromise>();
  /** Handles to release before the context is (QuickJS refuses to free a runtime with live objects). */
  const owned: QuickJSHandle[] = [];
  const own = <T extends QuickJSHandle>(handle: T): T => {
    owned.push(handle);
    return handle;
  };
  try {
    runtime = quickjs.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(STACK_BYTES);
    runtime.setInterruptHandler(() => {
      const heap = heapBytes();
      if (heap > peakHeap) peakHeap = heap;
      if (heap - heapAtStart > limits.memoryBytes) stopped ??= 'memory';
      else if (Date.now() > deadline) stopped ??= 'time';
      return stopped !== undefined;
    });
    runtime.setModuleLoader((name) => ({ error: new Error(`Functions cannot import modules (“${name}”): everything they use comes through ctx.`) }));
    const vm = runtime.newContext();
    context = vm;

    /** A QuickJS error value as plain fields; limits the sandbox enforced take precedence. */
    const describe = (handle: QuickJSHandle): NonNullable<InvocationResult['error']> => {
      if (stopped === 'memory') return { name: 'MemoryLimitError', message: memoryMessage(limits) };
      if (stopped === 'time' || Date.now() > deadline) return { name: 'TimeoutError', message: timeoutMessage(limits) };
      const dumped = vm.dump(handle) as unknown;
      if (dumped && typeof dumped === 'object') {
        const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
        if (name === 'InternalError' && message === 'out of memory') return { name: 'MemoryLimitError', message: memoryMessage(limits) };
        if (name === 'InternalError' && message === 'stack overflow')
          return { name: 'RangeError', message: 'Maximum call stack size exceeded: the function’s calls nested too deeply (endless recursion?).', stack: ownStack(typeof stack === 'string' ? stack : undefined, map()) };
        if (typeof message === 'string') return { name: typeof name === 'string' ? name : 'Error', message, stack: ownStack(typeof stack === 'string' ? stack : undefined, map()) };
      }
      // QuickJS throws null when it cannot even allocate the error of an exhausted heap.
      if (dumped === null) return { name: 'MemoryLimitError', message: memoryMessage(limits) };
      return { name: 'Error', message: `The function threw ${typeof dumped === 'string' ? dumped : JSON.stringify(dumped) ?? String(dumped)}` };
    };
    const unwrap = <T>(result: { error?: QuickJSHandle; value?: T }): T => {
      if (result.error) {
        const error = describe(result.error);
        result.error.dispose();
        throw Object.assign(new Stop(error.message), { error });
      }
      return result.value as T;
    };

    const nativeLog = own(vm.newFunction('log', (levelHandle, textHandle) => {
      if (logsCut) return;
      const level = vm.getString(levelHandle) as LogLine['level'];
      let text = vm.getString(textHandle);
      const bytes = Buffer.byteLength(text) + 1;
      if (logBytes + bytes > limits.maxLogBytes) {
        // Each line counts its bytes and one for its line break.
        const room = Math.max(0, limits.maxLogBytes - logBytes - 1);
        text = Buffer.from(text).subarray(0, room).toString().replace(/\uFFFD$/, '');
        if (text) logs.push({ level, text });
        logs.push({ level: 'warn', text: `Logs truncated: the function wrote more than ${megabytes(limits.maxLogBytes)} of logs; the rest was dropped.` });
        logsCut = true;
        return;
      }
      logBytes += bytes;
      logs.push({ level, text });
    }));
    let nextCall = 0;
    let wake = () => {};
    const nativeCall = own(vm.newFunction('call', (nameHandle, argsHandle) => {
      const name = vm.getString(nameHandle);
      const args = JSON.parse(vm.getString(argsHandle)) as unknown[];
      const deferred = vm.newPromise();
      const call = ++nextCall;
      calls.set(call, deferred);
      post({ type: 'host', id: request.id, call, name, args });
      return deferred.handle;
    }));
    current = { id: request.id, calls, wake: () => wake(), context: vm };

    const prelude = own(unwrap(vm.evalCode(PRELUDE, 'sandbox.js', { type: 'global' })));
    const runner = own(unwrap(vm.callFunction(prelude, vm.undefined, nativeLog, nativeCall)));
    const namespace = own(unwrap(vm.evalCode(request.code, FILE, { type: 'module' })));
    const fn = own(vm.getProp(namespace, 'default'));
    const eventJson = own(vm.newString(eventText));
    const secretsJson = own(vm.newString(JSON.stringify(request.secrets ?? {})));
    const promise = own(unwrap(vm.callMethod(runner, 'run', [fn, eventJson, secretsJson])));

    // Pump the function's jobs until its promise settles; wait for the host between rounds.
    for (;;) {
      unwrap(runtime.executePendingJobs(-1));
      const state = vm.getPromiseState(promise);
      if (state.type === 'fulfilled') {
        own(state.value);
        const valueType = vm.typeof(state.value);
        const stringified = vm.callMethod(runner, 'toJson', [state.value]);
        if (stringified.error && !stopped) {
          const { message } = describe(own(stringified.error));
          return finish({ ok: false, error: { name: 'TypeError', message: `The function's result is not JSON: ${message}.` } }, peakHeap - heapAtStart);
        }
        const json = own(unwrap(stringified));
        const text = vm.typeof(json) === 'string' ? vm.getString(json) : undefined;
        if (text === undefined && valueType !== 'undefined')
          return finish({ ok: false, error: { name: 'TypeError', message: `The function's result is not JSON (it returned a ${valueType}).` } }, peakHeap - heapAtStart);
        if (text !== undefined && Buffer.byteLength(text) > limits.maxOutputBytes)
          return finish({ ok: false, error: { name: 'RangeError', message: `The function's result is larger than ${limits.maxOutputBytes} bytes (${megabytes(limits.maxOutputBytes)}).` } }, peakHeap - heapAtStart);
        return finish({ ok: true, value: text === undefined ? undefined : JSON.parse(text) }, peakHeap - heapAtStart);
      }
      if (state.type === 'rejected') {
        const error = describe(own(state.error));
        return finish({ ok: false, error }, peakHeap - heapAtStart);
      }
      if (Date.now() > deadline) return finish({ ok: false, error: { name: 'TimeoutError', message: timeoutMessage(limits) } }, peakHeap - heapAtStart);
      if (calls.size === 0 && !runtime.hasPendingJob())
        return finish({ ok: false, error: { name: 'Error', message: 'The function returned a promise that never settles (it waits on nothing the sandbox can answer).' } }, peakHeap - heapAtStart);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } catch (error) {
    if (error instanceof Stop) return finish({ ok: false, error: (error as Stop & { error: NonNullable<InvocationResult['error']> }).error }, peakHeap - heapAtStart);
    // Anything else is the engine failing (a trap of the WebAssembly module): start a new one.
    stopped ??= heapBytes() - heapAtStart > limits.memoryBytes / 2 ? 'memory' : undefined;
    context = undefined;
    runtime = undefined;
    owned.length = 0;
    calls.clear();
    await recycle();
    if (stopped === 'memory') return finish({ ok: false, error: { name: 'MemoryLimitError', message: memoryMessage(limits) } }, peakHeap - heapAtStart);
    if (Date.now() > deadline) return finish({ ok: false, error: { name: 'TimeoutError', message: timeoutMessage(limits) } }, peakHeap - heapAtStart);
    return finish({ ok: false, error: { name: 'InternalError', message: `The sandbox failed while running the function: ${(error as Error).message}` } }, peakHeap - heapAtStart);
  } finally {
    current = undefined;
    try {
      for (const deferred of calls.values()) deferred.dispose();
      for (const handle of owned) if (handle.alive) handle.dispose();
      context?.dispose();
      runtime?.dispose();
    } catch {
      // Handles still alive after an interruption: the module is replaced instead.
      await recycle();
    }
    if (exhausted || heapBytes() - baseline > RECYCLE_ABOVE_BYTES) await recycle();
  }
}

/** What memoryUsed reaches inside quickjs-emscripten-core (0.32): a context's runtime and its own handles. */
interface ContextInternals {
  ffi?: { QTS_RuntimeComputeMemoryUsage?: (rt: number, ctx: number) => number };
  rt?: { value: number };
  ctx?: { value: number };
  memory?: { heapValueHandle(ptr: number): QuickJSHandle };
}

/**
 * The runtime's own figure of the memory it uses, or the heap's growth if that is larger. The
 * figure is made in the function's own context: the library's computeMemoryUsage() makes it in a
 * context of the runtime's own, started for that alone — a second context per invocation, which
 * cost as much as the rest of a trivial function's run.
 */
function memoryUsed(runtime: QuickJSRuntime, context: QuickJSContext, growth: number): number {
  const internals = context as unknown as ContextInternals;
  const compute = internals.ffi?.QTS_RuntimeComputeMemoryUsage;
  let usage: QuickJSHandle;
  if (compute && internals.rt && internals.ctx && internals.memory) usage = internals.memory.heapValueHandle(compute(internals.rt.value, internals.ctx.value));
  else usage = runtime.computeMemoryUsage();
  try {
    const size = context.getProp(usage, 'memory_used_size');
    const bytes = context.typeof(size) === 'number' ? context.getNumber(size) : 0;
    size.dispose();
    return Math.max(growth, bytes);
  } finally {
    usage.dispose();
  }
}

/** The line-and-column mappings of an inline source map (version 3, one source). */
class SourceMap {
  private constructor(private readonly lines: number[][][]) {}

  static fromCode(code: string): SourceMap | undefined {
    const match = /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/.exec(code);
    if (!match) return undefined;
    try {
      const map = JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as { mappings?: string };
      return typeof map.mappings === 'string' ? new SourceMap(decodeMappings(map.mappings)) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The source position of a generated one (both 1-based): the last segment at or before the column. */
  find(line: number, column: number): { line: number; column: number } | undefined {
    const segments = this.lines[line - 1];
    if (!segments?.length) return undefined;
    let best = segments[0]!;
    for (const segment of segments) if (segment[0]! <= column - 1) best = segment;
    return best.length >= 4 ? { line: best[2]! + 1, column: best[3]! + 1 } : undefined;
  }
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Source map "mappings": per generated line, segments [generated column, source, source line, source column] (absolute). */
function decodeMappings(mappings: string): number[][][] {
  const lines: number[][][] = [];
  const state = [0, 0, 0, 0];
  for (const line of mappings.split(';')) {
    state[0] = 0;
    const segments: number[][] = [];
    for (const text of line.split(',')) {
      if (!text) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of text) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      for (let i = 0; i < Math.min(values.length, 4); i++) state[i]! += values[i]!;
      segments.push(state.slice(0, values.length >= 4 ? 4 : 1));
    }
    lines.push(segments);
  }
  return lines;
}

function onHostAnswer(message: Extract<WorkerRequest, { type: 'host' }>) {
  if (!current || current.id !== message.id) return; // late: the invocation is over
  const deferred = current.calls.get(message.call);
  if (!deferred) return;
  current.calls.delete(message.call);
  const vm = current.context;
  if (message.ok) {
    const text = message.value === undefined ? undefined : JSON.stringify(message.value);
    const handle = text === undefined ? vm.undefined : vm.newString(text);
    deferred.resolve(handle);
    if (text !== undefined) handle.dispose();
  } else {
    const error = vm.newError({ name: 'Error', message: message.message });
    deferred.reject(error);
    error.dispose();
  }
  deferred.dispose();
  current.wake();
}

// One invocation at a time (the pool sends the next when this one has answered). The first is a
// warm-up of the thread's own, so that the engine's code is compiled before a caller waits on it.
let queue: Promise<void> = (async () => {
  const code = 'export default async (event) => ({ warm: event })';
  for (let i = 0; i < 5; i++) await run({ type: 'run', id: 0, code, event: i, limits: { memoryBytes: DEFAULT_CEILING_FOR, timeoutMs: 1000, maxOutputBytes: 1024, maxLogBytes: 1024 } });
  post({ type: 'ready' });
})();
parentPort!.on('message', (message: WorkerRequest) => {
  if (message === 'close') {
    parentPort!.close();
    return;
  }
  if (message.type === 'host') onHostAnswer(message);
  else if (message.type === 'stall' && (workerData as { testHooks?: boolean } | undefined)?.testHooks) {
    // Tests only: this thread stops answering, as a thread stuck outside QuickJS would.
    const until = Date.now() + message.ms;
    while (Date.now() < until);
  } else if (message.type === 'run')
    queue = queue.then(async () => {
      let result: InvocationResult;
      try {
        result = await run(message);
      } catch (error) {
        // A fault of the sandbox's own (run answers every fault of the function): the instance is replaced.
        result = { ok: false, error: { name: 'InternalError', message: `The sandbox failed while running the function: ${(error as Error).message}` }, logs: [], durationMs: 0, memoryBytes: 0 };
        await recycle().catch(() => process.exit(1));
      }
      post({ type: 'done', id: message.id, result });
    });
});
