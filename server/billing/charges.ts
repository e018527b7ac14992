/**
 * One charge, exactly once whatever happens (docs/billing.md "Exactly once").
 *
 * 1. tx1 writes the `billing_charges` row (pending) with the idempotency key `<chargeId>:<attempt>`;
 *    a period charge is unique per organization and period start, so a second writer finds the
 *    first one's row and never charges.
 * 2. The provider is asked with that key, outside any transaction. A timeout (ProviderUnavailable)
 *    leaves the row pending: it is asked again later with the same key, which cannot charge twice.
 * 3. tx2 settles the row only if it is still pending under that key: on success it writes the
 *    invoice, applies the charge's effect and clears `initial_billing_failed_date`; on a decline it
 *    marks the row failed (a period charge also sets `initial_billing_failed_date`; an interactive
 *    upgrade or seat charge changes nothing).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CurrencyCode } from '../../definitions/billing/money.ts';
import { currencyNumber, currencyOfNumber } from '../../definitions/billing/money.ts';
import { billingAccounts, billingCharges, billingInvoices, type BillingLine, type ChargeEffect } from '../db/schema.ts';
import type { Db } from '../db/index.ts';
import { query, type Executor } from '../content/storage.ts';
import { newId } from '../lib/ids.ts';
import type { BillingDeps } from './deps.ts';
import { ProviderUnavailable, type CardProvider, type SavedCard } from './providers/types.ts';
import { summarize } from './pricing.ts';
import { applyChargeEffect } from './accounts.ts';
import { formatInvoiceNumber } from './invoices.ts';

export type ChargeKind = 'period' | 'upgrade' | 'seats';

export interface ChargeInput {
  organizationId: string;
  kind: ChargeKind;
  /** The period the charge pays for, `YYYY-MM-DD` (UTC). A period charge is unique per organization and start. */
  periodStart: string;
  periodEnd: string;
  currency: CurrencyCode;
  /** Before credit and tax, each an integer amount in minor units of `currency`. */
  lines: BillingLine[];
  /** The billing country: its tax rule applies. */
  country: string;
  /** Whether the account's credit (in `currency`) pays for part of it. */
  applyCredit: boolean;
  /** What success changes on the account (applied in the transaction that records it). */
  effect: ChargeEffect;
  planName: string;
}

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string; invoiceNumber: string; total: number }
  | { status: 'declined'; chargeId: string; reason: string }
  /** The total came to 0: recorded as a succeeded charge of 0 with its effect applied, no provider call, no invoice. */
  | { status: 'nothing_due'; chargeId: string };

export type ChargeRow = typeof billingCharges.$inferSelect;

/** A row the provider charged, waiting to be recorded. */
interface Paid {
  index: number;
  row: ChargeRow;
  providerChargeId: string;
  last4: string;
}

/** The totals of a charge (pricing.ts `summarize`); a line that is not a non-negative integer is refused before anything is written. */
export function chargeTotals(lines: readonly BillingLine[], country: string, creditAvailable: number) {
  for (const line of lines) if (!Number.isSafeInteger(line.amount) || line.amount < 0) throw new RangeError(`a charge line is not a non-negative integer amount: ${line.name}`);
  return summarize(lines, creditAvailable, country);
}

/** How long a pending row may go unsettled before a run asks the provider again with its key (a crashed worker). */
export const staleAfterMs = 60_000;
/** A failed period charge is tried again at most this often. */
export const retryAfterMs = 86_400_000;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A transaction (or the database) charges are written with. */
export type Tx = Executor & Pick<Db, 'select' | 'insert' | 'update'>;

export class ChargeService {
  /** Called with the ids of new invoices after they are committed (the runner enqueues their mails). */
  afterInvoices: (invoiceIds: string[]) => Promise<void> | void = () => {};

  constructor(
    readonly deps: BillingDeps,
    readonly provider: CardProvider,
  ) {}

  private get db(): Db {
    return this.deps.database.db;
  }

  /** Records a charge and asks the provider once; see the file's comment for the order. */
  async charge(input: ChargeInput): Promise<ChargeResult> {
    const row = await this.open(input);
    if (!row.inserted) return this.outcomeOf(await this.awaitSettled(row.row));
    return this.settle(row.row);
  }

  /** The row a charge starts as: totals from its lines, the credit available and the country's tax; pending unless the total is 0. */
  prepare(input: ChargeInput, creditAvailable: number, now: Date): ChargeRow {
    const totals = chargeTotals(input.lines, input.country, input.applyCredit ? creditAvailable : 0);
    const effect: ChargeEffect = { ...input.effect };
    if (totals.credit > 0) effect[input.currency === 'USD' ? 'creditUsedUsd' : 'creditUsedNis'] = totals.credit;
    const id = newId();
    const zero = totals.total === 0;
    return {
      id,
      organizationId: input.organizationId,
      kind: input.kind,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      idempotencyKey: `${id}:1`,
      currency: currencyNumber[input.currency],
      lineItems: input.lines.map(({ name, usageName, amount }) => (usageName ? { name, usageName, amount } : { name, amount })),
      effect,
      subtotal: totals.subtotal,
      creditApplied: totals.credit,
      tax: totals.tax,
      total: totals.total,
      status: zero ? 'succeeded' : 'pending',
      provider: this.provider.name,
      providerChargeId: null,
      attempts: 1,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      settledAt: zero ? now : null,
      planName: input.planName,
      taxName: totals.taxName,
    };
  }

  /**
   * tx1: the pending row. For a period charge an existing row for the same period wins (`inserted`
   * false). A total of 0 is settled in this same transaction.
   */
  async open(input: ChargeInput): Promise<{ row: ChargeRow; inserted: boolean }> {
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const [account] = await tx
        .select({ creditUsd: billingAccounts.creditUsd, creditNis: billingAccounts.creditNis })
        .from(billingAccounts)
        .where(eq(billingAccounts.organizationId, input.organizationId));
      const available = !account ? 0 : input.currency === 'USD' ? account.creditUsd : account.creditNis;
      const [inserted] = await this.insertOpened(tx, [this.prepare(input, available, now)], now);
      if (inserted) return { row: inserted, inserted: true };
      const [existing] = await tx
        .select()
        .from(billingCharges)
        .where(and(eq(billingCharges.organizationId, input.organizationId), eq(billingCharges.kind, 'period'), eq(billingCharges.periodStart, input.periodStart)));
      return { row: existing!, inserted: false };
    });
  }

  /**
   * Inserts prepared rows in the caller's transaction and returns those written: a period row whose
   * organization and period start already have one is left out (its writer owns it). Rows of total
   * 0 are settled here (effect applied, no provider, no invoice).
   */
  async insertOpened(tx: Tx, rows: ChargeRow[], now: Date): Promise<ChargeRow[]> {
    if (!rows.length) return [];
    const inserted = await tx
      .insert(billingCharges)
      .values(rows)
      .onConflictDoNothing({ target: [billingCharges.organizationId, billingCharges.periodStart], where: sql`kind = 'period'` })
      .returning();
    for (const row of inserted) if (row.status === 'succeeded') await this.succeedWithin(tx, row, now);
    return inserted;
  }

  /**
   * Asks the provider for a pending row with its key and records the answer (tx2). Throws
   * ProviderUnavailable when the provider's answer is unknown (the row stays pending). With
   * `gatherInvoices` the new invoice's id is added there (the caller enqueues its mail) instead of
   * being handed to `afterInvoices` at once.
   */
  async settle(row: ChargeRow, gatherInvoices?: string[]): Promise<ChargeResult> {
    const [result] = await this.settleMany([row], gatherInvoices);
    if (result instanceof Error) throw result;
    return result!;
  }

  /**
   * Settles many rows: the provider is asked for each (a few at once, no transaction open), each
   * decline recorded on its own, and the successes recorded together, 50 to a transaction (tx2 of
   * each: the conditional update, invoice, effect). Each row's result, or the error that left it
   * pending (ProviderUnavailable: asked again later with the same key).
   */
  async settleMany(rows: readonly ChargeRow[], gatherInvoices?: string[], concurrency = 8): Promise<(ChargeResult | Error)[]> {
    const results: (ChargeResult | Error)[] = new Array(rows.length);
    const cards = await this.cardsOf([...new Set(rows.filter((r) => r.status === 'pending').map((r) => r.organizationId))]);
    const paid: Paid[] = [];
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const index = next++;
        const row = rows[index]!;
        try {
          if (row.status !== 'pending') {
            results[index] = await this.outcomeOf(row);
            continue;
          }
          const card = cards.get(row.organizationId);
          if (!card) {
            results[index] = await this.decline(row, 'no card');
            continue;
          }
          const outcome = await this.ask(row, card);
          if (outcome.status === 'declined') results[index] = await this.decline(row, outcome.reason);
          else paid.push({ index, row, providerChargeId: outcome.providerChargeId, last4: card.last4 });
        } catch (error) {
          results[index] = error as Error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, rows.length)) }, worker));
    const invoices: string[] = [];
    for (let i = 0; i < paid.length; i += 50) {
      const chunk = paid.slice(i, i + 50);
      try {
        const recorded = await this.recordPaid(chunk);
        for (const item of chunk) {
          const invoice = recorded.get(item.row.id);
          if (invoice) {
            if (invoice.invoiceId) invoices.push(invoice.invoiceId);
            results[item.index] = { status: 'succeeded', chargeId: item.row.id, invoiceNumber: invoice.invoiceNumber, total: item.row.total };
          } else results[item.index] = await this.outcomeOf(await this.read(item.row.id)).catch((error: Error) => error);
        }
      } catch (error) {
        // Not recorded: the rows stay pending and are asked again, with their keys, by a later run.
        for (const item of chunk) results[item.index] = error as Error;
      }
    }
    if (gatherInvoices) gatherInvoices.push(...invoices);
    else await this.notifyInvoices(invoices);
    return results;
  }

  /** Asks the provider for a row with its key; any failure is an unknown outcome (ProviderUnavailable), noted on the row. */
  private async ask(row: ChargeRow, card: SavedCard) {
    try {
      return await this.provider.charge({
        card,
        amount: row.total,
        currency: currencyOfNumber(row.currency)!,
        idempotencyKey: row.idempotencyKey,
        description: `Larder ${row.planName}, ${row.periodStart} to ${row.periodEnd}`,
      });
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      await this.db
        .update(billingCharges)
        .set({ lastError: message })
        .where(and(eq(billingCharges.id, row.id), eq(billingCharges.status, 'pending')));
      throw error instanceof ProviderUnavailable ? error : new ProviderUnavailable(message);
    }
  }

  /**
   * tx2 of successes: each row settled only if still pending under its key; for those, the effect,
   * the failed date cleared when no failed period charge remains, and an invoice (total above 0).
   * Returns the rows this call settled, with their invoice.
   */
  private async recordPaid(chunk: readonly Paid[]): Promise<Map<string, { invoiceId: string; invoiceNumber: string }>> {
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const settled = new Map<string, { invoiceId: string; invoiceNumber: string }>();
      const won = await query<{ id: string }>(
        tx,
        sql`update billing_charges c set status = 'succeeded', provider_charge_id = v.pcid, settled_at = ${now}, updated_at = ${now}, last_error = null
            from (values ${sql.join(
              chunk.map((p) => sql`(${p.row.id}, ${p.row.idempotencyKey}, ${p.providerChargeId})`),
              sql`, `,
            )}) as v(id, key, pcid)
            where c.id = v.id and c.status = 'pending' and c.idempotency_key = v.key
            returning c.id`,
      );
      const wonIds = new Set(won.map((r) => r.id));
      const mine = chunk.filter((p) => wonIds.has(p.row.id));
      if (!mine.length) return settled;
      const organizations = [...new Set(mine.map((p) => p.row.organizationId))];
      const accounts = new Map(
        (
          await query<{ organization_id: string; failed: boolean; billing_email: string | null; address: string; city: string; country: string; postcode: string; name: string | null }>(
            tx,
            sql`select a.organization_id, a.initial_billing_failed_date is not null as failed, a.billing_email, a.address, a.city, a.country, a.postcode, o.name
                from billing_accounts a left join organizations o on o.id = a.organization_id
                where a.organization_id in ${organizations}`,
          )
        ).map((a) => [a.organization_id, a]),
      );
      for (const p of mine) await applyChargeEffect(tx, p.row.organizationId, p.row.effect);
      const failed = organizations.filter((id) => accounts.get(id)?.failed);
      if (failed.length) {
        await tx.execute(sql`
          update billing_accounts a set initial_billing_failed_date = null, updated_at = ${now}
          where a.organization_id in ${failed}
            and not exists (select 1 from billing_charges c where c.organization_id = a.organization_id and c.kind = 'period' and c.status = 'failed')`);
      }
      const invoiced = mine.filter((p) => p.row.total > 0);
      const numbers = invoiced.length
        ? await query<{ n: string }>(tx, sql`select nextval('billing_invoice_number')::text as n from generate_series(1, ${invoiced.length})`)
        : [];
      const rows = invoiced.map((p, i) => {
        const account = accounts.get(p.row.organizationId);
        const invoiceNumber = formatInvoiceNumber(Number(numbers[i]!.n), now);
        const invoiceId = newId();
        settled.set(p.row.id, { invoiceId, invoiceNumber });
        return {
          id: invoiceId,
          chargeId: p.row.id,
          organizationId: p.row.organizationId,
          invoiceNumber,
          issuedAt: now,
          planName: p.row.planName,
          organizationName: account?.name ?? '',
          billingEmail: account?.billing_email ?? null,
          billingAddress: { address: account?.address ?? '', city: account?.city ?? '', country: account?.country ?? '', postcode: account?.postcode ?? '' },
          currency: p.row.currency,
          lineItems: p.row.lineItems,
          taxName: p.row.taxName,
          tax: p.row.tax,
          total: p.row.total,
          cardLast4: p.last4,
        };
      });
      if (rows.length) await tx.insert(billingInvoices).values(rows);
      for (const p of mine) if (!settled.has(p.row.id)) settled.set(p.row.id, { invoiceId: '', invoiceNumber: '' });
      return settled;
    });
  }

  /** Within tx1 of a charge of total 0: its effect, and the failed date cleared when no failed period charge remains. No invoice. */
  private async succeedWithin(tx: Tx, row: ChargeRow, now: Date) {
    await applyChargeEffect(tx, row.organizationId, row.effect);
    await tx.execute(sql`
      update billing_accounts a set initial_billing_failed_date = null, updated_at = ${now}
      where a.organization_id = ${row.organizationId} and a.initial_billing_failed_date is not null
        and not exists (select 1 from billing_charges c where c.organization_id = a.organization_id and c.kind = 'period' and c.status = 'failed')`);
  }

  /** tx2 of a decline: failed, and for a period charge the account's first failed date (kept when already set). */
  private async decline(row: ChargeRow, reason: string): Promise<ChargeResult> {
    const now = this.deps.now();
    const changed = await this.db.transaction(async (tx) => {
      const [lost] = await tx
        .update(billingCharges)
        .set({ status: 'failed', lastError: reason.slice(0, 500), updatedAt: now })
        .where(and(eq(billingCharges.id, row.id), eq(billingCharges.status, 'pending'), eq(billingCharges.idempotencyKey, row.idempotencyKey)))
        .returning({ id: billingCharges.id });
      if (!lost) return false;
      if (row.kind === 'period') {
        await tx.execute(sql`update billing_accounts set initial_billing_failed_date = coalesce(initial_billing_failed_date, ${now}), updated_at = ${now}
                             where organization_id = ${row.organizationId}`);
      }
      return true;
    });
    if (!changed) return this.outcomeOf(await this.read(row.id));
    this.deps.log.info({ organizationId: row.organizationId, chargeId: row.id, kind: row.kind }, `billing charge declined: ${reason}`);
    return { status: 'declined', chargeId: row.id, reason };
  }

  /** What a settled row means to the caller; a row still pending is an unknown outcome. */
  async outcomeOf(row: ChargeRow): Promise<ChargeResult> {
    if (row.status === 'pending') throw new ProviderUnavailable('the charge is still being settled');
    if (row.status === 'failed') return { status: 'declined', chargeId: row.id, reason: row.lastError ?? 'declined' };
    if (row.total === 0) return { status: 'nothing_due', chargeId: row.id };
    const [invoice] = await this.db.select({ number: billingInvoices.invoiceNumber }).from(billingInvoices).where(eq(billingInvoices.chargeId, row.id));
    return { status: 'succeeded', chargeId: row.id, invoiceNumber: invoice?.number ?? '', total: row.total };
  }

  /** Another writer owns the row: wait a little for its outcome (it is never charged from here). */
  private async awaitSettled(row: ChargeRow): Promise<ChargeRow> {
    for (let i = 0; i < 50 && row.status === 'pending'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = await this.read(row.id);
    }
    return row;
  }

  async read(id: string): Promise<ChargeRow> {
    const [row] = await this.db.select().from(billingCharges).where(eq(billingCharges.id, id));
    if (!row) throw new Error(`charge ${id} is gone`);
    return row;
  }

  /** The accounts' saved cards with this provider, by organization (none for an account without one). */
  private async cardsOf(organizationIds: string[]): Promise<Map<string, SavedCard>> {
    const cards = new Map<string, SavedCard>();
    if (!organizationIds.length) return cards;
    const rows = await this.db
      .select({
        organizationId: billingAccounts.organizationId,
        token: billingAccounts.cardToken,
        customer: billingAccounts.cardCustomer,
        last4: billingAccounts.cardLast4,
        brand: billingAccounts.cardBrand,
        provider: billingAccounts.cardProvider,
      })
      .from(billingAccounts)
      .where(inArray(billingAccounts.organizationId, organizationIds));
    for (const account of rows) {
      if (!account.token || !account.last4) continue;
      if (account.provider && account.provider !== this.provider.name) continue;
      cards.set(account.organizationId, { token: account.token, customer: account.customer, last4: account.last4, brand: account.brand ?? '' });
    }
    return cards;
  }

  private async notifyInvoices(ids: string[]) {
    try {
      await this.afterInvoices(ids.filter(Boolean));
    } catch (error) {
      // The invoice is committed; a mail not enqueued now is found by the next run's sweep.
      this.deps.log.warn({ err: error }, 'billing: invoice mail not enqueued');
    }
  }

  /**
   * Pending rows nobody settled within `staleAfterMs` (a worker that crashed or a provider that timed
   * out): leased by moving `updated_at`, then asked again with their own key.
   */
  async claimStale(now: Date, limit = 100, organizationId?: string): Promise<ChargeRow[]> {
    const staleBefore = new Date(now.getTime() - staleAfterMs);
    const rows = rowsOf<Record<string, unknown>>(
      await this.db.execute(sql`
        update billing_charges set updated_at = ${now}
        where id in (select id from billing_charges
                     where status = 'pending' and updated_at < ${staleBefore}
                       ${organizationId ? sql`and organization_id = ${organizationId}` : sql``}
                     order by updated_at limit ${limit} for update skip locked)
          and status = 'pending'
        returning id`),
    );
    return this.readMany(rows.map((r) => String(r.id)));
  }

  /**
   * Failed period charges due for another attempt (a day after the last, or at once for one
   * organization after a new card): a new attempt with a new key, leased in the same statement.
   * `onlyWhitelisted` (soft launch on): only organizations on the soft-launch whitelist.
   */
  async claimFailed(now: Date, options: { organizationId?: string; limit?: number; onlyWhitelisted?: boolean } = {}): Promise<ChargeRow[]> {
    const retryBefore = new Date(now.getTime() - retryAfterMs);
    const rows = rowsOf<Record<string, unknown>>(
      await this.db.execute(sql`
        update billing_charges set status = 'pending', attempts = attempts + 1,
               idempotency_key = id || ':' || (attempts + 1), updated_at = ${now}, provider = ${this.provider.name}
        where id in (select c.id from billing_charges c
                     where c.status = 'failed' and c.kind = 'period'
                       ${options.organizationId ? sql`and c.organization_id = ${options.organizationId}` : sql`and c.updated_at <= ${retryBefore}`}
                       and exists (select 1 from billing_accounts a where a.organization_id = c.organization_id)
                       ${options.onlyWhitelisted ? sql`and exists (select 1 from soft_launch_whitelist w where w.organization_id = c.organization_id)` : sql``}
                     order by c.updated_at limit ${options.limit ?? 100} for update skip locked)
          and status = 'failed'
        returning id`),
    );
    return this.readMany(rows.map((r) => String(r.id)));
  }

  private async readMany(ids: string[]): Promise<ChargeRow[]> {
    if (!ids.length) return [];
    return this.db.select().from(billingCharges).where(sql`${billingCharges.id} in ${ids}`);
  }
}

export { ProviderUnavailable };
