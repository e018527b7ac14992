/**
 * Every organization's billing row and its detail (docs/admin.md "Organizations").
 *
 * The list must stay fast at 100,000 organizations: one statement picks the page's ids (search by
 * the trigram index on `lower(name)`, or an exact id; the status filter a range of failed dates;
 * the sort a column of organizations or billing_accounts with the id as tie-breaker), and only
 * for those rows are members, projects, the balance and the whitelist read. The total is a count
 * with the same filter, run beside it on the read pool.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AdminOrganizationSort } from '../../definitions/admin.ts';
import { currencyNumber } from '../../definitions/billing/money.ts';
import { freePlan, planById } from '../../definitions/billing/plans.ts';
import { billingStatusOf, type BillingStatus, type StatusWindows } from '../../definitions/billing/status.ts';
import { platform } from '../../definitions/platform.ts';
import type { AdminOrganization, AdminOrganizationDetail, AdminOrganizationPage, AdminOrganizationQuery } from '../../definitions/schemas/admin.ts';
import type { Db } from '../db/index.ts';
import { notFound } from '../lib/errors.ts';
import type { AdminDeps } from './deps.ts';

const dayMs = 86_400_000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** `%text%` for LIKE, its own `%`, `_` and `\` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The failed-date ranges (ms, `[from, to)`, either end open as null) of a status on the clock
 * `now` and the windows: a day count `d` is `from ≤ now − failed < to`. Days not in any window are
 * GRACE below the last window and BLOCK past it, as `billingStatusOf` reads them.
 */
export function failedRangesOf(status: Exclude<BillingStatus, 'OK'>, now: number, windows: StatusWindows): { newest: number | null; oldest: number | null }[] {
  const ranges: { newest: number | null; oldest: number | null }[] = [];
  const last = windows.BLOCK.from;
  let start: number | null = null;
  for (let day = 0; day <= last; day += 1) {
    const match = billingStatusOf(new Date(now - day * dayMs), now, windows) === status;
    if (match && start === null) start = day;
    if (!match && start !== null) {
      ranges.push({ newest: now - start * dayMs, oldest: now - day * dayMs });
      start = null;
    }
  }
  // From the last window's first day on, every day count is BLOCK.
  if (start !== null) ranges.push({ newest: now - start * dayMs, oldest: status === 'BLOCK' ? null : now - (last + 1) * dayMs });
  return ranges;
}

interface PageRow {
  id: string;
  name: string;
  created_ms: number | string;
  plan_id: string | null;
  seats: number | null;
  next_billing_date: string | null;
  failed_ms: number | string | null;
  credit_usd: string | number | null;
  credit_nis: string | number | null;
  currency: number | null;
  members: string | number;
  projects: string | number;
  balance: string | number;
  whitelisted: boolean;
}

export class AdminOrganizationService {
  constructor(private readonly deps: AdminDeps) {}

  private get read(): Db {
    return this.deps.ctx.database.read;
  }

  /** `GET admin/organizations`: one page, its total. */
  async list(query: AdminOrganizationQuery): Promise<AdminOrganizationPage> {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 50;
    const sort: AdminOrganizationSort = query.sort ?? 'name';
    const desc = query.order === 'desc';
    const filters: SQL[] = [];
    const search = query.search?.trim().toLowerCase();
    if (search) {
      filters.push(/^[0-9a-f]{24}$/.test(search) ? sql`(o.id = ${search} or lower(o.name) like ${containing(search)})` : sql`lower(o.name) like ${containing(search)}`);
    }
    // Sorts and filters of the account are driven from billing_accounts (one row per organization,
    // so its indexes can give the order); the others from organizations.
    const byAccount = query.status !== undefined || !['name', 'createdDate'].includes(sort);
    if (byAccount) await this.backfillAccounts();
    if (query.status) filters.push(this.statusFilter(query.status));
    const where = filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
    const from = byAccount ? sql`billing_accounts a join organizations o on o.id = a.organization_id` : sql`organizations o`;
    const order = this.orderOf(sort, desc, byAccount ? sql`a.organization_id` : sql`o.id`);
    const limit = sql`limit ${perPage} offset ${(page - 1) * perPage}`;
    const pick = sort === 'balance' ? this.byBalance(filters, desc, limit) : sql`select o.id from ${from} ${where} order by ${order} ${limit}`;
    const [rows, total] = await Promise.all([
      this.rows(pick),
      this.count(
        query.status === 'OK' && !search
          ? // Nearly every organization is OK: all of them less the few with a failed date (every organization has its account by now).
            sql`select (select count(*) from organizations) - (select count(*) from billing_accounts a where a.initial_billing_failed_date is not null) as n`
          : sql`select count(*) as n from ${query.status ? sql`billing_accounts a join organizations o on o.id = a.organization_id` : sql`organizations o`} ${where}`,
      ),
    ]);
    return { organizations: rows, total, page, perPage };
  }

  /** `GET admin/organizations/{id}`: the row, its members (with their disabled flag) and its projects with collection and item counts. */
  async detail(organizationId: string): Promise<AdminOrganizationDetail> {
    const [organization] = await this.rows(sql`select o.id from organizations o where o.id = ${organizationId}`);
    if (!organization) throw notFound('organization_not_found', 'There is no such organization.');
    const [members, projects] = await Promise.all([
      this.read.execute(sql`
        select u.id, u.email, u.username, coalesce((m.permissions->>'admin')::boolean, false) as admin, u.disabled_at is not null as disabled,
               (extract(epoch from m.created_at) * 1000)::float8 as joined_ms
        from memberships m join users u on u.id = m.user_id
        where m.organization_id = ${organizationId}
        order by m.created_at, u.id`),
      this.read.execute(sql`
        select p.id, p.name, (extract(epoch from p.created_at) * 1000)::float8 as created_ms, count(c.id) as collections, coalesce(sum(c.item_count), 0) as items
        from projects p left join content_collections c on c.project_id = p.id
        where p.organization_id = ${organizationId}
        group by p.id
        order by p.created_at, p.id`),
    ]);
    return {
      organization,
      members: rowsOf<{ id: string; email: string; username: string; admin: boolean; disabled: boolean; joined_ms: number | string }>(members).map((m) => ({
        id: m.id,
        email: m.email,
        username: m.username,
        admin: m.admin,
        disabled: m.disabled,
        joinedDate: new Date(Number(m.joined_ms)).toISOString(),
      })),
      projects: rowsOf<{ id: string; name: string; created_ms: number | string; collections: string | number; items: string | number }>(projects).map((p) => ({
        id: p.id,
        name: p.name,
        createdDate: new Date(Number(p.created_ms)).toISOString(),
        collections: Number(p.collections),
        items: Number(p.items),
      })),
    };
  }

  private backfilled: Promise<void> | undefined;

  /**
   * Once per process: the accounts of organizations made before billing existed (any other gets
   * its account with the organization), so every organization has the row the sorts read.
   */
  private backfillAccounts(): Promise<void> {
    this.backfilled ??= this.deps.ctx.database.db
      .execute(
        sql`insert into billing_accounts (organization_id, seats) select o.id, ${platform.defaultSeats} from organizations o
            where not exists (select 1 from billing_accounts a where a.organization_id = o.id) on conflict do nothing`,
      )
      .then(
        () => undefined,
        (error: unknown) => {
          this.backfilled = undefined;
          throw error;
        },
      );
    return this.backfilled;
  }

  /**
   * The balance sort. Few organizations owe anything: those with a failed period charge in their
   * account's currency are read through the index of open charges and sorted by what they owe;
   * every other owes 0 and comes in id order straight from the accounts' primary key (a probe of
   * the period-charge index each), before them (asc) or after them (desc). The owing accounts are
   * read by key, one probe per owing organization (`lateral … offset 0` keeps the planner from
   * hashing every account: it underestimates the owing rows and scanned 100,000 accounts); read
   * in balance order, the probes stop once the page is full.
   */
  private byBalance(filters: SQL[], desc: boolean, limit: SQL): SQL {
    const dir = sql.raw(desc ? 'desc' : 'asc');
    const and = filters.length ? sql`and ${sql.join(filters, sql` and `)}` : sql``;
    const owing = sql`(select o.id from (select c.organization_id, c.currency, sum(c.total) as balance from billing_charges c
                         where c.status = 'failed' and c.kind = 'period' group by c.organization_id, c.currency
                         order by balance ${dir}, c.organization_id ${dir}) f
                       cross join lateral (select * from billing_accounts a where a.organization_id = f.organization_id and a.currency = f.currency offset 0) a
                       join organizations o on o.id = a.organization_id
                       where true ${and} order by f.balance ${dir}, f.organization_id ${dir})`;
    const none = sql`(select o.id from billing_accounts a join organizations o on o.id = a.organization_id
                      where not exists (select 1 from billing_charges c where c.organization_id = a.organization_id and c.kind = 'period' and c.status = 'failed' and c.currency = a.currency) ${and}
                      order by a.organization_id ${dir})`;
    return sql`select id from (${desc ? owing : none} union all ${desc ? none : owing}) sorted ${limit}`;
  }

  /** Whether each id is an organization (the admin calls that take ids refuse unknown ones). */
  async existing(organizationIds: readonly string[]): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const rows = rowsOf<{ id: string }>(await this.read.execute(sql`select id from organizations where id in ${organizationIds}`));
    return new Set(rows.map((row) => row.id));
  }

  /** The full rows of the ids `pick` selects, in its order: counts and sums only for those. */
  private async rows(pick: SQL): Promise<AdminOrganization[]> {
    const rows = rowsOf<PageRow>(
      await this.read.execute(sql`
        with page as materialized (select id, row_number() over () as n from (${pick}) picked)
        select o.id, o.name, (extract(epoch from o.created_at) * 1000)::float8 as created_ms, a.plan_id, a.seats, a.next_billing_date::text as next_billing_date,
               (extract(epoch from a.initial_billing_failed_date) * 1000)::float8 as failed_ms, a.credit_usd, a.credit_nis, a.currency,
               (select count(*) from memberships m where m.organization_id = o.id) as members,
               (select count(*) from projects p where p.organization_id = o.id) as projects,
               (select coalesce(sum(c.total), 0) from billing_charges c
                 where c.organization_id = o.id and c.kind = 'period' and c.status = 'failed' and c.currency = coalesce(a.currency, ${currencyNumber.USD})) as balance,
               exists (select 1 from soft_launch_whitelist w where w.organization_id = o.id) as whitelisted
        from page join organizations o on o.id = page.id left join billing_accounts a on a.organization_id = o.id
        order by page.n`),
    );
    const { now } = this.deps.ctx.billing.deps;
    const windows = this.deps.ctx.config.billing.statusWindows;
    const at = now();
    return rows.map((row) => {
      const plan = (row.plan_id ? planById(row.plan_id) : undefined) ?? freePlan;
      const currency = row.currency ?? currencyNumber.USD;
      return {
        id: row.id,
        name: row.name,
        createdDate: new Date(Number(row.created_ms)).toISOString(),
        planID: plan.free ? null : plan.id,
        planName: plan.name,
        status: billingStatusOf(row.failed_ms === null ? null : new Date(Number(row.failed_ms)), at, windows),
        seats: row.seats ?? platform.defaultSeats,
        members: Number(row.members),
        projects: Number(row.projects),
        nextBillingDate: row.next_billing_date,
        balance: { amount: Number(row.balance), currency: currency === currencyNumber.NIS ? currencyNumber.NIS : currencyNumber.USD },
        credit: { amount: Number(row.credit_usd ?? 0), nisAmount: Number(row.credit_nis ?? 0) },
        whitelisted: row.whitelisted,
      };
    });
  }

  private async count(statement: SQL): Promise<number> {
    const [row] = rowsOf<{ n: string | number }>(await this.read.execute(statement));
    return Number(row?.n ?? 0);
  }

  /** The status filter as failed-date ranges on billing's clock and the configured windows (OK: no failed date). */
  private statusFilter(status: BillingStatus): SQL {
    if (status === 'OK') return sql`a.initial_billing_failed_date is null`;
    const now = this.deps.ctx.billing.deps.now().getTime();
    const ranges = failedRangesOf(status, now, this.deps.ctx.config.billing.statusWindows).map(({ newest, oldest }) => {
      const parts = [sql`a.initial_billing_failed_date <= ${new Date(newest ?? now).toISOString()}::timestamptz`];
      if (oldest !== null) parts.push(sql`a.initial_billing_failed_date > ${new Date(oldest).toISOString()}::timestamptz`);
      return sql`(${sql.join(parts, sql` and `)})`;
    });
    return ranges.length ? sql`(${sql.join(ranges, sql` or `)})` : sql`false`;
  }

  /**
   * The order of a sort, the id as tie-breaker in the same direction. Each is the order of one
   * index read forwards or backwards (docs/admin.md "Organizations"): the plan by id with the free
   * plan (null) first; the status by failed date, none first, then the newest; a missing next
   * billing date as the latest.
   */
  private orderOf(sort: AdminOrganizationSort, desc: boolean, id: SQL): SQL {
    const dir = sql.raw(desc ? 'desc' : 'asc');
    const by = (expression: SQL) => sql`${expression} ${dir}, ${id} ${dir}`;
    switch (sort) {
      case 'name':
        return by(sql`lower(o.name)`);
      case 'createdDate':
        return by(sql`o.created_at`);
      case 'plan':
        return sql`a.plan_id ${sql.raw(desc ? 'desc nulls last' : 'asc nulls first')}, ${id} ${dir}`;
      case 'status':
        // OK (no failed date) first, then by days since the failed date: the newest date is GRACE.
        return sql`a.initial_billing_failed_date ${sql.raw(desc ? 'asc nulls last' : 'desc nulls first')}, ${id} ${dir}`;
      case 'seats':
        return by(sql`a.seats`);
      case 'nextBillingDate':
        return sql`a.next_billing_date ${sql.raw(desc ? 'desc nulls first' : 'asc nulls last')}, ${id} ${dir}`;
      case 'balance':
        // Its own statement: byBalance.
        return by(sql`0`);
      case 'credit':
        return sql`a.credit_usd ${dir}, a.credit_nis ${dir}, ${id} ${dir}`;
    }
  }
}

