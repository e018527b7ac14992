/**
 * Card setup (docs/billing.md "Card providers"), under `/billing`:
 * - `GET creditCardProcessingLink?organizationID[&planID]` (organization admins) opens a card page;
 * - `GET cardSession?sessionID` and `POST creditCardBillingComplete?sessionID` (admins of the
 *   session's organization; anyone else's is `card_session_other_organization`) read and complete it;
 * - the provider's own pages and callbacks, which carry no bearer token: the sandbox's card page
 *   (its session id is the credential) and Stripe's webhook (its signature is).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { CardProcessingLink, CardSessionState, OrganizationIdQuery } from '../../definitions/schemas/billing.ts';
import { currentUser } from '../auth/authenticate.ts';
import { billingCardSessions, billingProviderEvents } from '../db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../lib/errors.ts';
import { namedIn, type ScopeAddress } from '../lib/request-scope.ts';
import { responses } from '../lib/schemas.ts';
import { CardSessionService, type CardFollowUps, type CardSessionRow } from './cards.ts';
import { SandboxProvider } from './providers/sandbox.ts';
import { sandboxPageRoutes } from './providers/sandbox-page.ts';
import { StripeProvider } from './providers/stripe.ts';

const SessionQuery = Type.Object({ sessionID: Type.String({ minLength: 1, maxLength: 200 }) });

/** Raw webhook bodies past this size are not Stripe's. */
const webhookBodyLimit = 1024 * 1024;

export async function cardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { billing, access } = app.ctx;
  app.addHook('onRequest', async () => {
    if (!billing.enabled) throw notFound('billing_disabled', 'Billing is turned off on this server.');
  });

  const followUps: CardFollowUps = {
    changePlan: (organizationId, planId) => billing.accounts.changePlan(organizationId, planId),
    retryFailed: (organizationId) => billing.runs.retryFailed(organizationId),
  };
  const cards = new CardSessionService(billing.deps, billing.provider, followUps);

  /** The session named in the query, for an admin of its organization. */
  const locateSession = async (request: FastifyRequest): Promise<ScopeAddress> => {
    const row = await cards.require((request.query as { sessionID: string }).sessionID);
    try {
      await access.organization(currentUser(request).userId, row.organizationId);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'not_a_member' || error.code === 'organization_not_found')) {
        throw forbidden('card_session_other_organization', 'This card page belongs to another organization.');
      }
      throw error;
    }
    return { organization: row.organizationId, resource: row };
  };
  const sessionAccess = { action: 'admin', scope: 'organization', locate: locateSession } as const;

  app.get(
    '/creditCardProcessingLink',
    {
      onRequest: app.requireUser,
      config: { action: 'admin', scope: 'organization', locate: namedIn('query') },
      schema: {
        summary: "Open a card page for the organization's card (admin); planID: the plan to move to when it completes",
        tags: ['billing'],
        security: [{ bearer: [] as string[] }],
        querystring: Type.Object({ organizationID: OrganizationIdQuery, planID: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: responses({ 200: CardProcessingLink }),
      },
    },
    async function cardProcessingLink(request) {
      return cards.createLink(request.query.organizationID, currentUser(request).userId, request.query.planID);
    },
  );

  app.get(
    '/cardSession',
    {
      onRequest: app.requireUser,
      config: sessionAccess,
      schema: {
        summary: 'The state of a card page (admin of its organization)',
        tags: ['billing'],
        security: [{ bearer: [] as string[] }],
        querystring: SessionQuery,
        response: responses({ 200: CardSessionState }),
      },
    },
    async function cardSession(request) {
      return cards.stateOf(request.scope.resource as CardSessionRow);
    },
  );

  app.post(
    '/creditCardBillingComplete',
    {
      onRequest: app.requireUser,
      config: sessionAccess,
      schema: {
        summary: "Confirm a card page after the provider's return: saves the card, moves to the chosen plan, retries failed charges (admin)",
        tags: ['billing'],
        security: [{ bearer: [] as string[] }],
        querystring: SessionQuery,
        response: responses({ 200: CardSessionState }),
      },
    },
    async function creditCardBillingComplete(request) {
      return cards.complete(request.scope.resource as CardSessionRow);
    },
  );

  if (billing.provider instanceof SandboxProvider) await sandboxPageRoutes(app, { cards, provider: billing.provider });
  if (billing.provider instanceof StripeProvider) await app.register(stripeWebhookRoutes, { cards, provider: billing.provider });
}

/**
 * `POST /billing/providers/stripe/webhook`: the raw body is kept (its signature is over the exact
 * bytes), so this plugin parses every content type as a Buffer. A forged or missing signature is
 * `provider_signature_invalid`; an event id seen before is answered without effect; an event whose
 * handling fails is forgotten again, so Stripe's retry is handled.
 */
async function stripeWebhookRoutes(app: FastifyInstance, { cards, provider }: { cards: CardSessionService; provider: StripeProvider }) {
  const { db } = app.ctx.billing.deps.database;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: webhookBodyLimit }, (_request, body, done) => done(null, body));

  app.post(
    '/providers/stripe/webhook',
    { schema: { summary: "Stripe's webhook (signed; no bearer token)", tags: ['billing'], response: responses({ 200: Type.Object({ received: Type.Literal(true), replayed: Type.Boolean() }) }) } },
    async function stripeWebhook(request) {
      const signature = request.headers['stripe-signature'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const event = provider.verifyEvent(body, typeof signature === 'string' ? signature : undefined);
      if (!event) throw badRequest('provider_signature_invalid', "The callback's signature is not valid.");
      const [fresh] = await db
        .insert(billingProviderEvents)
        .values({ provider: 'stripe', eventId: event.id, receivedAt: cards.now() })
        .onConflictDoNothing()
        .returning({ eventId: billingProviderEvents.eventId });
      if (!fresh) return { received: true as const, replayed: true };
      try {
        await handleStripeEvent(event, cards, db, request);
      } catch (error) {
        await db.delete(billingProviderEvents).where(and(eq(billingProviderEvents.provider, 'stripe'), eq(billingProviderEvents.eventId, event.id)));
        throw error;
      }
      return { received: true as const, replayed: false };
    },
  );
}

/** `checkout.session.completed` completes our session as the console's return would; other events are not ours to act on. */
async function handleStripeEvent(event: Stripe.Event, cards: CardSessionService, db: FastifyInstance['ctx']['database']['db'], request: FastifyRequest) {
  if (event.type !== 'checkout.session.completed') return;
  const checkout = event.data.object;
  if (checkout.mode !== 'setup') return;
  const [row] = await db
    .select()
    .from(billingCardSessions)
    .where(and(eq(billingCardSessions.provider, 'stripe'), eq(billingCardSessions.providerSessionId, checkout.id)));
  if (!row) return;
  try {
    await cards.complete(row, { alreadyCompleted: 'ignore' });
  } catch (error) {
    // A refusal (expired, a plan change declined) is final: Stripe retrying would change nothing.
    if (error instanceof AppError && error.status < 500) {
      request.log.info({ code: error.code, sessionId: row.id }, 'stripe webhook: card session not completed');
      return;
    }
    throw error;
  }
}
