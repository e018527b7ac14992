/**
 * Usage metering per organization and month (docs/billing.md
 * "Usage metering"). Three kinds of metric (definitions/usage.ts):
 * - counters (ApiCalls, BandWidth, WebhookTriggers, BagelAuthUsers, SMSOTPCount): `add` only adds
 *   to a map in memory — no I/O on the hot path — and a flush about every second (and at close)
 *   writes one upsert row per organization, month and metric, `value = value + excluded.value`,
 *   so any number of processes on one database add up;
 * - peaks (SimultaneousLive): `peak` keeps this process's highest value, flushed with
 *   `greatest(value, excluded.value)`; with `shareLive` (the app's meter) each process also keeps
 *   its open live streams per organization in `usage_live_processes` (with a heartbeat), and the
 *   flush after a change, and every heartbeat, records the sum over the processes heard from
 *   lately, so streams spread over processes on one database count together;
 * - levels (Users, ItemCount, TotalStore) are not counted at all: they are read from the tables
 *   that already hold them (memberships; `content_collections.item_count`, kept with every
 *   write; `stored_files.size`). The current month shows the level now; each read and an hourly
 *   snapshot record the month's highest level, which is what a closed month shows.
 * The month is the UTC month in which the usage happened (the moment of `add`, not of the flush).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { newId } from '../lib/ids.ts';
import {
  levelMetrics,
  peakMetrics,
  usageMetrics,
  usageMonthOf,
  usageUnits,
  type CounterMetric,
  type LevelMetric,
  type PeakMetric,
  type UsageMetric,
  type UsageUnit,
} from '../../definitions/usage.ts';
import type { UsageLine, UsageReport } from '../../definitions/schemas/usage-report.ts';

export type { CounterMetric, LevelMetric, PeakMetric, UsageMetric } from '../../definitions/usage.ts';

export interface UsageMeterOptions {
  /** How often pending counts are written (milliseconds). */
  flushIntervalMs?: number;
  /** How often every organization's levels are recorded for the month (milliseconds). */
  snapshotIntervalMs?: number;
  /** The clock (tests move it across a month boundary). */
  now?: () => number;
  log?: FastifyBaseLogger;
  /**
   * Share this process's open live streams through `usage_live_processes`, so SimultaneousLive
   * is the sum over every process on the database (off: this process's own peak only).
   */
  shareLive?: boolean;
  /**
   * false: nothing is counted (`add` returns at once, no response is measured). Only the
   * no-metering baseline of `npm run bench -- usage-limits` sets it (BuildOptions.metering).
   */
  counting?: boolean;
  /** How often a process sharing live counts says it is still there (milliseconds). */
  liveHeartbeatMs?: number;
}

export type { UsageLine, UsageReport };

interface Pending {
  organizationId: string;
  month: string;
  metric: CounterMetric | PeakMetric;
  value: number;
}

export const usageFlushIntervalMs = 1000;
export const usageSnapshotIntervalMs = 60 * 60_000;
export const usageLiveHeartbeatMs = 10_000;
/** Rows per upsert statement (4 parameters each, far below PostgreSQL's 65,535). */
const flushChunk = 1000;
const projectOrgCacheMax = 10_000;

/** Metrics whose rows keep the greatest value written rather than the sum. */
const greatestMetrics: readonly string[] = [...peakMetrics, ...levelMetrics];
const greatestList = sql.join(
  greatestMetrics.map((metric) => sql`${metric}`),
  sql`, `,
);
const upsertTail = sql`on conflict (organization_id, month, metric) do update set
  value = case when usage_counters.metric in (${greatestList}) then greatest(usage_counters.value, excluded.value) else usage_counters.value + excluded.value end,
  updated_at = now()`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export class UsageMeter {
  private pending = new Map<string, Pending>();
  /** What this process counted this month per organization and counter (`countedTotal`). */
  private readonly totals = new Map<string, number>();
  private totalsMonth = '';
  private month = '';
  private monthStart = 0;
  private monthEnd = 0;
  /** Live streams open in this process, per organization. */
  private readonly live = new Map<string, number>();
  private readonly projectOrgs = new Map<string, string>();
  /** The month whose SimultaneousLive already holds the streams open at its start. */
  private liveMonth = '';
  /** This process in `usage_live_processes`. */
  readonly processId = newId();
  /** Organizations whose open streams changed since this process last shared them. */
  private liveChanged = new Set<string>();
  /** Organizations this process has a row for in `usage_live_processes`. */
  private liveShared = new Set<string>();
  private liveSharedAt = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private nextFlush: Promise<void> | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly options: UsageMeterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Starts the periodic flush and level snapshot (timers that do not keep the process alive). */
  start(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setInterval(() => void this.flush(), this.options.flushIntervalMs ?? usageFlushIntervalMs);
    this.flushTimer.unref();
    this.snapshotTimer = setInterval(() => void this.snapshotLevels(), this.options.snapshotIntervalMs ?? usageSnapshotIntervalMs);
    this.snapshotTimer.unref();
  }

  /** Whether anything is counted (`UsageMeterOptions.counting`). */
  get counting(): boolean {
    return this.options.counting !== false;
  }

  /** Counts `amount` of `metric` for the organization this month. Synchronous, in memory only. */
  add(organizationId: string, metric: CounterMetric, amount = 1): void {
    if (this.options.counting === false || !organizationId || !(amount > 0) || !Number.isFinite(amount)) return;
    const row = this.rowOf(organizationId, metric);
    row.value += amount;
    // rowOf moved the month on if it changed: the totals are this month's.
    if (this.totalsMonth !== this.month) {
      this.totals.clear();
      this.totalsMonth = this.month;
    }
    const key = `${organizationId}\u0000${metric}`;
    this.totals.set(key, (this.totals.get(key) ?? 0) + amount);
  }

  /** Records `value` of a peak metric: the month keeps the greatest. Synchronous, in memory only. */
  peak(organizationId: string, metric: PeakMetric, value: number): void {
    if (!organizationId || !Number.isFinite(value) || value <= 0) return;
    const row = this.rowOf(organizationId, metric);
    if (value > row.value) row.value = value;
  }

  /**
   * A live stream of the organization opened in this process: its peak is recorded; call the
   * returned function when the stream ends. Synchronous, in memory only; with `shareLive` the
   * next flush shares the count and records the sum over processes.
   */
  openLive(organizationId: string): () => void {
    const open = (this.live.get(organizationId) ?? 0) + 1;
    this.live.set(organizationId, open);
    this.peak(organizationId, 'SimultaneousLive', open);
    if (this.options.shareLive) this.liveChanged.add(organizationId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.live.get(organizationId) ?? 1) - 1;
      if (left > 0) this.live.set(organizationId, left);
      else this.live.delete(organizationId);
      if (this.options.shareLive) this.liveChanged.add(organizationId);
    };
  }

  /**
   * How much of a counter this process has counted this month, written or not (in memory). The
   * usage limits (server/billing/enforcement.ts) add what it grew since they read the written rows.
   */
  countedTotal(organizationId: string, metric: CounterMetric): number {
    return this.totalsMonth === this.currentMonth() ? (this.totals.get(`${organizationId}\u0000${metric}`) ?? 0) : 0;
  }

  /** What this process counted of a counter this month and has not begun to write (a write in flight is not in it). */
  pendingCount(organizationId: string, metric: CounterMetric): number {
    return this.pending.get(`${organizationId}\u0000${this.currentMonth()}\u0000${metric}`)?.value ?? 0;
  }

  /** Live streams of the organization open in this process now. */
  liveCount(organizationId: string): number {
    return this.live.get(organizationId) ?? 0;
  }

  /** The organization of a project (remembered: a project never changes organization). */
  async organizationOfProject(projectId: string): Promise<string | undefined> {
    const known = this.projectOrgs.get(projectId);
    if (known) return known;
    const [row] = rowsOf<{ organization_id: string }>(await this.db.execute(sql`select organization_id from projects where id = ${projectId}`));
    if (!row) return undefined;
    if (this.projectOrgs.size >= projectOrgCacheMax) this.projectOrgs.delete(this.projectOrgs.keys().next().value!);
    this.projectOrgs.set(projectId, row.organization_id);
    return row.organization_id;
  }

  /**
   * Writes what is pending now. During a write, calls share one more write after it (so what was
   * added meanwhile is written too); a failed write is kept for the next.
   */
  flush(): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.write().finally(() => (this.flushing = undefined));
      return this.flushing;
    }
    this.nextFlush ??= this.flushing.then(() => {
      this.nextFlush = undefined;
      return this.flush();
    });
    return this.nextFlush;
  }

  /**
   * Records the organization's (or every organization's) levels for this month, keeping the
   * month's greatest. Set-based: three grouped reads, one upsert.
   */
  async snapshotLevels(organizationId?: string): Promise<void> {
    const month = this.currentMonth();
    const orgFilter = (column: SQL) => (organizationId ? sql`where ${column} = ${organizationId}` : sql``);
    try {
      await this.db.execute(sql`insert into usage_counters (organization_id, month, metric, value)
        select organization_id, ${month}, metric, value from (
          select o.id as organization_id, 'Users' as metric, count(m.user_id)::bigint as value
            from organizations o left join memberships m on m.organization_id = o.id ${orgFilter(sql`o.id`)} group by o.id
          union all
          select p.organization_id, 'ItemCount', coalesce(sum(c.item_count), 0)::bigint
            from content_collections c join projects p on p.id = c.project_id ${orgFilter(sql`p.organization_id`)} group by p.organization_id
          union all
          select p.organization_id, 'TotalStore', coalesce(sum(f.size), 0)::bigint
            from stored_files f join projects p on p.id = f.project_id ${orgFilter(sql`p.organization_id`)} group by p.organization_id
        ) levels order by organization_id, metric
        ${upsertTail}`);
    } catch (error) {
      this.options.log?.warn({ err: error }, 'recording usage levels failed');
    }
  }

  /** The organization's levels now. */
  async levels(organizationId: string): Promise<Record<LevelMetric, number>> {
    const [row] = rowsOf<{ users: string | number; items: string | number; bytes: string | number }>(
      await this.db.execute(sql`select
        (select count(*) from memberships where organization_id = ${organizationId}) as users,
        (select coalesce(sum(c.item_count), 0) from content_collections c join projects p on p.id = c.project_id where p.organization_id = ${organizationId}) as items,
        (select coalesce(sum(f.size), 0) from stored_files f join projects p on p.id = f.project_id where p.organization_id = ${organizationId}) as bytes`),
    );
    return { Users: Number(row?.users ?? 0), ItemCount: Number(row?.items ?? 0), TotalStore: Number(row?.bytes ?? 0) };
  }

  /**
   * The organization's usage in `month` (`YYYY-MM`, default this month), every metric in display
   * order. This process's pending counts are written first; other processes' within a flush interval.
   */
  async read(organizationId: string, month = this.currentMonth()): Promise<UsageReport> {
    await this.flush();
    // The current month shows its levels now, and records them (the month keeps its highest).
    const levels = month === this.currentMonth() ? await this.levels(organizationId) : undefined;
    if (levels) {
      const recorded = sql.join(
        levelMetrics.map((metric) => sql`(${organizationId}, ${month}, ${metric}, ${levels[metric]}::bigint)`),
        sql`, `,
      );
      await this.db.execute(sql`insert into usage_counters (organization_id, month, metric, value) values ${recorded} ${upsertTail}`);
    }
    const rows = rowsOf<{ metric: string; value: string | number }>(
      await this.db.execute(sql`select metric, value from usage_counters where organization_id = ${organizationId} and month = ${month}`),
    );
    const values = new Map(rows.map((row) => [row.metric, Number(row.value)]));
    return {
      organizationID: organizationId,
      month,
      usage: usageMetrics.map((name) => ({
        name,
        amount: levels && name in levels ? levels[name as LevelMetric] : (values.get(name) ?? 0),
        unitOfMeasure: usageUnits[name],
      })),
    };
  }

  /** Stops the timers and writes what is pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.snapshotTimer) clearInterval(this.snapshotTimer);
    await this.flush();
    // A write that failed is tried once more before the database goes.
    if (this.pending.size) await this.flush();
    if (this.options.shareLive && this.liveShared.size) {
      try {
        await this.db.execute(sql`delete from usage_live_processes where process_id = ${this.processId}`);
      } catch (error) {
        this.options.log?.warn({ err: error }, 'could not remove this process’s live stream counts');
      }
    }
  }

  /** The UTC month of now, recomputed only when the clock leaves the cached month. */
  currentMonth(): string {
    const now = this.now();
    if (now < this.monthStart || now >= this.monthEnd) {
      const date = new Date(now);
      this.monthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
      this.monthEnd = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
      this.month = usageMonthOf(now);
    }
    return this.month;
  }

  private rowOf(organizationId: string, metric: CounterMetric | PeakMetric): Pending {
    const month = this.currentMonth();
    const key = `${organizationId}\u0000${month}\u0000${metric}`;
    let row = this.pending.get(key);
    if (!row) this.pending.set(key, (row = { organizationId, month, metric, value: 0 }));
    return row;
  }

  private async write(): Promise<void> {
    // Streams still open when a month begins are that month's first peak.
    const month = this.currentMonth();
    if (month !== this.liveMonth) {
      this.liveMonth = month;
      for (const [organizationId, open] of this.live) {
        this.peak(organizationId, 'SimultaneousLive', open);
        if (this.options.shareLive) this.liveChanged.add(organizationId);
      }
    }
    await this.writeCounts();
    if (this.options.shareLive) await this.shareLiveCounts(month);
  }

  /**
   * Shares this process's open streams of the organizations that changed (of all it has, at each
   * heartbeat) and records, for each with streams open, the sum over the processes heard from
   * within three heartbeats as a SimultaneousLive candidate. One statement.
   */
  private async shareLiveCounts(month: string): Promise<void> {
    const heartbeat = this.options.liveHeartbeatMs ?? usageLiveHeartbeatMs;
    const now = Date.now();
    const beat = now - this.liveSharedAt >= heartbeat;
    if (!this.liveChanged.size && !beat) return;
    const orgs = new Set(this.liveChanged);
    if (beat) for (const organizationId of [...this.live.keys(), ...this.liveShared]) orgs.add(organizationId);
    this.liveChanged = new Set();
    if (!orgs.size) {
      this.liveSharedAt = now;
      return;
    }
    const sorted = [...orgs].sort();
    const counts = sorted.map((organizationId) => [organizationId, this.live.get(organizationId) ?? 0] as const);
    const values = sql.join(
      counts.map(([organizationId, open]) => sql`(${organizationId}, ${open}::int)`),
      sql`, `,
    );
    const fresh = sql`make_interval(secs => ${(3 * heartbeat) / 1000})`;
    try {
      await this.db.execute(sql`with mine (organization_id, open) as (values ${values}),
        gone as (
          delete from usage_live_processes
          where process_id = ${this.processId} and organization_id in (select organization_id from mine where open = 0)
        ),
        ${beat ? sql`stale as (delete from usage_live_processes where heartbeat_at < now() - interval '1 hour'),` : sql``}
        kept as (
          insert into usage_live_processes (process_id, organization_id, open, heartbeat_at)
          select ${this.processId}, m.organization_id, m.open, now()
          from mine m join organizations o on o.id = m.organization_id
          where m.open > 0
          order by m.organization_id
          on conflict (process_id, organization_id) do update set open = excluded.open, heartbeat_at = now()
        )
        insert into usage_counters (organization_id, month, metric, value)
        select m.organization_id, ${month}, 'SimultaneousLive', m.open + coalesce((
          select sum(p.open) from usage_live_processes p
          where p.organization_id = m.organization_id and p.process_id <> ${this.processId} and p.heartbeat_at > now() - ${fresh}
        ), 0)::bigint
        from mine m join organizations o on o.id = m.organization_id
        where m.open > 0
        order by m.organization_id
        ${upsertTail}`);
      for (const [organizationId, open] of counts) {
        if (open > 0) this.liveShared.add(organizationId);
        else this.liveShared.delete(organizationId);
      }
      if (beat) this.liveSharedAt = now;
    } catch (error) {
      this.options.log?.warn({ err: error }, 'sharing live stream counts failed; tried again with the next flush');
      for (const organizationId of orgs) this.liveChanged.add(organizationId);
    }
  }

  private async writeCounts(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    // One order for every process: concurrent upserts lock rows in the same order and cannot deadlock.
    const keys = [...batch.keys()].sort();
    try {
      for (let i = 0; i < keys.length; i += flushChunk) {
        const rows = keys.slice(i, i + flushChunk).map((key) => batch.get(key)!);
        const values = sql.join(
          rows.map((row) => sql`(${row.organizationId}, ${row.month}, ${row.metric}, ${Math.round(row.value)}::bigint)`),
          sql`, `,
        );
        // Organizations deleted meanwhile are skipped (their counts go with them).
        await this.db.execute(sql`insert into usage_counters (organization_id, month, metric, value)
          select v.organization_id, v.month, v.metric, v.value
          from (values ${values}) as v(organization_id, month, metric, value)
          join organizations o on o.id = v.organization_id
          order by v.organization_id, v.month, v.metric
          ${upsertTail}`);
        for (const row of rows) batch.delete(`${row.organizationId}\u0000${row.month}\u0000${row.metric}`);
      }
    } catch (error) {
      this.options.log?.warn({ err: error }, 'writing usage counts failed; they are kept for the next flush');
      // What was not written goes back, merged with what came meanwhile.
      for (const [key, row] of batch) {
        const now = this.pending.get(key);
        if (!now) this.pending.set(key, row);
        else if (greatestMetrics.includes(row.metric)) now.value = Math.max(now.value, row.value);
        else now.value += row.value;
      }
    }
  }
}
