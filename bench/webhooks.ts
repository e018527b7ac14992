/**
 * Webhook deliveries (docs/webhooks.md), in process on PGlite and PostgreSQL:
 *
 *   npm run bench -- webhooks                    # PostgreSQL then PGlite
 *   npm run bench -- webhooks --db pglite --writes 1000      (1000 is the default)
 *   npm run bench -- webhooks --json
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * 1. Added latency on item writes: `--writes` sequential item creates without any webhook, then
 *    with one webhook listening to the collection, then without again (the baseline is the mean
 *    of the two runs without). Target: writes slow by 10 % at most.
 * 2. Deliveries per second: the same number of items written at once (in parallel), timed from
 *    the first write to the last delivery a local receiver (loopback, allowed by the allow-list)
 *    answered 200. The receiver runs in a process of its own (bench/support/webhook-receiver.ts),
 *    as a real one would, so its work is not counted as the server's.
 */
import { fork } from 'node:child_process';
import { cpus, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { buildApp, type App } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openBenchDatabase, type Kind } from './list.ts';
import { procDiff, procSnap } from './support/proc-cpu.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round = (n: number) => Math.round(n * 100) / 100;

async function inject(app: App, token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} → ${response.statusCode} ${response.body.slice(0, 300)}`);
  return response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {};
}

async function runOne(kind: Kind, writes: number, log: (line: string) => void) {
  log(`${kind}:`);
  // The receiver is the outside world: a process of its own, so its work is not counted as the server's.
  const receiver = fork(fileURLToPath(new URL('./support/webhook-receiver.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(message: string) =>
    new Promise<T>((resolve) => {
      receiver.once('message', (answer) => resolve(answer as T));
      receiver.send(message);
    });
  // Another machine's, in truth: on this one it yields the CPU to the server and the database (nice 19).
  setPriority(receiver.pid!, 19);
  const port = await new Promise<number>((resolve) => receiver.once('message', (message) => resolve((message as { port: number }).port)));
  const counts = () => ask<{ received: number; lastAt: number }>('count');
  const resetCount = () => ask<{ received: number }>('reset');
  const receiverUrl = `http://127.0.0.1:${port}/hook`;
  const { database, drop } = await openBenchDatabase(kind, { keep: false }, 'larder_bench_webhooks');
  const config = loadConfig({
    SERVE_CONSOLE: '0',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench@larder.test',
    ADMIN_PASSWORD: 'bench bench bench',
    DATA_DIR: tmpdir(),
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32',
    WEBHOOK_POLL_S: '0.5',
    // Where deliveries are sent from (docs/webhooks.md): the default, or WEBHOOK_SENDER=thread|inline, WEBHOOK_SENDER_NICE=0…19 to compare.
    ...(process.env.WEBHOOK_SENDER ? { WEBHOOK_SENDER: process.env.WEBHOOK_SENDER } : {}),
    ...(process.env.WEBHOOK_SENDER_NICE ? { WEBHOOK_SENDER_NICE: process.env.WEBHOOK_SENDER_NICE } : {}),
  });
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.ctx.users.bootstrapAdmin();
    const grant = await app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { grant_type: 'password', username: 'bench@larder.test', password: 'bench bench bench', client_id: 'larder-console', client_secret: 'larder-console' },
    });
    const token = (JSON.parse(grant.body) as { access_token: string }).access_token;
    const org = await inject(app, token, 'POST', '/api/organization', { name: 'Bench' });
    const project = await inject(app, token, 'POST', `/api/organization/${org.id}/project`, { name: 'Bench' });
    const base = `/api/organization/${org.id}/project/${project.id}`;
    await inject(app, token, 'POST', `${base}/collection`, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true }] });
    const write = async (i: number) => {
      const start = performance.now();
      await inject(app, token, 'POST', `${base}/collection/articles/item`, { title: `Article ${i}` });
      return performance.now() - start;
    };
    // The machine's busy CPU time (all processes: server, database, sender, receiver), per phase.
    const busyMs = () => cpus().reduce((sum, cpu) => sum + cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq, 0);
    const cpuPerWrite: number[] = [];
    const sequential = async () => {
      const times: number[] = [];
      const busy = busyMs();
      for (let i = 0; i < writes; i++) times.push(await write(i));
      cpuPerWrite.push((busyMs() - busy) / writes);
      return times;
    };
    const waitFor = async (count: number) => {
      const deadline = Date.now() + 120_000;
      while ((await counts()).received < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    // Warm-up: statement caches, the collection's cached schema.
    for (let i = 0; i < 20; i++) await write(i);

    const b0 = procSnap();
    const before = await sequential();
    if (process.env.BENCH_TRACE) log(`  CPU time per process while writing without a webhook:\n${procDiff(b0, procSnap())}`);
    const hook = await inject(app, token, 'POST', '/api/webhook', { organizationID: org.id, projectID: project.id, name: 'bench', webhookURI: receiverUrl, method: 'POST', trigger: 'create', collections: ['articles'] });
    // Warm-up of the delivery path, as the writes had theirs: the sender process starts on the
    // first delivery, the queue's connections open, the receiver's connection is made.
    for (let i = 0; i < 20; i++) await write(i);
    await waitFor(20);
    const s0 = procSnap();
    const withHook = await sequential();
    await waitFor(20 + writes);
    if (process.env.BENCH_TRACE) log(`  CPU time per process while writing with the webhook, until the last delivery:\n${procDiff(s0, procSnap())}`);
    await inject(app, token, 'PUT', `/api/webhook/${hook.id}`, { ...hook, secret: undefined, enabled: false });
    const after = await sequential();
    const baseline = [...before, ...after];
    const overhead = (mean(withHook) / mean(baseline) - 1) * 100;
    log(`  writes without a webhook: mean ${round(mean(baseline))} ms (before ${round(mean(before))}, after ${round(mean(after))}), p50 ${round(percentile(baseline, 50))} ms, p95 ${round(percentile(baseline, 95))} ms`);
    log(`  writes with one webhook:  mean ${round(mean(withHook))} ms, p50 ${round(percentile(withHook, 50))} ms, p95 ${round(percentile(withHook, 95))} ms, p99 ${round(percentile(withHook, 99))} ms (without: p99 ${round(percentile(baseline, 99))} ms)`);
    if (process.env.BENCH_TRACE) log(`  machine CPU per write (ms): before ${round(cpuPerWrite[0]!)}, with ${round(cpuPerWrite[1]!)}, after ${round(cpuPerWrite[2]!)}`);
    if (process.env.BENCH_TRACE) log(`  slowest with: ${[...withHook].sort((a, b) => b - a).slice(0, 15).map(round).join(' ')}; without: ${[...baseline].sort((a, b) => b - a).slice(0, 15).map(round).join(' ')}`);
    log(`  added latency: ${round(overhead)} % (target ≤ 10 %)`);

    // The relay runs at most twice a second under load: let it pass the writes made while the
    // webhook was off, so they are not delivered in the next phase.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await inject(app, token, 'PUT', `/api/webhook/${hook.id}`, { ...hook, secret: undefined, enabled: true });
    await resetCount();
    const startedAt = Date.now();
    const started = performance.now();
    await Promise.all(Array.from({ length: writes }, (_v, i) => write(i)));
    const written = performance.now() - started;
    await waitFor(writes);
    const { received, lastAt } = await counts();
    const seconds = (lastAt - startedAt) / 1000;
    const perSecond = received / seconds;
    log(`  deliveries: ${received} of ${writes} in ${round(seconds)} s from the first write (writes took ${round(written / 1000)} s): ${round(perSecond)} per second`);
    return { database: kind, writes, baselineMeanMs: round(mean(baseline)), withWebhookMeanMs: round(mean(withHook)), addedLatencyPct: round(overhead), deliveries: received, deliveriesPerSecond: round(perSecond) };
  } finally {
    await app.close();
    await database.close();
    await drop();
    receiver.kill();
  }
}

export async function run(args: string[]): Promise<number> {
  const option = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const json = args.includes('--json');
  const writes = Number(option('writes') ?? 1000);
  const kinds: Kind[] = option('db') ? [option('db') as Kind] : ['postgres', 'pglite'];
  const log = (line: string) => {
    if (!json) console.log(line);
  };
  const results = [];
  for (const kind of kinds) results.push(await runOne(kind, writes, log));
  if (json) console.log(JSON.stringify(results, null, 2));
  return 0;
}
