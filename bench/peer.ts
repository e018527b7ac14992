/**
 * The side-by-side benchmark (the data shape of an outside run against Directus): one collection of generated articles at a
 * million rows, the scenarios an outside run compared us with Directus on, each figure printed
 * beside its target (docs/performance.md "Peer benchmark"):
 *
 *   npm run bench -- peer                              # 1,000,000 rows, PostgreSQL then PGlite
 *   npm run bench -- peer --items 20000 --db postgres
 *   npm run bench -- peer --only pages,search --requests 50
 *   npm run bench -- peer --db postgres --keep         # keep the seeded database, print its name
 *   npm run bench -- peer --db postgres --reuse larder_bench_peer_…
 *   npm run bench -- peer --only import --import-rows 100000   # rows per import file (default: the collection's rows)
 *   npm run bench -- peer --db postgres --indexes lazy  # FIELD_INDEXES for the server (default: the environment's, else eager)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * The rows come from bench/support/peer-data.ts (seed 28): PlainText title and ~390-character
 * body, Number views (skewed) and rating, Bool, Option (four uneven choices), Date over five
 * years, a small JSON object. The owner, organization, project, collection and an API token are
 * made through the API; the rows are bulk-loaded with SQL with the indexes built afterwards (as
 * bench/list.ts does: no import path is measured by that seed). After the seed the bench prints
 * the placed words' shares as counted in the database and a hash of the first 1,000 rows.
 *
 * Every timed call goes over HTTP from this process, one after the other (p50/p95 over
 * `--requests` calls); autocannon, the creates' clients, the CSV reader and the import uploads run
 * in processes of their own, so what this process's CPU and RSS show is the server's. The bench
 * exits 1 only when a check fails (a total or a row count that does not match the database);
 * missed targets are reported, not failed.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { generateNKeysBetween } from 'fractional-indexing';
import { stringify } from 'csv-stringify/sync';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { ListParams } from '../definitions/schemas/list-params.ts';
import { buildApp, type App } from '../server/app.ts';
import type { IndexMode } from '../server/content/field-indexes.ts';
import { loadConfig } from '../server/config.ts';
import type { Database } from '../server/db/index.ts';
import { newId } from '../server/lib/ids.ts';
import { fieldColumn } from '../server/content/schema-tree.ts';
import { dropKeptSearches } from '../server/content/query/kept-search.ts';
import { call, openBenchDatabase, signInAdmin, type Kind } from './list.ts';
import { loadWithIndexesDeferred, writeBatchesOverlapped } from './support/bulk-load.ts';
import { processCpuMs } from './support/proc-cpu.ts';
import { percentile, round } from './support/stats.ts';
import {
  commonShare,
  commonWord,
  itemBody,
  peerGenerator,
  rareShare,
  rareWord,
  rowsHash,
  statusChoices,
  viewsTenPercent,
  type PeerRow,
} from './support/peer-data.ts';
import type { PeerAnswer, PeerJob } from './support/peer-client.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const seedOfRows = 28;

const groups = ['pages', 'search', 'filter', 'throughput', 'csv', 'storage', 'creates', 'import'] as const;
type Group = (typeof groups)[number];

/** The targets, PostgreSQL at 1,000,000 rows (docs/performance.md "Peer benchmark"). */
const targets = {
  commonFirstMs: 100,
  commonRepeatP50Ms: 20,
  filterP95Ms: 20,
  creates20PerS: 1000,
  creates50PerS: 3000,
  importRowsPerS: 50_000,
  csvRowsPerS: 200_000,
  throughputPerS: 2000,
  storageMBAtMillion: 925,
  pgliteTimes: 2,
};

/** One line of a database's table. `compare`: the figure PGlite's must stay within twice of (ms, lower is better) or reach half of (a rate). */
export interface Row {
  key: string;
  label: string;
  first?: number;
  p50?: number;
  p95?: number;
  figure?: string;
  target?: string;
  met?: boolean;
  compare?: { value: number; kind: 'ms' | 'rate' };
}

export interface PeerFigures {
  db: Kind;
  items: number;
  indexes: IndexMode;
  database?: string;
  loadAverage?: [number, number];
  seed?: { seconds: number; rowsSeconds: number; indexSeconds: number } | 'reused';
  data?: { rows: number; commonShare: number; rareShare: number; commonTotal: number; rareTotal: number; viewsAbove: number; bodyAverage: number; hashDb: string; hashGenerated: string };
  rows: Row[];
  checks: { name: string; ok: boolean; detail: string }[];
  extra: Record<string, unknown>;
}

/**
 * autocannon in a process of its own (as bench/support/autocannon.ts runs it), with what its
 * errors were: `timeouts` (no answer in autocannon's 10 s) and answers that were not 2xx; the rest
 * of `errors` are connection errors.
 */
async function loadOf(args: string[], connections: number, seconds: number) {
  const child = spawn(process.execPath, [createRequire(import.meta.url).resolve('autocannon/autocannon.js'), '--json', '-c', String(connections), '-d', String(seconds), ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'close');
  const result = JSON.parse(out) as { requests: { average: number }; latency: Record<string, number>; errors: number; timeouts: number; non2xx: number; '2xx': number };
  return {
    connections,
    requestsPerSecond: Math.round(result.requests.average),
    /** autocannon has no 95th percentile: its 97.5th. */
    p95Ms: result.latency.p97_5 ?? 0,
    p50Ms: result.latency.p50 ?? 0,
    total: result['2xx'],
    errors: result.errors + result.non2xx,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The client process (creates, CSV reader, uploads); one job at a time. */
class Client {
  // Forked with this process's flags (tsx's loader among them), so it runs the TypeScript as is.
  private readonly child: ChildProcess = fork(fileURLToPath(new URL('./support/peer-client.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  run(job: PeerJob): Promise<PeerAnswer> {
    return new Promise((resolve, reject) => {
      const onExit = (exit: number | null) => reject(new Error(`the bench client exited (${exit})`));
      this.child.once('exit', onExit);
      this.child.once('message', (answer: PeerAnswer) => {
        this.child.off('exit', onExit);
        resolve(answer);
      });
      this.child.send(job);
    });
  }
  close() {
    this.child.disconnect();
  }
}

/** The collection's fields (the side-by-side shape). */
const schema = () => [
  { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
  { name: 'Body', slug: 'body', type: code('PlainText') },
  { name: 'Views', slug: 'views', type: code('Number') },
  { name: 'Rating', slug: 'rating', type: code('Number') },
  { name: 'Published', slug: 'published', type: code('Bool') },
  { name: 'Status', slug: 'status', type: code('Option'), options: statusChoices.map(({ _id, value }) => ({ _id, value })) },
  { name: 'Published at', slug: 'publishedAt', type: code('Date') },
  { name: 'Meta', slug: 'meta', type: code('JSON') },
];
const slugs = ['title', 'body', 'views', 'rating', 'published', 'status', 'publishedAt', 'meta'] as const;

interface Place {
  token: string;
  apiToken: string;
  prefix: string;
  orgId: string;
  projectId: string;
  collectionId: string;
  table: string;
  column: (slug: (typeof slugs)[number]) => string;
  /** An index's name with the field's slug in place of its id (the storage layer names indexes by field id). */
  indexLabel: (name: string) => string;
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(database: Database, statement: ReturnType<typeof sql>) => ((await database.db.execute(statement)) as unknown as Rows<T>).rows;

async function placeOf(database: Database, base: string, token: string, projectId: string, orgId: string): Promise<Place> {
  const [collection] = await rowsOf<{ id: string; schema: { id: string; slug: string }[] }>(database, sql`select id, schema from content_collections where slug = 'posts' and project_id = ${projectId}`);
  if (!collection) throw new Error('this database holds no peer collection');
  const apiToken = (
    (await call(base, token, 'POST', '/api/apiTokens', { name: `peer ${newId().slice(0, 6)}`, projectID: projectId, organizationID: orgId, powerRead: true, powerWrite: true })).body as { jwtToken: string }
  ).jwtToken;
  return {
    token,
    apiToken,
    prefix: `/api/organization/${orgId}/project/${projectId}`,
    orgId,
    projectId,
    collectionId: collection.id,
    table: `content_${collection.id}`,
    column: (slug) => fieldColumn(collection.schema.find((f) => f.slug === slug)!.id),
    indexLabel: (name) => {
      const field = collection.schema.find((f) => name.includes(f.id));
      return field ? `${field.slug} ${name.slice(name.indexOf(field.id) + field.id.length + 1)}` : name.slice(`content_${collection.id}_`.length);
    },
  };
}

/** Owner, organization, project, collection and API token through the API; then the bulk load. */
async function seed(app: App, database: Database, base: string, items: number, log: (line: string) => void) {
  await app.ctx.users.bootstrapAdmin();
  const token = await signInAdmin(base);
  const org = (await call(base, token, 'POST', '/api/organization', { name: 'Peer' })).body as { id: string };
  const project = (await call(base, token, 'POST', `/api/organization/${org.id}/project`, { name: 'Peer' })).body as { id: string };
  await call(base, token, 'POST', `/api/organization/${org.id}/project/${project.id}/collection`, { id: 'posts', name: 'Posts', schema: schema() });
  const place = await placeOf(database, base, token, project.id, org.id);
  const { table, column } = place;
  const generator = peerGenerator(seedOfRows);
  const ranks = generateNKeysBetween(null, null, items);
  const createdFrom = Date.UTC(2020, 0, 1);
  // PGlite runs a statement in this thread: each yields to the event loop, as a request of the server's would (bench/list.ts).
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  const run = async (text: string) => {
    const result = (await database.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };
    await yieldToLoop();
    return result;
  };
  const build = (text: string) => (database.kind === 'postgres' && /^create index/i.test(text) ? run(`set maintenance_work_mem = '512MB'; ${text}`) : run(text));
  const id = (slug: (typeof slugs)[number]) => sql.identifier(column(slug));
  const p = (values: unknown[]) => sql.param(values);
  // An Option is stored as {_id, value} (definitions/field-types/option).
  const choiceJson = new Map<string, string>(statusChoices.map(({ _id, value }) => [_id, JSON.stringify({ _id, value })]));
  const batch = 5000;
  const begin = performance.now();
  const { rowsSeconds, indexSeconds } = await loadWithIndexesDeferred(
    build,
    table,
    () =>
      writeBatchesOverlapped(
        items,
        batch,
        database.kind === 'postgres' ? 2 : 1,
        async (offset, n) => {
          const c: { ids: string[]; ranks: string[]; created: string[]; title: string[]; body: string[]; views: number[]; rating: number[]; published: boolean[]; status: string[]; at: string[]; meta: string[] } = {
            ids: [], ranks: [], created: [], title: [], body: [], views: [], rating: [], published: [], status: [], at: [], meta: [],
          };
          for (let i = 0; i < n; i += 1) {
            const row = generator.next();
            c.ids.push(newId());
            c.ranks.push(ranks[offset + i]!);
            c.created.push(new Date(createdFrom + (offset + i) * 1000).toISOString());
            c.title.push(row.title);
            c.body.push(row.body);
            c.views.push(row.views);
            c.rating.push(row.rating);
            c.published.push(row.published);
            c.status.push(choiceJson.get(row.status)!);
            c.at.push(row.publishedAt);
            c.meta.push(JSON.stringify(row.meta));
          }
          return database.db.execute(
            sql`insert into ${sql.identifier(table)} (_id, _rank, _created_date, _last_updated_date, ${id('title')}, ${id('body')}, ${id('views')}, ${id('rating')}, ${id('published')}, ${id('status')}, ${id('publishedAt')}, ${id('meta')})
              select * from unnest(${p(c.ids)}::text[], ${p(c.ranks)}::text[], ${p(c.created)}::timestamptz[], ${p(c.created)}::timestamptz[], ${p(c.title)}::text[], ${p(c.body)}::text[],
                                   ${p(c.views)}::float8[], ${p(c.rating)}::float8[], ${p(c.published)}::boolean[], ${p(c.status)}::jsonb[], ${p(c.at)}::timestamptz[], ${p(c.meta)}::json[])`,
          );
        },
        async (offset) => {
          await yieldToLoop();
          if ((offset / batch) % 40 === 0) log(`  ${offset} rows loaded`);
        },
      ),
    { concurrency: database.kind === 'postgres' ? 2 : 1 },
  );
  await database.db.execute(sql`update content_collections set item_count = ${items} where id = ${place.collectionId}`);
  await run(`vacuum analyze ${table}`);
  const seconds = (performance.now() - begin) / 1000;
  log(`  seed (bulk SQL): ${items} rows in ${seconds.toFixed(1)} s (rows and their words ${rowsSeconds.toFixed(1)} s, indexes ${indexSeconds.toFixed(1)} s)`);
  return { place, seed: { seconds: round(seconds), rowsSeconds: round(rowsSeconds), indexSeconds: round(indexSeconds) } };
}

/** What a kept database's seed made, read back (--reuse). */
async function recover(app: App, database: Database, base: string) {
  await app.ctx.users.bootstrapAdmin();
  // Every run signs in again: earlier runs' sign-ins would meet the rate limit (the bench's own database).
  await database.db.execute(sql`delete from rate_limits`);
  const token = await signInAdmin(base);
  const [found] = await rowsOf<{ project_id: string; organization_id: string }>(
    database,
    sql`select p.id as project_id, p.organization_id from content_collections c join projects p on p.id = c.project_id where c.slug = 'posts'`,
  );
  if (!found) throw new Error('this database holds no peer collection');
  return { place: await placeOf(database, base, token, found.project_id, found.organization_id), seed: 'reused' as const };
}

/** The placed words' shares and the first 1,000 rows' hash, read from the database; the hash the generator gives for them. */
async function describeData(database: Database, place: Place) {
  const col = (slug: (typeof slugs)[number]) => sql.identifier(place.column(slug));
  const t = sql.identifier(place.table);
  const common = `%${commonWord}%`;
  const rare = `%${rareWord}%`;
  const [counts] = await rowsOf<Record<string, string>>(
    database,
    sql`select count(*)::bigint as rows,
               count(*) filter (where ${col('body')} ilike ${common})::bigint as common_body,
               count(*) filter (where ${col('body')} ilike ${rare})::bigint as rare_body,
               count(*) filter (where ${col('title')} ilike ${common} or ${col('body')} ilike ${common})::bigint as common_total,
               count(*) filter (where ${col('title')} ilike ${rare} or ${col('body')} ilike ${rare})::bigint as rare_total,
               count(*) filter (where ${col('views')} > ${viewsTenPercent})::bigint as views_above,
               avg(length(${col('body')}))::float8 as body_average
        from ${t}`,
  );
  const first = await rowsOf<{ title: string; body: string; views: number; rating: number; published: boolean; status: string; at: string; meta: string }>(
    database,
    sql`select ${col('title')} as title, ${col('body')} as body, ${col('views')} as views, ${col('rating')} as rating, ${col('published')} as published,
               ${col('status')}->>'_id' as status, to_char(${col('publishedAt')} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, ${col('meta')}::text as meta
        from ${t} order by _created_date, _rank limit 1000`,
  );
  const hashDb = rowsHash(
    first.map((r) => ({ title: r.title, body: r.body, views: Number(r.views), rating: Number(r.rating), published: r.published, status: r.status, publishedAt: r.at, meta: JSON.parse(r.meta) as PeerRow['meta'] })),
  );
  const generator = peerGenerator(seedOfRows);
  const generated: PeerRow[] = [];
  for (let i = 0; i < Math.min(1000, first.length); i += 1) generated.push(generator.next());
  const n = Number(counts!.rows);
  return {
    rows: n,
    commonShare: Number(counts!.common_body) / n,
    rareShare: Number(counts!.rare_body) / n,
    commonTotal: Number(counts!.common_total),
    rareTotal: Number(counts!.rare_total),
    viewsAbove: Number(counts!.views_above),
    bodyAverage: round(Number(counts!.body_average)),
    hashDb,
    hashGenerated: rowsHash(generated),
  };
}

interface Timed {
  first?: number;
  p50: number;
  p95: number;
  total?: number;
  rows: number;
}

/**
 * `requests` sequential GETs, p50/p95. With `firstAlone` the first call is reported on its own (it
 * may register a kept total) and the `requests` after it make the percentiles; otherwise two
 * warm-up calls come first, outside the percentiles (the first of them still reported as `first`:
 * with lazy indexes it is the call that runs without them).
 */
async function timed(base: string, token: string, url: string, requests: number, firstAlone = false): Promise<Timed> {
  const times: number[] = [];
  let first: number | undefined;
  let total: number | undefined;
  let rows = 0;
  const warm = firstAlone ? 1 : 2;
  for (let i = 0; i < requests + warm; i += 1) {
    const start = performance.now();
    const response = await fetch(base + url, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    const ms = performance.now() - start;
    if (response.status !== 200) throw new Error(`GET ${url} → ${response.status} ${body.slice(0, 300)}`);
    if (i === 0) first = round(ms);
    if (i >= warm) times.push(ms);
    const header = response.headers.get('item-count');
    total = header === null ? undefined : Number(header);
    rows = (JSON.parse(body) as unknown[]).length;
  }
  return { ...(first === undefined ? {} : { first }), p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), ...(total === undefined ? {} : { total }), rows };
}

/** `requests` sequential GETs of `url(0)`, `url(1)`, …: p50/p95 of calls that each ask something new. */
async function timedEach(base: string, token: string, requests: number, url: (i: number) => string): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const start = performance.now();
    const response = await fetch(base + url(i), { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${url(i)} → ${response.status} ${body.slice(0, 300)}`);
    times.push(performance.now() - start);
  }
  return { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)) };
}

/** The CPU seconds of this database's PostgreSQL backends by process id (/proc); undefined on PGlite or another machine. */
async function databaseCpu(database: Database): Promise<Map<number, number> | undefined> {
  if (database.kind !== 'postgres') return undefined;
  const out = new Map<number, number>();
  for (const { pid } of await rowsOf<{ pid: number }>(database, sql`select pid from pg_stat_activity where datname = current_database()`)) {
    const ms = processCpuMs(pid);
    if (ms === undefined) return undefined;
    out.set(pid, ms);
  }
  return out;
}

/** This process's RSS (the server's), sampled every 20 ms while `work` runs: the peak minus the level before, in MB. */
async function rssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMB: number; beforeMB: number }> {
  global.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthMB: Math.round((peak - before) / 1048576), beforeMB: Math.round(before / 1048576) };
  } finally {
    clearInterval(sampler);
  }
}

const ms = (n: number | undefined) => (n === undefined ? '' : `${n} ms`);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** Writes `items` generated rows (seed 29) as CSV and as NDJSON; the files' paths. */
async function importFiles(dir: string, items: number) {
  const files = { csv: path.join(dir, 'peer.csv'), ndjson: path.join(dir, 'peer.ndjson') };
  const csv = createWriteStream(files.csv);
  const ndjson = createWriteStream(files.ndjson);
  const generator = peerGenerator(seedOfRows + 1);
  const write = async (stream: NodeJS.WritableStream, text: string) => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  await write(csv, stringify([[...slugs]]));
  for (let offset = 0; offset < items; offset += 1000) {
    const rows: PeerRow[] = [];
    for (let i = offset; i < Math.min(items, offset + 1000); i += 1) rows.push(generator.next());
    await write(
      csv,
      stringify(rows.map((r) => [r.title, r.body, r.views, r.rating, r.published ? 'true' : 'false', statusChoices.find((s) => s._id === r.status)!.value, r.publishedAt, JSON.stringify(r.meta)])),
    );
    await write(ndjson, rows.map((r) => JSON.stringify(itemBody(r))).join('\n') + '\n');
  }
  csv.end();
  ndjson.end();
  await Promise.all([once(csv, 'finish'), once(ndjson, 'finish')]);
  return files;
}

async function runOne(
  kind: Kind,
  wanted: number,
  requests: number,
  importRows: number | undefined,
  only: ReadonlySet<Group>,
  keep: { keep: boolean; reuse?: string | undefined },
  indexes: IndexMode,
  log: (line: string) => void,
): Promise<PeerFigures> {
  log(`${keep.reuse ? `${kind}: reusing ${keep.reuse}` : `${kind}: ${wanted} rows`}, FIELD_INDEXES=${indexes}`);
  const { database, name, drop } = await openBenchDatabase(kind, keep, 'larder_bench_peer');
  if (keep.keep) log(`  keeping the database ${name} (measure it again with --reuse ${name}; drop it when done)`);
  const config = loadConfig({
    SERVE_CONSOLE: '0',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench@larder.test',
    ADMIN_PASSWORD: 'bench bench bench',
    DATA_DIR: tmpdir(),
    // A PGlite seed of a million rows outlasts the default 15 minutes.
    ACCESS_TOKEN_TTL_S: '86400',
    // LIST_PAGE_CACHE_MB=0 measures the pages without the memory of served pages.
    ...(process.env.LIST_PAGE_CACHE_MB ? { LIST_PAGE_CACHE_MB: process.env.LIST_PAGE_CACHE_MB } : {}),
    // Lazy: the seeded table has its key and rank index only; the lists below ask for the rest (docs/content-storage.md "Indexes made when needed").
    FIELD_INDEXES: indexes,
  });
  const app = await buildApp({ config, database });
  const client = new Client();
  const figures: PeerFigures = { db: kind, items: wanted, indexes, ...(name && (keep.keep || keep.reuse) ? { database: name } : {}), rows: [], checks: [], extra: {} };
  const check = (checkName: string, ok: boolean, detail: string) => {
    figures.checks.push({ name: checkName, ok, detail });
    log(`  check ${ok ? 'ok' : 'FAILED'}: ${checkName} (${detail})`);
  };
  const add = (row: Row) => {
    figures.rows.push(row);
    const times = [row.first !== undefined ? `first ${ms(row.first)}` : '', row.p50 !== undefined ? `p50 ${ms(row.p50)}` : '', row.p95 !== undefined ? `p95 ${ms(row.p95)}` : '', row.figure ?? '']
      .filter(Boolean)
      .join(', ');
    log(`  ${row.label.padEnd(52)} ${times}${row.target ? `  [${row.target} ${row.met === undefined ? '' : row.met ? '✓' : '✗'}]` : ''}`);
  };
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const seeded = keep.reuse ? await recover(app, database, base) : await seed(app, database, base, wanted, log);
    const { place } = seeded;
    figures.seed = seeded.seed;
    const loadAtStart = round(loadavg()[0]!);
    const data = await describeData(database, place);
    figures.items = data.rows;
    figures.data = data;
    log(
      `  data: ${int(data.rows)} rows; "${commonWord}" in ${(data.commonShare * 100).toFixed(2)} % of bodies (aim ${commonShare * 100} %), "${rareWord}" in ${(data.rareShare * 100).toFixed(3)} % (aim ${rareShare * 100} %); ` +
        `views > ${viewsTenPercent}: ${int(data.viewsAbove)}; body ${data.bodyAverage} characters on average; first 1,000 rows' hash ${data.hashDb} (generator: ${data.hashGenerated})`,
    );
    check('the first 1,000 rows read back hash as generated', data.hashDb === data.hashGenerated, `${data.hashDb} / ${data.hashGenerated}`);
    if (seeded.seed !== 'reused') add({ key: 'seed', label: 'seed (bulk SQL, indexes deferred)', figure: `${seeded.seed.seconds} s (rows ${seeded.seed.rowsSeconds} s, indexes ${seeded.seed.indexSeconds} s)` });

    const { token, prefix } = place;
    const list = `${prefix}/collection/posts/item`;
    const search = `${prefix}/collection/posts/search`;
    const page = Math.max(1, Math.min(10_000, Math.floor(data.rows / 50)));
    const listsStarted = Date.now();
    // Lazy indexes: what the lists ask for is built in the background. `settle` waits for it, lists what was made since the last wait, and adds a row when anything was.
    let settledUpTo = listsStarted;
    const settle = async (after: string) => {
      if (indexes !== 'lazy') return;
      await settleIndexes(app, database, place, { listsStarted, since: settledUpTo, after }, add, log);
      settledUpTo = Date.now();
    };
    // Dropping a kept term's triggers needs a lock a `create index concurrently` on the table holds
    // for its whole build, and the build waits for the statement: they deadlock. Builds finish first.
    const dropKept = async (after: string) => {
      await settle(after);
      await dropKeptSearches(database.db, place.collectionId, place.table);
    };
    const compareMs = (t: { p50: number; p95: number }, which: 'p50' | 'p95' = 'p50') => ({ value: t[which], kind: 'ms' as const });

    if (only.has('pages')) {
      const first = await timed(base, token, `${list}?perPage=50`, requests);
      add({ key: 'first-page', label: `first page of 50 with its total (${first.total})`, first: first.first, p50: first.p50, p95: first.p95, compare: compareMs(first) });
      check('first page total = rows', first.total === data.rows, `${first.total} / ${data.rows}`);
      const deep = await timed(base, token, `${list}?perPage=50&pageNumber=${page}`, requests);
      add({ key: 'page-deep', label: `page ${int(page)} of 50`, first: deep.first, p50: deep.p50, p95: deep.p95, compare: compareMs(deep) });
      const views = await timed(base, token, `${list}?perPage=50&sort=views&order=desc`, requests);
      add({ key: 'sort-views', label: 'sort by views desc', first: views.first, p50: views.p50, p95: views.p95, compare: compareMs(views) });
      const title = await timed(base, token, `${list}?perPage=50&sort=title&order=asc`, requests);
      add({ key: 'sort-title', label: 'sort by title', first: title.first, p50: title.p50, p95: title.p95, compare: compareMs(title) });
    }

    if (only.has('search')) {
      // From a clean slate: a kept database may hold the terms of an earlier run.
      await dropKept('the lists before the searches');
      const judged = (t: Timed) => (t.first! <= targets.commonFirstMs && t.p50 <= targets.commonRepeatP50Ms) as boolean;
      const target = `first ≤ ${targets.commonFirstMs} ms, repeats p50 ≤ ${targets.commonRepeatP50Ms} ms`;
      const listForm = await timed(base, token, `${list}?perPage=50&search=${commonWord}`, requests, true);
      add({ key: 'common-list', label: `list search "${commonWord}" with total (${listForm.total})`, first: listForm.first, p50: listForm.p50, p95: listForm.p95, target, met: judged(listForm), compare: compareMs(listForm) });
      check(`"${commonWord}" list search total = count(*) with ilike`, listForm.total === data.commonTotal, `${listForm.total} / ${data.commonTotal}`);
      await dropKept(`the list search "${commonWord}"`);
      const searchForm = await timed(base, token, `${search}?query=${commonWord}&perPage=50`, requests, true);
      add({ key: 'common-search', label: `search?query=${commonWord} with total (${searchForm.total})`, first: searchForm.first, p50: searchForm.p50, p95: searchForm.p95, target, met: judged(searchForm), compare: compareMs(searchForm) });
      check(`"${commonWord}" search total = count(*) with ilike`, searchForm.total === data.commonTotal, `${searchForm.total} / ${data.commonTotal}`);
      // `total=false` (a caller that needs no total): measured once the list parameters declare it.
      if ('total' in ListParams) {
        const noTotal = await timed(base, token, `${list}?perPage=50&search=${commonWord}&total=false`, requests, true);
        add({ key: 'common-no-total', label: `list search "${commonWord}", total=false${noTotal.total === undefined ? '' : ` (item-count ${noTotal.total})`}`, first: noTotal.first, p50: noTotal.p50, p95: noTotal.p95, compare: compareMs(noTotal) });
        try {
          const noTotalSearch = await timed(base, token, `${search}?query=${commonWord}&perPage=50&total=false`, requests, true);
          add({ key: 'common-search-no-total', label: `search?query=${commonWord}&total=false${noTotalSearch.total === undefined ? '' : ` (item-count ${noTotalSearch.total})`}`, first: noTotalSearch.first, p50: noTotalSearch.p50, p95: noTotalSearch.p95, compare: compareMs(noTotalSearch) });
        } catch (error) {
          add({ key: 'common-search-no-total', label: `search?query=${commonWord}&total=false`, figure: `n/a (${(error as Error).message.slice(0, 80)})` });
        }
      } else {
        add({ key: 'common-no-total', label: `search "${commonWord}", total=false`, figure: 'n/a (the list parameters have no total yet)' });
      }
      const rare = await timed(base, token, `${search}?query=${rareWord}&perPage=50`, requests, true);
      add({ key: 'rare', label: `search?query=${rareWord} with total (${rare.total})`, first: rare.first, p50: rare.p50, p95: rare.p95, compare: compareMs(rare) });
      check(`"${rareWord}" search total = count(*) with ilike`, rare.total === data.rareTotal, `${rare.total} / ${data.rareTotal}`);
      await dropKept('the searches');
    }

    if (only.has('filter')) {
      const filter = await timed(base, token, `${list}?perPage=50&query=${encodeURIComponent(`views:>:${viewsTenPercent}`)}`, requests, true);
      add({
        key: 'filter',
        label: `filter views > ${viewsTenPercent} with total (${filter.total})`,
        first: filter.first,
        p50: filter.p50,
        p95: filter.p95,
        target: `p95 ≤ ${targets.filterP95Ms} ms`,
        met: filter.p95 <= targets.filterP95Ms,
        compare: compareMs(filter, 'p95'),
      });
      check('filter total = count(*)', filter.total === data.viewsAbove, `${filter.total} / ${data.viewsAbove}`);
      // The same filter with a new threshold each call: a condition never seen before, so no kept count and no kept page serves it.
      const fresh = await timedEach(base, token, requests, (i) => `${list}?perPage=50&query=${encodeURIComponent(`views:>:${viewsTenPercent + 1 + i}`)}`);
      add({ key: 'filter-fresh', label: `filter views > ${viewsTenPercent + 1}…, a new threshold each call`, p50: fresh.p50, p95: fresh.p95, compare: compareMs(fresh, 'p95') });
    }

    // Later scenarios measure with what the lists asked for made.
    await settle('the lists');

    if (only.has('csv')) {
      const [{ n }] = (await rowsOf<{ n: string }>(database, sql`select count(*)::bigint as n from ${sql.identifier(place.table)}`)) as [{ n: string }];
      const { result, growthMB, beforeMB } = await rssGrowth(() => client.run({ type: 'csv', url: `${base}${prefix}/collection/posts/csv?pagination=none`, token }));
      if (result.type !== 'csv') {
        add({ key: 'csv', label: 'CSV export of every row', figure: `failed: ${result.type === 'error' ? result.message : result.type}` });
        check('CSV export', false, result.type === 'error' ? result.message : result.type);
      } else {
        const perS = (Number(n) / result.seconds) | 0;
        figures.extra.csv = { lines: result.lines, bytes: result.bytes, seconds: round(result.seconds), rssBeforeMB: beforeMB, rssGrowthMB: growthMB };
        add({
          key: 'csv',
          label: `CSV export of every row (${int(result.bytes / 1048576)} MB)`,
          figure: `${round(result.seconds)} s = ${int(perS)} rows/s, server RSS +${growthMB} MB`,
          target: `≥ ${int(targets.csvRowsPerS)} rows/s`,
          met: perS >= targets.csvRowsPerS,
          compare: { value: perS, kind: 'rate' },
        });
        check('CSV has rows + 1 lines', result.lines === Number(n) + 1, `${result.lines} / ${Number(n) + 1}`);
      }
    }

    if (only.has('storage')) {
      const t = place.table;
      const [sizes] = await rowsOf<{ table: string; indexes: string; total: string; words: string | null }>(
        database,
        sql`select pg_table_size(${t}::regclass)::bigint as table, pg_indexes_size(${t}::regclass)::bigint as indexes, pg_total_relation_size(${t}::regclass)::bigint as total,
                   (select pg_total_relation_size('item_search_words'::regclass) where to_regclass('item_search_words') is not null)::bigint as words`,
      );
      const indexes = await rowsOf<{ name: string; bytes: string }>(
        database,
        sql`select indexname as name, pg_relation_size(format('%I', indexname)::regclass)::bigint as bytes from pg_indexes where tablename = ${t} order by 2 desc`,
      );
      const mb = (bytes: string | number | null) => round(Number(bytes ?? 0) / 1048576);
      const targetMB = (targets.storageMBAtMillion * data.rows) / 1_000_000;
      figures.extra.storage = { tableMB: mb(sizes!.table), indexesMB: mb(sizes!.indexes), totalMB: mb(sizes!.total), searchWordsMB: mb(sizes!.words), indexes: Object.fromEntries(indexes.map((i) => [place.indexLabel(i.name), mb(i.bytes)])) };
      add({
        key: 'storage',
        label: 'storage: table + indexes (with TOAST)',
        figure: `${mb(sizes!.total)} MB = table ${mb(sizes!.table)} MB + indexes ${mb(sizes!.indexes)} MB; item_search_words (all collections) ${mb(sizes!.words)} MB`,
        target: data.rows >= 1_000_000 ? `≤ ${targets.storageMBAtMillion} MB` : `≤ ${round(targetMB)} MB (${targets.storageMBAtMillion} MB at 1M, scaled)`,
        met: mb(sizes!.total) <= targetMB,
      });
      for (const index of indexes) log(`      ${place.indexLabel(index.name).padEnd(24)} ${mb(index.bytes)} MB`);
    }

    if (only.has('creates')) {
      const url = `${base}/api/public/collection/posts/items`;
      for (const [callers, target] of [
        [20, targets.creates20PerS],
        [50, targets.creates50PerS],
      ] as const) {
        const answer = await client.run({ type: 'creates', url, token: place.apiToken, count: 2000, callers, warm: 20, seed: 1000 + callers + Date.now() % 1000 });
        if (answer.type !== 'creates') throw new Error(answer.type === 'error' ? answer.message : `unexpected answer ${answer.type}`);
        const perS = Math.round(answer.times.length / answer.seconds);
        const p95 = round(percentile(answer.times, 95));
        figures.extra[`creates${callers}`] = { made: answer.times.length, seconds: round(answer.seconds), perS, p50: round(percentile(answer.times, 50)), p95, errors: answer.errors };
        add({
          key: `creates-${callers}`,
          label: `2,000 creates (public API), ${callers} clients`,
          figure: `${int(perS)} items/s, p95 ${p95} ms${answer.errors.length ? `, errors: ${answer.errors[0]}` : ''}`,
          target: `≥ ${int(target)} items/s`,
          met: perS >= target,
          compare: { value: perS, kind: 'rate' },
        });
        check(`${callers} clients: 2,000 created`, answer.times.length === 2000, `${answer.times.length}`);
      }
    }

    if (only.has('import')) await measureImport(database, base, place, importRows ?? data.rows, client, add, check, log);

    // Last: on PGlite, requests autocannon gave up on are still queued when it ends, and would slow what came next.
    if (only.has('throughput')) {
      const cpuBefore = process.cpuUsage();
      const dbBefore = await databaseCpu(database);
      const load = await loadOf(['-H', `authorization=Bearer ${token}`, `${base}${list}?perPage=50`], 200, 20);
      const cpu = process.cpuUsage(cpuBefore);
      const dbAfter = await databaseCpu(database);
      const answered = Math.max(1, load.total + load.errors);
      let dbMs: number | undefined;
      if (dbBefore && dbAfter) {
        dbMs = 0;
        for (const [pid, used] of dbAfter) dbMs += used - (dbBefore.get(pid) ?? 0);
      }
      const serverCpu = round((cpu.user + cpu.system) / 1000 / answered);
      const dbCpu = dbMs === undefined ? undefined : round(dbMs / answered);
      figures.extra.throughput = { ...load, serverCpuMsPerRequest: serverCpu, ...(dbCpu === undefined ? {} : { databaseCpuMsPerRequest: dbCpu }) };
      add({
        key: 'throughput',
        label: 'first page with total, 200 connections × 20 s',
        figure: `${int(load.requestsPerSecond)} req/s, p97.5 ${load.p95Ms} ms, ${load.errors} errors (${load.timeouts} timeouts, ${load.non2xx} not 2xx); CPU a request: server ${serverCpu} ms${dbCpu === undefined ? '' : `, PostgreSQL ${dbCpu} ms`}`,
        target: `≥ ${int(targets.throughputPerS)} req/s`,
        met: load.requestsPerSecond >= targets.throughputPerS && load.errors === 0,
        compare: { value: load.requestsPerSecond, kind: 'rate' },
      });
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

/**
 * The import scenario: `rows` generated rows as a CSV file and as an NDJSON file (written before,
 * not timed), each sent to `POST /api/public/collection/{c}/import` of an empty collection of the
 * same shape (made for the run and deleted after). "n/a" while the route does not exist.
 */
async function measureImport(database: Database, base: string, place: Place, rows: number, client: Client, add: (row: Row) => void, check: (name: string, ok: boolean, detail: string) => void, log: (line: string) => void) {
  // Asked of a collection that does not exist, so a route that does exist changes nothing.
  const probe = await fetch(`${base}/api/public/collection/peerNoSuchCollection/import`, { method: 'POST', headers: { authorization: `Bearer ${place.apiToken}`, 'content-type': 'text/csv' }, body: '' });
  const probeText = await probe.text();
  // An unknown route answers the not-found problem "No route for POST …" (an unknown collection names the collection).
  if (probe.status === 404 && /No route for POST|Route POST:.* not found/.test(probeText)) {
    add({ key: 'import-csv', label: 'import CSV (public API)', figure: 'n/a (no import route yet)' });
    add({ key: 'import-ndjson', label: 'import NDJSON (public API)', figure: 'n/a (no import route yet)' });
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'larder-peer-'));
  try {
    const started = performance.now();
    const files = await importFiles(dir, rows);
    log(`  import files written in ${((performance.now() - started) / 1000).toFixed(1)} s (not counted)`);
    for (const [format, file, contentType] of [
      ['csv', files.csv, 'text/csv'],
      ['ndjson', files.ndjson, 'application/x-ndjson'],
    ] as const) {
      const slug = `import${format === 'csv' ? 'Csv' : 'Ndjson'}${newId().slice(0, 6)}`;
      const collections = `${place.prefix}/collection`;
      await call(base, place.token, 'POST', collections, { id: slug, name: slug, schema: schema() });
      try {
        const { result, growthMB } = await rssGrowth(() => client.run({ type: 'upload', url: `${base}/api/public/collection/${slug}/import`, token: place.apiToken, file, contentType }));
        if (result.type !== 'upload' || result.status >= 300) {
          const why = result.type === 'upload' ? `${result.status} ${result.body.slice(0, 160)}` : result.type === 'error' ? result.message : result.type;
          add({ key: `import-${format}`, label: `import ${format.toUpperCase()} (public API)`, figure: `failed: ${why}` });
          check(`import ${format}`, false, why);
          continue;
        }
        const [{ id }] = (await rowsOf<{ id: string }>(database, sql`select id from content_collections where slug = ${slug} and project_id = ${place.projectId}`)) as [{ id: string }];
        const [{ n }] = (await rowsOf<{ n: string }>(database, sql`select count(*)::bigint as n from ${sql.identifier(`content_${id}`)}`)) as [{ n: string }];
        const perS = Math.round(Number(n) / result.seconds);
        add({
          key: `import-${format}`,
          label: `import ${int(rows)} rows of ${format.toUpperCase()} (${int(result.bytes / 1048576)} MB, public API)`,
          figure: `${round(result.seconds)} s = ${int(perS)} rows/s, server RSS +${growthMB} MB`,
          target: `≥ ${int(targets.importRowsPerS)} rows/s`,
          met: perS >= targets.importRowsPerS,
          compare: { value: perS, kind: 'rate' },
        });
        check(`import ${format}: every row written`, Number(n) === rows, `${n} / ${rows}`);
      } finally {
        await call(base, place.token, 'DELETE', `${collections}/${slug}`).catch((error: unknown) => log(`  (could not delete ${slug}: ${(error as Error).message.slice(0, 120)})`));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Waits for the lazy indexes this process is building (the keeper's `settled`), logging what is
 * still under way every 30 s; then lists the table's lazy indexes made since `since`: each build's
 * seconds and when it was ready, counted from the first list of this run.
 */
async function settleIndexes(
  app: App,
  database: Database,
  place: Place,
  { listsStarted, since, after }: { listsStarted: number; since: number; after: string },
  add: (row: Row) => void,
  log: (line: string) => void,
) {
  const start = performance.now();
  let done = false;
  const settled = app.ctx.fieldIndexes.settled().then(() => (done = true));
  while (!done) {
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
    if (done) break;
    const states = await rowsOf<{ name: string; state: string }>(database, sql`select name, state from item_lazy_indexes where table_name = ${place.table} order by claimed_at`);
    log(`  … ${Math.round((performance.now() - start) / 1000)} s waiting for the lazy indexes: ${states.map((s) => `${place.indexLabel(s.name)} ${s.state}`).join(', ')}`);
  }
  const waited = (performance.now() - start) / 1000;
  const made = await rowsOf<{ name: string; state: string; build: number | null; after: number | null; bytes: string | null }>(
    database,
    sql`select l.name, l.state, extract(epoch from l.ready_at - l.claimed_at)::float8 as build,
               (extract(epoch from l.ready_at) * 1000 - ${listsStarted})::float8 / 1000 as after,
               (select pg_relation_size(c.oid) from pg_class c where c.relname = l.name)::bigint as bytes
        from item_lazy_indexes l where l.table_name = ${place.table} and (l.ready_at is null or l.ready_at >= to_timestamp(${since / 1000})) order by l.ready_at nulls last`,
  );
  if (!made.length) return;
  for (const m of made) {
    const when = m.after === null ? m.state : `ready ${round(m.after)} s after the first list`;
    log(`      ${place.indexLabel(m.name).padEnd(24)} build ${m.build === null ? '?' : `${round(m.build)} s`}, ${when}, ${round(Number(m.bytes ?? 0) / 1048576)} MB`);
  }
  const ready = made.filter((m) => m.after !== null);
  add({
    key: `lazy-indexes-${since}`,
    label: `lazy indexes made after ${after}`,
    figure: `${ready.map((m) => place.indexLabel(m.name)).join(', ')}: the last ready ${round(Math.max(0, ...ready.map((m) => m.after!)))} s after the first list (builds ${round(ready.reduce((sum, m) => sum + (m.build ?? 0), 0))} s in all; waited ${round(waited)} s for them)${made.length > ready.length ? `; not ready: ${made.filter((m) => m.after === null).map((m) => `${place.indexLabel(m.name)} ${m.state}`).join(', ')}` : ''}`,
  });
}

/** The tables: one per database, each figure beside its target, PGlite's beside PostgreSQL's. */
function table(results: PeerFigures[]): string {
  const postgres = results.find((r) => r.db === 'postgres');
  const out: string[] = [];
  for (const r of results) {
    const other = r.db === 'pglite' && postgres ? new Map(postgres.rows.map((row) => [row.key, row])) : undefined;
    out.push(`\n${r.db}, ${int(r.items)} rows${r.database ? ` (${r.database})` : ''}, FIELD_INDEXES=${r.indexes}, load ${r.loadAverage?.join(' → ') ?? '?'}:`);
    out.push(`| scenario | first | p50 | p95 | figure | target |${other ? ' PostgreSQL | ≤ 2× PostgreSQL |' : ''}`);
    out.push(`|---|---|---|---|---|---|${other ? '---|---|' : ''}`);
    for (const row of r.rows) {
      const target = row.target ? `${row.target} ${row.met ? '✓' : '✗'}` : '—';
      let versus = '';
      if (other) {
        const theirs = other.get(row.key);
        if (theirs?.compare && row.compare) {
          const ratio = row.compare.kind === 'ms' ? row.compare.value / theirs.compare.value : theirs.compare.value / row.compare.value;
          versus = ` ${theirs.compare.kind === 'ms' ? `${theirs.compare.value} ms` : int(theirs.compare.value) + '/s'} | ${round(ratio)}× ${ratio <= targets.pgliteTimes ? '✓' : '✗'} |`;
        } else versus = ' — | — |';
      }
      out.push(`| ${row.label} | ${ms(row.first)} | ${ms(row.p50)} | ${ms(row.p95)} | ${row.figure ?? ''} | ${target} |${versus}`);
    }
    const failed = r.checks.filter((c) => !c.ok);
    out.push(`checks: ${r.checks.length - failed.length} of ${r.checks.length} passed${failed.length ? ` — FAILED: ${failed.map((c) => `${c.name} (${c.detail})`).join('; ')}` : ''}`);
  }
  return out.join('\n');
}

export async function run(args: string[]): Promise<number> {
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const items = Number(flag('--items') ?? 1_000_000);
  const requests = Number(flag('--requests') ?? 30);
  if (!Number.isInteger(items) || items < 1000) throw new Error('--items takes a whole number of at least 1000');
  const importRows = flag('--import-rows') === undefined ? undefined : Number(flag('--import-rows'));
  if (importRows !== undefined && (!Number.isInteger(importRows) || importRows < 1)) throw new Error('--import-rows takes a whole number of at least 1');
  if (!Number.isInteger(requests) || requests < 1) throw new Error('--requests takes a whole number of at least 1');
  const kinds = (flag('--db') ?? 'postgres,pglite').split(',') as Kind[];
  for (const kind of kinds) if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`--db takes postgres, pglite; not ${kind}`);
  const only = new Set((flag('--only') ?? groups.join(',')).split(',') as Group[]);
  for (const group of only) if (!groups.includes(group)) throw new Error(`--only takes ${groups.join(', ')}; not ${group}`);
  const keep = { keep: args.includes('--keep'), reuse: flag('--reuse') };
  if ((keep.keep || keep.reuse) && kinds.join() !== 'postgres') throw new Error('--keep and --reuse are for PostgreSQL: give --db postgres');
  const indexes = (flag('--indexes') ?? process.env.FIELD_INDEXES ?? 'eager') as IndexMode;
  if (indexes !== 'eager' && indexes !== 'lazy') throw new Error(`--indexes takes eager, lazy; not ${indexes as string}`);
  const asJson = args.includes('--json');
  const log = (line: string) => {
    if (!asJson) console.log(line);
  };
  const results: PeerFigures[] = [];
  for (const kind of kinds) results.push(await runOne(kind, items, requests, importRows, only, keep, indexes, log));
  if (asJson) console.log(JSON.stringify(results, null, 2));
  else console.log(table(results));
  return results.some((r) => r.checks.some((c) => !c.ok)) ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await run(process.argv.slice(2)));
}

