/**
 * A loopback HTTP server that answers as Stripe's API does for the calls Larder's Stripe provider
 * makes (server/billing/providers/stripe.ts), so the tests run the real `stripe` SDK against it:
 * form-encoded requests, JSON objects with Stripe's ids and `object` names, errors in Stripe's
 * `{ error: { type, code, decline_code, message } }` shape, and the `Idempotency-Key` header
 * honoured as Stripe does (the same key answers the first answer again and does nothing more).
 *
 * The tests drive what Stripe's hosted pages would do (a customer completing Checkout) with
 * `completeCheckout`, and make charges decline (`declineCard`) or answer too late (`hangNext`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

type Json = Record<string, unknown>;

export interface StandinRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Record<string, string>;
}

export interface StripeStandin {
  url: string;
  secretKey: string;
  requests: StandinRequest[];
  customers: Map<string, Json>;
  sessions: Map<string, Json>;
  paymentIntents: Map<string, Json>;
  /** What Stripe's Checkout page does when a customer saves a card: the session completes with a SetupIntent and its payment method. */
  completeCheckout(sessionId: string, card?: { last4?: string; brand?: string }): Json;
  /** Every later charge of this payment method is declined (`card_declined`). */
  declineCard(paymentMethodId: string): void;
  /** The next payment-intent creation is done, but its answer is held back this long (a timeout after charging). */
  hangNext(ms: number): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const unix = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding, flattened: `metadata[a]=1` stays the key `metadata[a]`. */
function parseForm(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) params[key] = value;
  return params;
}

function nested(params: Record<string, string>, name: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const match = new RegExp(`^${name}\\[([^\\]]+)\\]$`).exec(key);
    if (match) found[match[1]!] = value;
  }
  return found;
}

export async function startStripeStandin(): Promise<StripeStandin> {
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const requests: StandinRequest[] = [];
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const setupIntents = new Map<string, Json>();
  const paymentMethods = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const declined = new Set<string>();
  /** Answers already given per idempotency key: the same key gets the same status and body. */
  const answered = new Map<string, { status: number; body: Json }>();
  let hang = 0;
  let base = '';

  const error = (status: number, type: string, message: string, extra: Json = {}) => ({ status, body: { error: { type, message, ...extra } } });
  const missing = (what: string, value: string) => error(404, 'invalid_request_error', `No such ${what}: '${value}'`, { code: 'resource_missing', param: 'id' });

  function createCustomer(params: Record<string, string>) {
    const customer = { id: id('cus'), object: 'customer', email: params.email ?? null, metadata: nested(params, 'metadata'), created: unix() };
    customers.set(customer.id, customer);
    return { status: 200, body: customer };
  }

  function createSession(params: Record<string, string>) {
    if (params.mode !== 'setup') return error(400, 'invalid_request_error', 'This stand-in knows only setup mode.', { param: 'mode' });
    if (params.customer && !customers.has(params.customer)) return missing('customer', params.customer);
    if (!params.success_url) return error(400, 'invalid_request_error', 'Missing required param: success_url.', { param: 'success_url' });
    const sessionId = id('cs');
    const session = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'setup',
      status: 'open',
      url: `${base}/checkout/${sessionId}`,
      customer: params.customer ?? null,
      client_reference_id: params.client_reference_id ?? null,
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      metadata: nested(params, 'metadata'),
      expires_at: params.expires_at ? Number(params.expires_at) : unix() + 86_400,
      setup_intent: null as string | null,
      livemode: false,
    };
    sessions.set(sessionId, session);
    return { status: 200, body: session };
  }

  function createPaymentIntent(params: Record<string, string>) {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) return error(400, 'invalid_request_error', 'Invalid integer: amount', { param: 'amount' });
    const method = params.payment_method ? paymentMethods.get(params.payment_method) : undefined;
    if (!method) return missing('payment_method', params.payment_method ?? '');
    if (params.customer && method.customer !== params.customer) {
      return error(400, 'invalid_request_error', 'The provided PaymentMethod does not belong to this customer.', { param: 'payment_method' });
    }
    const intent: Json = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      currency: params.currency,
      customer: params.customer ?? null,
      payment_method: method.id,
      confirm: params.confirm === 'true',
      off_session: params.off_session === 'true',
      description: params.description ?? null,
      metadata: nested(params, 'metadata'),
      status: 'succeeded',
      last_payment_error: null,
      created: unix(),
    };
    if (declined.has(method.id as string)) {
      const lastError = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
      Object.assign(intent, { status: 'requires_payment_method', last_payment_error: lastError });
      paymentIntents.set(intent.id as string, intent);
      return error(402, 'card_error', 'Your card was declined.', { code: 'card_declined', decline_code: 'generic_decline', payment_intent: intent });
    }
    paymentIntents.set(intent.id as string, intent);
    return { status: 200, body: intent };
  }

  function retrieveSession(sessionId: string, expand: string[]) {
    const session = sessions.get(sessionId);
    if (!session) return missing('checkout.session', sessionId);
    const answer: Json = { ...session };
    if (expand.includes('setup_intent') && typeof session.setup_intent === 'string') {
      const intent = { ...setupIntents.get(session.setup_intent)! };
      if (expand.includes('setup_intent.payment_method')) intent.payment_method = paymentMethods.get(intent.payment_method as string);
      answer.setup_intent = intent;
    }
    return { status: 200, body: answer };
  }

  function route(method: string, path: string, params: Record<string, string>, query: URLSearchParams): { status: number; body: Json } {
    if (method === 'POST' && path === '/v1/customers') return createCustomer(params);
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(params);
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(params);
    let match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const expand = [...query.entries()].filter(([key]) => key.startsWith('expand')).map(([, value]) => value);
      return retrieveSession(match[1]!, expand);
    }
    match = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) return setupIntents.has(match[1]!) ? { status: 200, body: setupIntents.get(match[1]!)! } : missing('setup_intent', match[1]!);
    match = /^\/v1\/payment_methods\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) return paymentMethods.has(match[1]!) ? { status: 200, body: paymentMethods.get(match[1]!)! } : missing('payment_method', match[1]!);
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', base);
      const method = request.method ?? 'GET';
      const params = parseForm(Buffer.concat(chunks).toString('utf8'));
      const key = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : undefined;
      requests.push({ method, path: url.pathname, idempotencyKey: key, params });

      let answer: { status: number; body: Json };
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        answer = error(401, 'invalid_request_error', 'Invalid API Key provided.');
      } else if (method === 'POST' && key && answered.has(`${url.pathname} ${key}`)) {
        answer = answered.get(`${url.pathname} ${key}`)!;
      } else {
        answer = route(method, url.pathname, params, url.searchParams);
        if (method === 'POST' && key) answered.set(`${url.pathname} ${key}`, answer);
      }
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req'), ...(key ? { 'idempotency-key': key } : {}) });
        response.end(JSON.stringify(answer.body));
      };
      const delay = method === 'POST' && url.pathname === '/v1/payment_intents' ? hang : 0;
      if (delay) {
        hang = 0;
        setTimeout(send, delay);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    secretKey,
    requests,
    customers,
    sessions,
    paymentIntents,
    completeCheckout(sessionId, card = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`stand-in: no checkout session ${sessionId}`);
      const method = {
        id: id('pm'),
        object: 'payment_method',
        type: 'card',
        customer: session.customer,
        card: { brand: card.brand ?? 'visa', last4: card.last4 ?? '4242', exp_month: 12, exp_year: 2030, funding: 'credit' },
      };
      paymentMethods.set(method.id, method);
      const intent = { id: id('seti'), object: 'setup_intent', status: 'succeeded', customer: session.customer, payment_method: method.id, usage: 'off_session' };
      setupIntents.set(intent.id, intent);
      Object.assign(session, { status: 'complete', setup_intent: intent.id });
      return { ...session };
    },
    declineCard(paymentMethodId) {
      declined.add(paymentMethodId);
    },
    hangNext(ms) {
      hang = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
