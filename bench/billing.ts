/**
 * A billing run over many organizations (docs/billing.md "Billing runs", docs/performance.md):
 *
 *   npm run bench -- billing                          # PostgreSQL, 10,000 organizations
 *   npm run bench -- billing --orgs 2000 --db pglite
 *   npm run bench -- billing --json
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * Every organization is on the Basic plan, monthly, with a sandbox card that succeeds, two paid
 * seats on some, last month's usage past the plan on a third of them (overage lines), due today.
 * Timed: one `runDue` (claim, price, write the pending charges, ask the sandbox provider, settle
 * with an invoice each) — target under 60 s on PostgreSQL. Then, untimed against the target, how
 * long the invoice mails (a PDF each, rendered by the app's mail worker) take to reach the outbox.
 * Checked: one succeeded charge and one sandbox charge per organization, no second run charges again.
 */
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openBenchDatabase, type Kind } from './list.ts';

const round = (n: number) => Math.round(n * 100) / 100;

async function runOne(kind: Kind, orgs: number, mailWaitS: number, log: (line: string) => void) {
  log(`${kind}: ${orgs} organizations due`);
  const { database, drop } = await openBenchDatabase(kind, { keep: false }, 'larder_bench_billing');
  const now = new Date('2026-06-15T04:00:00Z');
  const config = loadConfig({ SERVE_CONSOLE: '0', LOG_LEVEL: 'warn', DATA_DIR: tmpdir(), BILLING: '1', BILLING_PROVIDER: 'sandbox' });
  const app = await buildApp({ config, database, logger: false, billing: { now: () => now } });
  try {
    await app.ready();
    const db = database.db;
    const seeded = performance.now();
    await db.execute(sql`
      insert into organizations (id, name)
      select 'bench' || lpad(i::text, 20, '0'), 'Bench org ' || i from generate_series(1, ${orgs}) i`);
    await db.execute(sql`
      insert into sandbox_cards (token, last4, brand, behaviour)
      select 'sbx_bench_' || i, '4242', 'visa', 'succeed' from generate_series(1, ${orgs}) i`);
    await db.execute(sql`
      insert into billing_accounts (organization_id, seats, plan_id, billing_email, address, city, country, postcode,
                                    billing_day, next_billing_date, last_billing_date, overage_billed_through,
                                    card_provider, card_token, card_last4, card_brand)
      select 'bench' || lpad(i::text, 20, '0'), case when i % 4 = 0 then 12 else 3 end, 'basic',
             'billing' || i || '@bench.example', i || ' Bench Street', 'Springfield', case when i % 10 = 0 then 'IL' else 'US' end, '12345',
             15, '2026-06-15', '2026-05-15', '2026-04',
             'sandbox', 'sbx_bench_' || i, '4242', 'visa'
      from generate_series(1, ${orgs}) i`);
    await db.execute(sql`update billing_accounts set currency = 1 where country = 'IL' and organization_id like 'bench%'`);
    await db.execute(sql`
      insert into usage_counters (organization_id, month, metric, value)
      select 'bench' || lpad(i::text, 20, '0'), '2026-05', m.metric, case when i % 3 = 0 then m.over else m.under end
      from generate_series(1, ${orgs}) i,
           (values ('ApiCalls', 5250001, 120000), ('BandWidth', 123000000000, 4000000000), ('SMSOTPCount', 620, 12), ('Users', 3, 3)) as m(metric, over, under)`);
    log(`  seeded in ${round((performance.now() - seeded) / 1000)} s`);

    const started = performance.now();
    const report = await app.ctx.billing.runs.runDue(now);
    const seconds = (performance.now() - started) / 1000;
    log(`  runDue: ${round(seconds)} s (${round(orgs / seconds)} organizations a second) ${JSON.stringify(report)}`);

    const count = async (query: ReturnType<typeof sql>) => Number(((await db.execute(query)) as unknown as { rows: { n: string | number }[] }).rows[0]!.n);
    const succeeded = await count(sql`select count(*) as n from billing_charges where kind = 'period' and status = 'succeeded' and organization_id like 'bench%'`);
    const sandbox = await count(sql`select count(*) as n from sandbox_charges where token like 'sbx_bench_%'`);
    const perOrg = await count(sql`select coalesce(max(n), 0) as n from (select count(*) as n from billing_charges where organization_id like 'bench%' group by organization_id, period_start) c`);
    const invoices = await count(sql`select count(*) as n from billing_invoices where organization_id like 'bench%'`);
    const withOverage = await count(sql`select count(*) as n from billing_charges where organization_id like 'bench%' and jsonb_array_length(line_items) > 1`);
    const again = await app.ctx.billing.runs.runDue(now);
    const sandboxAfter = await count(sql`select count(*) as n from sandbox_charges where token like 'sbx_bench_%'`);
    log(`  charges succeeded ${succeeded}, sandbox charges ${sandbox} (after a second run ${sandboxAfter}), most charges for one period ${perOrg}, invoices ${invoices}, with seats or overage lines ${withOverage}`);
    const ok = succeeded === orgs && sandbox === orgs && sandboxAfter === orgs && perOrg === 1 && invoices === orgs && again.opened === 0;
    if (!ok) log('  FAILED: not exactly one charge per organization');

    let mailSeconds: number | null = null;
    const mailed = () => count(sql`select count(*) as n from billing_invoices where organization_id like 'bench%' and mailed_at is not null`);
    if (mailWaitS > 0) {
      const deadline = performance.now() + mailWaitS * 1000;
      let done = await mailed();
      while (done < orgs && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        done = await mailed();
      }
      mailSeconds = (performance.now() - started) / 1000;
      log(`  invoice mails with their PDF in the outbox: ${done} of ${orgs} ${done === orgs ? `${round(mailSeconds)} s after the run began` : `after ${mailWaitS} s of waiting`}`);
    }
    return { database: kind, organizations: orgs, runSeconds: round(seconds), perSecond: round(orgs / seconds), report, exactlyOnce: ok, mailsDoneSeconds: mailSeconds === null ? null : round(mailSeconds) };
  } finally {
    await app.close();
    await database.close();
    await drop();
  }
}

export async function run(args: string[]): Promise<number> {
  const option = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const json = args.includes('--json');
  const orgs = Number(option('orgs') ?? 10_000);
  const mailWaitS = Number(option('mail-wait') ?? 0);
  const kinds: Kind[] = option('db') ? [option('db') as Kind] : ['postgres'];
  const log = (line: string) => {
    if (!json) console.log(line);
  };
  const results = [];
  for (const kind of kinds) results.push(await runOne(kind, orgs, mailWaitS, log));
  if (json) console.log(JSON.stringify(results, null, 2));
  return results.every((r) => r.exactlyOnce && (r.database !== 'postgres' || r.runSeconds < 60)) ? 0 : 1;
}
