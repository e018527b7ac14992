/**
 * Functions (docs/functions.md) through the real server listening on a port, called over HTTP with
 * a project API token, on PGlite (the default) or PostgreSQL:
 *
 *   npm run bench -- functions                               # PGlite
 *   npm run bench -- functions --db postgres                 # BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres
 *   npm run bench -- functions --database-url postgres://…   # PostgreSQL at that address
 *   npm run bench -- functions --db pglite,postgres --json
 *   npm run bench -- functions --only http,cold,throughput,events --calls 1000 --seconds 5 --creates 300
 *   npm run bench -- functions --concurrency 16              # FUNCTION_CONCURRENCY_PER_PROJECT for the run (default: the server's, 8)
 *   BENCH_TRACE=1 npm run bench -- functions --only events   # adds the CPU time of every process per phase of part 4
 *
 * 1. http: warm invocation overhead. A trivial deployed function at `/functions/v1/{project}/{name}`
 *    and, for comparison, a cheap route that is no function (GET of one item on /api/public), called
 *    one after the other `--calls` times each after a warm-up (alternating, so both see the same
 *    machine): p50/p95 of the round trip of each and their difference, the invocation's overhead.
 *    Target: the overhead's p50 ≤ 5 ms.
 * 2. cold: the first call of a function just made and deployed, on the running server whose pool
 *    is ready (`--cold` functions, each called once, then once more warm), with the sandbox's own
 *    durationMs from the invocation log. Target ≤ 50 ms. Also the server's very first function
 *    call, some seconds after it started listening (when the pool's threads start).
 * 3. throughput: invocations per second with 1, 4 and 16 concurrent callers for `--seconds` each
 *    (autocannon in a process of its own, so the load generator does not share the server's
 *    event loop). A project runs at most FUNCTION_CONCURRENCY_PER_PROJECT (8) functions at once:
 *    with 16 callers on one project the rest are answered 429 function_busy, counted apart from
 *    the invocations; so 16 callers are also measured split over two projects (8 + 8). Target ≥ 200/s.
 *    For comparison, the same server's GET of one item with 4 and 16 callers.
 * 4. events: item-create latency through /api/public, `--creates` (100) sequential then as many by 4
 *    concurrent callers (from a process of their own: bench/support/create-loop.mjs), with a
 *    function on `create` of the collection (it makes one small ctx.data call) and without it, in
 *    `--rounds` (10) rounds ordered with-without, without-with, … so the machine's drift falls on both
 *    sides; the runs completed and how long after the last create the queue drained. `--aa`: the
 *    function never listens, so the difference is the bench's own noise. A burst of creates shorter
 *    than 2 s is not slowed by its runs, which give way to requests (docs/functions.md "Event and
 *    schedule triggers"); `--creates 1000 --rounds 2` measures a steady stream past that. Target: the
 *    function adds ≤ 10 % to the create latency (p50), as it runs after the write, from the queue.
 *    `--no-data-call`: the function makes no data call (the run's own cost without its data call's).
 *
 * The exit status is 1 when a target measured is not met.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { Database } from '../server/db/index.ts';
import { query } from '../server/content/storage.ts';
import { call, openBenchDatabase, signInAdmin, type Kind } from './list.ts';
import { autocannon, type LoadDetail } from './support/autocannon.ts';
import { procDiff, procSnap } from './support/proc-cpu.ts';
import { mean, percentile, round } from './support/stats.ts';

/** bench/support/create-loop.mjs, and the untimed creates it makes first (connections, the JIT). */
const createLoop = fileURLToPath(new URL('./support/create-loop.mjs', import.meta.url));
const loopWarm = 10;

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const parts = ['http', 'cold', 'throughput', 'events'] as const;
type Part = (typeof parts)[number];

const trivialSource = 'export default async (event: { query: Record<string, string> }) => ({ n: Number(event.query.n ?? 0) + 1 });';
/** Runs after each create: one small call of the data client (a page of one item; the count is kept, not counted). */
const onCreateSource = "export default async (event: unknown, ctx: any) => { const { items } = await ctx.data.list('articles', { perPage: 1 }); return { seen: items.length }; };";
/** `--no-data-call`: the same without the data call, to tell the run's own cost from its data call's. */
const onCreateNoDataSource = 'export default async () => ({ seen: 0 });';

interface Options {
  calls: number;
  seconds: number;
  creates: number;
  /** Rounds of `creates` with the function, and as many without it. */
  rounds: number;
  /** The function never listens: the "with" phases measure the bench's own noise. */
  aa: boolean;
  cold: number;
  dataCall: boolean;
  concurrency?: string;
  only: Set<Part>;
}

interface Latency {
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
}

const latency = (times: number[]): Latency => ({ p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), meanMs: round(mean(times)) });
const load1 = () => round(loadavg()[0]!);

/** One project as an app's owner makes it: organization, project, collection, a power API token. */
async function makeProject(base: string, admin: string, name: string) {
  const org = (await call(base, admin, 'POST', '/api/organization', { name })).body as { id: string };
  const project = (await call(base, admin, 'POST', `/api/organization/${org.id}/project`, { name })).body as { id: string };
  const prefix = `/api/organization/${org.id}/project/${project.id}`;
  await call(base, admin, 'POST', `${prefix}/collection`, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true }] });
  const token = (await call(base, admin, 'POST', '/api/apiTokens', { name: 'bench', projectID: project.id, organizationID: org.id, powerRead: true, powerWrite: true })).body as { id: string; jwtToken: string };
  const functions = `${prefix}/functions`;
  /** Makes a function, saves its source and deploys it; its id. */
  const deploy = async (fn: string, source: string) => {
    const made = (await call(base, admin, 'POST', functions, { name: fn, apiTokenID: token.id })).body as { id: string };
    const version = (await call(base, admin, 'PUT', `${functions}/${fn}/source`, { source })).body as { id: string };
    await call(base, admin, 'POST', `${functions}/${fn}/deploy`, { versionID: version.id });
    return made.id;
  };
  return { orgId: org.id, projectId: project.id, prefix, functions, token: token.jwtToken, deploy };
}

/** A round trip over HTTP: the answer's status and body (read to its end), and the milliseconds. */
async function timed(url: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const started = performance.now();
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return { ms, text, response };
}

/** The runs a function's item-event trigger made, by status. */
async function runCounts(database: Database, functionId: string) {
  const [row] = await query<{ total: number; pending: number; succeeded: number; failed: number }>(
    database.db,
    sql`select count(*)::int as total,
               (count(*) filter (where status = 'pending'))::int as pending,
               (count(*) filter (where status = 'succeeded'))::int as succeeded,
               (count(*) filter (where status = 'failed'))::int as failed
          from function_runs where function_id = ${functionId}`,
  );
  return row!;
}

/** Waits until `expected` runs exist and none is pending (or `timeoutMs` passed): when that was seen, and the counts. */
async function drained(database: Database, functionId: string, expected: number, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const counts = await runCounts(database, functionId);
    if ((counts.total >= expected && counts.pending === 0) || performance.now() > deadline) return { at: performance.now(), counts, timedOut: performance.now() > deadline };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function runOne(kind: Kind, options: Options, log: (line: string) => void) {
  const { database, drop } = await openBenchDatabase(kind, { keep: false }, 'larder_bench_functions');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'larder-bench-functions-'));
  const config = loadConfig({
    SERVE_CONSOLE: '0',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench@larder.test',
    ADMIN_PASSWORD: 'bench bench bench',
    DATA_DIR: dataDir,
    ...(options.concurrency ? { FUNCTION_CONCURRENCY_PER_PROJECT: options.concurrency } : {}),
  });
  const app = await buildApp({ config, database });
  const figures: Record<string, unknown> = { database: kind, concurrencyPerProject: config.functions.concurrencyPerProject, loadAverageAtStart: load1() };
  const met: Record<string, boolean> = {};
  log(`${kind} (load average ${figures.loadAverageAtStart}, FUNCTION_CONCURRENCY_PER_PROJECT ${config.functions.concurrencyPerProject}):`);
  try {
    const listenedAt = performance.now();
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    await app.ctx.users.bootstrapAdmin();
    const admin = await signInAdmin(base);
    const one = await makeProject(base, admin, 'Bench');
    await one.deploy('echo', trivialSource);
    const echo = `${base}/functions/v1/${one.projectId}/echo`;
    const item = JSON.parse((await timed(`${base}/api/public/collection/articles/items`, one.token, { method: 'POST', body: { title: 'read me' } })).text) as { id: string };
    const itemUrl = `${base}/api/public/collection/articles/items/${item.id}`;

    // The server's first function call: its pool's threads started when it began listening.
    const firstSince = performance.now() - listenedAt;
    const first = await timed(`${echo}?n=0`, one.token);
    figures.firstCallOnServer = { ms: round(first.ms), afterListeningMs: Math.round(firstSince) };
    log(`  the server's first function call, ${Math.round(firstSince)} ms after it began listening: ${round(first.ms)} ms`);

    if (options.only.has('http')) {
      for (let i = 0; i < 200; i++) {
        await timed(`${echo}?n=${i}`, one.token);
        await timed(itemUrl, one.token);
      }
      const fn: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < options.calls; i++) {
        const answer = await timed(`${echo}?n=${i}`, one.token);
        if ((JSON.parse(answer.text) as { n: number }).n !== i + 1) throw new Error(`wrong answer: ${answer.text}`);
        fn.push(answer.ms);
        plain.push((await timed(itemUrl, one.token)).ms);
      }
      const http = { calls: options.calls, function: latency(fn), itemRead: latency(plain), differenceP50Ms: round(percentile(fn, 50) - percentile(plain, 50)), differenceP95Ms: round(percentile(fn, 95) - percentile(plain, 95)) };
      figures.http = http;
      // The invocation's overhead: what a call of a trivial function costs beyond a plain call of the same server.
      met.http = http.differenceP50Ms <= 5;
      log(`  http, ${options.calls} sequential calls each after 200 warm-up (alternating):`);
      log(`    trivial function   p50 ${http.function.p50Ms} ms, p95 ${http.function.p95Ms} ms (mean ${http.function.meanMs})`);
      log(`    GET one item       p50 ${http.itemRead.p50Ms} ms, p95 ${http.itemRead.p95Ms} ms (mean ${http.itemRead.meanMs})`);
      log(`    the function's overhead over the item read: p50 +${http.differenceP50Ms} ms, p95 +${http.differenceP95Ms} ms; target: overhead p50 ≤ 5 ms: ${met.http ? 'met' : 'NOT met'}`);
    }

    if (options.only.has('cold')) {
      // The pool is ready: the first call above waited for it, if it had to.
      const firsts: number[] = [];
      const inSandbox: number[] = [];
      const seconds: number[] = [];
      for (let i = 0; i < options.cold; i++) {
        const name = `cold-${i}`;
        await one.deploy(name, trivialSource.replace('+ 1', `+ ${i + 1}`));
        const url = `${base}/functions/v1/${one.projectId}/${name}`;
        firsts.push((await timed(url, one.token)).ms);
        const page = (await call(base, admin, 'GET', `${one.functions}/${name}/invocations`)).body as { invocations: { durationMs: number }[] };
        inSandbox.push(page.invocations[0]!.durationMs);
        seconds.push((await timed(url, one.token)).ms);
      }
      const cold = { functions: options.cold, firstCall: latency(firsts), firstCallMaxMs: round(Math.max(...firsts)), sandboxDurationMs: inSandbox, secondCall: latency(seconds) };
      figures.cold = cold;
      met.cold = cold.firstCall.p50Ms <= 50;
      log(`  cold, the first call of ${options.cold} functions each just made and deployed (pool ready):`);
      log(`    first call p50 ${cold.firstCall.p50Ms} ms, max ${cold.firstCallMaxMs} ms; the sandbox's durationMs ${inSandbox.join(', ')} ms; the second call p50 ${cold.secondCall.p50Ms} ms; target ≤ 50 ms: ${met.cold ? 'met' : 'NOT met'}`);
    }

    if (options.only.has('throughput')) {
      const auth = ['-H', `authorization=Bearer ${one.token}`];
      const row = (callers: number, answers: LoadDetail[]) => {
        const ok = answers.reduce((sum, a) => sum + a.total, 0);
        const busy = answers.reduce((sum, a) => sum + (a.statusCodes['429'] ?? 0), 0);
        const other = answers.reduce((sum, a) => sum + a.errors, 0) - busy;
        const seconds = Math.max(...answers.map((a) => a.seconds));
        return { callers, projects: answers.length, invocationsPerSecond: Math.round(ok / seconds), invocations: ok, busy429: busy, otherErrors: other, seconds: round(seconds), p50Ms: Math.max(...answers.map((a) => a.p50Ms)), p97_5Ms: Math.max(...answers.map((a) => a.p97_5Ms)) };
      };
      const rows = [];
      await autocannon([...auth, `${echo}?n=1`], 4, 2); // warm-up
      for (const callers of [1, 4, 16]) rows.push(row(callers, [await autocannon([...auth, `${echo}?n=1`], callers, options.seconds)]));
      // 16 callers over two projects, 8 each: each project within its own limit.
      const two = await makeProject(base, admin, 'Bench two');
      await two.deploy('echo', trivialSource);
      const echoTwo = `${base}/functions/v1/${two.projectId}/echo?n=1`;
      rows.push(row(16, await Promise.all([autocannon([...auth, `${echo}?n=1`], 8, options.seconds), autocannon(['-H', `authorization=Bearer ${two.token}`, echoTwo], 8, options.seconds)])));
      // The same server's ceiling on a route that is no function, for comparison.
      const itemReads = [];
      for (const callers of [4, 16]) {
        const answer = await autocannon([...auth, itemUrl], callers, options.seconds);
        itemReads.push({ callers, requestsPerSecond: Math.round(answer.total / answer.seconds), p50Ms: answer.p50Ms, p97_5Ms: answer.p97_5Ms, errors: answer.errors });
      }
      figures.throughput = rows;
      figures.itemReadThroughput = itemReads;
      met.throughput = rows.every((r) => r.invocationsPerSecond >= 200);
      log(`  throughput, ${options.seconds} s each (autocannon in its own process):`);
      for (const r of rows) {
        log(`    ${String(r.callers).padStart(2)} caller(s)${r.projects > 1 ? ` over ${r.projects} projects` : ''}: ${r.invocationsPerSecond} invocations/s (p50 ${r.p50Ms} ms, p97.5 ${r.p97_5Ms} ms; ${r.invocations} answered 200, ${r.busy429} answered 429 function_busy, ${r.otherErrors} other errors)`);
      }
      for (const r of itemReads) log(`    for comparison, GET one item, ${r.callers} callers: ${r.requestsPerSecond}/s (p50 ${r.p50Ms} ms, p97.5 ${r.p97_5Ms} ms, ${r.errors} errors)`);
      log(`    target ≥ 200/s: ${met.throughput ? 'met' : 'NOT met'}`);
    }

    if (options.only.has('events')) figures.events = await events(base, admin, database, options, met, log);
    figures.loadAverageAtEnd = load1();
    figures.targetsMet = met;
    log(`  load average at the end ${figures.loadAverageAtEnd}; targets: ${Object.entries(met).map(([k, v]) => `${k} ${v ? 'met' : 'NOT met'}`).join(', ') || 'none measured'}`);
    return { figures, met: Object.values(met).every(Boolean) };
  } finally {
    await app.close();
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Part 4: item creates without a function on `create`, with one, and without again. */
async function events(base: string, admin: string, database: Database, options: Options, met: Record<string, boolean>, log: (line: string) => void) {
  const project = await makeProject(base, admin, 'Bench events');
  const functionId = await project.deploy('on-create', options.dataCall ? onCreateSource : onCreateNoDataSource);
  const items = `${base}/api/public/collection/articles/items`;
  let n = 0;
  const create = async () => (await timed(items, project.token, { method: 'POST', body: { title: `Article ${n++}` } })).ms;
  /** `options.creates` creates by `callers` at once from a process of their own, after `warm` untimed ones: their round trips. */
  const loop = async (callers: number) => {
    const child = spawn(process.execPath, [createLoop, items, project.token, String(options.creates), String(callers), String(loopWarm), String(n)], { stdio: ['ignore', 'pipe', 'inherit'] });
    n += options.creates + loopWarm;
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`the create loop ended with ${String(code)}`);
    return JSON.parse(out) as number[];
  };
  const sequential = () => loop(1);
  const concurrent = (callers: number) => loop(callers);
  // --aa: the function never listens (its "with" phases are phases without): the bench's own noise.
  const listen = (on: boolean) => call(base, admin, 'PUT', `${project.functions}/on-create`, on && !options.aa ? { events: ['create'], collections: ['articles'] } : { events: [] });

  for (let i = 0; i < 20; i++) await create(); // warm-up
  // BENCH_TRACE=1: the CPU time of every process of the machine per phase (bench/support/proc-cpu.ts).
  const trace = process.env.BENCH_TRACE ? (label: string, since: Map<string, number>) => log(`  CPU time per process, ${label}:\n${procDiff(since, procSnap())}`) : undefined;
  await sequential(); // warm-up of the create loop's path

  await listen(true);
  // Warm-up of the run path: the relay, the queue's workers, the data client's route.
  for (let i = 0; i < 20; i++) await create();
  const warm = options.aa ? { counts: { total: 1, pending: 0, succeeded: 0, failed: 0 } } : await drained(database, functionId, 20, 60_000);
  if (warm.counts.total === 0) {
    log(`  events: no run of the function on 'create' within 60 s: the item-event trigger is not there (yet); not measured`);
    await listen(false);
    return { measured: false, reason: 'no run of the function on create within 60 s' };
  }
  let expected = 20;
  /** Creates of one phase, then (with the function) the wait until every run is made. */
  const phase = async (times: () => Promise<number[]>, on: boolean) => {
    const timesMs = await times();
    if (!on || options.aa) return { timesMs, drainMs: 0, counts: undefined, timedOut: false };
    expected += loopWarm + options.creates;
    const lastCreate = performance.now();
    const done = await drained(database, functionId, expected, 300_000);
    return { timesMs, drainMs: round(done.at - lastCreate), counts: done.counts, timedOut: done.timedOut };
  };
  // The monotonic clock of CPU profiles (node --cpu-prof), in µs: the phases with the function can be cut out of one.
  const mark = (what: string) => process.env.BENCH_TRACE && log(`  ${what} at ${process.hrtime.bigint() / 1000n} µs`);
  // Rounds with the function and without it, in the order with-without, without-with, … (ABBA), so
  // that the machine's drift (its speed moves from minute to minute) falls on both sides alike.
  const withFn = { sequential: [] as number[], concurrent: [] as number[] };
  const without = { sequential: [] as number[], concurrent: [] as number[] };
  let listening = true;
  let drainMs = { sequential: 0, concurrent: 0 };
  let counts = warm.counts;
  let timedOut = false;
  const snap = procSnap();
  for (let i = 0; i < 2 * options.rounds; i++) {
    const on = i % 4 === 0 || i % 4 === 3;
    if (on !== listening) await listen((listening = on));
    if (on) mark('with the function from');
    const seq = await phase(sequential, on);
    const conc = await phase(() => concurrent(4), on);
    if (on) mark('with the function until');
    (on ? withFn : without).sequential.push(...seq.timesMs);
    (on ? withFn : without).concurrent.push(...conc.timesMs);
    if (process.env.BENCH_TRACE) log(`  phase ${i + 1} ${on ? 'with' : 'without'}: p50 sequential ${latency(seq.timesMs).p50Ms} ms, 4 at once ${latency(conc.timesMs).p50Ms} ms`);
    if (on) {
      drainMs = { sequential: Math.max(drainMs.sequential, seq.drainMs), concurrent: Math.max(drainMs.concurrent, conc.drainMs) };
      counts = conc.counts ?? counts;
      timedOut ||= seq.timedOut || conc.timedOut;
    }
  }
  if (listening) await listen(false);
  trace?.(`${2 * options.rounds * options.creates} creates with the function, until its last run, and as many without`, snap);

  const row = (without: number[], withFn: number[]) => {
    const base = latency(without);
    const on = latency(withFn);
    return { without: base, with: on, addedP50Pct: round((on.p50Ms / base.p50Ms - 1) * 100), addedMeanPct: round((on.meanMs / base.meanMs - 1) * 100) };
  };
  const seq = row(without.sequential, withFn.sequential);
  const conc = row(without.concurrent, withFn.concurrent);
  const figures = {
    measured: true,
    creates: options.creates,
    rounds: options.rounds,
    aa: options.aa,
    dataCall: options.dataCall,
    sequential: { ...seq, drainMs: drainMs.sequential },
    concurrent4: { ...conc, drainMs: drainMs.concurrent },
    runsExpected: expected,
    runsSucceeded: counts.succeeded,
    runsFailed: counts.failed,
    runsPending: counts.pending,
  };
  met.events = seq.addedP50Pct <= 10 && conc.addedP50Pct <= 10 && !timedOut;
  const line = (label: string, r: typeof seq, drainMs: number) =>
    `    ${label}: without p50 ${r.without.p50Ms} ms, p95 ${r.without.p95Ms} ms (mean ${r.without.meanMs}); with p50 ${r.with.p50Ms} ms, p95 ${r.with.p95Ms} ms (mean ${r.with.meanMs}): +${r.addedP50Pct} % at p50, +${r.addedMeanPct} % mean; queue drained ${drainMs} ms after the last create`;
  log(
    `  events, ${options.rounds} × ${options.creates} creates through /api/public each way, in rounds with and without the function (${options.aa ? 'A/A: the function never listens, so this is the bench’s own noise' : options.dataCall ? 'it makes one ctx.data.list call' : 'it makes no data call'}):`,
  );
  log(line('sequential  ', seq, drainMs.sequential));
  log(line('4 concurrent', conc, drainMs.concurrent));
  log(`    runs: ${counts.succeeded} succeeded, ${counts.failed} failed, ${counts.pending} pending of ${figures.runsExpected} creates while it listened; target ≤ 10 %: ${met.events ? 'met' : 'NOT met'}`);
  return figures;
}

export async function run(args: string[]): Promise<number> {
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const number = (name: string, fallback: number) => {
    const value = Number(option(name) ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of at least 1`);
    return value;
  };
  const databaseUrl = option('database-url');
  // The PostgreSQL server the benches make their databases on (bench/list.ts openBenchDatabase).
  if (databaseUrl) process.env.BENCH_DATABASE_URL = databaseUrl;
  const kinds = (option('db') ?? (databaseUrl ? 'postgres' : 'pglite')).split(',') as Kind[];
  for (const kind of kinds) if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`--db takes pglite, postgres; not ${kind}`);
  const only = new Set((option('only') ?? parts.join(',')).split(',') as Part[]);
  for (const part of only) if (!parts.includes(part)) throw new Error(`--only takes ${parts.join(', ')}; not ${part}`);
  const concurrency = option('concurrency');
  const options: Options = { calls: number('calls', 1000), seconds: number('seconds', 5), creates: number('creates', 100), rounds: number('rounds', 10), aa: args.includes('--aa'), cold: number('cold', 5), dataCall: !args.includes('--no-data-call'), only, ...(concurrency ? { concurrency } : {}) };
  const json = args.includes('--json');
  const log = (line: string) => {
    if (!json) console.log(line);
  };
  const results = [];
  let allMet = true;
  for (const kind of kinds) {
    const { figures, met } = await runOne(kind, options, log);
    results.push(figures);
    allMet &&= met;
  }
  if (json) console.log(JSON.stringify(results, null, 2));
  return allMet ? 0 : 1;
}
