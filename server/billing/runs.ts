/**
 * The scheduled billing runs: every organization due is charged once per period (docs/billing.md
 * "Billing runs").
 *
 * A run (`runDue`, a pg-boss job every `BILLING_RUN_INTERVAL_S` on the app's database, or
 * `POST /billing/admin/run`):
 * 1. asks the provider again, with the same key, for charges left pending over a minute (a crashed
 *    worker, a provider that timed out);
 * 2. tries failed period charges again, a day after their last attempt (a new attempt, a new key);
 * 3. opens the period charge of every account whose next billing date has come, in batches claimed
 *    with `FOR UPDATE SKIP LOCKED` in a short transaction that writes their pending rows (unique per
 *    organization and period start, so two workers never both own one), then settles them outside
 *    any transaction;
 * 4. enqueues the mail of any invoice whose mail job was lost.
 * A period's lines: the plan in force for it (a pending change first), paid seats, add-ons, and the
 * overage of each complete usage month after `overage_billed_through` under the plan of that time.
 * While soft launch is on, steps 2 and 3 take only the organizations on its whitelist (docs/admin.md
 * "Soft launch"); a pending charge (step 1) is settled whoever it belongs to.
 */
import PgBoss from 'pg-boss';
import { and, lte, notInArray, sql } from 'drizzle-orm';
import { billingConstants } from '../../definitions/billing/constants.ts';
import { freePlan, planById, type PlanDefinition } from '../../definitions/billing/plans.ts';
import type { UsageMetric } from '../../definitions/usage.ts';
import { billingAccounts } from '../db/schema.ts';
import type { Db } from '../db/index.ts';
import { bossDb, ensureQueue, type BossDb } from '../webhooks/delivery.ts';
import { softLaunchOnSql } from './enforcement.ts';
import type { BillingDeps } from './deps.ts';
import type { BillingAccountService } from './accounts.ts';
import { ProviderUnavailable, type ChargeInput, type ChargeResult, type ChargeRow, type ChargeService } from './charges.ts';
import { InvoiceService } from './invoices.ts';
import { addPeriod, billingDayOf, dateOf, overageLines, periodLines } from './pricing.ts';
import { currencyOfNumber, frequencyOfNumber } from '../../definitions/billing/money.ts';

export const billingRunQueue = 'billing-run';
export const invoiceMailQueue = 'billing-invoice-mail';

/** Accounts a run claims at once. */
const batchSize = 200;
/** Charges a run settles at once (each is a few statements and one provider call). */
const settleConcurrency = 8;
/** An invoice still unmailed this long after its issue has lost its job: the run enqueues it again. */
const lostMailAfterMs = 10 * 60_000;

type AccountRow = typeof billingAccounts.$inferSelect;

export interface RunReport {
  /** Period charges opened by this run. */
  opened: number;
  succeeded: number;
  declined: number;
  /** Charges of total 0 (recorded, effect applied, nothing asked of the provider). */
  nothingDue: number;
  /** Charges whose outcome stayed unknown (provider unavailable): pending, asked again later. */
  unknown: number;
  /** Pending charges of crashed workers asked again. */
  recovered: number;
  /** Failed charges tried again. */
  retried: number;
}

const emptyReport = (): RunReport => ({ opened: 0, succeeded: 0, declined: 0, nothingDue: 0, unknown: 0, recovered: 0, retried: 0 });

/** `YYYY-MM` of a `YYYY-MM-DD` date. */
const monthOf = (date: string) => date.slice(0, 7);
/** The month after `YYYY-MM`. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/**
 * The complete usage months whose overage a run on `today` bills: after `overageBilledThrough`
 * (never billed: from the month of the last billing date, else the month before `today`'s), up to
 * the month before `today`'s. At most 24, the oldest first.
 */
export function overageMonths(account: Pick<AccountRow, 'overageBilledThrough' | 'lastBillingDate'>, today: string): string[] {
  const current = monthOf(today);
  let month = account.overageBilledThrough ? nextMonth(account.overageBilledThrough) : account.lastBillingDate ? monthOf(account.lastBillingDate) : previousMonth(current);
  const months: string[] = [];
  while (month < current && months.length < 24) {
    months.push(month);
    month = nextMonth(month);
  }
  return months;
}

/** The period charge of an account due on `today`, with its usage per month. */
export function periodCharge(account: AccountRow, usage: ReadonlyMap<string, Partial<Record<UsageMetric, number>>>, today: string): ChargeInput {
  const periodStart = account.nextBillingDate!;
  const frequency = frequencyOfNumber(account.frequency) ?? 'monthly';
  const currency = currencyOfNumber(account.currency) ?? 'USD';
  const billingDay = account.billingDay ?? billingDayOf(periodStart);
  const periodEnd = addPeriod(periodStart, frequency, billingDay);
  const planOf = (id: string | null): PlanDefinition => (id ? (planById(id) ?? freePlan) : freePlan);
  const current = planOf(account.planId);
  const next = account.pendingPlanId ? planOf(account.pendingPlanId) : current;
  const lines = periodLines({ plan: next, frequency, currency, seats: account.seats, addOns: account.addOns, addOnsEnabled: billingConstants.addOnsEnabled });
  const months = overageMonths(account, today);
  for (const month of months) {
    for (const line of overageLines(current, usage.get(month) ?? {}, currency)) lines.push({ ...line, name: `${line.name} (${month})` });
  }
  // On the free plan with nothing to pay each period the account leaves billing after this charge.
  const leaves = next.free === true && periodLines({ plan: next, frequency, currency, seats: account.seats, addOns: account.addOns, addOnsEnabled: billingConstants.addOnsEnabled }).length === 0;
  return {
    organizationId: account.organizationId,
    kind: 'period',
    periodStart,
    periodEnd,
    currency,
    lines,
    country: account.country,
    applyCredit: true,
    planName: next.name,
    effect: {
      ...(account.pendingPlanId ? { planId: next.free ? null : next.id, clearPendingPlan: true as const } : {}),
      lastBillingDate: periodStart,
      ...(leaves ? { nextBillingDate: null, billingDay: null } : { nextBillingDate: periodEnd, billingDay }),
      ...(months.length ? { overageBilledThrough: months[months.length - 1]! } : {}),
    },
  };
}

export class BillingRunner {
  readonly invoices: InvoiceService;
  private boss: PgBoss | undefined;
  private bossDb: BossDb | undefined;
  private timer: NodeJS.Timeout | undefined;
  private mailWorker: string | undefined;

  constructor(
    readonly deps: BillingDeps,
    readonly accounts: BillingAccountService,
    readonly charges: ChargeService,
  ) {
    this.invoices = new InvoiceService(deps);
    charges.afterInvoices = (ids) => this.enqueueMails(ids);
  }

  /** Starts the queue (billing on only): a run job every interval (one at a time across processes) and the invoice mail worker. */
  async start(): Promise<void> {
    const { config, database, log } = this.deps;
    if (!config.billing.enabled) return;
    this.bossDb = bossDb(database);
    const boss = new PgBoss({ db: this.bossDb, schedule: false, supervise: true, maintenanceIntervalSeconds: 60 } as unknown as PgBoss.ConstructorOptions);
    boss.on('error', (error) => log.warn({ err: error }, 'billing queue error'));
    await boss.start();
    // `stately`: at most one run waiting and one running, however many processes ask.
    await ensureQueue(boss, billingRunQueue, { policy: 'stately' });
    await ensureQueue(boss, invoiceMailQueue);
    this.boss = boss;
    await boss.work(billingRunQueue, { pollingIntervalSeconds: 5 }, async () => {
      const report = await this.runDue();
      log.info({ billingRun: report }, 'billing run');
    });
    this.mailWorker = await boss.work<{ invoiceId: string }>(invoiceMailQueue, { pollingIntervalSeconds: 2, batchSize: 10 }, async (jobs) => {
      for (const job of jobs) await this.invoices.mail(job.data.invoiceId);
    });
    const interval = config.billing.runIntervalS;
    this.timer = setInterval(() => void this.schedule(interval), interval * 1000);
    this.timer.unref();
  }

  /** Asks for a run (the queue keeps one waiting at most). */
  private async schedule(intervalS: number): Promise<void> {
    try {
      await this.boss?.send(billingRunQueue, {}, { singletonKey: 'run', expireInSeconds: Math.max(600, intervalS) } as PgBoss.SendOptions);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'billing run not scheduled');
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.boss = undefined;
    await this.bossDb?.close?.();
    this.bossDb = undefined;
  }

  /** Enqueues invoice mails (the worker renders the PDF and sends it); without the queue (billing off, tests without start) mails at once. */
  async enqueueMails(invoiceIds: readonly string[]): Promise<void> {
    if (!invoiceIds.length) return;
    if (!this.boss) {
      for (const id of invoiceIds) await this.invoices.mail(id);
      return;
    }
    await this.boss.insert(invoiceIds.map((invoiceId) => ({ name: invoiceMailQueue, data: { invoiceId }, retryLimit: 5, retryDelay: 30, retryBackoff: true })));
    if (this.mailWorker) this.boss.notifyWorker(this.mailWorker);
  }

  /** One run at `now` (default the billing clock); see the file's comment. */
  async runDue(now: Date = this.deps.now()): Promise<RunReport> {
    const report = emptyReport();
    for (let rows = await this.charges.claimStale(now); rows.length; rows = await this.charges.claimStale(now)) {
      report.recovered += rows.length;
      await this.settleAll(rows, report);
    }
    const onlyWhitelisted = await this.softLaunchOn();
    for (let rows = await this.charges.claimFailed(now, { onlyWhitelisted }); rows.length; rows = await this.charges.claimFailed(now, { onlyWhitelisted })) {
      report.retried += rows.length;
      await this.settleAll(rows, report);
    }
    const skipped: string[] = [];
    for (;;) {
      const batch = await this.openDue(now, skipped, onlyWhitelisted);
      if (!batch.claimed) break;
      report.opened += batch.opened.length;
      report.nothingDue += batch.opened.filter((row) => row.status === 'succeeded').length;
      await this.settleAll(
        batch.opened.filter((row) => row.status === 'pending'),
        report,
      );
    }
    const lost = await this.invoices.unmailed(new Date(now.getTime() - lostMailAfterMs));
    await this.enqueueMails(lost);
    return report;
  }

  /**
   * Claims a batch of due accounts (`FOR UPDATE SKIP LOCKED`, so another worker takes the next
   * batch) without a period charge for their next billing date, and writes their pending charges in
   * the same short transaction. An account whose charge cannot be priced is logged and skipped for this run.
   *
   * The accounts come in index order (`billing_accounts_due_order`, drizzle/0027) and each is
   * checked for its period charge by one probe of the unique period index: `offset 0` keeps that
   * check a per-row probe. Without it the planner may turn it into a join over all period charges,
   * which it misjudges while a run is writing them (a merge on the period start alone, every
   * account against every charge of that date: a run slowing with the square of its size).
   */
  async openDue(now: Date, skipped: string[] = [], onlyWhitelisted?: boolean): Promise<{ claimed: number; opened: ChargeRow[] }> {
    const today = dateOf(now);
    const whitelisted = onlyWhitelisted ?? (await this.softLaunchOn());
    return this.deps.database.db.transaction(async (tx) => {
      const accounts = await tx
        .select()
        .from(billingAccounts)
        .where(
          and(
            lte(billingAccounts.nextBillingDate, today),
            sql`not exists (select 1 from billing_charges c where c.organization_id = ${billingAccounts.organizationId} and c.kind = 'period' and c.period_start = ${billingAccounts.nextBillingDate} offset 0)`,
            skipped.length ? notInArray(billingAccounts.organizationId, skipped) : undefined,
            whitelisted ? sql`exists (select 1 from soft_launch_whitelist w where w.organization_id = ${billingAccounts.organizationId})` : undefined,
          ),
        )
        .orderBy(billingAccounts.nextBillingDate, billingAccounts.organizationId)
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (!accounts.length) return { claimed: 0, opened: [] };
      const usage = await this.usageOf(tx, accounts, today);
      const prepared: ChargeRow[] = [];
      for (const account of accounts) {
        try {
          const input = periodCharge(account, usage.get(account.organizationId) ?? new Map(), today);
          prepared.push(this.charges.prepare(input, input.currency === 'USD' ? account.creditUsd : account.creditNis, now));
        } catch (error) {
          skipped.push(account.organizationId);
          this.deps.log.error({ err: error, organizationId: account.organizationId }, 'billing run: the period charge could not be priced');
        }
      }
      const opened = await this.charges.insertOpened(tx, prepared, now);
      return { claimed: accounts.length, opened };
    });
  }

  /** Usage per organization and month for the overage months of these accounts. */
  private async usageOf(tx: Pick<Db, 'execute'>, accounts: AccountRow[], today: string) {
    const wanted = accounts.filter((a) => overageMonths(a, today).length > 0);
    const result = new Map<string, Map<string, Partial<Record<UsageMetric, number>>>>();
    if (!wanted.length) return result;
    const months = [...new Set(wanted.flatMap((a) => overageMonths(a, today)))];
    const rows = (
      (await tx.execute(sql`
        select organization_id, month, metric, value from usage_counters
        where organization_id in ${wanted.map((a) => a.organizationId)} and month in ${months}`)) as unknown as {
        rows: { organization_id: string; month: string; metric: string; value: string | number }[];
      }
    ).rows;
    for (const row of rows) {
      let byMonth = result.get(row.organization_id);
      if (!byMonth) result.set(row.organization_id, (byMonth = new Map()));
      let metrics = byMonth.get(row.month);
      if (!metrics) byMonth.set(row.month, (metrics = {}));
      metrics[row.metric as UsageMetric] = Number(row.value);
    }
    return result;
  }

  /** Settles charges, a few at a time; an unknown outcome is left pending for a later run. Their invoice mails are enqueued together. */
  private async settleAll(rows: readonly ChargeRow[], report: RunReport): Promise<ChargeResult[]> {
    const gathered: string[] = [];
    try {
      return await this.settleEach(rows, report, gathered);
    } finally {
      await this.enqueueMails(gathered).catch((error) => this.deps.log.warn({ err: error }, 'billing: invoice mails not enqueued (the next run enqueues them)'));
    }
  }

  private async settleEach(rows: readonly ChargeRow[], report: RunReport, gathered: string[]): Promise<ChargeResult[]> {
    const results: ChargeResult[] = [];
    for (const [i, result] of (await this.charges.settleMany(rows, gathered, settleConcurrency)).entries()) {
      if (result instanceof Error) {
        report.unknown += 1;
        if (!(result instanceof ProviderUnavailable)) this.deps.log.error({ err: result, chargeId: rows[i]!.id }, 'billing run: settling a charge failed');
        continue;
      }
      results.push(result);
      if (result.status === 'succeeded') report.succeeded += 1;
      else if (result.status === 'declined') report.declined += 1;
      else report.nothingDue += 1;
    }
    return results;
  }

  /**
   * After a new card: the organization's failed period charges are tried again at once (a new
   * attempt, a new key), and its pending ones asked again. Returns their outcomes.
   */
  async retryFailed(organizationId: string): Promise<ChargeResult[]> {
    const now = this.deps.now();
    const report = emptyReport();
    const rows = await this.charges.claimFailed(now, { organizationId, onlyWhitelisted: await this.softLaunchOn() });
    return this.settleAll(rows, report);
  }

  /** Whether soft launch is on: then the runs charge only whitelisted organizations (docs/admin.md "Soft launch"). */
  private async softLaunchOn(): Promise<boolean> {
    const [row] = ((await this.deps.database.db.execute(sql`select ${softLaunchOnSql} as on`)) as unknown as { rows: { on: boolean }[] }).rows;
    return row?.on === true;
  }
}
