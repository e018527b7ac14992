/**
 * The admin area's organizations table at 100,000 organizations (docs/admin.md "Organizations",
 * docs/performance.md):
 *
 *   npm run bench -- admin organizations                      # PostgreSQL, 100,000 organizations
 *   npm run bench -- admin organizations --orgs 20000 --requests 50 --json
 *   npm run bench -- admin organizations --keep     (keeps the database, to EXPLAIN a case)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * Seeded with one `insert … select generate_series` per table: organizations with names of two
 * words and a number, each with a billing account — 30 % on a paid plan with seats and a next
 * billing date, credit on 1 in 20, a failed charge (unpaid period, GRACE to BLOCK) on 1 in 50, a
 * few whitelisted. Then, over HTTP as a super-admin, `--requests` calls (default 200) of each case,
 * one after another: the first page with its total, two searches, a status filter, every sort
 * both ways. Target: p95 ≤ 50 ms each on PostgreSQL. A deep page (offset 50,000) is reported too,
 * outside the target.
 */
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import { adminOrganizationSorts } from '../definitions/admin.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openBenchDatabase, signInAdmin } from './list.ts';

const round = (n: number) => Math.round(n * 10) / 10;
const words = ['acme', 'blue', 'cedar', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper', 'kestrel', 'lumen', 'maple', 'north', 'orbit', 'pine', 'quartz', 'river', 'summit', 'tidal'];
const targetMs = 50;

interface CaseFigure {
  name: string;
  url: string;
  p50: number;
  p95: number;
  total: number;
  target: boolean;
}

async function seed(run: (query: ReturnType<typeof sql>) => Promise<unknown>, orgs: number) {
  const list = sql.raw(`array[${words.map((w) => `'${w}'`).join(',')}]`);
  await run(sql`
    insert into organizations (id, name, created_at)
    select lpad(to_hex(i), 24, '0'),
           initcap((${list})[1 + (i * 7) % 20]) || ' ' || initcap((${list})[1 + (i * 13) % 19]) || ' ' || i,
           timestamptz '2026-01-01' + (i || ' seconds')::interval * 97
    from generate_series(1, ${orgs}) i`);
  await run(sql`
    insert into billing_accounts (organization_id, seats, plan_id, pending_plan_id, billing_day, next_billing_date, last_billing_date,
                                  credit_usd, credit_nis, currency, country, initial_billing_failed_date)
    select lpad(to_hex(i), 24, '0'),
           case when i % 10 < 3 then 3 + i % 9 else 3 end,
           case when i % 10 in (0, 1) then 'basic' when i % 10 = 2 then 'pro' end,
           null,
           case when i % 10 < 3 then 1 + i % 28 end,
           case when i % 10 < 3 then date '2026-12-01' + (i % 28) end,
           case when i % 10 < 3 then date '2026-11-01' + (i % 28) end,
           case when i % 20 = 0 then (i % 50) * 100 else 0 end,
           case when i % 33 = 0 then (i % 70) * 100 else 0 end,
           case when i % 10 = 5 then 1 else 2 end,
           case when i % 10 = 5 then 'IL' else 'US' end,
           case when i % 50 = 0 then now() - ((i % 40) || ' days')::interval end
    from generate_series(1, ${orgs}) i`);
  await run(sql`
    insert into billing_charges (id, organization_id, kind, period_start, period_end, idempotency_key, currency, line_items, subtotal, tax, total, status, attempts)
    select 'benchfail' || i, lpad(to_hex(i), 24, '0'), 'period', date '2026-10-01', date '2026-11-01', 'benchfail' || i || ':1',
           case when i % 10 = 5 then 1 else 2 end, '[]'::jsonb, 2500 + i % 1000, 0, 2500 + i % 1000, 'failed', 1
    from generate_series(50, ${orgs}, 50) i`);
  await run(sql`insert into soft_launch_whitelist (organization_id) select lpad(to_hex(i), 24, '0') from generate_series(1000, ${orgs}, 1000) i`);
  // The steady state of a live table: visibility map and statistics written (autovacuum's work).
  for (const table of ['organizations', 'billing_accounts', 'billing_charges']) await run(sql.raw(`vacuum analyze ${table}`));
}

async function time(base: string, token: string, name: string, url: string, requests: number, target: boolean): Promise<CaseFigure> {
  const samples: number[] = [];
  let total = 0;
  // A few untimed calls first: connections made, statements planned.
  for (let i = 0; i < requests + 5; i += 1) {
    const started = performance.now();
    const response = await fetch(base + url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { total?: number };
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${url} → ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    total = body.total ?? 0;
    if (i >= 5) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)]!;
  return { name, url, p50: round(at(0.5)), p95: round(at(0.95)), total, target };
}

export async function run(args: string[]): Promise<number> {
  const option = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const json = args.includes('--json');
  const orgs = Number(option('orgs') ?? 100_000);
  const requests = Number(option('requests') ?? 200);
  const log = (line: string) => {
    if (!json) console.log(line);
  };
  const keep = args.includes('--keep');
  const { database, drop, name } = await openBenchDatabase('postgres', { keep }, 'larder_bench_admin');
  if (keep) log(`database ${name} kept`);
  const config = loadConfig({
    SERVE_CONSOLE: '0',
    LOG_LEVEL: 'warn',
    DATA_DIR: tmpdir(),
    BILLING: '1',
    ADMIN_EMAIL: 'bench@larder.test',
    ADMIN_PASSWORD: 'bench bench bench',
    RATE_LIMIT_LOGIN_ACCOUNT: '1000/1m',
    RATE_LIMIT_LOGIN_ADDRESS: '1000/1m',
    RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS: '1000/1m',
  });
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const seeded = performance.now();
    await seed((query) => database.db.execute(query), orgs);
    log(`PostgreSQL: ${orgs.toLocaleString('en')} organizations seeded in ${round((performance.now() - seeded) / 1000)} s`);
    await app.ctx.users.bootstrapAdmin();
    const token = await signInAdmin(base);
    const cases: [string, string, boolean][] = [
      ['first page with total', '/api/admin/organizations', true],
      ['search, a common word (cedar)', '/api/admin/organizations?search=cedar', true],
      ['search, a number (4242)', '/api/admin/organizations?search=4242', true],
      ['search, an exact id', `/api/admin/organizations?search=${(4242).toString(16).padStart(24, '0')}`, true],
      ['status filter (BLOCK)', '/api/admin/organizations?status=BLOCK', true],
      ['status filter (OK)', '/api/admin/organizations?status=OK', true],
      ...adminOrganizationSorts.flatMap((sort) =>
        (['asc', 'desc'] as const).map((order): [string, string, boolean] => [`sort ${sort} ${order}`, `/api/admin/organizations?sort=${sort}&order=${order}`, true]),
      ),
      ['search and sort (cedar, credit desc)', '/api/admin/organizations?search=cedar&sort=credit&order=desc', true],
      ['deep page (offset 50,000, by name)', '/api/admin/organizations?page=1001&perPage=50', false],
    ];
    const figures: CaseFigure[] = [];
    for (const [name, url, target] of cases) {
      const figure = await time(base, token, name, url, requests, target);
      figures.push(figure);
      log(`  ${name.padEnd(40)} p50 ${String(figure.p50).padStart(6)} ms  p95 ${String(figure.p95).padStart(6)} ms  (total ${figure.total})${target ? '' : '  [outside the target]'}`);
    }
    const ok = figures.every((f) => !f.target || f.p95 <= targetMs);
    if (json) console.log(JSON.stringify({ organizations: orgs, requests, targetMs, figures, ok }, null, 2));
    else log(ok ? `every case within p95 ≤ ${targetMs} ms` : `FAILED: some case above p95 ${targetMs} ms`);
    return ok ? 0 : 1;
  } finally {
    await app.close();
    await database.close();
    await drop();
  }
}
