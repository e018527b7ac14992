/**
 * The Functions sandbox (docs/functions.md "The sandbox"), through the real pool of worker threads:
 * runaway functions are stopped with clear errors while this thread keeps serving, a function
 * finds nothing of Node, calls share nothing, logs, errors and host calls behave as documented.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFunction } from '../../server/functions/compile.ts';
import { SandboxPool, type Invocation, type SandboxLimits } from '../../server/functions/sandbox.ts';

const limits: SandboxLimits = { memoryBytes: 32 * 1024 * 1024, timeoutMs: 2000, maxOutputBytes: 64 * 1024, maxLogBytes: 4096 };

function compile(source: string): string {
  const compiled = compileFunction(source, 'ts');
  if ('errors' in compiled) throw new Error(JSON.stringify(compiled.errors));
  return compiled.code;
}

const noHost: Invocation['host'] = async (name) => {
  throw new Error(`no host call expected (${name})`);
};

let pool: SandboxPool;
let server: Server;
let serverUrl: string;

beforeAll(async () => {
  pool = new SandboxPool({ threads: 2, testHooks: true });
  server = createServer((_request, response) => response.end('pong'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // The threads load QuickJS once and warm it up; calls made before would wait for that.
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Runs an invocation while this thread keeps a 10 ms tick and asks the local HTTP server every
 * 100 ms: what the sandbox answered, and how this thread fared meanwhile.
 */
async function whileServing(invocation: Invocation) {
  let ticks = 0;
  const tick = setInterval(() => ticks++, 10);
  let answered = 0;
  let running = true;
  const asking = (async () => {
    while (running) {
      if ((await (await fetch(serverUrl)).text()) === 'pong') answered++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  const result = await pool.run(invocation);
  const elapsed = performance.now() - started;
  running = false;
  clearInterval(tick);
  await asking;
  return { result, elapsed, ticks, answered };
}

describe('the sandbox stops runaway functions while the main thread keeps serving', () => {
  it('stops an endless loop at its deadline', async () => {
    const { result, elapsed, ticks, answered } = await whileServing({ code: compile('export default async () => { for (;;) {} }'), event: null, limits, host: noHost });
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ name: 'TimeoutError', message: 'The function ran longer than 2 s and was stopped.' });
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    // Bounds that a loaded CI runner keeps: stopped, not run on (the deadline is the property).
    expect(elapsed).toBeLessThan(8000);
    // 2 s of 10 ms ticks is 200, and 20 requests; a blocked thread would manage one of each.
    expect(ticks).toBeGreaterThan(20);
    expect(answered).toBeGreaterThanOrEqual(3);
  });

  it('stops a memory bomb at its memory limit', async () => {
    const code = compile('export default async () => { const kept: unknown[] = []; for (;;) kept.push({ a: [1, 2, 3], b: "x" + kept.length }); }');
    const { result, ticks, elapsed } = await whileServing({ code, event: null, limits, host: noHost });
    expect(result.error).toEqual({ name: 'MemoryLimitError', message: 'The function used more than 32 MB of memory and was stopped.' });
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 100));
    // Large allocations too (QuickJS's own count of them does not bound their total).
    const arrays = await pool.run({ code: compile('export default async () => { const kept: unknown[] = []; for (;;) kept.push(new Array(1000).fill(1)); }'), event: null, limits, host: noHost });
    expect(arrays.error?.name).toBe('MemoryLimitError');
    const strings = await pool.run({ code: compile('export default async () => { let s = "x"; for (;;) s += s; }'), event: null, limits, host: noHost });
    expect(strings.ok).toBe(false);
    // Big allocations between two checks of the interrupt handler meet the heap's ceiling instead,
    // at once, not the deadline — and not gigabytes later.
    for (const allocation of ['new Uint8Array(20e6)', '"x".repeat(20e6 + kept.length)', 'new Array(1e6).fill(0)']) {
      const started = performance.now();
      const big = await pool.run({ code: compile(`export default async () => { const kept: unknown[] = []; for (;;) kept.push(${allocation}); }`), event: null, limits, host: noHost });
      expect(big.error?.name, allocation).toBe('MemoryLimitError');
      expect(performance.now() - started).toBeLessThan(limits.timeoutMs);
    }
    const single = await pool.run({ code: compile('export default async () => new ArrayBuffer(1e9).byteLength'), event: null, limits, host: noHost });
    expect(single.error?.name).toBe('MemoryLimitError');
    // The thread goes on serving calls afterwards.
    expect(await pool.run({ code: compile('export default async () => "still here"'), event: null, limits, host: noHost })).toMatchObject({ ok: true, value: 'still here' });
  });

  it('stops deep recursion with a stack-size error', async () => {
    const code = compile('export default async () => {\n  const down = (n: number): number => down(n + 1) + 1;\n  return down(0);\n}');
    const { result } = await whileServing({ code, event: null, limits, host: noHost });
    expect(result.error?.name).toBe('RangeError');
    expect(result.error?.message).toMatch(/^Maximum call stack size exceeded/);
    expect(result.error?.stack).toContain('at down (function:2:');
    // Recursion inside the engine's own code (a deeply nested array made a string) is stopped too.
    const nested = await pool.run({
      code: compile('export default async () => { let v: unknown[] = []; for (let i = 0; i < 200000; i++) v = [v]; return String(v).length; }'),
      event: null,
      limits,
      host: noHost,
    });
    expect(nested.error?.message).toMatch(/^Maximum call stack size exceeded/);
  });

  it('refuses a result larger than maxOutputBytes, and cuts logs at maxLogBytes', async () => {
    const { result } = await whileServing({ code: compile('export default async () => "x".repeat(100000)'), event: null, limits, host: noHost });
    expect(result.error).toEqual({ name: 'RangeError', message: "The function's result is larger than 65536 bytes (64 KB)." });

    const logged = await pool.run({ code: compile('export default async () => { for (let i = 0; i < 10000; i++) console.log("line " + i); return "done"; }'), event: null, limits, host: noHost });
    expect(logged).toMatchObject({ ok: true, value: 'done' });
    expect(logged.logs[0]).toEqual({ level: 'log', text: 'line 0' });
    expect(logged.logs.at(-1)).toEqual({ level: 'warn', text: 'Logs truncated: the function wrote more than 4 KB of logs; the rest was dropped.' });
    const bytes = logged.logs.slice(0, -1).reduce((sum, line) => sum + Buffer.byteLength(line.text) + 1, 0);
    expect(bytes).toBeLessThanOrEqual(4096);
  });

  it('replaces a thread stuck outside QuickJS, the call answering a timeout', async () => {
    const short = { ...limits, timeoutMs: 300 };
    // Both threads stop answering for 5 s; the call's thread is replaced after 300 ms + 1 s.
    pool.stallWorker(5000);
    pool.stallWorker(5000);
    const started = performance.now();
    const stuck = await pool.run({ code: compile('export default async () => 1'), event: null, limits: short, host: noHost });
    const elapsed = performance.now() - started;
    expect(stuck.error).toEqual({ name: 'TimeoutError', message: 'The function ran longer than 300 ms and was stopped.' });
    expect(elapsed).toBeGreaterThanOrEqual(1250);
    expect(elapsed).toBeLessThan(8000);
    // The replacement answers (the other stalled thread is replaced too when its turn comes).
    const after = await Promise.all([1, 2, 3].map((n) => pool.run({ code: compile('export default async (n: number) => n * 2'), event: n, limits: short, host: noHost })));
    expect(after.map((r) => (r.ok ? r.value : r.error?.name))).toEqual(expect.arrayContaining([4, 6]));
  });
});

describe('a function finds nothing of Node', () => {
  it('has no process, require, timers, WebAssembly or host objects, however it looks', async () => {
    const code = compile(`export default async function (this: unknown, event: unknown, ctx: any) {
      const probe = (f: () => unknown) => { try { const v = f(); return v === undefined ? 'undefined' : typeof v === 'object' && v !== null ? Object.getOwnPropertyNames(v).join(',') : String(v); } catch (e) { return 'threw ' + (e as Error).name; } };
      const g = globalThis as any;
      Error.prepareStackTrace = (_e: unknown, frames: unknown) => frames;
      return {
        process: typeof g.process, require: typeof g.require, module: typeof g.module, Buffer: typeof g.Buffer, global: typeof g.global,
        setTimeout: typeof g.setTimeout, setInterval: typeof g.setInterval, setImmediate: typeof g.setImmediate, fetch: typeof g.fetch,
        WebAssembly: typeof g.WebAssembly, Atomics: typeof g.Atomics,
        constructorTrick: probe(() => (this as any)?.constructor?.constructor('return typeof process')()),
        functionTrick: probe(() => Function('return typeof this.process + typeof this.require')()),
        globalConstructor: probe(() => g.constructor.constructor('return typeof process')()),
        asyncConstructor: await (async () => 1).constructor('return typeof process')(),
        ctxTrick: probe(() => ctx.constructor.constructor('return typeof process + typeof require')()),
        callTrick: probe(() => ctx.call.constructor('return typeof process')()),
        prepareStackTrace: typeof new Error('x').stack,
        sharedArrayBuffer: probe(() => { if (typeof g.SharedArrayBuffer !== 'function') return 'absent'; const view = new Int32Array(new g.SharedArrayBuffer(8)); view[0] = 7; return view[0]; }),
        atomicsWait: probe(() => g.Atomics.wait(new Int32Array(new g.SharedArrayBuffer(4)), 0, 0, 10)),
        globals: Object.getOwnPropertyNames(globalThis).filter((name) => ['process', 'require', 'module', 'exports', 'Buffer', 'global', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'WebAssembly', 'Worker', 'std', 'os', 'importScripts', '__dirname', '__filename', 'Deno', 'Bun'].includes(name)),
      };
    }`);
    const result = await pool.run({ code, event: null, limits, host: noHost });
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      process: 'undefined',
      require: 'undefined',
      module: 'undefined',
      Buffer: 'undefined',
      global: 'undefined',
      setTimeout: 'undefined',
      setInterval: 'undefined',
      setImmediate: 'undefined',
      fetch: 'undefined',
      WebAssembly: 'undefined',
      Atomics: 'undefined',
      constructorTrick: 'undefined',
      functionTrick: 'undefinedundefined',
      globalConstructor: 'undefined',
      asyncConstructor: 'undefined',
      ctxTrick: 'undefinedundefined',
      callTrick: 'undefined',
      prepareStackTrace: 'string',
      // QuickJS's own SharedArrayBuffer: memory inside the function's heap, shared with nothing.
      sharedArrayBuffer: '7',
      atomicsWait: 'threw TypeError',
      globals: [],
    });
  });

  it('refuses every import, static or dynamic', async () => {
    // Code as compileFunction would refuse it, sent as is: the sandbox's module loader refuses too.
    const staticImport = await pool.run({ code: 'import fs from "fs";\nexport default async () => typeof fs', event: null, limits, host: noHost });
    expect(staticImport.ok).toBe(false);
    expect(staticImport.error?.message).toMatch(/Functions cannot import modules \(“fs”\)/);
    const dynamic = await pool.run({
      code: 'export default async () => { try { await import("node:fs"); return "imported"; } catch (e) { return e.message; } }',
      event: null,
      limits,
      host: noHost,
    });
    expect(dynamic.value).toMatch(/Functions cannot import modules \(“node:fs”\)/);
  });

  it('shares no state between two invocations', async () => {
    const code = compile(`export default async () => {
      const g = globalThis as any;
      const before = { mark: g.mark ?? null, polluted: ({} as any).polluted ?? null, json: JSON.stringify === g.savedStringify };
      g.mark = 'set'; (Object.prototype as any).polluted = 'yes'; g.savedStringify = JSON.stringify; JSON.parse = () => 'hijacked';
      return before;
    }`);
    const first = await pool.run({ code, event: null, limits, host: noHost });
    const second = await pool.run({ code, event: null, limits, host: noHost });
    expect(first.value).toEqual({ mark: null, polluted: null, json: false });
    expect(second.value).toEqual({ mark: null, polluted: null, json: false });
    // The event still arrives whole after a call that replaced JSON.parse.
    expect((await pool.run({ code: compile('export default async (e: unknown) => e'), event: { a: [1, 'two'] }, limits, host: noHost })).value).toEqual({ a: [1, 'two'] });
  });
});

describe('what a function sees and gives back', () => {
  it('gets its event and returns JSON', async () => {
    const result = await pool.run({ code: compile('export default async (event: { n: number }) => ({ doubled: event.n * 2, at: typeof Date.now(), random: typeof Math.random() })'), event: { n: 21 }, limits, host: noHost });
    expect(result).toMatchObject({ ok: true, value: { doubled: 42, at: 'number', random: 'number' }, logs: [] });
    expect(result.durationMs).toBeGreaterThan(0);
    expect(result.memoryBytes).toBeGreaterThan(0);
    const circular = await pool.run({ code: compile('export default async () => { const a: any = {}; a.self = a; return a; }'), event: null, limits, host: noHost });
    expect(circular.error?.message).toMatch(/^The function's result is not JSON/);
    const badEvent = await pool.run({ code: compile('export default async (e: unknown) => e'), event: { n: 10n }, limits, host: noHost });
    expect(badEvent.error?.message).toMatch(/^The event is not JSON/);
    const fn = await pool.run({ code: compile('export default async () => () => 1'), event: null, limits, host: noHost });
    expect(fn.error?.message).toBe("The function's result is not JSON (it returned a function).");
  });

  it('captures logs in order, objects as JSON', async () => {
    const code = compile(`export default async () => {
      console.log('first', 1, { a: [1, 2] });
      console.info('second');
      await Promise.resolve();
      console.warn('third', null, undefined);
      console.error(new TypeError('fourth'));
      return 'ok';
    }`);
    const result = await pool.run({ code, event: null, limits, host: noHost });
    expect(result.logs).toEqual([
      { level: 'log', text: 'first 1 {"a":[1,2]}' },
      { level: 'info', text: 'second' },
      { level: 'warn', text: 'third null undefined' },
      { level: 'error', text: 'TypeError: fourth' },
    ]);
  });

  it("reports a thrown error with a stack naming the function's own line", async () => {
    const source = [
      'interface Order { total: number }',
      '',
      'function check(order: Order): void {',
      '  if (order.total < 0) {',
      '    throw new RangeError(`negative total: ${order.total}`);',
      '  }',
      '}',
      '',
      'export default async function (event: Order) {',
      '  check(event);',
      '  return event.total;',
      '}',
    ].join('\n');
    const result = await pool.run({ code: compile(source), event: { total: -5 }, limits, host: noHost });
    expect(result.error).toMatchObject({ name: 'RangeError', message: 'negative total: -5' });
    expect(result.error?.stack?.split('\n')[0]).toMatch(/at check \(function:5:\d+\)/);
    expect(result.error?.stack).toMatch(/\(function:10:\d+\)/);
    expect(result.error?.stack).not.toContain('sandbox.js');
  });

  it('bridges ctx.fetch and ctx.call to the host; a host error is a catchable rejection', async () => {
    const calls: [string, unknown[]][] = [];
    const host: Invocation['host'] = async (name, args) => {
      calls.push([name, args]);
      if (name === 'fetch') return { status: 200, headers: { 'content-type': 'text/plain' }, text: 'hello' };
      if (name === 'data') throw new Error('The collection “orders” does not exist.');
      return { echoed: args };
    };
    const code = compile(`export default async (event: unknown, ctx: any) => {
      const page = await ctx.fetch('https://example.com/x', { method: 'POST', headers: { a: 'b' }, body: '{}' });
      const echoed = await ctx.call('echo', 1, 'two', { three: 3 });
      let caught = null;
      try { await ctx.call('data', 'orders'); } catch (e) { caught = (e as Error).message; }
      return { page, echoed, caught };
    }`);
    const result = await pool.run({ code, event: null, limits, host });
    expect(result.value).toEqual({
      page: { status: 200, headers: { 'content-type': 'text/plain' }, text: 'hello' },
      echoed: { echoed: [1, 'two', { three: 3 }] },
      caught: 'The collection “orders” does not exist.',
    });
    expect(calls).toEqual([
      ['fetch', ['https://example.com/x', { method: 'POST', headers: { a: 'b' }, body: '{}' }]],
      ['echo', [1, 'two', { three: 3 }]],
      ['data', ['orders']],
    ]);
    const uncaught = await pool.run({ code: compile("export default async (e: unknown, ctx: any) => ctx.call('data')"), event: null, limits, host });
    expect(uncaught.error).toMatchObject({ name: 'Error', message: 'The collection “orders” does not exist.' });
  });

  it('bounds a host call that never answers by the deadline', async () => {
    const started = performance.now();
    const result = await pool.run({
      code: compile("export default async (e: unknown, ctx: any) => { await ctx.call('hang'); return 'never'; }"),
      event: null,
      limits: { ...limits, timeoutMs: 500 },
      host: () => new Promise(() => {}),
    });
    expect(result.error).toEqual({ name: 'TimeoutError', message: 'The function ran longer than 500 ms and was stopped.' });
    expect(performance.now() - started).toBeLessThan(4000);
    const waitsOnNothing = await pool.run({ code: compile('export default async () => { await new Promise(() => {}); }'), event: null, limits, host: noHost });
    expect(waitsOnNothing.error?.message).toMatch(/never settles/);
  });

  it('answers many concurrent invocations (queued beyond the threads)', async () => {
    const code = compile("export default async (n: number, ctx: any) => (await ctx.call('add', n, 1)) * 10");
    const host: Invocation['host'] = async (_name, args) => (args[0] as number) + (args[1] as number);
    const results = await Promise.all(Array.from({ length: 60 }, (_, n) => pool.run({ code, event: n, limits, host })));
    expect(results.map((r) => r.value)).toEqual(Array.from({ length: 60 }, (_, n) => (n + 1) * 10));
  });
});
