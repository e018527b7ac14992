/**
 * The Stripe card provider (docs/billing.md "Card providers"), `BILLING_PROVIDER=stripe`, through
 * the official SDK configured by STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_API_URL.
 *
 * - Setup: a Checkout Session in `setup` mode for the organization's Stripe customer (made on the
 *   first setup, reused once a card is saved). Stripe's pages refuse frames, so the console opens
 *   it whole (`framed: false`); it returns to `/billingComplete`, cancelling to organization settings.
 * - Outcome: the session, its SetupIntent and that intent's payment method (brand, last four).
 * - Charge: a PaymentIntent confirmed off session with our idempotency key as Stripe's
 *   `Idempotency-Key`, so asking again after a timeout cannot charge twice. A card error is a
 *   decline; no answer (connection, timeout, Stripe's 5xx, rate limit) is ProviderUnavailable.
 * - Callbacks: `verifyEvent` checks the `Stripe-Signature` of a webhook's raw body.
 */
import Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { isoCurrency } from '../../../definitions/billing/money.ts';
import { billingAccounts } from '../../db/schema.ts';
import type { BillingDeps } from '../deps.ts';
import { ProviderUnavailable, type CardProvider, type ChargeOutcome, type ChargeRequest, type SavedCard, type SetupOutcome, type SetupStart } from './types.ts';

export interface StripeProviderOptions {
  /** How long one call may take before its outcome counts as unknown (ms). */
  timeoutMs?: number;
}

/** Errors after which Stripe's answer is unknown or not given: ask again later with the same key. */
const unavailableTypes = new Set(['StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError', 'StripeAuthenticationError', 'StripePermissionError']);

/** The SDK's options for an API address (STRIPE_API_URL): its host, port and protocol. */
export function stripeClientOptions(apiUrl: string, timeoutMs: number): Stripe.StripeConfig {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    timeout: timeoutMs,
    // The SDK's own retries would resend with the same key; ours come from the billing run instead.
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'Larder' },
  };
}

export class StripeProvider implements CardProvider {
  readonly name = 'stripe' as const;
  readonly framed = false;
  readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(
    private readonly deps: BillingDeps,
    options: StripeProviderOptions = {},
  ) {
    const settings = deps.config.billing.stripe;
    if (!settings) throw new Error('BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    this.stripe = new Stripe(settings.secretKey, stripeClientOptions(settings.apiUrl, options.timeoutMs ?? 20_000));
    this.webhookSecret = settings.webhookSecret;
  }

  /** Runs a call, turning "no answer" into ProviderUnavailable. */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type && unavailableTypes.has(type)) {
        this.deps.log.warn({ type, code: (error as { code?: string }).code, message: (error as Error).message }, `stripe: ${what} got no answer`);
        throw new ProviderUnavailable(`stripe: ${what}: ${(error as Error).message}`);
      }
      throw error;
    }
  }

  /** The organization's Stripe customer: the one its saved card belongs to, else a new one. */
  private async customerFor(start: SetupStart): Promise<string> {
    const [account] = await this.deps.database.db
      .select({ customer: billingAccounts.cardCustomer })
      .from(billingAccounts)
      .where(and(eq(billingAccounts.organizationId, start.organizationId), eq(billingAccounts.cardProvider, 'stripe')));
    if (account?.customer) return account.customer;
    const customer = await this.call('creating a customer', () =>
      this.stripe.customers.create(
        { ...(start.billingEmail ? { email: start.billingEmail } : {}), metadata: { organizationId: start.organizationId } },
        { idempotencyKey: `larder-customer-${start.sessionId}` },
      ),
    );
    return customer.id;
  }

  async startSetup(start: SetupStart): Promise<{ url: string; providerSessionId: string }> {
    const customer = await this.customerFor(start);
    const session = await this.call('creating a checkout session', () =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'setup',
          customer,
          allowed_payment_method_types: ['card'],
          success_url: start.returnUrl,
          cancel_url: `${this.deps.config.publicUrl}/organization/${start.organizationId}/settings`,
          client_reference_id: start.sessionId,
          metadata: { larderSession: start.sessionId, organizationId: start.organizationId },
          // Checkout's page ends with our session (Stripe takes 30 minutes to 24 hours).
          expires_at: Math.floor(start.expiresAt.getTime() / 1000),
        },
        { idempotencyKey: `larder-setup-${start.sessionId}` },
      ),
    );
    if (!session.url) throw new Error('stripe: the checkout session has no url');
    return { url: session.url, providerSessionId: session.id };
  }

  async setupOutcome(providerSessionId: string): Promise<SetupOutcome> {
    const session = await this.call('reading a checkout session', () => this.stripe.checkout.sessions.retrieve(providerSessionId, { expand: ['setup_intent'] }));
    if (session.status !== 'complete' || !session.setup_intent) return { status: 'open' };
    const intent =
      typeof session.setup_intent === 'string' ? await this.call('reading a setup intent', () => this.stripe.setupIntents.retrieve(session.setup_intent as string)) : session.setup_intent;
    if (intent.status !== 'succeeded' || !intent.payment_method) return { status: 'open' };
    const method =
      typeof intent.payment_method === 'string'
        ? await this.call('reading a payment method', () => this.stripe.paymentMethods.retrieve(intent.payment_method as string))
        : intent.payment_method;
    const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
    const card: SavedCard = { token: method.id, customer, last4: method.card?.last4 ?? '0000', brand: method.card?.brand ?? 'card' };
    return { status: 'completed', card };
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) throw new Error(`stripe charge: the amount must be a positive integer of minor units, not ${request.amount}`);
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.call('charging a card', () =>
        this.stripe.paymentIntents.create(
          {
            amount: request.amount,
            currency: isoCurrency[request.currency].toLowerCase(),
            payment_method: request.card.token,
            ...(request.card.customer ? { customer: request.card.customer } : {}),
            confirm: true,
            off_session: true,
            description: request.description,
            metadata: { idempotencyKey: request.idempotencyKey },
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
    } catch (error) {
      const type = (error as { type?: string }).type;
      // A card Stripe refuses, or one it cannot use (detached, missing): nothing was charged.
      if (type === 'StripeCardError' || type === 'StripeInvalidRequestError') {
        const { code, decline_code: declineCode } = error as Stripe.errors.StripeError;
        return { status: 'declined', reason: declineCode ?? code ?? 'card_declined' };
      }
      throw error;
    }
    if (intent.status === 'succeeded') return { status: 'succeeded', providerChargeId: intent.id };
    // Cards settle at once; anything still moving is asked again later (the same key answers the same intent).
    if (intent.status === 'processing') throw new ProviderUnavailable(`stripe: payment intent ${intent.id} is still processing`);
    return { status: 'declined', reason: intent.last_payment_error?.code ?? intent.status };
  }

  /**
   * A webhook's event, if its `Stripe-Signature` is Stripe's for this raw body (within the SDK's
   * five-minute tolerance, on the real clock: the signature's time is Stripe's, not billing's).
   */
  verifyEvent(rawBody: Buffer | string, signature: string | undefined): Stripe.Event | undefined {
    if (!signature) return undefined;
    try {
      return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch {
      return undefined;
    }
  }
}
