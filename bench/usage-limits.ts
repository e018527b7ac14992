/**
 * What metering and the billing checks on app calls cost (docs/billing.md "Usage limits"): the
 * public API's list p50 over HTTP against three servers on one database — without either
 * (BILLING=0 and no metering), with metering only (BILLING=0), and with both (metering, the
 * billing status and the hard-limit checks, the warning header):
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
  const metered = await buildApp({ config: loadConfig({ ...env, BILLING: '0' }), database });
  const bare = await buildApp({ config: loadConfig({ ...env, BILLING: '0' }), database, metering: false });
  const servers = { bare, metered, on };
  try {
    const bases = {
      bare: await bare.listen({ port: 0, host: '127.0.0.1' }),
      metered: await metered.listen({ port: 0, host: '127.0.0.1' }),
      on: await on.listen({ port: 0, host: '127.0.0.1' }),
    };
    await on.ctx.users.bootstrapAdmin();
    const token = await setUp(bases.on, items);
    const url = '/api/public/collection/articles/items?pageNumber=1&perPage=50';
    const names = ['bare', 'metered', 'on'] as const;
    const times: Record<(typeof names)[number], number[]> = { bare: [], metered: [], on: [] };
    // Warm all three (caches, statements, the usage snapshot), then interleaved rounds of 25 calls
    // each, the order turning every round so that no server always follows the same one.
    for (const name of names) for (let i = 0; i < 100; i += 1) await call(bases[name], token, 'GET', url);
    for (let round = 0; round < runs / 25; round += 1) {
      for (let k = 0; k < names.length; k += 1) {
        const name = names[(round + k) % names.length]!;
        for (let i = 0; i < 25; i += 1) {
          const start = performance.now();
          await call(bases[name], token, 'GET', url);
          times[name].push(performance.now() - start);
        }
      }
    }
    const p50 = (name: (typeof names)[number]) => percentile(times[name], 50);
    const overhead = (name: (typeof names)[number]) => (((p50(name) - p50('bare')) / p50('bare')) * 100).toFixed(1);
    console.log(`${kind}, list of 50 of ${items} items, ${times.on.length} calls each:`);
    console.log(`  without (BILLING=0, no metering)     p50 ${round(p50('bare'))} ms  p95 ${round(percentile(times.bare, 95))} ms`);
    console.log(`  metering only (BILLING=0)            p50 ${round(p50('metered'))} ms  p95 ${round(percentile(times.metered, 95))} ms  (${overhead('metered')} %)`);
    console.log(`  metering and checks (billing on)     p50 ${round(p50('on'))} ms  p95 ${round(percentile(times.on, 95))} ms  (${overhead('on')} %)`);
    console.log(`  overhead of metering and limit checks at p50: ${overhead('on')} % (target ≤ 5 %)`);
    return 0;
  } finally {
    for (const server of Object.values(servers)) await server.close();
    await database.close();
    await drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await run(process.argv.slice(2)));
}
