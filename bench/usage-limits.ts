/**
 * What the billing checks on app calls cost (docs/billing.md "Usage limits"): the public API's
 * list p50 with BILLING=0 (metering only) and with billing on (metering, the billing status and
 * the hard-limit checks, the warning header), over HTTP against two servers on one database:
 *
 *   npm run bench -- usage-limits                    # PostgreSQL
 *   npm run bench -- usage-limits --db pglite --runs 400 --items 500
 *
 * The two servers answer the same list in interleaved rounds (so drift of the machine falls on
 * both alike); the figure is the p50 of each and the overhead in percent (target: at most 5 %).
 */
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openBenchDatabase, type Kind } from './list.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (n: number) => Math.round(n * 1000) / 1000;

async function call(base: string, token: string, method: string, url: string, body?: unknown) {
  const response = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'accept-version': 'v1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function setUp(base: string, items: number) {
  const grant = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'bench@larder.test', password: 'bench bench bench', client_id: 'larder-console', client_secret: 'larder-console' }),
  });
  if (grant.status !== 200) throw new Error(`sign-in failed: ${grant.status} ${await grant.text()}`);
  const access = ((await grant.json()) as { access_token: string }).access_token;
  const org = (await call(base, access, 'POST', '/api/organization', { name: 'Bench' })) as { id: string };
  const project = (await call(base, access, 'POST', `/api/organization/${org.id}/project`, { name: 'Bench' })) as { id: string };
  await call(base, access, 'POST', `/api/organization/${org.id}/project/${project.id}/collection`, {
    id: 'articles',
    name: 'Articles',
    schema: [
      { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
      { name: 'Price', slug: 'price', type: code('Number') },
    ],
  });
  const token = ((await call(base, access, 'POST', '/api/apiTokens', { name: 'bench', projectID: project.id, organizationID: org.id, powerRead: true, powerWrite: true })) as { jwtToken: string })
    .jwtToken;
  for (let i = 0; i < items; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, items - i) }, (_, j) => call(base, token, 'POST', '/api/public/collection/articles/items', { title: `item ${i + j}`, price: i + j })));
  }
  return token;
}

export async function run(args: string[]): Promise<number> {
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const kind = (flag('--db') ?? 'postgres') as Kind;
  if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`--db takes postgres or pglite; not ${kind}`);
  const runs = Number(flag('--runs') ?? 1000);
  const items = Number(flag('--items') ?? 1000);
  const { database, drop } = await openBenchDatabase(kind, { keep: false }, 'larder_bench_usage_limits');
  const env = { SERVE_CONSOLE: '0', LOG_LEVEL: 'warn', ADMIN_EMAIL: 'bench@larder.test', ADMIN_PASSWORD: 'bench bench bench', DATA_DIR: tmpdir() };
  const on = await buildApp({ config: loadConfig(env), database });
  const off = await buildApp({ config: loadConfig({ ...env, BILLING: '0' }), database });
  try {
    const baseOn = await on.listen({ port: 0, host: '127.0.0.1' });
    const baseOff = await off.listen({ port: 0, host: '127.0.0.1' });
    await on.ctx.users.bootstrapAdmin();
    const token = await setUp(baseOn, items);
    const url = '/api/public/collection/articles/items?pageNumber=1&perPage=50';
    const times: Record<'off' | 'on', number[]> = { off: [], on: [] };
    // Warm both (caches, statements, the usage snapshot), then interleaved rounds of 50 calls each.
    for (const base of [baseOff, baseOn]) for (let i = 0; i < 100; i += 1) await call(base, token, 'GET', url);
    for (let round = 0; round < runs / 50; round += 1) {
      for (const [name, base] of [['off', baseOff], ['on', baseOn]] as const) {
        for (let i = 0; i < 50; i += 1) {
          const start = performance.now();
          await call(base, token, 'GET', url);
          times[name].push(performance.now() - start);
        }
      }
    }
    const p50Off = percentile(times.off, 50);
    const p50On = percentile(times.on, 50);
    const overhead = ((p50On - p50Off) / p50Off) * 100;
    console.log(`${kind}, list of 50 of ${items} items, ${times.on.length} calls each:`);
    console.log(`  BILLING=0 (metering only)        p50 ${round(p50Off)} ms  p95 ${round(percentile(times.off, 95))} ms`);
    console.log(`  billing on (status, limits, warn) p50 ${round(p50On)} ms  p95 ${round(percentile(times.on, 95))} ms`);
    console.log(`  overhead of the checks at p50: ${overhead.toFixed(1)} % (target ≤ 5 %)`);
    return 0;
  } finally {
    await on.close();
    await off.close();
    await database.close();
    await drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await run(process.argv.slice(2)));
}
