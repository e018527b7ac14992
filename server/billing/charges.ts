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
import { and, eq, sql } from 'drizzle-orm';
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
    if (row.status !== 'pending') return this.outcomeOf(row);
    const card = await this.cardOf(row.organizationId);
    if (!card) return this.decline(row, 'no card');
    const currency = currencyOfNumber(row.currency)!;
    let outcome;
    try {
      outcome = await this.provider.charge({
        card,
        amount: row.total,
        currency,
        idempotencyKey: row.idempotencyKey,
        description: `Larder ${row.planName}, ${row.periodStart} to ${row.periodEnd}`,
      });
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      await this.db
        .update(billingCharges)
        .set({ lastError: message })
        .where(and(eq(billingCharges.id, row.id), eq(billingCharges.status, 'pending')));
      if (error instanceof ProviderUnavailable) throw error;
      throw new ProviderUnavailable(message);
    }
    if (outcome.status === 'declined') return this.decline(row, outcome.reason);
    const now = this.deps.now();
    const settled = await this.db.transaction(async (tx) => {
      const [won] = await tx
        .update(billingCharges)
        .set({ status: 'succeeded', providerChargeId: outcome.providerChargeId, settledAt: now, updatedAt: now, lastError: null })
        .where(and(eq(billingCharges.id, row.id), eq(billingCharges.status, 'pending'), eq(billingCharges.idempotencyKey, row.idempotencyKey)))
        .returning();
      if (!won) return undefined;
      return this.succeedWithin(tx, won, now, card.last4);
    });
    if (!settled) return this.outcomeOf(await this.read(row.id));
    if (gatherInvoices) gatherInvoices.push(settled.invoiceId);
    else await this.notifyInvoices([settled.invoiceId]);
    return { status: 'succeeded', chargeId: row.id, invoiceNumber: settled.invoiceNumber, total: row.total };
  }

  /**
   * Within tx2 of a success (or tx1 of a total of 0): the invoice (when something was charged), the
   * effect, and the failed date cleared when no other failed period charge of the organization remains.
   */
  async succeedWithin(tx: Tx, row: ChargeRow, now: Date, cardLast4?: string) {
    // One read for the account as it is now, the organization's name and (when an invoice is due) its number.
    const [found] = await query<{
      failed: boolean;
      billing_email: string | null;
      address: string | null;
      city: string | null;
      country: string | null;
      postcode: string | null;
      card_last4: string | null;
      name: string | null;
      n: string | null;
    }>(
      tx,
      sql`select a.initial_billing_failed_date is not null as failed, a.billing_email, a.address, a.city, a.country, a.postcode, a.card_last4,
                 (select o.name from organizations o where o.id = ${row.organizationId}) as name,
                 ${row.total > 0 ? sql`nextval('billing_invoice_number')::text` : sql`null::text`} as n
          from (select 1) one left join billing_accounts a on a.organization_id = ${row.organizationId}`,
    );
    await applyChargeEffect(tx, row.organizationId, row.effect);
    if (found?.failed) {
      await tx.execute(sql`
        update billing_accounts set initial_billing_failed_date = null, updated_at = ${now}
        where organization_id = ${row.organizationId}
          and not exists (select 1 from billing_charges c where c.organization_id = ${row.organizationId}
                          and c.kind = 'period' and c.status = 'failed' and c.id <> ${row.id})`);
    }
    if (row.total === 0 || !found?.n) return { invoiceId: '', invoiceNumber: '' };
    const invoiceNumber = formatInvoiceNumber(Number(found.n), now);
    const invoiceId = newId();
    await tx.insert(billingInvoices).values({
      id: invoiceId,
      chargeId: row.id,
      organizationId: row.organizationId,
      invoiceNumber,
      issuedAt: now,
      planName: row.planName,
      organizationName: found.name ?? '',
      billingEmail: found.billing_email,
      billingAddress: { address: found.address ?? '', city: found.city ?? '', country: found.country ?? '', postcode: found.postcode ?? '' },
      currency: row.currency,
      lineItems: row.lineItems,
      taxName: row.taxName,
      tax: row.tax,
      total: row.total,
      cardLast4: cardLast4 ?? found.card_last4,
    });
    return { invoiceId, invoiceNumber };
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

  /** The account's saved card with this provider, if any. */
  private async cardOf(organizationId: string): Promise<SavedCard | undefined> {
    const [account] = await this.db
      .select({ token: billingAccounts.cardToken, customer: billingAccounts.cardCustomer, last4: billingAccounts.cardLast4, brand: billingAccounts.cardBrand, provider: billingAccounts.cardProvider })
      .from(billingAccounts)
      .where(eq(billingAccounts.organizationId, organizationId));
    if (!account?.token || !account.last4) return undefined;
    if (account.provider && account.provider !== this.provider.name) return undefined;
    return { token: account.token, customer: account.customer, last4: account.last4, brand: account.brand ?? '' };
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
   */
  async claimFailed(now: Date, options: { organizationId?: string; limit?: number } = {}): Promise<ChargeRow[]> {
    const retryBefore = new Date(now.getTime() - retryAfterMs);
    const rows = rowsOf<Record<string, unknown>>(
      await this.db.execute(sql`
        update billing_charges set status = 'pending', attempts = attempts + 1,
               idempotency_key = id || ':' || (attempts + 1), updated_at = ${now}, provider = ${this.provider.name}
        where id in (select c.id from billing_charges c
                     where c.status = 'failed' and c.kind = 'period'
                       ${options.organizationId ? sql`and c.organization_id = ${options.organizationId}` : sql`and c.updated_at <= ${retryBefore}`}
                       and exists (select 1 from billing_accounts a where a.organization_id = c.organization_id)
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
