/**
 * Billing status and usage limits on requests (docs/billing.md "Billing status", "Usage limits").
 *
 * - Status: `billingStatusOf(initial_billing_failed_date, now, windows)`. Each organization's
 *   failed date and plan are cached per process (shared cache `billingAccount`; migration 0025
 *   drops the entry in every process when the row changes, so a successful charge lifts a block
 *   at once). BLOCK answers every call of the organization's apps (the public API, the apps'
 *   auth service, file downloads, live streams) with 402 `billing_blocked`; NO_CLIENT and BLOCK
 *   refuse the console's member writes (routes whose action is create, update or delete) with 403
 *   `billing_restricted`; reads and admin actions (organization settings, members, seats,
 *   billing) stay open so that an admin can pay. GRACE restricts nothing on the server.
 * - Limits: the plan of the account (else the free plan). A limit without an overage price is
 *   hard: the app call that would go past it answers 429 `usage_limit` {metric, limit}. Which
 *   metric gates which call: `gateMetrics` below. From 80 % of any limit (Users aside: seats cap
 *   members) app answers and the console's organization answers carry the `warning` header.
 *   Figures: a per-organization snapshot of the written usage, re-read at most every
 *   `refreshMs` in the background, plus what this process counted since, so the check itself is
 *   in memory.
 * - Soft launch (docs/admin.md "Soft launch"): while it is on, all of the above applies only to
 *   the organizations on its whitelist; any other is OK and unlimited. Whether it applies is part
 *   of the cached account entry (migration 0028 drops the entries when the switch or the list
 *   changes), so the hot path stays a map read.
 * - With BILLING=0 nothing is registered and nothing is enforced.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { billingConstants } from '../../definitions/billing/constants.ts';
import { freePlan, planById, type PlanDefinition, type UsageLimit } from '../../definitions/billing/plans.ts';
import { billingStatusOf, type BillingStatus } from '../../definitions/billing/status.ts';
import { formatSize } from '../../definitions/format-size.ts';
import { counterMetrics, usageUnits, type CounterMetric, type UsageMetric } from '../../definitions/usage.ts';
import type { Db } from '../db/index.ts';
import { AppError, forbidden } from '../lib/errors.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import type { RouteAccess } from '../lib/request-scope.ts';
import { usageLiveHeartbeatMs } from '../usage/usage.ts';
import type { BillingDeps } from './deps.ts';

/** What a call uses that a hard limit can refuse. */
export type Gate = 'call' | 'itemCreate' | 'upload' | 'live' | 'download' | 'auth' | 'signUp' | 'sms';

/**
 * The metrics each kind of app call is checked against: every public API call against ApiCalls
 * and BandWidth; item creates also against ItemCount, uploads against TotalStore, opening a live
 * stream against SimultaneousLive; file downloads against BandWidth; the apps' auth service's
 * sign-ups against BagelAuthUsers and sending a code by SMS against SMSOTPCount (its other calls
 * are not metered, so only a block stops them). WebhookTriggers is checked by the deliveries
 * (`webhookRefusal`); Users is capped by seats.
 */
export const gateMetrics: Record<Gate, readonly UsageMetric[]> = {
  call: ['ApiCalls', 'BandWidth'],
  itemCreate: ['ApiCalls', 'BandWidth', 'ItemCount'],
  upload: ['ApiCalls', 'BandWidth', 'TotalStore'],
  live: ['ApiCalls', 'BandWidth', 'SimultaneousLive'],
  download: ['BandWidth'],
  auth: [],
  signUp: ['BagelAuthUsers'],
  sms: ['SMSOTPCount'],
};

/** The public API's routes that are more than a call (method and route address). */
const publicGates: Record<string, Gate> = {
  'POST /api/public/collection/:collection/items': 'itemCreate',
  'POST /api/public/collection/:collection/items/:item': 'itemCreate',
  'PUT /api/public/collection/:collection/items/:item/image': 'upload',
  'POST /api/public/collection//assets': 'upload',
  'POST /api/public/collection/:collection/assets': 'upload',
  'GET /api/public/collection/:collection/live': 'live',
};

/** The display name of a metric in problems and warnings. */
export const metricDisplayNames: Record<UsageMetric, string> = {
  Users: 'Users',
  ApiCalls: 'ApiCalls',
  ItemCount: 'ItemCount',
  TotalStore: 'Asset Storage',
  BandWidth: 'BandWidth',
  SimultaneousLive: 'SimultaneousLive',
  WebhookTriggers: 'WebhookTriggers',
  BagelAuthUsers: 'BagelAuthUsers',
  SMSOTPCount: 'SMS OTP Count',
};

/** A limit as people read it: sizes in 1000-based units, counts with grouping. */
export const limitText = (metric: UsageMetric, limit: number): string =>
  usageUnits[metric] === 'bytes' ? formatSize(limit) : new Intl.NumberFormat('en').format(limit);

interface AccountEntry {
  /** The first failed charge (ms), or null. */
  failedAt: number | null;
  planId: string | null;
  /** Whether billing applies to the organization: soft launch off, or the organization on its whitelist. */
  enforced: boolean;
}

/** The settings key of the soft-launch switch, value `{enabled}` (docs/admin.md "Soft launch"). */
export const softLaunchKey = 'softLaunch';

/** SQL: whether soft launch is on (the settings row; none is off). */
export const softLaunchOnSql = sql`coalesce((select (s.value->>'enabled')::boolean from settings s where s.key = ${softLaunchKey}), false)`;

/** SQL: whether billing applies to the organization `organizationId` (a value or a column): soft launch off, or on its whitelist. */
export const billingEnforcedSql = (organizationId: SQL | string) =>
  sql`(not ${softLaunchOnSql} or exists (select 1 from soft_launch_whitelist w where w.organization_id = ${organizationId}))`;

/** Whether billing applies to the organization now, read from the database (the cached answer is `BillingEnforcement`'s). */
export async function billingEnforced(db: Pick<Db, 'execute'>, organizationId: string): Promise<boolean> {
  const [row] = rowsOf<{ enforced: boolean }>(await db.execute(sql`select ${billingEnforcedSql(organizationId)} as enforced`));
  return row?.enforced !== false;
}

interface UsageSnapshot {
  month: string;
  /** When it was read (Date.now(): freshness, not a billing decision). */
  at: number;
  /** Written counters and peaks of the month, levels now, and other processes' open live streams. */
  values: Map<string, number>;
  /** What this process had counted of each counter when the rows were read (`UsageMeter.countedTotal`). */
  counted: Map<string, number>;
  /** The warning header these figures call for ('' for none). */
  warning: string;
  planId: string | null;
  loading?: Promise<void> | undefined;
}

const counters = new Set<string>(counterMetrics);
const writeActions = new Set<RouteAccess['action']>(['create', 'update', 'delete']);
const restrictingStatuses = new Set<BillingStatus>(['NO_CLIENT', 'BLOCK']);
const snapshotsMax = 20_000;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export class BillingEnforcement {
  /** How old a usage snapshot may be before a request starts re-reading it (milliseconds). */
  refreshMs = 5_000;
  private accounts: SharedCache<AccountEntry> | undefined;
  private readonly snapshots = new Map<string, UsageSnapshot>();

  constructor(readonly deps: BillingDeps) {}

  get enabled(): boolean {
    return this.deps.config.billing.enabled;
  }

  /**
   * Hooks the checks into the app (buildApp calls it after the request scope, before the routes):
   * app calls are checked once their caller is known (preHandler); console routes that state an
   * action get a check after their access check. With BILLING=0 nothing is hooked.
   */
  register(app: FastifyInstance): void {
    this.accounts = app.ctx.caches.create<AccountEntry>('billingAccount', 60_000);
    if (!this.enabled) return;
    // A callback hook: with the organization's account and figures held (nearly every call), the
    // check runs without a promise; only a miss waits for the database.
    app.addHook('preHandler', (request, reply, done) => {
      const url = request.routeOptions.url;
      if (url === undefined || request.method === 'OPTIONS') return done();
      if (url.startsWith('/api/public/')) {
        const organizationId = (request as { principal?: { organizationId: string } | null }).principal?.organizationId;
        if (!organizationId) return done();
        const gate = publicGates[`${request.method} ${url}`] ?? 'call';
        try {
          if (this.checkAppHeld(organizationId, gate, reply)) return done();
        } catch (error) {
          return done(error as Error);
        }
        this.checkApp(organizationId, gate, reply).then(() => done(), done);
      } else if (url.startsWith('/auth/public/')) {
        const caller = (request as { authCaller?: { projectId: string; apiToken: { organizationId: string } | null } | null }).authCaller;
        if (!caller) return done();
        const organization = caller.apiToken ? Promise.resolve(caller.apiToken.organizationId) : this.deps.usage.organizationOfProject(caller.projectId);
        organization.then((organizationId) => (organizationId ? this.checkApp(organizationId, authGate(request, url), reply) : undefined)).then(() => done(), done);
      } else done();
    });
    app.addHook('onRoute', (route) => {
      const config = route.config as Partial<RouteAccess> | undefined;
      if (!config?.action || !config.scope) return;
      const write = writeActions.has(config.action);
      const check = async (request: FastifyRequest, reply: FastifyReply) => {
        const organizationId = request.scope?.organizationId;
        if (organizationId) await this.checkConsole(organizationId, write && request.method !== 'GET' && request.method !== 'HEAD', reply);
      };
      // After the route's own preHandlers, the access check among them (server/lib/request-scope.ts): its scope is known.
      const own = route.preHandler;
      route.preHandler = own === undefined ? [check] : [...(Array.isArray(own) ? own : [own]), check];
    });
  }

  /** The organization's billing status now. */
  async status(organizationId: string): Promise<BillingStatus> {
    if (!this.enabled) return 'OK';
    const account = await this.account(organizationId);
    return this.statusOf(account);
  }

  /** The organization's plan (the free plan without one, or with one no longer defined). */
  async plan(organizationId: string): Promise<PlanDefinition> {
    return planOf((await this.account(organizationId)).planId);
  }

  /**
   * An app's call: 402 under BLOCK, 429 past a hard limit of the gate's metrics; else the
   * warning header when a limit is near or past.
   */
  async checkApp(organizationId: string, gate: Gate, reply: FastifyReply | undefined): Promise<void> {
    if (!this.enabled) return;
    const account = await this.account(organizationId);
    if (!account.enforced) return;
    this.refuseBlocked(account);
    this.checkLimits(organizationId, gate, account, await this.snapshot(organizationId, account.planId), reply);
  }

  /**
   * `checkApp` from what this process holds, without waiting: false when the account or the
   * month's figures are not held (the caller then awaits `checkApp`), else true once the call
   * passed; a refusal throws.
   */
  private checkAppHeld(organizationId: string, gate: Gate, reply: FastifyReply): boolean {
    const account = this.accounts?.peek(organizationId);
    if (!account) return false;
    if (!account.enforced) return true;
    const snapshot = this.heldSnapshot(organizationId, account.planId);
    if (!snapshot) return false;
    this.refuseBlocked(account);
    this.checkLimits(organizationId, gate, account, snapshot, reply);
    return true;
  }

  /** 402 `billing_blocked` under BLOCK. */
  private refuseBlocked(account: AccountEntry): void {
    if (this.statusOf(account) === 'BLOCK') {
      throw new AppError(402, 'billing_blocked', 'The organization’s API services are suspended: its billing account has been unpaid too long.');
    }
  }

  /** 429 `usage_limit` past a hard limit of the gate's metrics; else the warning header when a limit is near or past. */
  private checkLimits(organizationId: string, gate: Gate, account: AccountEntry, snapshot: UsageSnapshot, reply: FastifyReply | undefined): void {
    const plan = planOf(account.planId);
    for (const metric of gateMetrics[gate]) {
      const limit = limitOf(plan, metric);
      if (!limit || limit.additionalCost !== null) continue;
      if (this.current(organizationId, snapshot, metric) >= limit.limit) {
        const name = metricDisplayNames[metric];
        throw new AppError(429, 'usage_limit', `The organization has used its plan’s ${name} (${limitText(metric, limit.limit)}).`, {
          params: { metric: name, limit: limitText(metric, limit.limit) },
        });
      }
    }
    if (snapshot.warning && reply) reply.header(billingConstants.usageWarningHeader, snapshot.warning);
  }

  /** A file download of the organization's (server/files/download-routes.ts): its app call check. */
  download(reply: FastifyReply, organizationId: string): Promise<void> {
    return this.enabled ? this.checkApp(organizationId, 'download', reply) : Promise.resolve();
  }

  /**
   * A console call in the organization: a member write under NO_CLIENT or BLOCK is 403
   * `billing_restricted`; every answer carries the usage warning when a limit is near or past.
   */
  async checkConsole(organizationId: string, write: boolean, reply: FastifyReply | undefined): Promise<void> {
    if (!this.enabled) return;
    const account = await this.account(organizationId);
    const status = this.statusOf(account);
    if (!account.enforced) return;
    if (write && restrictingStatuses.has(status)) {
      throw forbidden('billing_restricted', 'The organization’s billing account has an unpaid charge: until the payment information is updated, only billing and organization settings can be changed.');
    }
    const snapshot = await this.snapshot(organizationId, account.planId);
    if (snapshot.warning && reply) reply.header(billingConstants.usageWarningHeader, snapshot.warning);
  }

  /**
   * Why a webhook delivery of the organization is not sent (its WebhookTriggers hard limit is
   * reached; under BLOCK its apps' calls are suspended and so are its deliveries), or null.
   */
  async webhookRefusal(organizationId: string): Promise<string | null> {
    if (!this.enabled) return null;
    try {
      const account = await this.account(organizationId);
      if (!account.enforced) return null;
      if (this.statusOf(account) === 'BLOCK') {
        return 'Not sent: the organization’s API services are suspended (billing account unpaid).';
      }
      const limit = limitOf(planOf(account.planId), 'WebhookTriggers');
      if (!limit || limit.additionalCost !== null) return null;
      const snapshot = await this.snapshot(organizationId, account.planId);
      // This delivery was counted when it was made: past the limit is more than it.
      if (this.current(organizationId, snapshot, 'WebhookTriggers') > limit.limit) {
        return `Not sent: the organization has used its plan’s ${metricDisplayNames.WebhookTriggers} (${limitText('WebhookTriggers', limit.limit)}) this month.`;
      }
      return null;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not check the webhook limit; the delivery is sent');
      return null;
    }
  }

  /**
   * Whether the organization's apps are suspended (an enforced account in BLOCK): what sends its
   * data out on its behalf (integration runs) stops too. Answers no when it cannot tell (logged).
   */
  async suspended(organizationId: string): Promise<boolean> {
    if (!this.enabled) return false;
    try {
      const account = await this.account(organizationId);
      return account.enforced && this.statusOf(account) === 'BLOCK';
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not read the billing status; the run goes on');
      return false;
    }
  }

  /** Reads the organization's usage figures now (tests; otherwise requests do, every `refreshMs`). */
  async refreshUsage(organizationId: string): Promise<void> {
    const account = await this.account(organizationId);
    await this.snapshots.get(organizationId)?.loading;
    await this.read(organizationId, this.deps.usage.currentMonth(), account.planId);
  }

  /** The warning header the organization's figures call for now ('' for none). */
  async warningOf(organizationId: string): Promise<string> {
    const account = await this.account(organizationId);
    return (await this.snapshot(organizationId, account.planId)).warning;
  }

  /** An account's billing status now, on billing's clock and the configured windows (OK while billing does not apply to it). */
  private statusOf(account: AccountEntry): BillingStatus {
    if (!account.enforced) return 'OK';
    return billingStatusOf(account.failedAt === null ? null : new Date(account.failedAt), this.deps.now(), this.deps.config.billing.statusWindows);
  }

  /**
   * The cached account: failed date, plan, and whether billing applies (soft launch), in one
   * statement. A missing row is an organization on the free plan in good standing.
   */
  private account(organizationId: string): Promise<AccountEntry> {
    const load = async (): Promise<AccountEntry> => {
      const [row] = rowsOf<{ failed_ms: number | string | null; plan_id: string | null; enforced: boolean }>(
        await this.deps.database.db.execute(sql`
          select (extract(epoch from a.initial_billing_failed_date) * 1000)::float8 as failed_ms, a.plan_id, ${billingEnforcedSql(organizationId)} as enforced
          from (select 1) one left join billing_accounts a on a.organization_id = ${organizationId}`),
      );
      return { failedAt: row?.failed_ms == null ? null : Number(row.failed_ms), planId: row?.plan_id ?? null, enforced: row?.enforced !== false };
    };
    return this.accounts ? this.accounts.get(organizationId, load) : load();
  }

  /**
   * The organization's usage snapshot: read at once when there is none (or it is of another month
   * or plan), else served as it is while a read in the background renews it past `refreshMs`.
   */
  private async snapshot(organizationId: string, planId: string | null): Promise<UsageSnapshot> {
    const held = this.heldSnapshot(organizationId, planId);
    if (held) return held;
    const month = this.deps.usage.currentMonth();
    const existing = this.snapshots.get(organizationId);
    if (existing?.loading) await existing.loading;
    const again = this.snapshots.get(organizationId);
    if (again && again.month === month && again.planId === planId) return again;
    try {
      await this.read(organizationId, month, planId);
    } catch (error) {
      // The limits must not take the API down with the database's hiccup: no figures, no refusal.
      this.deps.log.warn({ err: error }, 'could not read usage for the limits; the call is let through');
      return { month, at: Date.now(), values: new Map(), counted: new Map(), warning: '', planId };
    }
    return this.snapshots.get(organizationId)!;
  }

  /** The snapshot held for this month and plan, if any; past `refreshMs` a read in the background renews it. */
  private heldSnapshot(organizationId: string, planId: string | null): UsageSnapshot | undefined {
    const existing = this.snapshots.get(organizationId);
    if (!existing || existing.planId !== planId || existing.month !== this.deps.usage.currentMonth()) return undefined;
    if (Date.now() - existing.at > this.refreshMs && !existing.loading) {
      existing.loading = this.read(organizationId, existing.month, planId)
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not read usage for the limits; the last figures stand'))
        .finally(() => (existing.loading = undefined));
    }
    return existing;
  }

  private async read(organizationId: string, month: string, planId: string | null): Promise<void> {
    const fresh = `${(3 * usageLiveHeartbeatMs) / 1000} seconds`;
    const rows = rowsOf<{ metric: string; value: string | number }>(
      await this.deps.database.db.execute(sql`
        select metric, value::text as value from usage_counters
          where organization_id = ${organizationId} and month = ${month} and metric in ('ApiCalls', 'BandWidth', 'WebhookTriggers', 'BagelAuthUsers', 'SMSOTPCount')
        union all select 'Users', count(*)::text from memberships where organization_id = ${organizationId}
        union all select 'ItemCount', coalesce(sum(c.item_count), 0)::text from content_collections c join projects p on p.id = c.project_id where p.organization_id = ${organizationId}
        union all select 'TotalStore', coalesce(sum(f.size), 0)::text from stored_files f join projects p on p.id = f.project_id where p.organization_id = ${organizationId}
        union all select 'SimultaneousLive', coalesce(sum(open), 0)::text from usage_live_processes
          where organization_id = ${organizationId} and process_id <> ${this.deps.usage.processId} and heartbeat_at > now() - ${fresh}::interval`),
    );
    const values = new Map(rows.map((row) => [row.metric, Number(row.value)]));
    // Taken after the read: what this process had counted then, less what it had not begun to
    // write (not in the rows read); what it counts from now on is added to the rows. A write in
    // flight during the read may be missed until the next read; nothing is counted twice.
    const counted = new Map(
      counterMetrics.map((metric) => [metric as string, this.deps.usage.countedTotal(organizationId, metric) - this.deps.usage.pendingCount(organizationId, metric)]),
    );
    const snapshot: UsageSnapshot = { month, at: Date.now(), values, counted, warning: '', planId };
    snapshot.warning = this.warningFor(organizationId, snapshot, planOf(planId));
    if (!this.snapshots.has(organizationId) && this.snapshots.size >= snapshotsMax) this.snapshots.delete(this.snapshots.keys().next().value!);
    this.snapshots.set(organizationId, snapshot);
  }

  /** A metric's figure now: the rows read, plus what this process counted since (counters) or has open (SimultaneousLive). */
  private current(organizationId: string, snapshot: UsageSnapshot, metric: UsageMetric): number {
    const read = snapshot.values.get(metric) ?? 0;
    if (counters.has(metric)) return read + this.deps.usage.countedTotal(organizationId, metric as CounterMetric) - (snapshot.counted.get(metric) ?? 0);
    if (metric === 'SimultaneousLive') return read + this.deps.usage.liveCount(organizationId);
    return read;
  }

  /** `299 larder "<metric> at <n>% of the plan's limit"` for every limit at 80 % or more (Users aside), comma-joined. */
  private warningFor(organizationId: string, snapshot: UsageSnapshot, plan: PlanDefinition): string {
    const warnings: string[] = [];
    for (const limit of plan.usageLimits) {
      if (limit.name === 'Users' || limit.limit <= 0) continue;
      const value = this.current(organizationId, snapshot, limit.name);
      if (value * 100 < limit.limit * billingConstants.usageWarningPercent) continue;
      const percent = Math.floor((value * 100) / limit.limit);
      warnings.push(`299 larder "${metricDisplayNames[limit.name]} at ${percent}% of the plan's limit"`);
    }
    return warnings.join(', ');
  }
}

const planOf = (planId: string | null): PlanDefinition => (planId ? planById(planId) : undefined) ?? freePlan;

const limitOf = (plan: PlanDefinition, metric: UsageMetric): UsageLimit | undefined => plan.usageLimits.find((limit) => limit.name === metric);

/** The apps' auth service: sign-ups count BagelAuthUsers, a code sent to a phone SMSOTPCount. */
function authGate(request: FastifyRequest, url: string): Gate {
  if (request.method !== 'POST') return 'auth';
  if (url === '/auth/public/user') return 'signUp';
  if (url === '/auth/public/user/otp') {
    const target = (request.body as { emailOrPhone?: unknown } | undefined)?.emailOrPhone;
    return typeof target === 'string' && !target.includes('@') ? 'sms' : 'auth';
  }
  return 'auth';
}
