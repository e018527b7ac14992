/**
 * Card-setup sessions (docs/billing.md "Card providers"): the link the console shows, the state
 * of a session, and its completion. A session is created by an organization admin, lives an hour,
 * and is completed once: the provider's saved card goes on the account, the session's plan is
 * chosen, and the organization's failed charges are retried at once so a blocked organization
 * is lifted as soon as its card works.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { CardProcessingLink, CardSessionState } from '../../definitions/schemas/billing.ts';
import { defaultUpgradePlan, planById } from '../../definitions/billing/plans.ts';
import { billingAccounts, billingCardSessions } from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../lib/errors.ts';
import type { BillingDeps } from './deps.ts';
import { ProviderUnavailable, type CardProvider, type SavedCard } from './providers/types.ts';

export type CardSessionRow = typeof billingCardSessions.$inferSelect;

/** How long a card page may be used. */
export const cardSessionTtlMs = 60 * 60 * 1000;

/** What completing a session sets in motion beyond saving the card (the account and run services). */
export interface CardFollowUps {
  /** Moves the organization to a plan (charging what an upgrade costs). */
  changePlan(organizationId: string, planId: string): Promise<unknown>;
  /** Retries the organization's failed charges now (a success clears its billing status). */
  retryFailed(organizationId: string): Promise<unknown>;
}

export const providerUnavailable = (detail = 'The card provider did not answer. Nothing was changed; try again in a moment.') =>
  new AppError(503, 'payment_provider_unavailable', detail);

export class CardSessionService {
  constructor(
    private readonly deps: BillingDeps,
    private readonly provider: CardProvider,
    private readonly followUps: CardFollowUps,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  /** The billing clock. */
  now(): Date {
    return this.deps.now();
  }

  /** Where the provider sends the browser after its page: the console's `/billingComplete`. */
  returnUrlOf(sessionId: string): string {
    return `${this.deps.config.publicUrl}/billingComplete?sessionID=${encodeURIComponent(sessionId)}`;
  }

  async row(sessionId: string): Promise<CardSessionRow | undefined> {
    const [row] = await this.db.select().from(billingCardSessions).where(eq(billingCardSessions.id, sessionId));
    return row;
  }

  /** A session's row, or `card_session_not_found`. */
  async require(sessionId: string): Promise<CardSessionRow> {
    const row = await this.row(sessionId);
    if (!row) throw notFound('card_session_not_found', 'There is no such card page.');
    return row;
  }

  /** An open session past its hour counts as expired. */
  statusOf(row: CardSessionRow): CardSessionState['status'] {
    return row.status === 'open' && row.expiresAt.getTime() <= this.deps.now().getTime() ? 'expired' : row.status;
  }

  stateOf(row: CardSessionRow): CardSessionState {
    return { sessionID: row.id, organizationID: row.organizationId, planID: row.planId, status: this.statusOf(row) };
  }

  /**
   * Opens a card page for an organization. It needs the billing e-mail and country, and a city
   * ("Billing Address must be set before setting up credit card details"). Without a plan, an
   * organization on the free plan is taken to the plan flagged `defaultUpgrade`; one on a paid
   * plan keeps it (the card is replaced).
   */
  async createLink(organizationId: string, userId: string, planId: string | undefined): Promise<CardProcessingLink> {
    if (planId !== undefined) {
      const plan = planById(planId);
      if (!plan || plan.hidden) throw badRequest('plan_not_found', `There is no plan ${planId}.`, { planID: planId });
    }
    const [account] = await this.db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
    if (!account?.billingEmail?.trim() || !account.country.trim()) {
      throw conflict('billing_details_required', 'Set the billing e-mail and country before setting up a credit card.');
    }
    if (!account.city.trim()) throw conflict('billing_address_required', 'Billing Address must be set before setting up credit card details');
    const chosen = planId ?? (account.planId === null ? defaultUpgradePlan.id : null);

    const now = this.deps.now();
    const id = randomBytes(24).toString('base64url');
    const expiresAt = new Date(now.getTime() + cardSessionTtlMs);
    await this.db.insert(billingCardSessions).values({ id, organizationId, planId: chosen, provider: this.provider.name, createdBy: userId, createdAt: now, expiresAt });
    let started: { url: string; providerSessionId: string };
    try {
      started = await this.provider.startSetup({ sessionId: id, organizationId, billingEmail: account.billingEmail, returnUrl: this.returnUrlOf(id), expiresAt });
    } catch (error) {
      await this.db.update(billingCardSessions).set({ status: 'expired' }).where(eq(billingCardSessions.id, id));
      if (error instanceof ProviderUnavailable) throw providerUnavailable();
      throw error;
    }
    await this.db.update(billingCardSessions).set({ providerSessionId: started.providerSessionId }).where(eq(billingCardSessions.id, id));
    return { url: started.url, sessionID: id, provider: this.provider.name, framed: this.provider.framed };
  }

  /** Marks an open session declined when its provider says the card was refused (the page shows why). */
  async refresh(row: CardSessionRow): Promise<CardSessionState> {
    if (this.statusOf(row) !== 'open' || !row.providerSessionId) return this.stateOf(row);
    const outcome = await this.outcomeOf(row);
    if (outcome.status !== 'declined') return this.stateOf(row);
    return this.stateOf(await this.setDeclined(row));
  }

  /**
   * Completes a session (`POST creditCardBillingComplete`, or the provider's callback). Refused
   * when already completed or expired; a page still open answers `open` and changes nothing. The
   * card is saved and the session marked completed in one transaction, conditionally on it still
   * being open, so two completions at once save and upgrade once.
   */
  async complete(row: CardSessionRow, options: { alreadyCompleted?: 'refuse' | 'ignore' } = {}): Promise<CardSessionState> {
    const status = this.statusOf(row);
    if (status === 'completed') {
      if (options.alreadyCompleted === 'ignore') return this.stateOf(row);
      throw conflict('card_session_completed', 'This card page has already been completed.');
    }
    if (status === 'declined') return this.stateOf(row);
    if (row.status !== 'open' || !row.providerSessionId) throw conflict('card_session_expired', 'This card page has expired. Open the card setup again.');

    const outcome = await this.outcomeOf(row);
    // A card the provider saved in time counts even when the browser comes back after the hour.
    if (outcome.status !== 'completed' && status === 'expired') throw conflict('card_session_expired', 'This card page has expired. Open the card setup again.');
    if (outcome.status === 'open') return this.stateOf(row);
    if (outcome.status === 'declined') return this.stateOf(await this.setDeclined(row));

    const completed = await this.saveCard(row, outcome.card);
    if (!completed) {
      // Another completion won: ours changes nothing.
      if (options.alreadyCompleted === 'ignore') return this.stateOf((await this.row(row.id)) ?? row);
      throw conflict('card_session_completed', 'This card page has already been completed.');
    }
    await this.followUp(completed);
    return this.stateOf(completed);
  }

  private async outcomeOf(row: CardSessionRow) {
    try {
      return await this.provider.setupOutcome(row.providerSessionId!);
    } catch (error) {
      if (error instanceof ProviderUnavailable) throw providerUnavailable();
      throw error;
    }
  }

  private async setDeclined(row: CardSessionRow): Promise<CardSessionRow> {
    const [changed] = await this.db
      .update(billingCardSessions)
      .set({ status: 'declined' })
      .where(and(eq(billingCardSessions.id, row.id), eq(billingCardSessions.status, 'open')))
      .returning();
    return changed ?? (await this.row(row.id)) ?? row;
  }

  /** Saves the card on the account and closes the session, once; undefined when the session was no longer open. */
  private async saveCard(row: CardSessionRow, card: SavedCard): Promise<CardSessionRow | undefined> {
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const [completed] = await tx
        .update(billingCardSessions)
        .set({ status: 'completed', completedAt: now })
        .where(and(eq(billingCardSessions.id, row.id), eq(billingCardSessions.status, 'open')))
        .returning();
      if (!completed) return undefined;
      await tx
        .update(billingAccounts)
        .set({
          cardProvider: row.provider,
          cardToken: card.token,
          cardCustomer: card.customer,
          cardLast4: card.last4,
          cardBrand: card.brand,
          updatedAt: now,
        })
        .where(eq(billingAccounts.organizationId, row.organizationId));
      return completed;
    });
  }

  /**
   * After the card is saved: failed charges are retried first (what is owed, and what lifts a
   * block), then the session's plan is chosen. A failed retry is left to the daily retries and
   * logged; a refused plan change is the caller's answer (the card stays saved).
   */
  private async followUp(row: CardSessionRow) {
    try {
      await this.followUps.retryFailed(row.organizationId);
    } catch (error) {
      this.deps.log.warn({ err: error, organizationId: row.organizationId }, 'billing: retrying failed charges after a card setup failed');
    }
    if (!row.planId) return;
    const [account] = await this.db.select({ planId: billingAccounts.planId }).from(billingAccounts).where(eq(billingAccounts.organizationId, row.organizationId));
    const current = account?.planId ?? null;
    const wanted = planById(row.planId);
    if (!wanted || wanted.id === current || (wanted.free && current === null)) return;
    await this.followUps.changePlan(row.organizationId, row.planId);
  }
}
