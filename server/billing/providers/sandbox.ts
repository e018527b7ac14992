/**
 * The sandbox card provider (docs/billing.md "Card providers"): built in and offline. Larder serves
 * its card page itself (sandbox-page.ts) and accepts only the published test numbers, each with a
 * fixed behaviour. Its books are two tables: `sandbox_cards` (a random token, the last four
 * digits, the brand and the behaviour — never the number) and `sandbox_charges` (by idempotency
 * key: asking again with a key answers the first outcome and charges nothing more).
 *
 * A setup session and the card it saves share one random id: `startSetup` makes it, the page
 * records the card under it, `setupOutcome` reads it back. It never appears in an address.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { sandboxCards, sandboxCharges } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { BillingDeps } from '../deps.ts';
import type { CardProvider, ChargeOutcome, ChargeRequest, SetupOutcome, SetupStart } from './types.ts';

export type SandboxBehaviour = 'succeed' | 'decline' | 'fail_later';

/** The published test numbers: the only ones the sandbox takes. */
export const sandboxTestCards: Readonly<Record<string, SandboxBehaviour>> = {
  '4242424242424242': 'succeed',
  '4000000000000002': 'decline',
  '4000000000000341': 'fail_later',
};

/** The address of the sandbox's card page of a session. */
export const sandboxPagePath = (sessionId: string) => `/billing/providers/sandbox/pay/${encodeURIComponent(sessionId)}`;

/** The brand a number's first digits name (the networks' published ranges). */
export function cardBrand(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'card';
}

/** Luhn's check digit rule. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export class SandboxProvider implements CardProvider {
  readonly name = 'sandbox' as const;
  readonly framed = true;

  constructor(private readonly deps: BillingDeps) {}

  private get db(): Db {
    return this.deps.database.db;
  }

  async startSetup(start: SetupStart): Promise<{ url: string; providerSessionId: string }> {
    return {
      url: `${this.deps.config.publicUrl}${sandboxPagePath(start.sessionId)}`,
      providerSessionId: `sbx_card_${randomBytes(24).toString('base64url')}`,
    };
  }

  /**
   * What the card page submitted, recorded once: the first submission of a session wins (a second
   * one, e.g. a double click, changes nothing). Returns whether this call recorded it.
   */
  async record(providerSessionId: string, card: { last4: string; brand: string; behaviour: SandboxBehaviour }): Promise<boolean> {
    const inserted = await this.db
      .insert(sandboxCards)
      .values({ token: providerSessionId, last4: card.last4, brand: card.brand, behaviour: card.behaviour, createdAt: this.deps.now() })
      .onConflictDoNothing()
      .returning({ token: sandboxCards.token });
    return inserted.length === 1;
  }

  async setupOutcome(providerSessionId: string): Promise<SetupOutcome> {
    const [card] = await this.db.select().from(sandboxCards).where(eq(sandboxCards.token, providerSessionId));
    if (!card) return { status: 'open' };
    if (card.behaviour === 'decline') return { status: 'declined', reason: 'card_declined' };
    return { status: 'completed', card: { token: card.token, customer: null, last4: card.last4, brand: card.brand } };
  }

  /**
   * One charge per idempotency key. A card that "fails later" succeeds at its first charge and is
   * declined at every one after; the card's row is locked meanwhile, so two charges at once cannot
   * both be its first. Any other card's answer never depends on earlier charges (a card's row never
   * changes once recorded): its charge is one insert, the key's first outcome winning.
   */
  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) throw new Error(`sandbox charge: the amount must be a positive integer of minor units, not ${request.amount}`);
    const [known] = await this.db.select({ behaviour: sandboxCards.behaviour }).from(sandboxCards).where(eq(sandboxCards.token, request.card.token));
    const asked = known?.behaviour === 'fail_later' ? await this.chargeLocked(request) : await this.chargeOnce(request, known?.behaviour === 'succeed' ? 'succeeded' : 'declined');
    return asked.status === 'succeeded' ? { status: 'succeeded', providerChargeId: asked.id } : { status: 'declined', reason: 'card_declined' };
  }

  /** The sandbox's record of one charge asked with `request`'s key. */
  private chargeRow(request: ChargeRequest, status: 'succeeded' | 'declined') {
    return { idempotencyKey: request.idempotencyKey, id: `sbx_ch_${newId()}`, token: request.card.token, amount: request.amount, currency: request.currency, status, createdAt: this.deps.now() };
  }

  /** A charge whose outcome is known beforehand: written once per key; asking again reads the first. */
  private async chargeOnce(request: ChargeRequest, status: 'succeeded' | 'declined'): Promise<{ id: string; status: string }> {
    const [row] = await this.db
      .insert(sandboxCharges)
      .values(this.chargeRow(request, status))
      .onConflictDoNothing()
      .returning({ id: sandboxCharges.id, status: sandboxCharges.status });
    return row ?? (await this.db.select({ id: sandboxCharges.id, status: sandboxCharges.status }).from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, request.idempotencyKey)))[0]!;
  }

  /** A "fails later" card's charge: its row locked while its earlier charges are read. */
  private async chargeLocked(request: ChargeRequest): Promise<{ id: string; status: string }> {
    return this.db.transaction(async (tx) => {
      const [card] = await tx.select().from(sandboxCards).where(eq(sandboxCards.token, request.card.token)).for('update');
      const [earlier] = await tx.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, request.idempotencyKey));
      if (earlier) return earlier;
      let status: 'succeeded' | 'declined' = 'succeeded';
      if (!card || card.behaviour === 'decline') status = 'declined';
      else if (card.behaviour === 'fail_later') {
        const [charged] = await tx
          .select({ id: sandboxCharges.id })
          .from(sandboxCharges)
          .where(and(eq(sandboxCharges.token, card.token), ne(sandboxCharges.status, 'declined')))
          .limit(1);
        if (charged) status = 'declined';
      }
      const [row] = await tx
        .insert(sandboxCharges)
        .values(this.chargeRow(request, status))
        .onConflictDoNothing()
        .returning();
      // Another process inserted this key between the read and the insert: its outcome is the one.
      return row ?? (await tx.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, request.idempotencyKey)))[0]!;
    });
  }
}
