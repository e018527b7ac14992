/**
 * The Stripe card provider (docs/billing.md "Card providers") with the real `stripe` SDK pointed at
 * a loopback stand-in of Stripe's API (support/stripe-standin.ts): Checkout in setup mode for a
 * customer made once, completion reading the SetupIntent's card, off-session charges under our
 * idempotency key (a timeout after charging, asked again, charges once), declines, and the
 * webhook: signed by the SDK's own test helper, forged or missing signatures refused, replays
 * answered without effect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import { billingAccounts, billingCardSessions, billingProviderEvents } from '../../server/db/schema.ts';
import { StripeProvider } from '../../server/billing/providers/stripe.ts';
import { ProviderUnavailable } from '../../server/billing/providers/types.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { startStripeStandin, type StripeStandin } from './support/stripe-standin.ts';

const WEBHOOK_SECRET = 'whsec_larder_test_secret';

describe.each(databaseKinds)('stripe card provider on %s', (kind) => {
  let database: Database;
  let app: App;
  let standin: StripeStandin;
  let admin: { token: string; org: string };
  let stranger: { token: string; org: string };
  const signer = new Stripe('sk_test_signer_only');

  const newAdmin = async (prefix: string) => {
    const { tokens } = await verifiedUser(app, prefix);
    const created = await app.inject({ method: 'POST', url: '/api/organization', headers: bearer(tokens.access_token), payload: { name: `${prefix} org` } });
    expect(created.statusCode, created.body).toBe(201);
    const org = json(created).id as string;
    await database.db.update(billingAccounts).set({ billingEmail: `${prefix}@billing.example`, city: 'Berlin', country: 'DE' }).where(eq(billingAccounts.organizationId, org));
    return { token: tokens.access_token, org };
  };
  const openLink = async (who: { token: string; org: string }, planID?: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/billing/creditCardProcessingLink?organizationID=${who.org}${planID ? `&planID=${planID}` : ''}`,
      headers: bearer(who.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ url: string; sessionID: string; provider: string; framed: boolean }>(response);
  };
  const complete = (who: { token: string }, sessionID: string) =>
    app.inject({ method: 'POST', url: `/billing/creditCardBillingComplete?sessionID=${encodeURIComponent(sessionID)}`, headers: bearer(who.token) });
  const sessionRow = async (sessionID: string) => (await database.db.select().from(billingCardSessions).where(eq(billingCardSessions.id, sessionID)))[0]!;
  const account = async (org: string) => (await database.db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org)))[0]!;
  const event = (type: string, object: Record<string, unknown>, eventId = `evt_${Math.random().toString(36).slice(2)}`) =>
    JSON.stringify({ id: eventId, object: 'event', type, api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), data: { object }, livemode: false });
  const deliver = (payload: string, signature: string | undefined, contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url: '/billing/providers/stripe/webhook',
      headers: { 'content-type': contentType, ...(signature === undefined ? {} : { 'stripe-signature': signature }) },
      payload,
    });
  const signed = (payload: string, secret = WEBHOOK_SECRET) => signer.webhooks.generateTestHeaderString({ payload, secret });

  beforeAll(async () => {
    standin = await startStripeStandin();
    database = await openTestDatabase(kind);
    const config = loadConfig({
      ...testEnv,
      BILLING: '1',
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: standin.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standin.url,
    });
    app = await buildApp({ config, database, logger: false });
    await app.ready();
    admin = await newAdmin('stripeadmin');
    stranger = await newAdmin('stripestranger');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await standin?.close();
  });

  it('is the configured provider, pointed at STRIPE_API_URL', () => {
    expect(app.ctx.billing.provider).toBeInstanceOf(StripeProvider);
  });

  it("opens Checkout in setup mode for the organization's customer; Stripe's page is not framed", async () => {
    const opened = await openLink(admin);
    expect(opened.provider).toBe('stripe');
    expect(opened.framed).toBe(false);
    const row = await sessionRow(opened.sessionID);
    expect(row.providerSessionId).toMatch(/^cs_test_/);
    expect(opened.url).toBe(`${standin.url}/checkout/${row.providerSessionId}`);
    const checkout = standin.sessions.get(row.providerSessionId!)!;
    expect(checkout).toMatchObject({
      mode: 'setup',
      success_url: `http://larder.test/billingComplete?sessionID=${opened.sessionID}`,
      cancel_url: `http://larder.test/organization/${admin.org}/settings`,
      client_reference_id: opened.sessionID,
      metadata: { larderSession: opened.sessionID, organizationId: admin.org },
      expires_at: Math.floor(row.expiresAt.getTime() / 1000),
    });
    const customer = standin.customers.get(checkout.customer as string)!;
    expect(customer).toMatchObject({ email: 'stripeadmin@billing.example', metadata: { organizationId: admin.org } });
    const made = standin.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/checkout/sessions'));
    expect(made.at(-1)!.idempotencyKey).toBe(`larder-setup-${opened.sessionID}`);
    expect(made.at(-1)!.params['allowed_payment_method_types[0]']).toBe('card');
  });

  it('completes once Stripe says so: the SetupIntent\'s card is saved with its customer; the plan is chosen and charged off session', async () => {
    const opened = await openLink(admin, 'basic');
    const row = await sessionRow(opened.sessionID);
    // Not yet completed at Stripe: nothing changes.
    const early = await complete(admin, opened.sessionID);
    expect(early.statusCode, early.body).toBe(200);
    expect(json(early).status).toBe('open');

    standin.completeCheckout(row.providerSessionId!, { last4: '4242', brand: 'visa' });
    const done = await complete(admin, opened.sessionID);
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toMatchObject({ status: 'completed', planID: 'basic' });
    const saved = await account(admin.org);
    const checkout = standin.sessions.get(row.providerSessionId!)!;
    expect(saved).toMatchObject({ cardProvider: 'stripe', cardLast4: '4242', cardBrand: 'visa', cardCustomer: checkout.customer, planId: 'basic' });
    expect(saved.cardToken).toMatch(/^pm_test_/);
    // The upgrade was charged through a PaymentIntent, confirmed off session, under the charge's key.
    const charges = standin.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(charges.length).toBeGreaterThanOrEqual(1);
    expect(charges.at(-1)!.params).toMatchObject({ confirm: 'true', off_session: 'true', payment_method: saved.cardToken, customer: checkout.customer, currency: 'usd' });
    expect(charges.at(-1)!.idempotencyKey).toBeTruthy();
    expectProblem(await complete(admin, opened.sessionID), 409, 'card_session_completed');
    expectProblem(await complete(stranger, opened.sessionID), 403, 'card_session_other_organization');
  });

  it('reuses the customer of the saved card for the next setup', async () => {
    const customersBefore = standin.customers.size;
    const { cardCustomer } = await account(admin.org);
    const opened = await openLink(admin);
    const checkout = standin.sessions.get((await sessionRow(opened.sessionID)).providerSessionId!)!;
    expect(checkout.customer).toBe(cardCustomer);
    expect(standin.customers.size).toBe(customersBefore);
  });

  it('charges: one key is one PaymentIntent, a timeout after charging asked again charges once, a decline is a decline, no answer is ProviderUnavailable', async () => {
    const saved = await account(admin.org);
    const card = { token: saved.cardToken!, customer: saved.cardCustomer, last4: saved.cardLast4!, brand: saved.cardBrand! };
    const provider = new StripeProvider(app.ctx.billing.deps, { timeoutMs: 300 });
    const intentsOf = (key: string) => standin.requests.filter((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === key).length;

    const first = await provider.charge({ card, amount: 1234, currency: 'USD', idempotencyKey: `k1-${kind}`, description: 'test' });
    expect(first).toMatchObject({ status: 'succeeded', providerChargeId: expect.stringMatching(/^pi_test_/) });
    expect(await provider.charge({ card, amount: 1234, currency: 'USD', idempotencyKey: `k1-${kind}`, description: 'test' })).toEqual(first);
    const created = [...standin.paymentIntents.values()].filter((pi) => (pi.metadata as Record<string, string>).idempotencyKey === `k1-${kind}`);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ amount: 1234, currency: 'usd' });

    // Stripe charges, but its answer comes after our timeout: the outcome is unknown ...
    standin.hangNext(1500);
    await expect(provider.charge({ card, amount: 500, currency: 'NIS', idempotencyKey: `k2-${kind}`, description: 'slow' })).rejects.toBeInstanceOf(ProviderUnavailable);
    // ... and asked again with the same key it is the one charge already made.
    const again = await provider.charge({ card, amount: 500, currency: 'NIS', idempotencyKey: `k2-${kind}`, description: 'slow' });
    expect(again.status).toBe('succeeded');
    expect([...standin.paymentIntents.values()].filter((pi) => (pi.metadata as Record<string, string>).idempotencyKey === `k2-${kind}`)).toHaveLength(1);
    expect(standin.paymentIntents.get((again as { providerChargeId: string }).providerChargeId)).toMatchObject({ currency: 'ils', amount: 500 });
    expect(intentsOf(`k2-${kind}`)).toBe(2);

    standin.declineCard(card.token);
    expect(await provider.charge({ card, amount: 700, currency: 'USD', idempotencyKey: `k3-${kind}`, description: 'declined' })).toEqual({ status: 'declined', reason: 'generic_decline' });
    expect(await provider.charge({ card, amount: 700, currency: 'USD', idempotencyKey: `k3-${kind}`, description: 'declined' })).toEqual({ status: 'declined', reason: 'generic_decline' });
    // A payment method Stripe does not know is not charged.
    expect(await provider.charge({ card: { ...card, token: 'pm_missing' }, amount: 700, currency: 'USD', idempotencyKey: `k4-${kind}`, description: 'x' })).toEqual({
      status: 'declined',
      reason: 'resource_missing',
    });

    // Nobody answering at all.
    const closed = await startStripeStandin();
    await closed.close();
    const nowhere = new StripeProvider({ ...app.ctx.billing.deps, config: { ...app.ctx.billing.deps.config, billing: { ...app.ctx.billing.deps.config.billing, stripe: { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiUrl: closed.url } } } }, { timeoutMs: 500 });
    await expect(nowhere.charge({ card, amount: 100, currency: 'USD', idempotencyKey: `k5-${kind}`, description: 'x' })).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(nowhere.setupOutcome('cs_test_x')).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(provider.charge({ card, amount: 1.5, currency: 'USD', idempotencyKey: `k6-${kind}`, description: 'x' })).rejects.toThrow(/positive integer/);
  });

  it('a card page Stripe cannot be asked about answers payment_provider_unavailable and opens nothing', async () => {
    const other = await newAdmin('stripedown');
    const down = await startStripeStandin();
    await down.close();
    const config = loadConfig({ ...testEnv, BILLING_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: down.url });
    const offline = await buildApp({ config, database, logger: false });
    try {
      await offline.ready();
      const response = await offline.inject({ method: 'GET', url: `/billing/creditCardProcessingLink?organizationID=${other.org}`, headers: bearer(other.token) });
      expectProblem(response, 503, 'payment_provider_unavailable');
      const rows = await database.db.select().from(billingCardSessions).where(eq(billingCardSessions.organizationId, other.org));
      expect(rows.map((row) => row.status)).toEqual(['expired']);
    } finally {
      await offline.close();
    }
  });

  it('webhook: checkout.session.completed, signed, completes the session; a replay has no effect; the console then finds it completed', async () => {
    const other = await newAdmin('stripehook');
    const opened = await openLink(other);
    const row = await sessionRow(opened.sessionID);
    const checkout = standin.completeCheckout(row.providerSessionId!, { last4: '0005', brand: 'mastercard' });
    const payload = event('checkout.session.completed', checkout, `evt_done_${kind}`);
    const first = await deliver(payload, signed(payload));
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toEqual({ received: true, replayed: false });
    expect(await account(other.org)).toMatchObject({ cardProvider: 'stripe', cardLast4: '0005', cardBrand: 'mastercard' });
    expect((await sessionRow(opened.sessionID)).status).toBe('completed');

    // The same event again (Stripe retries, or someone replays it): answered, nothing done.
    await database.db.update(billingAccounts).set({ cardLast4: '9999' }).where(eq(billingAccounts.organizationId, other.org));
    const replay = await deliver(payload, signed(payload));
    expect(replay.statusCode).toBe(200);
    expect(json(replay)).toEqual({ received: true, replayed: true });
    expect((await account(other.org)).cardLast4).toBe('9999');
    const seen = await database.db.select().from(billingProviderEvents).where(eq(billingProviderEvents.eventId, `evt_done_${kind}`));
    expect(seen).toHaveLength(1);
    // A new event for the completed session changes nothing either.
    const later = event('checkout.session.completed', checkout);
    expect(json(await deliver(later, signed(later)))).toEqual({ received: true, replayed: false });
    expect((await account(other.org)).cardLast4).toBe('9999');
    expectProblem(await complete(other, opened.sessionID), 409, 'card_session_completed');
  });

  it('webhook: a forged, missing, stale or mismatched signature is refused and changes nothing', async () => {
    const other = await newAdmin('stripeforged');
    const opened = await openLink(other);
    const row = await sessionRow(opened.sessionID);
    const checkout = standin.completeCheckout(row.providerSessionId!);
    const payload = event('checkout.session.completed', checkout, `evt_forged_${kind}`);

    expectProblem(await deliver(payload, signed(payload, 'whsec_someone_else')), 400, 'provider_signature_invalid');
    expectProblem(await deliver(payload, undefined), 400, 'provider_signature_invalid');
    expectProblem(await deliver(payload, 'garbage'), 400, 'provider_signature_invalid');
    const stale = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expectProblem(await deliver(payload, stale), 400, 'provider_signature_invalid');
    // A signature of another body.
    const tampered = payload.replace(checkout.id as string, 'cs_test_other');
    expectProblem(await deliver(tampered, signed(payload)), 400, 'provider_signature_invalid');
    expectProblem(await app.inject({ method: 'POST', url: '/billing/providers/stripe/webhook' }), 400, 'provider_signature_invalid');

    expect((await account(other.org)).cardToken).toBeNull();
    expect((await sessionRow(opened.sessionID)).status).toBe('open');
    expect(await database.db.select().from(billingProviderEvents).where(eq(billingProviderEvents.eventId, `evt_forged_${kind}`))).toEqual([]);
    // The genuine one, sent as another content type, is still read from its exact bytes.
    const genuine = await deliver(payload, signed(payload), 'text/plain');
    expect(genuine.statusCode, genuine.body).toBe(200);
    expect((await account(other.org)).cardToken).toMatch(/^pm_test_/);
  });

  it('webhook: events that are not ours to act on are acknowledged', async () => {
    for (const payload of [
      event('payment_intent.succeeded', { id: 'pi_test_x', object: 'payment_intent' }),
      event('checkout.session.completed', { id: 'cs_test_unknown', object: 'checkout.session', mode: 'setup' }),
      event('checkout.session.completed', { id: 'cs_test_payment', object: 'checkout.session', mode: 'payment' }),
    ]) {
      const response = await deliver(payload, signed(payload));
      expect(response.statusCode, response.body).toBe(200);
      expect(json(response)).toEqual({ received: true, replayed: false });
    }
  });
});
