/**
 * The long load test (docs/operations.md "Load test"): one installation on PostgreSQL, as one
 * Larder process and as two, each time behind the same loopback proxy (a process of its own), under
 * `--connections` callers for `--seconds` on a mix of list, create and update through the public API
 * and search through the console's API (an editor's search box), with `--live` live streams open
 * the whole time.
 *
 *   npm run bench -- load                                  # 100 connections, 60 s, 1 and 2 processes
 *   npm run bench -- load --processes 2 --seconds 30 --connections 50 --live 20 --items 5000
 *   npm run bench -- load --database-url postgres://…      # the server to make the databases on (BENCH_DATABASE_URL)
 *   npm run bench -- load --json
 *
 * Each run: a fresh database, the processes started as `npm start` runs them (server/start.ts,
 * BILLING=0: a self-hosted installation's limits do not apply), `--items` items made over the API,
 * 10 s of warm-up, then the measured run. Reported: answers by kind with p50/p95/p99, errors (any
 * answer ≥ 400 or failed request), the rate; the CPU time of the Larder processes and of the
 * PostgreSQL backends per request (read from /proc: two processes on two cores do not double the
 * rate, the CPU per request shows the scaling); each process's memory (RSS, and the V8 heap in
 * use from its /metrics) after the warm-up, every 10 s, at the end and 15 s after the load; the events each live stream got against the writes made; and the
 * requests each process counted in `/metrics` (larder_http_requests_total, scraped before and
 * after) against the requests the load generator made.
 *
 * The exit status is 1 when a request failed or the counts disagree.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { newId } from '../server/lib/ids.ts';
import { startServer, type RunningServer } from '../e2e/support/server.ts';
import { call, signInAdmin } from './list.ts';
import { processCpuMs, procSnap } from './support/proc-cpu.ts';
import { percentile, round } from './support/stats.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const kinds = ['list', 'search', 'create', 'update'] as const;
type Kind = (typeof kinds)[number];
/** How often each kind is asked, of 10. */
const mix: Kind[] = ['list', 'list', 'list', 'list', 'search', 'search', 'create', 'create', 'update', 'update'];
const words = ['basil', 'thyme', 'saffron', 'cumin', 'fennel', 'nutmeg', 'paprika', 'sorrel', 'tarragon', 'juniper'];
const proxyScript = fileURLToPath(new URL('./support/proxy-process.ts', import.meta.url));

interface Options {
  seconds: number;
  connections: number;
  live: number;
  items: number;
  processes: number[];
}

const load1 = () => round(loadavg()[0]!);
const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? round(Number(match[1]) / 1024) : NaN;
};

/** The proxy in a process of its own, in front of `upstreams`. */
async function startProxyProcess(upstreams: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', proxyScript, ...Object.entries(upstreams).map(([name, url]) => `${name}=${url}`)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve((JSON.parse(line!) as { url: string }).url);
    });
    child.once('exit', (status) => reject(new Error(`the proxy exited with ${String(status)}`)));
  });
  return { url, child };
}

/** A process's V8 heap in use (MB), from its /metrics (prom-client's default metrics). */
async function heapUsedMb(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes'));
  return line ? round(Number(line.slice(line.lastIndexOf(' ') + 1)) / 1024 / 1024) : NaN;
}

/** The sum of larder_http_requests_total in a process's /metrics, leaving out /metrics and live streams. */
async function countedRequests(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('larder_http_requests_total{')) continue;
    if (line.includes('route="/metrics"') || line.includes('/live"')) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** A live stream read to the end: the events it got. */
function openLive(url: string, token: string, signal: AbortSignal): { events: () => number; done: Promise<void> } {
  let events = 0;
  const done = (async () => {
    try {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal });
      if (!response.ok || !response.body) throw new Error(`live stream → ${response.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (message.split('\n').some((line) => line.startsWith('data:')) && !message.split('\n').some((line) => line.startsWith('event:'))) events++;
        }
      }
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error;
    }
  })();
  return { events: () => events, done };
}

async function runOne(processes: number, options: Options, log: (line: string) => void) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `larder_bench_load_${newId().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const servers: RunningServer[] = [];
  let proxy: { url: string; child: ChildProcess } | undefined;
  try {
    const env = { DATABASE_URL: databaseUrl, BILLING: '0', SERVE_CONSOLE: '0', ADMIN_EMAIL: 'bench@larder.test', ADMIN_PASSWORD: 'bench bench bench', RATE_LIMIT_LOGIN_ADDRESS: '1000/1m' };
    // One after the other: the first applies the migrations and makes the administrator.
    for (let i = 0; i < processes; i++) servers.push(await startServer({ ...env, LOG_LEVEL: 'error' }));
    proxy = await startProxyProcess(Object.fromEntries(servers.map((server, i) => [`p${i + 1}`, server.url])));
    const base = proxy.url;
    const owner = await signInAdmin(base);
    const org = (await call(base, owner, 'POST', '/api/organization', { name: 'Load' })).body as { id: string };
    const project = (await call(base, owner, 'POST', `/api/organization/${org.id}/project`, { name: 'Load' })).body as { id: string };
    await call(base, owner, 'POST', `/api/organization/${org.id}/project/${project.id}/collection`, {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Price', slug: 'price', type: code('Number') },
      ],
    });
    const token = ((await call(base, owner, 'POST', '/api/apiTokens', { name: 'load', projectID: project.id, organizationID: org.id, powerRead: true, powerWrite: true })).body as { jwtToken: string }).jwtToken;
    const items = `${base}/api/public/collection/articles/items`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const consoleItems = `${base}/api/organization/${org.id}/project/${project.id}/collection/articles/item`;
    let made = 0;
    const title = () => `Article ${made++} ${words[made % words.length]} ${words[(made * 7) % words.length]}`;
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (ids.length < options.items) {
          const response = await fetch(items, { method: 'POST', headers, body: JSON.stringify({ title: title(), price: made % 1000 }) });
          if (response.status !== 201) throw new Error(`seeding: ${response.status} ${await response.text()}`);
          ids.push(((await response.json()) as { id: string }).id);
        }
      }),
    );

    /** One request of a kind: its round trip (ms), or undefined when it failed. */
    const ask = async (kind: Kind): Promise<number | undefined> => {
      const started = performance.now();
      let response: Response;
      try {
        if (kind === 'list') response = await fetch(`${items}?perPage=20&pageNumber=${1 + Math.floor(Math.random() * 5)}`, { headers });
        // Search is the console's (the public API filters, it does not search words): an editor's search box.
        else if (kind === 'search') response = await fetch(`${consoleItems}?perPage=20&search=${words[Math.floor(Math.random() * words.length)]}`, { headers: { authorization: `Bearer ${owner}` } });
        else if (kind === 'create') response = await fetch(items, { method: 'POST', headers, body: JSON.stringify({ title: title(), price: made % 1000 }) });
        else response = await fetch(`${items}/${ids[Math.floor(Math.random() * ids.length)]}`, { method: 'PUT', headers, body: JSON.stringify({ price: Math.floor(Math.random() * 1000) }) });
        await response.arrayBuffer();
      } catch {
        return undefined;
      }
      return response.status < 400 ? performance.now() - started : undefined;
    };
    /** `connections` callers for `seconds`: round trips by kind, failures by kind, writes made. */
    const drive = async (seconds: number) => {
      const times = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
      const failed = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<Kind, number>;
      const until = performance.now() + seconds * 1000;
      let turn = 0;
      await Promise.all(
        Array.from({ length: options.connections }, async () => {
          while (performance.now() < until) {
            const kind = mix[turn++ % mix.length]!;
            const ms = await ask(kind);
            if (ms === undefined) failed[kind]++;
            else times[kind].push(ms);
          }
        }),
      );
      return { times, failed };
    };

    await drive(10); // warm-up
    const abort = new AbortController();
    const streams = Array.from({ length: options.live }, () => openLive(`${base}/api/public/collection/articles/live`, token, abort.signal));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const counted0 = await Promise.all(servers.map((server) => countedRequests(server.url)));
    const pids = servers.map((server) => server.process.pid!);
    const memory = pids.map((pid) => [rssMb(pid)]);
    const heap = await Promise.all(servers.map(async (server) => [await heapUsedMb(server.url)]));
    const sampler = setInterval(() => {
      pids.forEach((pid, i) => memory[i]!.push(rssMb(pid)));
      servers.forEach((server, i) => void heapUsedMb(server.url).then((mb) => heap[i]!.push(mb)));
    }, 10_000);
    const cpu0 = pids.map((pid) => processCpuMs(pid) ?? 0);
    const database0 = procSnap();
    const loadAtStart = load1();
    const started = performance.now();
    const { times, failed } = await drive(options.seconds);
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const cpu = pids.map((pid, i) => (processCpuMs(pid) ?? 0) - cpu0[i]!);
    const database1 = procSnap();
    let databaseCpu = 0;
    for (const [key, ms] of database1) if (key.includes(`postgres: `) && key.includes(name.slice(0, 20))) databaseCpu += ms - (database0.get(key) ?? 0);
    pids.forEach((pid, i) => memory[i]!.push(rssMb(pid)));
    // Every create and update reaches every stream: wait a moment for the last, then close them.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const counted1 = await Promise.all(servers.map((server) => countedRequests(server.url)));
    abort.abort();
    await Promise.allSettled(streams.map((s) => s.done));
    // 15 s idle: what the processes keep once the load is gone.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const idle = await Promise.all(servers.map(async (server, i) => ({ rssMb: rssMb(pids[i]!), heapUsedMb: await heapUsedMb(server.url) })));

    const answered = kinds.reduce((sum, k) => sum + times[k].length, 0);
    const failures = kinds.reduce((sum, k) => sum + failed[k], 0);
    const writes = times.create.length + times.update.length + failed.create + failed.update;
    const countedByProcess = counted1.map((n, i) => n - counted0[i]!);
    // The /metrics scrapes before and after were not counted; the load generator's requests were, on some process each.
    const counted = countedByProcess.reduce((a, b) => a + b, 0);
    const liveEvents = streams.map((s) => s.events());
    const figures = {
      processes,
      connections: options.connections,
      seconds: round(elapsed),
      items: options.items,
      loadAverage: { start: loadAtStart, end: load1() },
      requestsPerSecond: Math.round((answered + failures) / elapsed),
      answered,
      failed: failures,
      byKind: Object.fromEntries(
        kinds.map((k) => [k, { answered: times[k].length, failed: failed[k], p50Ms: round(percentile(times[k], 50)), p95Ms: round(percentile(times[k], 95)), p99Ms: round(percentile(times[k], 99)) }]),
      ),
      cpuPerRequestMs: { larder: round(cpu.reduce((a, b) => a + b, 0) / (answered + failures)), postgres: round(databaseCpu / (answered + failures)), byProcess: cpu.map((ms) => round(ms / (answered + failures))) },
      memoryMb: memory.map((samples, i) => ({ start: samples[0], end: samples[samples.length - 1], samples, heapUsed: heap[i], idleAfter: idle[i] })),
      live: { streams: options.live, writes, eventsMin: Math.min(...liveEvents), eventsMax: Math.max(...liveEvents) },
      metrics: { countedByProcess, counted, made: answered + failures, agree: counted === answered + failures },
    };
    log(`${processes} process${processes > 1 ? 'es' : ''} behind the proxy, ${options.connections} connections for ${figures.seconds} s on ${options.items} items (load average ${figures.loadAverage.start} → ${figures.loadAverage.end}):`);
    log(`  ${figures.requestsPerSecond} requests/s; ${answered} answered, ${failures} failed`);
    for (const k of kinds) {
      const r = figures.byKind[k]!;
      log(`    ${k.padEnd(6)} ${String(r.answered).padStart(7)} answered, ${r.failed} failed; p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms, p99 ${r.p99Ms} ms`);
    }
    log(`  CPU per request: Larder ${figures.cpuPerRequestMs.larder} ms (by process ${figures.cpuPerRequestMs.byProcess.join(' + ')}), PostgreSQL ${figures.cpuPerRequestMs.postgres} ms`);
    for (const [i, m] of figures.memoryMb.entries()) {
      log(`  process ${i + 1} memory: RSS after the warm-up → end ${m.start} → ${m.end} MB (every 10 s: ${m.samples.join(', ')}); V8 heap in use ${m.heapUsed!.join(', ')} MB; 15 s after the load RSS ${m.idleAfter!.rssMb} MB, heap ${m.idleAfter!.heapUsedMb} MB`);
    }
    log(`  live: ${options.live} streams got ${figures.live.eventsMin}–${figures.live.eventsMax} events of ${writes} writes`);
    log(`  /metrics counted ${counted} requests (${countedByProcess.join(' + ')}) of the ${answered + failures} the load generator made: ${figures.metrics.agree ? 'the same' : 'NOT the same'}`);
    return { figures, ok: failures === 0 && figures.metrics.agree };
  } finally {
    proxy?.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.stop()));
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`drop database if exists ${name} with (force)`);
    await drop.end();
  }
}

export async function run(args: string[]): Promise<number> {
  const option = (key: string) => {
    const i = args.indexOf(`--${key}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const number = (key: string, fallback: number) => {
    const value = Number(option(key) ?? fallback);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${key} takes a whole number`);
    return value;
  };
  const databaseUrl = option('database-url');
  if (databaseUrl) process.env.BENCH_DATABASE_URL = databaseUrl;
  const options: Options = {
    seconds: number('seconds', 60),
    connections: number('connections', 100),
    live: number('live', 20),
    items: number('items', 5000),
    processes: (option('processes') ?? '1,2').split(',').map(Number),
  };
  for (const p of options.processes) if (!Number.isInteger(p) || p < 1 || p > 8) throw new Error('--processes takes counts from 1 to 8, e.g. 1,2');
  const json = args.includes('--json');
  const log = (line: string) => {
    if (!json) console.log(line);
  };
  const results = [];
  let ok = true;
  for (const processes of options.processes) {
    const result = await runOne(processes, options, log);
    results.push(result.figures);
    ok &&= result.ok;
  }
  if (json) console.log(JSON.stringify(results, null, 2));
  return ok ? 0 : 1;
}
