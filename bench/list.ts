/**
 * The item list at a million items, measured over HTTP against the real server, on
 * PostgreSQL and on PGlite:
 *
 *   npm run bench -- list                       # 1,000,000 items, PostgreSQL then PGlite
 *   npm run bench -- list --items 100000 --db postgres
 *   npm run bench -- list --json
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * The seed makes an owner, an organization, a project and a collection through the API (title,
 * body, price, published, status, featured), then bulk-loads the items into the collection's
 * table (indexes dropped and rebuilt, as an import would). Then it times, with p50/p95 over
 * repeated calls: the first page with its count, page 10,000, a sort by every sortable field, a
 * filter with its count, a search over every text field; CSV export speed and the server's memory
 * growth; list throughput with 100 connections (autocannon); and how long a new item takes to reach
 * 1,000 live subscribers.
 *
 *   --only pages,csv,throughput,live            # some of the measurements (all by default)
 *   --keep                                      # PostgreSQL: keep the seeded database and print its name
 *   --reuse larder_bench_list_…                 # PostgreSQL: measure a kept database again, without seeding
 *
 * Seeding a million items takes about 100 s, so a kept database can be measured again and again
 * (each run applies any new migration to it). Everything the measurements need is read back from
 * it: the owner signs in again, the organization, project and collection are found by their slugs,
 * the search word comes from the same deterministic vocabulary (the seed draws it first) and the
 * item count from the collection's counter. A reused database's measurements are on a database
 * that earlier runs read (and the live case wrote 20 items to): warm caches, a few more rows.
 *
 * This process is the server (and, on PGlite, its database). Nothing that measures it runs here
 * but the page timings: the CSV reader and the 1,000 live subscribers run in a client process of
 * their own (bench/support/list-client.ts), autocannon in another. So the CSV's memory growth is
 * the server process's RSS (sampled here every 20 ms, peak minus the level before the request),
 * and the live latency is timed entirely in the client process — from sending the POST to each
 * subscriber's receipt, on that process's monotonic clock — while the server's event loop does
 * only the server's work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { generateNKeysBetween } from 'fractional-indexing';
import pg from 'pg';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { buildApp, type App } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase, type Database } from '../server/db/index.ts';
import { newId } from '../server/lib/ids.ts';
import { fieldColumn } from '../server/content/schema-tree.ts';
import { dropKeptSearches } from '../server/content/query/kept-search.ts';
import type { KeptSearchLimits } from '../server/content/query/tuning.ts';
import { query } from '../server/content/storage.ts';
import { loadWithIndexesDeferred, writeBatchesOverlapped } from './support/bulk-load.ts';
import { phrase, prng, vocabulary } from './support/data.ts';
import { processCpuMs } from './support/proc-cpu.ts';
import type { ClientAnswer, ClientJob } from './support/list-client.ts';

export type Kind = 'postgres' | 'pglite';

const require = createRequire(import.meta.url);

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;


export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
export const round = (n: number) => Math.round(n * 100) / 100;

export interface CaseFigure {
  p50: number;
  p95: number;
  runs: number;
  total?: number;
  rows?: number;
}

interface Figures {
  db: Kind;
  items: number;
  /** The machine's 1-minute load average when the measurements began and ended: other work on it skews every figure. */
  loadAverage?: [number, number];
  seedSeconds: number;
  cases: Record<string, CaseFigure>;
  kept?: KeptFigures;
  /** `memoryGrowthMB`: the server process's peak RSS during the export minus its RSS before it (the reader is another process). */
  csv?: { rows: number; seconds: number; rowsPerSecond: number; memoryGrowthMB: number; rssBeforeMB: number; rssPeakMB: number; measured: string } | { error: string };
  /**
   * `serverCpuMsPerRequest`: this server process's CPU time (user + system) per answered request;
   * `databaseCpuMsPerRequest`: the PostgreSQL backends' (read from /proc, PostgreSQL on this machine).
   */
  throughput?: Throughput;
  baseline?: Throughput;
  /**
   * `p50`/`p95`: milliseconds from sending the POST of a new item to each subscriber's receipt of it,
   * all read on the client process's clock. `postP50`: the POST's own answer time. `clientBusyP95`:
   * how long the client's event loop was busy in that window (its share of the spread; wall time,
   * so it grows when the machine is loaded). `serverCpuMsPerItem`: the server process's CPU time
   * per new item once the streams are open (the POST and the fan-out; on PGlite the database too).
   */
  live?: {
    subscribers: number;
    items: number;
    p50: number;
    p95: number;
    max: number;
    delivered: number;
    expected: number;
    postP50: number;
    clientBusyP95: number;
    serverCpuMsPerItem: number;
    measured: string;
  };
}

interface Throughput {
  connections: number;
  requestsPerSecond: number;
  p95Ms: number;
  errors: number;
  serverCpuMsPerRequest: number;
  databaseCpuMsPerRequest?: number;
}

const groups = ['pages', 'kept', 'csv', 'throughput', 'live'] as const;
type Group = (typeof groups)[number];

/** The client process (CSV reader, live subscribers); one job at a time. */
class Client {
  // Forked with this process's flags (tsx's loader among them), so it runs the TypeScript as is.
  private readonly child: ChildProcess = fork(fileURLToPath(new URL('./support/list-client.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

  /** Runs one job; `onSubscribed` when a live job's streams are all open. */
  run(job: ClientJob, onSubscribed?: () => void): Promise<ClientAnswer> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the bench client exited (${code})`));
      const onMessage = (answer: ClientAnswer) => {
        if (answer.type === 'subscribed') return onSubscribed?.();
        this.child.off('exit', onExit);
        this.child.off('message', onMessage);
        resolve(answer);
      };
      this.child.once('exit', onExit);
      this.child.on('message', onMessage);
      this.child.send(job);
    });
  }
  close() {
    this.child.disconnect();
  }
}

const statusOptions = ['draft', 'review', 'published', 'archived'];

export async function openBenchDatabase(kind: Kind, keep: { keep: boolean; reuse?: string | undefined }, prefix = 'larder_bench_list'): Promise<{ database: Database; name?: string; drop(): Promise<void> }> {
  if (kind === 'pglite') {
    if (keep.keep || keep.reuse) throw new Error('--keep and --reuse are for PostgreSQL');
    const dir = mkdtempSync(path.join(tmpdir(), 'larder-bench-'));
    const database = await openDatabase({ dataDir: dir, namedStatements: loadConfig().pgliteNamedStatements });
    return { database, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = keep.reuse ?? `${prefix}_${newId().slice(0, 8)}`;
  if (!new RegExp(`^${prefix}_[0-9a-f]{8}$`).test(name)) throw new Error(`--reuse takes a database name this bench printed (${prefix}_…), not ${name}`);
  if (!keep.reuse) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  return {
    database,
    name,
    drop: async () => {
      if (keep.keep || keep.reuse) return;
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}

export async function call(base: string, token: string, method: string, url: string, body?: unknown) {
  const response = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return { response, body: text ? (JSON.parse(text) as unknown) : undefined };
}

export async function signInAdmin(base: string) {
  const grant = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'bench@larder.test', password: 'bench bench bench', client_id: 'larder-console', client_secret: 'larder-console' }),
  });
  if (grant.status !== 200) throw new Error(`sign-in failed: ${grant.status} ${await grant.text()}`);
  return ((await grant.json()) as { access_token: string }).access_token;
}

/** The owner, organization, project and collection, made through the API; then the bulk load. */
async function seed(app: App, database: Database, base: string, items: number, log: (line: string) => void) {
  await app.ctx.users.bootstrapAdmin();
  const signIn = () => signInAdmin(base);
  const token = await signIn();
  const org = (await call(base, token, 'POST', '/api/organization', { name: 'Bench' })).body as { id: string };
  const project = (await call(base, token, 'POST', `/api/organization/${org.id}/project`, { name: 'Bench' })).body as { id: string };
  const prefix = `/api/organization/${org.id}/project/${project.id}`;
  await call(base, token, 'POST', `${prefix}/collection`, {
    id: 'articles',
    name: 'Articles',
    schema: [
      { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
      { name: 'Body', slug: 'body', type: code('RichText') },
      { name: 'Price', slug: 'price', type: code('Number') },
      { name: 'Published', slug: 'published', type: code('Date') },
      { name: 'Status', slug: 'status', type: code('Option'), options: statusOptions.map((value) => ({ value })) },
      { name: 'Featured', slug: 'featured', type: code('Bool') },
    ],
  });
  const row = (await database.db.execute(sql`select id, schema from content_collections where slug = 'articles' and project_id = ${project.id}`)) as unknown as {
    rows: { id: string; schema: { id: string; slug: string; options?: { _id: string; value: string }[] }[] }[];
  };
  const collection = row.rows[0]!;
  const table = `content_${collection.id}`;
  const col = (slug: string) => fieldColumn(collection.schema.find((f) => f.slug === slug)!.id);
  const options = collection.schema.find((f) => f.slug === 'status')!.options!;

  const random = prng(42);
  const words = vocabulary(random, 5000);
  const ranks = generateNKeysBetween(null, null, items);
  const start2020 = Date.UTC(2020, 0, 1);
  const id = (slug: string) => sql.identifier(col(slug));
  // PGlite runs a statement synchronously in this process and its promise chains never reach the
  // event loop: a load of many statements would hold the server's loop for minutes, and the
  // keep-alive timers that expired meanwhile would fire only after the first request of the
  // measurements was already written to an idle connection — the server then closes that socket
  // with the request unread, which the client sees as ECONNRESET. Each statement yields here, as
  // a request of the server's own would.
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  const run = async (text: string) => {
    const result = (await database.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };
    await yieldToLoop();
    return result;
  };
  const batch = 5000;
  const begin = performance.now();
  // The indexes are built after the load, as an import would, with the memory such a build is
  // given (PostgreSQL's default maintenance_work_mem, 64 MB, makes the GIN builds flush their
  // entries many times over). Same statement, so the setting is on the connection that builds.
  // On PostgreSQL two builds run side by side (two connections of the pool), one per core.
  const build = (text: string) => (database.kind === 'postgres' && /^create index/i.test(text) ? run(`set maintenance_work_mem = '512MB'; ${text}`) : run(text));
  // The rows are made in JavaScript while the database writes the batches before them: on
  // PostgreSQL two inserts run at once (two connections of the pool, one per core, as an import
  // tool's workers would), so the batch being made, the words the triggers compute and the writes
  // overlap. PGlite has one connection and runs in this thread: one batch at a time.
  const inserters = database.kind === 'postgres' ? 2 : 1;
  const { rowsSeconds, indexSeconds } = await loadWithIndexesDeferred(build, table, async () => {
    await writeBatchesOverlapped(
      items,
      batch,
      inserters,
      async (offset, n) => {
        const ids: string[] = [];
        const rankList: string[] = [];
        const created: string[] = [];
        const titles: string[] = [];
        const bodies: string[] = [];
        const prices: number[] = [];
        const dates: string[] = [];
        const statuses: string[] = [];
        const featured: boolean[] = [];
        for (let i = 0; i < n; i += 1) {
          ids.push(newId());
          rankList.push(ranks[offset + i]!);
          created.push(new Date(start2020 + (offset + i) * 1000).toISOString());
          titles.push(phrase(random, words, 3 + Math.floor(random() * 3)));
          bodies.push(`<p>${phrase(random, words, 30)}</p>`);
          prices.push(Math.round(random() * 100_000) / 100);
          dates.push(new Date(start2020 + Math.floor(random() * 5 * 365 * 86_400_000)).toISOString());
          statuses.push(JSON.stringify(options[Math.floor(random() * options.length)]));
          featured.push(random() < 0.1);
        }
        // `sql.param` keeps an array one parameter (a PostgreSQL array), where `${array}` would spread it.
        const p = (values: unknown[]) => sql.param(values);
        return database.db.execute(
          sql`insert into ${sql.identifier(table)} (_id, _rank, _created_date, _last_updated_date, ${id('title')}, ${id('body')}, ${id('price')}, ${id('published')}, ${id('status')}, ${id('featured')})
            select * from unnest(${p(ids)}::text[], ${p(rankList)}::text[], ${p(created)}::timestamptz[], ${p(created)}::timestamptz[], ${p(titles)}::text[],
                                 ${p(bodies)}::text[], ${p(prices)}::float8[], ${p(dates)}::timestamptz[], ${p(statuses)}::jsonb[], ${p(featured)}::boolean[])`,
        );
      },
      async (offset) => {
        await yieldToLoop();
        if ((offset / batch) % 40 === 0) log(`  ${offset} items loaded`);
      },
    );
  }, { concurrency: database.kind === 'postgres' ? 2 : 1 });
  await database.db.execute(sql`update content_collections set item_count = ${items} where id = ${collection.id}`);
  await run(`vacuum analyze ${table}`);
  const seedSeconds = (performance.now() - begin) / 1000;
  log(`  loaded ${items} items in ${seedSeconds.toFixed(1)} s (rows and their words ${rowsSeconds.toFixed(1)} s, indexes ${indexSeconds.toFixed(1)} s)`);
  const published = options.find((o) => o.value === 'published')!._id;
  // A long load (PGlite at a million items) can outlast the access token: the measurements get a fresh one.
  return { token: await signIn(), prefix, words, seedSeconds, published };
}

/** What a kept database's seed made, read back (see --reuse). */
async function recoverSeed(app: App, database: Database, base: string) {
  await app.ctx.users.bootstrapAdmin();
  // Every run signs in again: the sign-in rate limit of earlier runs would refuse it (the bench's own database).
  await database.db.execute(sql`delete from rate_limits`);
  const token = await signInAdmin(base);
  const row = (await database.db.execute(
    sql`select c.id, c.schema, c.item_count, p.id as project_id, p.organization_id from content_collections c join projects p on p.id = c.project_id where c.slug = 'articles'`,
  )) as unknown as { rows: { id: string; schema: { slug: string; options?: { _id: string; value: string }[] }[]; item_count: number; project_id: string; organization_id: string }[] };
  const collection = row.rows[0];
  if (!collection) throw new Error('this database holds no bench collection');
  const words = vocabulary(prng(42), 5000);
  const published = collection.schema.find((f) => f.slug === 'status')!.options!.find((o) => o.value === 'published')!._id;
  return { token, prefix: `/api/organization/${collection.organization_id}/project/${collection.project_id}`, words, seedSeconds: 0, published, items: Number(collection.item_count) };
}

export async function timeCase(base: string, token: string, url: string, runs: number): Promise<CaseFigure> {
  const times: number[] = [];
  let total: number | undefined;
  let rows: number | undefined;
  for (let i = 0; i < runs + 3; i += 1) {
    const start = performance.now();
    const response = await fetch(base + url, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    const ms = performance.now() - start;
    if (response.status !== 200) throw new Error(`GET ${url} → ${response.status} ${body.slice(0, 300)}`);
    if (i >= 3) times.push(ms); // three warm-up calls
    total = Number(response.headers.get('item-count') ?? NaN);
    rows = (JSON.parse(body) as unknown[]).length;
  }
  return { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), runs, ...(Number.isFinite(total) ? { total } : {}), rows };
}

/**
 * Kept search totals (server/content/query/kept-search.ts) for `ka`, a 2-character term in nearly
 * every row: the first search (registering the term and counting once), the searches after it, the
 * kept total against a count of the rows, and what a kept term costs each write (sequential
 * creates with no term, one, and the most a collection keeps).
 */
interface KeptFigures {
  firstSearchMs: number;
  search: CaseFigure;
  listSearch: CaseFigure;
  exact: { kept: number; counted: number };
  createMs: { terms: number; mean: number; p95: number }[];
}

async function timeCreates(base: string, token: string, url: string, n: number): Promise<{ mean: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < n + 20; i += 1) {
    const start = performance.now();
    const response = await fetch(base + url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `kept bench ${i % 2 ? 'kala' : 'bench'} ${i}`, price: i }),
    });
    const body = await response.text();
    if (response.status !== 201) throw new Error(`POST ${url} → ${response.status} ${body.slice(0, 300)}`);
    if (i >= 20) times.push(performance.now() - start); // 20 warm-up writes
  }
  return { mean: round(times.reduce((a, b) => a + b, 0) / times.length), p95: round(percentile(times, 95)) };
}

async function measureKept(
  database: Database,
  keptSearchLimits: KeptSearchLimits,
  base: string,
  token: string,
  prefix: string,
  log: (line: string) => void,
): Promise<KeptFigures> {
  const collectionId = (await query<{ id: string }>(database.db, sql`select id from content_collections where slug = 'articles'`))[0]!.id;
  const table = `content_${collectionId}`;
  // From a clean slate (a kept database may hold terms of an earlier run).
  await dropKeptSearches(database.db, collectionId, table);
  const list = `${prefix}/collection/articles/item`;
  const creates = Number(process.env.BENCH_KEPT_CREATES ?? 300);
  const createMs: KeptFigures['createMs'] = [{ terms: 0, ...(await timeCreates(base, token, list, creates)) }];
  log(`  ${creates} sequential creates, no kept term: mean ${createMs[0]!.mean} ms, p95 ${createMs[0]!.p95} ms`);
  const started = performance.now();
  const first = await fetch(`${base}${prefix}/collection/articles/search?query=ka&perPage=50`, { headers: { authorization: `Bearer ${token}` } });
  await first.text();
  const firstSearchMs = round(performance.now() - started);
  log(`  search "ka", first (registers the term, counts once)      ${firstSearchMs} ms`);
  const search = await timeCase(base, token, `${prefix}/collection/articles/search?query=ka&perPage=50`, 50);
  const listSearch = await timeCase(base, token, `${list}?perPage=50&search=ka`, 50);
  log(`  search "ka", kept total                      p50 ${search.p50} ms  p95 ${search.p95} ms  (total ${search.total})`);
  log(`  list search "ka", kept total                 p50 ${listSearch.p50} ms  p95 ${listSearch.p95} ms`);
  createMs.push({ terms: 1, ...(await timeCreates(base, token, list, creates)) });
  log(`  ${creates} sequential creates, 1 kept term: mean ${createMs[1]!.mean} ms, p95 ${createMs[1]!.p95} ms`);
  // The most terms a collection keeps: other short texts, each searched once (registered one right after another here).
  keptSearchLimits.registerSpacingMs = 0;
  for (const text of ['ba', 'ke', 'mo', 'ru', 'ti', 'lo', 'ne'].slice(0, keptSearchLimits.termsPerCollection - 1)) {
    const response = await fetch(`${base}${list}?perPage=1&search=${text}`, { headers: { authorization: `Bearer ${token}` } });
    await response.text();
  }
  createMs.push({ terms: keptSearchLimits.termsPerCollection, ...(await timeCreates(base, token, list, creates)) });
  log(`  ${creates} sequential creates, ${keptSearchLimits.termsPerCollection} kept terms: mean ${createMs[2]!.mean} ms, p95 ${createMs[2]!.p95} ms`);
  // The kept total after those writes, against counting the rows (the search's own conditions).
  const after = await fetch(`${base}${list}?perPage=1&search=ka`, { headers: { authorization: `Bearer ${token}` } });
  await after.text();
  const kept = Number(after.headers.get('item-count'));
  const terms = await query<{ cond: string }>(database.db, sql`select cond from item_search_terms where collection_id = ${collectionId}`);
  const kaCond = terms.find((t) => t.cond.includes(`"_id" = 'ka'`))!.cond;
  const counted = Number((await query<{ n: string }>(database.db, sql`select count(*)::bigint as n from ${sql.identifier(table)} where ${sql.raw(kaCond)}`))[0]!.n);
  log(`  kept total ${kept}, counted ${counted}${kept === counted ? ' (exact)' : ' — NOT EXACT'}`);
  await dropKeptSearches(database.db, collectionId, table);
  return { firstSearchMs, search, listSearch, exact: { kept, counted }, createMs };
}

/** The export read by the client process; the server's RSS sampled here, in the server process. */
async function measureCsv(client: Client, base: string, token: string, url: string): Promise<NonNullable<Figures['csv']>> {
  global.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const answer = await client.run({ type: 'csv', url: base + url, token });
    if (answer.type === 'error') return { error: answer.message };
    if (answer.type !== 'csv') throw new Error(`unexpected answer ${answer.type}`);
    peak = Math.max(peak, process.memoryUsage.rss());
    const mb = (bytes: number) => Math.round(bytes / 1048576);
    return {
      rows: answer.rows,
      seconds: round(answer.seconds),
      rowsPerSecond: Math.round(answer.rows / answer.seconds),
      memoryGrowthMB: mb(peak - baseline),
      rssBeforeMB: mb(baseline),
      rssPeakMB: mb(peak),
      measured: 'server process RSS, sampled every 20 ms; the reader is a separate process',
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The CPU seconds (user + system) the database's server processes have used, by process id: on a
 * PostgreSQL of this machine, read from /proc; undefined elsewhere (PGlite runs in this process).
 */
async function databaseCpu(database: Database): Promise<Map<number, number> | undefined> {
  if (database.kind !== 'postgres') return undefined;
  const rows = (await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as { rows: { pid: number }[] };
  const out = new Map<number, number>();
  for (const { pid } of rows.rows) {
    const ms = processCpuMs(pid);
    if (ms === undefined) return undefined; // not this machine's processes
    out.set(pid, ms / 1000);
  }
  return out;
}

/**
 * autocannon in a process of its own, so the load generator does not share the server's event
 * loop. Besides the rate (which a loaded machine lowers for reasons of its own), the CPU time each
 * request cost: this server process's, and the database's backends' (PostgreSQL on this machine),
 * which other work on the machine does not inflate.
 */
async function measureThroughput(base: string, token: string, url: string, database: Database): Promise<Figures['throughput']> {
  const cpuBefore = process.cpuUsage();
  const dbBefore = await databaseCpu(database);
  const child = spawn(process.execPath, [require.resolve('autocannon/autocannon.js'), '--json', '-c', '100', '-d', '10', '-H', `authorization=Bearer ${token}`, base + url], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const cpu = process.cpuUsage(cpuBefore);
  const dbAfter = await databaseCpu(database);
  const result = JSON.parse(out) as { requests: { average: number; total: number }; latency: Record<string, number>; errors: number; non2xx: number };
  const requests = Math.max(1, result.requests.total);
  let dbSeconds: number | undefined;
  if (dbBefore && dbAfter) {
    dbSeconds = 0;
    for (const [pid, seconds] of dbAfter) dbSeconds += seconds - (dbBefore.get(pid) ?? 0);
  }
  return {
    connections: 100,
    requestsPerSecond: Math.round(result.requests.average),
    p95Ms: result.latency.p97_5 ?? result.latency.p99 ?? 0,
    errors: result.errors + result.non2xx,
    serverCpuMsPerRequest: round((cpu.user + cpu.system) / 1000 / requests),
    ...(dbSeconds === undefined ? {} : { databaseCpuMsPerRequest: round((dbSeconds * 1000) / requests) }),
  };
}

/** The client process opens `subscribers` live streams, creates items one by one, and times each delivery. */
async function measureLive(client: Client, base: string, token: string, prefix: string, subscribers: number, items: number): Promise<NonNullable<Figures['live']>> {
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  const answer = await client.run({ type: 'live', base, token, prefix, subscribers, items }, () => (cpuAtStart = process.cpuUsage()));
  const cpu = process.cpuUsage(cpuAtStart);
  if (answer.type === 'error') throw new Error(answer.message);
  if (answer.type !== 'live') throw new Error(`unexpected answer ${answer.type}`);
  return {
    subscribers,
    items,
    p50: round(percentile(answer.latencies, 50)),
    p95: round(percentile(answer.latencies, 95)),
    max: round(Math.max(...answer.latencies)),
    delivered: answer.delivered,
    expected: answer.expected,
    postP50: round(percentile(answer.postMs, 50)),
    clientBusyP95: round(percentile(answer.clientMs, 95)),
    serverCpuMsPerItem: round((cpu.user + cpu.system) / 1000 / items),
    measured: 'POST sent to receipt per subscriber, both on the client process’s monotonic clock; the POST and the subscribers are in that one process, not in the server’s',
  };
}

async function runOne(kind: Kind, wanted: number, only: ReadonlySet<Group>, keep: { keep: boolean; reuse?: string | undefined }, log: (line: string) => void): Promise<Figures> {
  log(keep.reuse ? `${kind}: reusing ${keep.reuse}` : `${kind}: ${wanted} items`);
  const { database, name, drop } = await openBenchDatabase(kind, keep);
  if (keep.keep) log(`  keeping the database ${name} (measure it again with --reuse ${name}; drop it when done)`);
  const config = loadConfig({
    SERVE_CONSOLE: '0',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench@larder.test',
    ADMIN_PASSWORD: 'bench bench bench',
    DATA_DIR: tmpdir(),
  });
  const app = await buildApp({ config, database });
  const client = new Client();
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const seeded = keep.reuse ? await recoverSeed(app, database, base) : { ...(await seed(app, database, base, wanted, log)), items: wanted };
    const { token, prefix, words, seedSeconds, published, items } = seeded;
    const list = `${prefix}/collection/articles/item`;
    const lastPage = Math.floor(items / 50);
    const page = Math.min(10_000, lastPage);
    const rare = words[4321]!;
    const cases: Record<string, CaseFigure> = {};
    const measure = async (name: string, url: string, runs = 100) => {
      cases[name] = await timeCase(base, token, url, runs);
      log(`  ${name.padEnd(44)} p50 ${String(cases[name].p50).padStart(8)} ms  p95 ${String(cases[name].p95).padStart(8)} ms  (${cases[name].rows} rows${cases[name].total !== undefined ? `, total ${cases[name].total}` : ''})`);
    };
    const figures: Figures = { db: kind, items, seedSeconds: round(seedSeconds), cases };
    const loadAtStart = round(loadavg()[0]!);
    if (only.has('pages')) {
      await measure('first page of 50 with total', `${list}?perPage=50`);
      await measure(`page ${page} of 50`, `${list}?perPage=50&pageNumber=${page}`);
      for (const field of ['title', 'price', 'published', 'featured', '_createdDate', '_lastUpdatedDate', '_id']) {
        await measure(`sort by ${field} desc`, `${list}?perPage=50&sort=${field}&order=desc`, 50);
      }
      await measure('filter price > 900 with total', `${list}?perPage=50&query=${encodeURIComponent('price:>:900')}`, 50);
      await measure('filter status = published with total', `${list}?perPage=50&query=${encodeURIComponent(`status:=:${published}`)}`, 50);
      await measure(`search "${rare}" over all text fields`, `${prefix}/collection/articles/search?query=${encodeURIComponent(rare)}&perPage=50`, 50);
      await measure(`list search "${rare}"`, `${list}?perPage=50&search=${encodeURIComponent(rare)}`, 50);
    }
    if (only.has('kept')) figures.kept = await measureKept(database, app.ctx.config.listQueries.keptSearch, base, token, prefix, log);
    if (only.has('csv')) {
      figures.csv = await measureCsv(client, base, token, `${prefix}/collection/articles/csv?pagination=none`);
      log(`  csv (server process RSS; reader in the client process): ${JSON.stringify(figures.csv)}`);
    }
    if (only.has('throughput')) {
      // The ceiling: the same server answering its cheapest call.
      figures.baseline = await measureThroughput(base, token, '/api/health', database);
      log(`  throughput of GET /api/health (baseline): ${JSON.stringify(figures.baseline)}`);
      figures.throughput = await measureThroughput(base, token, `${list}?perPage=50`, database);
      log(`  throughput: ${JSON.stringify(figures.throughput)}`);
    }
    if (only.has('live')) {
      figures.live = await measureLive(client, base, token, prefix, Number(process.env.BENCH_LIVE_SUBSCRIBERS ?? 1000), Number(process.env.BENCH_LIVE_ITEMS ?? 20));
      log(`  live (POST sent → each subscriber's receipt, client process clock): ${JSON.stringify(figures.live)}`);
    }
    figures.loadAverage = [loadAtStart, round(loadavg()[0]!)];
    log(`  load average (1 min) at start and end: ${figures.loadAverage.join(', ')} on ${cpus().length} cores`);
    return figures;
  } finally {
    client.close();
    await app.close();
    await database.close();
    await drop();
  }
}

export async function run(args: string[]): Promise<number> {
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const items = Number(flag('--items') ?? process.env.BENCH_ITEMS ?? 1_000_000);
  const kinds = (flag('--db') ?? 'postgres,pglite').split(',') as Kind[];
  const asJson = args.includes('--json');
  const only = new Set((flag('--only') ?? groups.join(',')).split(',') as Group[]);
  const keep = { keep: args.includes('--keep'), reuse: flag('--reuse') };
  if ((keep.keep || keep.reuse) && kinds.join() !== 'postgres') throw new Error('--keep and --reuse are for PostgreSQL: give --db postgres');
  for (const group of only) if (!groups.includes(group)) throw new Error(`--only takes ${groups.join(', ')}; not ${group}`);
  const log = (line: string) => {
    if (!asJson) console.log(line);
  };
  const results: Figures[] = [];
  for (const kind of kinds) results.push(await runOne(kind, items, only, keep, log));
  if (asJson) console.log(JSON.stringify(results, null, 2));
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await run(process.argv.slice(2)));
}
