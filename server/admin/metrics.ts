/**
 * Platform figures per day for the metrics screen, and the job that writes them (docs/admin.md
 * "Metrics").
 *
 * Two sources. What past days' timestamps still tell (new and verified users, organizations and
 * projects created, webhook deliveries, failed payments) is counted for the whole window by one
 * grouped statement at read time, so a new installation's charts are not empty. What is only
 * knowable at the moment (items, storage, active users, live connections, the month's API calls
 * and bandwidth) is written to `platform_daily` by a job, today's row and, where it can still be
 * known, yesterday's. The job runs in every process, but a lease row in `settings` lets only one
 * of them do it per interval; a metrics read runs it first when the last run is over a minute old.
 * Every write is an idempotent upsert: levels keep the latest figure, the rest the greatest.
 */
import { sql, type SQL } from 'drizzle-orm';
import { adminMetricNames, type AdminMetricName } from '../../definitions/admin.ts';
import { freePlan, planById, plans } from '../../definitions/billing/plans.ts';
import { currencyOfNumber, frequencyOfNumber, mulDiv, type CurrencyCode } from '../../definitions/billing/money.ts';
import { billingConstants } from '../../definitions/billing/constants.ts';
import type { AdminMetrics } from '../../definitions/schemas/admin.ts';
import { usageMonthOf } from '../../definitions/usage.ts';
import { periodLines, sumLines } from '../billing/pricing.ts';
import { usageLiveHeartbeatMs } from '../usage/usage.ts';
import type { AdminDeps } from './deps.ts';

const dayMs = 86_400_000;
/** How often the job runs (across all processes, by the lease). */
export const metricsJobIntervalMs = 5 * 60_000;
/** The first run after start: later than the start-up work, and after most tests are over. */
const firstRunDelayMs = 60_000;
/** A metrics read runs the job first when its last run is older than this. */
const readFreshnessMs = 60_000;
/** The `settings` row holding the time of the last run. */
const leaseKey = 'platformMetricsRun';
/** A process's live streams count while its heartbeat is this recent (as server/usage/usage.ts counts them). */
const liveFreshMs = 3 * usageLiveHeartbeatMs;

/**
 * `platform_daily` rows that are not charted: the month's API calls and bandwidth so far, as seen
 * by the day's last run. A day's figure is the difference from the day before's.
 */
export const monthTotalRows = { apiCalls: 'apiCalls.monthTotal', bandwidth: 'bandwidth.monthTotal' } as const;

/** Written by the job as the level at its run: the day keeps the last one. Every other row keeps the greatest. */
const levelRows = ['organizations', 'projects', 'items', 'storage'] as const;
/** Counted from timestamps for every day of the window. */
const countedMetrics = ['newUsers', 'verifiedUsers', 'webhookDeliveries', 'failedPayments'] as const;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
const iso = (ms: number) => new Date(ms).toISOString();

export class PlatformMetrics {
  /** The clock (tests put the job and the reads on a day of their choosing). */
  now: () => number = Date.now;
  private firstTimer: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private closed = false;

  constructor(private readonly deps: AdminDeps) {}

  /** Starts the job (app.ts, once the routes are registered): timers that do not keep the process alive. */
  start(): void {
    if (this.timer || this.firstTimer || this.closed) return;
    this.firstTimer = setTimeout(() => {
      this.firstTimer = undefined;
      void this.tick();
      this.timer = setInterval(() => void this.tick(), metricsJobIntervalMs);
      this.timer.unref();
    }, firstRunDelayMs);
    this.firstTimer.unref();
  }

  /** Stops the job (the server closing), after a run under way. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.firstTimer);
    clearInterval(this.timer);
    this.firstTimer = this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /**
   * Runs the job if no process has in the last `minAgeMs` (the lease). Never throws: a failed
   * run is logged and the next one writes the rows. True when this call ran it.
   */
  async tick(at = this.now(), minAgeMs = metricsJobIntervalMs - 5_000): Promise<boolean> {
    if (this.closed) return false;
    const run = (async () => {
      try {
        if (!(await this.lease(at, minAgeMs))) return false;
        await this.run(at);
        return true;
      } catch (error) {
        this.deps.log.warn({ err: error }, 'platform metrics job failed');
        return false;
      }
    })();
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = undefined;
    }
  }

  /** Takes the lease when the last run (by any process) is at least `minAgeMs` old, or later than `at` (a clock set back). */
  private async lease(at: number, minAgeMs: number): Promise<boolean> {
    const taken = await this.deps.ctx.database.db.execute(sql`
      insert into settings (key, value) values (${leaseKey}::text, ${JSON.stringify({ at })}::jsonb)
      on conflict (key) do update set value = excluded.value
        where (settings.value->>'at')::bigint not between ${at - minAgeMs + 1}::bigint and ${at}::bigint
      returning key`);
    return rowsOf(taken).length > 0;
  }

  /**
   * Writes the figures of the day of `at` (and what can still be known of the day before) to
   * `platform_daily`. One statement; safe to run any number of times from any process.
   */
  async run(at = this.now()): Promise<void> {
    const today = dateOf(at);
    const yesterday = dateOf(at - dayMs);
    const start = dayStart(today);
    const month = usageMonthOf(at);
    const previousMonth = usageMonthOf(start - dayMs);
    const monthTotal = (m: string, metric: string) =>
      sql`(select coalesce(sum(value), 0) from usage_counters where month = ${m}::text and metric = ${metric}::text)`;
    const activeBetween = (from: number, to: number) =>
      sql`(select count(*) from users where last_logged_in >= ${iso(from)}::timestamptz and last_logged_in < ${iso(to)}::timestamptz)`;
    const rows: SQL[] = [
      sql`select ${today}::date, 'organizations', (select count(*) from organizations)`,
      sql`select ${today}::date, 'projects', (select count(*) from projects)`,
      sql`select ${today}::date, 'items', (select coalesce(sum(item_count), 0) from content_collections)`,
      sql`select ${today}::date, 'storage', (select coalesce(sum(size), 0) from stored_files)`,
      sql`select ${today}::date, 'activeUsers', ${activeBetween(start, start + dayMs)}`,
      // A user signed in yesterday and again today is no longer yesterday's: the greatest keeps the last run's count.
      sql`select ${yesterday}::date, 'activeUsers', ${activeBetween(start - dayMs, start)}`,
      sql`select ${today}::date, 'liveConnections',
            (select coalesce(sum(open), 0) from usage_live_processes where heartbeat_at > ${iso(at - liveFreshMs)}::timestamptz)`,
      sql`select ${today}::date, ${monthTotalRows.apiCalls}::text, ${monthTotal(month, 'ApiCalls')}`,
      sql`select ${today}::date, ${monthTotalRows.bandwidth}::text, ${monthTotal(month, 'BandWidth')}`,
    ];
    if (previousMonth !== month) {
      // Yesterday closed a month: its totals are final now (within a month, today's usage is in the same row).
      rows.push(sql`select ${yesterday}::date, ${monthTotalRows.apiCalls}::text, ${monthTotal(previousMonth, 'ApiCalls')}`);
      rows.push(sql`select ${yesterday}::date, ${monthTotalRows.bandwidth}::text, ${monthTotal(previousMonth, 'BandWidth')}`);
    }
    const levels = sql.join(
      levelRows.map((m) => sql`${m}`),
      sql`, `,
    );
    await this.deps.ctx.database.db.execute(sql`
      insert into platform_daily (day, metric, value)
      ${sql.join(rows, sql` union all `)}
      on conflict (day, metric) do update set value =
        case when platform_daily.metric in (${levels}) then excluded.value else greatest(platform_daily.value, excluded.value) end`);
  }

  /**
   * The metrics screen's figures over the last `days` days up to the day of `at` (included):
   * the job is run first when its figures are over a minute old.
   */
  async report(days: 30 | 90, at = this.now()): Promise<AdminMetrics> {
    await this.tick(at, readFreshnessMs);
    const db = this.deps.ctx.database.db;
    const billing = this.deps.ctx.config.billing.enabled;
    const to = dateOf(at);
    const from = dateOf(dayStart(to) - (days - 1) * dayMs);
    const dates = Array.from({ length: days }, (_, i) => dateOf(dayStart(from) + i * dayMs));
    const fromTs = iso(dayStart(from));
    const endTs = iso(dayStart(to) + dayMs);

    const utcDay = (column: SQL) => sql`(${column} at time zone 'UTC')::date::text`;
    const inWindow = (column: SQL) => sql`${column} >= ${fromTs}::timestamptz and ${column} < ${endTs}::timestamptz`;
    const perDay = (metric: string, column: SQL, table: SQL, where: SQL = sql`true`) =>
      sql`select ${metric}::text as metric, ${utcDay(column)} as day, count(*)::float8 as value from ${table} where ${inWindow(column)} and ${where} group by 2`;
    const before = (metric: string, table: SQL) =>
      sql`select ${metric}::text as metric, null::text as day, count(*)::float8 as value from ${table} where created_at < ${fromTs}::timestamptz`;
    // One grouped statement per source, the window's days at once; independent, so run side by side (PostgreSQL's pool).
    const derivedQueries: SQL[] = [
      sql`select 'installedOn' as metric, ${utcDay(sql`min(created_at)`)} as day, 0::float8 as value from users`,
      perDay('newUsers', sql`created_at`, sql`users`),
      // A confirmation is used only by an unverified user (server/main/users.ts): one per user.
      perDay('verifiedUsers', sql`used_at`, sql`email_confirmations`),
      sql`${perDay('organizations', sql`created_at`, sql`organizations`)} union all ${before('organizations', sql`organizations`)}`,
      sql`${perDay('projects', sql`created_at`, sql`projects`)} union all ${before('projects', sql`projects`)}`,
      perDay('webhookDeliveries', sql`created_at`, sql`webhook_deliveries`),
    ];
    if (billing) derivedQueries.push(perDay('failedPayments', sql`updated_at`, sql`billing_charges`, sql`status = 'failed'`));
    type Row = { metric: string; day: string | null; value: number };
    const [stored, counts, plansInUse, mrr, ...derivedParts] = await Promise.all([
      db.execute(sql`select day::text as day, metric, value::float8 as value from platform_daily
                     where day between ${dateOf(dayStart(from) - dayMs)}::date and ${to}::date`),
      db.execute(sql`select count(*)::float8 as users, count(*) filter (where verified)::float8 as verified,
                            count(*) filter (where disabled_at is not null)::float8 as disabled from users`),
      billing ? this.plansInUse() : [],
      billing ? this.mrr() : { USD: 0, NIS: 0 },
      ...derivedQueries.map((query) => db.execute(query)),
    ]);
    const storedOf = new Map(rowsOf<{ day: string; metric: string; value: number }>(stored).map((r) => [`${r.metric}\u0000${r.day}`, Number(r.value)]));
    const derived = derivedParts.flatMap((part) => rowsOf<Row>(part));
    const derivedOf = new Map(derived.map((r) => [`${r.metric}\u0000${r.day ?? ''}`, Number(r.value)]));
    const installedOn = derived.find((r) => r.metric === 'installedOn')?.day ?? null;
    const known = (date: string) => installedOn !== null && date >= installedOn;

    const seriesOf = (metric: AdminMetricName): (number | null)[] => {
      if ((countedMetrics as readonly string[]).includes(metric)) {
        return dates.map((d) => (known(d) ? (derivedOf.get(`${metric}\u0000${d}`) ?? 0) : null));
      }
      if (metric === 'organizations' || metric === 'projects') {
        // The job's level where it ran; else those that exist now, by the day they were created.
        let level = derivedOf.get(`${metric}\u0000`) ?? 0;
        return dates.map((d) => {
          level += derivedOf.get(`${metric}\u0000${d}`) ?? 0;
          return storedOf.get(`${metric}\u0000${d}`) ?? (known(d) ? level : null);
        });
      }
      if (metric === 'apiCalls' || metric === 'bandwidth') {
        const total = (d: string) => storedOf.get(`${monthTotalRows[metric]}\u0000${d}`);
        return dates.map((d) => {
          const today = total(d);
          if (today === undefined) return null;
          if (d.endsWith('-01')) return today;
          const previous = total(dateOf(dayStart(d) - dayMs));
          return previous === undefined ? null : Math.max(0, today - previous);
        });
      }
      return dates.map((d) => storedOf.get(`${metric}\u0000${d}`) ?? null);
    };
    const series = adminMetricNames.map((metric) => ({ metric, values: seriesOf(metric) }));

    const now: Record<string, number> = {};
    for (const { metric, values } of series) {
      const value = values[values.length - 1];
      if (value !== null && value !== undefined) now[metric] = value;
    }
    for (const key of ['apiCalls', 'bandwidth'] as const) {
      const total = storedOf.get(`${monthTotalRows[key]}\u0000${to}`);
      if (total !== undefined) now[`${key}ThisMonth`] = total;
    }
    const [userCounts] = rowsOf<{ users: number; verified: number; disabled: number }>(counts);
    now.users = Number(userCounts?.users ?? 0);
    now.usersVerified = Number(userCounts?.verified ?? 0);
    now.usersDisabled = Number(userCounts?.disabled ?? 0);

    const failedPayments = billing ? (series.find((s) => s.metric === 'failedPayments')?.values ?? []).reduce<number>((sum, v) => sum + (v ?? 0), 0) : 0;
    return {
      days,
      from,
      to,
      series,
      now,
      plans: plansInUse,
      mrr,
      failedPayments,
    };
  }

  /** Organizations per plan, every plan in the plans file's order; no account, or a plan no longer defined, is the free plan. */
  private async plansInUse(): Promise<AdminMetrics['plans']> {
    // Every account has its organization (a foreign key): those without one are the total less the accounts.
    const db = this.deps.ctx.database.db;
    const [rows, total] = await Promise.all([
      db.execute(sql`select plan_id, count(*)::int as organizations from billing_accounts group by plan_id`),
      db.execute(sql`select count(*)::int as organizations from organizations`),
    ]);
    const accounts = rowsOf<{ plan_id: string | null; organizations: number }>(rows);
    const withoutAccount = Number(rowsOf<{ organizations: number }>(total)[0]?.organizations ?? 0) - accounts.reduce((sum, row) => sum + Number(row.organizations), 0);
    const counts = new Map<string, number>();
    counts.set(freePlan.id, Math.max(0, withoutAccount));
    for (const row of accounts) {
      const plan = (row.plan_id && planById(row.plan_id)) || freePlan;
      counts.set(plan.id, (counts.get(plan.id) ?? 0) + Number(row.organizations));
    }
    return plans.map((plan) => ({ planID: plan.free ? null : plan.id, planName: plan.name, organizations: counts.get(plan.id) ?? 0 }));
  }

  /**
   * Monthly recurring revenue now, per currency: for every account on a plan that is not the
   * free one, what one period of its current plan costs at its frequency, currency and seats
   * (add-ons when they are on), before credit and tax; yearly periods count a twelfth. While soft
   * launch is on, only whitelisted organizations count: the others are not charged.
   */
  private async mrr(): Promise<AdminMetrics['mrr']> {
    const softLaunch = (await this.deps.ctx.admin.softLaunch.get()).enabled;
    const charged = softLaunch ? sql`and organization_id in (select organization_id from soft_launch_whitelist)` : sql``;
    const addOnSum = (field: 'amount' | 'nisAmount') =>
      sql`coalesce(sum((select coalesce(sum((x->>${field})::bigint), 0) from jsonb_array_elements(add_ons) x where (x->>${field})::bigint > 0)), 0)::float8`;
    // Grouped: as many rows as distinct plan, currency, frequency and seats, however many accounts.
    const groups = rowsOf<{ plan_id: string; currency: number; frequency: number; seats: number; accounts: number; add_usd: number; add_nis: number }>(
      await this.deps.ctx.database.db.execute(sql`select plan_id, currency, frequency, seats, count(*)::int as accounts,
          ${addOnSum('amount')} as add_usd, ${addOnSum('nisAmount')} as add_nis
        from billing_accounts where plan_id is not null ${charged} group by plan_id, currency, frequency, seats`),
    );
    const monthly: Record<CurrencyCode, number> = { USD: 0, NIS: 0 };
    const yearly: Record<CurrencyCode, number> = { USD: 0, NIS: 0 };
    for (const group of groups) {
      const plan = planById(group.plan_id);
      if (!plan || plan.free) continue;
      const currency = currencyOfNumber(Number(group.currency)) ?? 'USD';
      const frequency = frequencyOfNumber(Number(group.frequency)) ?? 'monthly';
      const period = sumLines(periodLines({ plan, frequency, currency, seats: Number(group.seats) }));
      const addOns = billingConstants.addOnsEnabled ? Number(currency === 'USD' ? group.add_usd : group.add_nis) : 0;
      (frequency === 'yearly' ? yearly : monthly)[currency] += period * Number(group.accounts) + addOns;
    }
    return { USD: monthly.USD + mulDiv(yearly.USD, 1, 12), NIS: monthly.NIS + mulDiv(yearly.NIS, 1, 12) };
  }
}
