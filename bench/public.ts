/**
 * The public v1 API under load, over HTTP against the real server with a project API
 * token, on PostgreSQL and on PGlite:
 *
 *   npm run bench -- public                      # PostgreSQL then PGlite
 *   npm run bench -- public --db pglite --seconds 5
 *   npm run bench -- public --json
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * 1. Items created per second: 50 concurrent API clients (autocannon connections, in a process of
 *    its own so the load generator does not share the server's event loop) POST items for
 *    `--seconds` (10 by default). Live events and every hook the server runs on a write are on.
 * 2. List latency: the collection those writes filled, read through `GET /api/public/collection/
 *    {c}/items` one call at a time (p50/p95 over `--runs` calls per case: first page with its
 *    count, a sort, a filter, a count only), then list throughput with 50 connections.
 */
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openBenchDatabase, type Kind } from './list.ts';
import { autocannon, type Load, type LoadDetail } from './support/autocannon.ts';
import { percentile, round } from './support/stats.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
/** The figures this bench has always answered. */
const load = ({ connections, requestsPerSecond, p95Ms, errors }: LoadDetail): Load => ({ connections, requestsPerSecond, p95Ms, errors });

interface Figures {
  database: Kind;
  create: Load & { itemsCreated: number };
  list: Record<string, { p50: number; p95: number; runs: number }>;
  listThroughput: Load;
}

async function call(base: string, token: string, method: string, url: string, body?: unknown) {
  const response = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return { response, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The owner, organization, project, collection and a power API token, all through the API. */
async function setUp(base: string, bootstrap: () => Promise<unknown>) {
  await bootstrap();
  const grant = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'bench@larder.test', password: 'bench bench bench', client_id: 'larder-console', client_secret: 'larder-console' }),
  });
  if (grant.status !== 200) throw new Error(`sign-in failed: ${grant.status} ${await grant.text()}`);
  const access = ((await grant.json()) as { access_token: string }).access_token;
  const org = (await call(base, access, 'POST', '/api/organization', { name: 'Bench' })).body as { id: string };
  const project = (await call(base, access, 'POST', `/api/organization/${org.id}/project`, { name: 'Bench' })).body as { id: string };
  await call(base, access, 'POST', `/api/organization/${org.id}/project/${project.id}/collection`, {
    id: 'articles',
    name: 'Articles',
    schema: [
      { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
      { name: 'Price', slug: 'price', type: code('Number') },
      { name: 'Featured', slug: 'featured', type: code('Bool') },
    ],
  });
  const token = (
    (await call(base, access, 'POST', '/api/apiTokens', { name: 'bench', projectID: project.id, organizationID: org.id, powerRead: true, powerWrite: true })).body as { jwtToken: string }
  ).jwtToken;
  return token;
}

async function timeCase(base: string, token: string, url: string, runs: number) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await call(base, token, 'GET', url);
    times.push(performance.now() - start);
  }
  return { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), runs };
}

async function runOne(kind: Kind, seconds: number, runs: number, log: (line: string) => void): Promise<Figures> {
  log(`${kind}:`);
  const { database, drop } = await openBenchDatabase(kind, { keep: false }, 'larder_bench_public');
  const config = loadConfig({ SERVE_CONSOLE: '0', LOG_LEVEL: 'warn', ADMIN_EMAIL: 'bench@larder.test', ADMIN_PASSWORD: 'bench bench bench', DATA_DIR: tmpdir() });
  const app = await buildApp({ config, database });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const token = await setUp(base, () => app.ctx.users.bootstrapAdmin());
    const items = `/api/public/collection/articles/items`;
    const auth = ['-H', `authorization=Bearer ${token}`, '-H', 'accept-version=v1'];
    const body = JSON.stringify({ title: 'bench item', price: 42, featured: true });
    const created = await autocannon([...auth, '-H', 'content-type=application/json', '-m', 'POST', '-b', body, base + items], 50, seconds);
    log(`  create, 50 clients: ${created.requestsPerSecond} items/s (p95 ${created.p95Ms} ms, ${created.total} created, ${created.errors} errors)`);
    const cases: Record<string, string> = {
      'first page (100) with count': `${items}?pageNumber=1&perPage=100`,
      'sort by price desc': `${items}?pageNumber=3&sort=price&order=DESC&perPage=100`,
      'filter price>10 and featured': `${items}?pageNumber=1&perPage=100&query=${encodeURIComponent('price:>:10')}%2B${encodeURIComponent('featured:=:true')}`,
      'count only (perPage=0)': `${items}?pageNumber=1&perPage=0`,
    };
    const list: Figures['list'] = {};
    for (const [name, url] of Object.entries(cases)) {
      list[name] = await timeCase(base, token, url, runs);
      log(`  ${name.padEnd(32)} p50 ${String(list[name].p50).padStart(8)} ms  p95 ${String(list[name].p95).padStart(8)} ms`);
    }
    const listThroughput = await autocannon([...auth, base + cases['first page (100) with count']!], 50, seconds);
    log(`  list, 50 clients: ${listThroughput.requestsPerSecond} req/s (p95 ${listThroughput.p95Ms} ms, ${listThroughput.errors} errors)`);
    return { database: kind, create: { ...load(created), itemsCreated: created.total }, list, listThroughput: load(listThroughput) };
  } finally {
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
  const kinds = (flag('--db') ?? 'postgres,pglite').split(',') as Kind[];
  for (const kind of kinds) if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`--db takes postgres, pglite; not ${kind}`);
  const seconds = Number(flag('--seconds') ?? 10);
  const runs = Number(flag('--runs') ?? 100);
  const asJson = args.includes('--json');
  const log = (line: string) => {
    if (!asJson) console.log(line);
  };
  const results: Figures[] = [];
  for (const kind of kinds) results.push(await runOne(kind, seconds, runs, log));
  if (asJson) console.log(JSON.stringify(results, null, 2));
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await run(process.argv.slice(2)));
}
