/**
 * The Functions sandbox (docs/functions.md "The sandbox"), through its real pool of worker threads:
 *
 *   npm run bench -- functions-sandbox
 *   npm run bench -- functions-sandbox --threads 2 --calls 1000 --callers 1,4,16 --json
 *
 * 1. Cold start: a new pool's first call (threads start, QuickJS loads); the first call on a pool
 *    whose threads are ready; what a fresh runtime and context cost inside the thread on every call
 *    (the call's own durationMs).
 * 2. Warm invocation of a trivial function: p50/p95 over `--calls` sequential calls, end to end
 *    from this thread; then the same with one host call (`ctx.call`) on the way.
 * 3. Invocations per second with N concurrent callers (`--callers`), each calling in a loop.
 * Targets the product must meet: warm overhead p50 ≤ 5 ms, cold start ≤ 50 ms, ≥ 200 invocations a second.
 */
import { cpus } from 'node:os';
import { compileFunction } from '../server/functions/compile.ts';
import { SandboxPool, type Invocation, type SandboxLimits } from '../server/functions/sandbox.ts';
import { percentile, round } from './support/stats.ts';

const limits: SandboxLimits = { memoryBytes: 64 * 1024 * 1024, timeoutMs: 5000, maxOutputBytes: 1024 * 1024, maxLogBytes: 64 * 1024 };

function compile(source: string): string {
  const compiled = compileFunction(source, 'ts');
  if ('errors' in compiled) throw new Error(JSON.stringify(compiled.errors));
  return compiled.code;
}

export async function run(args: string[]): Promise<number> {
  const option = (name: string, fallback: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
  };
  const threads = Number(option('threads', String(Math.max(1, cpus().length))));
  const calls = Number(option('calls', '1000'));
  const callers = option('callers', '1,4,16').split(',').map(Number);
  const json = args.includes('--json');
  const log = (line: string) => {
    if (!json) console.log(line);
  };

  const trivial = compile('export default async (event: { n: number }) => ({ n: event.n + 1 })');
  const withHost = compile("export default async (event: { n: number }, ctx: any) => ({ n: await ctx.call('add', event.n, 1) })");
  const host: Invocation['host'] = async (_name, args) => (args[0] as number) + (args[1] as number);
  const call = (pool: SandboxPool, code: string, n: number) => pool.run({ code, event: { n }, limits, host });

  // 1. Cold start.
  const poolStarted = performance.now();
  const pool = new SandboxPool({ threads });
  const first = await call(pool, trivial, 0);
  const firstCallMs = performance.now() - poolStarted;
  if (!first.ok) throw new Error(JSON.stringify(first.error));
  log(`Functions sandbox, ${threads} thread(s), ${cpus().length} CPU(s)`);
  log(`cold: first call after the pool starts ${round(firstCallMs)} ms end to end (${round(first.durationMs)} ms of it in the thread: the first runtime)`);
  // A pool started earlier (as the server's is, at boot): its threads are up and warm.
  const readyStarted = performance.now();
  const other = new SandboxPool({ threads });
  await other.ready();
  const readyMs = performance.now() - readyStarted;
  const afterReadyStarted = performance.now();
  const afterReady = await call(other, trivial, 0);
  const afterReadyMs = performance.now() - afterReadyStarted;
  await other.close();
  log(`cold: a pool's threads are ready ${round(readyMs)} ms after it starts; its first call then takes ${round(afterReadyMs)} ms end to end (${round(afterReady.durationMs)} ms in the thread)`);

  // 2. Warm, sequential.
  for (let i = 0; i < 200; i++) await call(pool, trivial, i); // warm the engine's code (WebAssembly tiers up)
  const warm: number[] = [];
  const inThread: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const result = await call(pool, trivial, i);
    warm.push(performance.now() - started);
    inThread.push(result.durationMs);
    if (!result.ok || (result.value as { n: number }).n !== i + 1) throw new Error(`wrong answer: ${JSON.stringify(result)}`);
  }
  const hosted: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const result = await call(pool, withHost, i);
    hosted.push(performance.now() - started);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
  }
  const figures = {
    threads,
    cold: { firstCallMs: round(firstCallMs), firstCallInThreadMs: round(first.durationMs), poolReadyMs: round(readyMs), firstCallAfterReadyMs: round(afterReadyMs), freshRuntimeP50Ms: round(percentile(inThread, 50)), freshRuntimeP95Ms: round(percentile(inThread, 95)) },
    warm: { calls, p50Ms: round(percentile(warm, 50)), p95Ms: round(percentile(warm, 95)), withHostCallP50Ms: round(percentile(hosted, 50)), withHostCallP95Ms: round(percentile(hosted, 95)) },
    throughput: [] as { callers: number; invocationsPerSecond: number; p95Ms: number }[],
  };
  log(`cold: a fresh runtime and context, module, call and result, in the thread: p50 ${figures.cold.freshRuntimeP50Ms} ms, p95 ${figures.cold.freshRuntimeP95Ms} ms`);
  log(`warm: ${calls} sequential calls of a trivial function, end to end: p50 ${figures.warm.p50Ms} ms, p95 ${figures.warm.p95Ms} ms`);
  log(`warm: with one host call (ctx.call) on the way: p50 ${figures.warm.withHostCallP50Ms} ms, p95 ${figures.warm.withHostCallP95Ms} ms`);

  // 3. Throughput.
  for (const n of callers) {
    const total = Math.max(calls, n * 50);
    let next = 0;
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: n }, async () => {
        while (next < total) {
          const i = next++;
          const begun = performance.now();
          const result = await call(pool, trivial, i);
          latencies.push(performance.now() - begun);
          if (!result.ok) throw new Error(JSON.stringify(result.error));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const row = { callers: n, invocationsPerSecond: Math.round(total / seconds), p95Ms: round(percentile(latencies, 95)) };
    figures.throughput.push(row);
    log(`throughput: ${n} concurrent caller(s): ${row.invocationsPerSecond} invocations/s (p95 ${row.p95Ms} ms, ${total} calls)`);
  }
  await pool.close();

  const met = figures.warm.p50Ms <= 5 && figures.cold.freshRuntimeP50Ms <= 50 && figures.cold.firstCallAfterReadyMs <= 50 && figures.throughput.every((row) => row.callers === 1 || row.invocationsPerSecond >= 200);
  log(`targets (warm p50 ≤ 5 ms, first call on a ready pool and fresh runtime ≤ 50 ms, ≥ 200 invocations/s): ${met ? 'met' : 'NOT met'}`);
  if (json) console.log(JSON.stringify(figures, null, 2));
  return met ? 0 : 1;
}
