/**
 * The one small interface between billing and whoever charges cards (docs/billing.md "Card
 * providers"): `sandbox` (built in, offline) and `stripe` (the official SDK). Billing keeps only
 * what `SavedCard` holds: a provider token, a customer id, the brand and the last four digits.
 */
import type { CurrencyCode } from '../../../definitions/billing/money.ts';

export interface SavedCard {
  /** The provider's reusable token of the card (a payment method id). */
  token: string;
  /** The provider's customer the card belongs to, where it has one. */
  customer: string | null;
  last4: string;
  brand: string;
}

export interface SetupStart {
  /** Our session id (billing_card_sessions.id). */
  sessionId: string;
  organizationId: string;
  billingEmail: string | null;
  /** Where the provider sends the browser after the page: `/billingComplete?sessionID=…`. */
  returnUrl: string;
  /** When our session expires; the provider's page should not outlive it. */
  expiresAt: Date;
}

export type SetupOutcome = { status: 'open' } | { status: 'declined'; reason: string } | { status: 'completed'; card: SavedCard };

export interface ChargeRequest {
  card: SavedCard;
  /** Minor units, above 0. */
  amount: number;
  currency: CurrencyCode;
  /** The same key never charges twice (billing_charges.idempotency_key). */
  idempotencyKey: string;
  description: string;
}

export type ChargeOutcome = { status: 'succeeded'; providerChargeId: string } | { status: 'declined'; reason: string };

/** Thrown when the provider cannot be reached or times out: the charge's outcome is unknown and is asked again with the same key. */
export class ProviderUnavailable extends Error {}

export interface CardProvider {
  readonly name: 'sandbox' | 'stripe';
  /** Whether the console may show the page in a frame (Stripe's hosted pages refuse frames). */
  readonly framed: boolean;
  /** Opens a card-setup page; returns the address the console shows and the provider's own session id. */
  startSetup(start: SetupStart): Promise<{ url: string; providerSessionId: string }>;
  /** What became of a setup page. */
  setupOutcome(providerSessionId: string): Promise<SetupOutcome>;
  /** Charges a saved card. Throws ProviderUnavailable when the outcome is unknown. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}
