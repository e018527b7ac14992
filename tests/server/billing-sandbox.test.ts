/**
 * Card setup with the sandbox provider (docs/billing.md "Card providers"), end to end over HTTP:
 * the link and its refusals, the hosted page and its Content-Security-Policy, each published test
 * number's behaviour, completion once and only by the session's organization, expiry, idempotent
 * charges, and no full card number anywhere in the database or the log afterwards.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import { billingAccounts, billingCardSessions, sandboxCharges } from '../../server/db/schema.ts';
import { SandboxProvider, luhnValid } from '../../server/billing/providers/sandbox.ts';
import { readCardForm } from '../../server/billing/providers/sandbox-page.ts';
import { defaultUpgradePlan, plans } from '../../definitions/billing/plans.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { FORM, expectProblem, form } from './support/assertions.ts';

const GOOD = '4242424242424242';
const DECLINE = '4000000000000002';
const LATER = '4000000000000341';
/** A valid number that is not one of the sandbox's. */
const OTHER = '5555555555554444';
/** A number that fails Luhn's check. */
const BAD_LUHN = '4242424242424241';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('sandbox card rules', () => {
  it("checks Luhn's digit", () => {
    expect([GOOD, DECLINE, LATER, OTHER].every(luhnValid)).toBe(true);
    expect(luhnValid(BAD_LUHN)).toBe(false);
  });

  it('reads a form: digits with spaces, MM/YY through the end of its month, CVC, name; only the last four leave', () => {
    const now = new Date('2026-05-31T23:00:00Z');
    const ok = readCardForm({ number: '4242 4242 4242 4242', expiry: '05/26', cvc: '123', name: 'Ada' }, now);
    expect(ok).toEqual({ errors: {}, values: { expiry: '05/26', name: 'Ada' }, card: { last4: '4242', brand: 'visa', behaviour: 'succeed' } });
    expect(readCardForm({ number: GOOD, expiry: '04/26', cvc: '123', name: 'Ada' }, now).errors).toEqual({ expiry: 'This card has expired.' });
    expect(readCardForm({ number: GOOD, expiry: '13/30', cvc: '12', name: ' ' }, now).errors).toMatchObject({
      expiry: 'Enter the expiry as MM/YY.',
      cvc: 'Enter the 3 or 4 digits of the CVC.',
      name: 'Enter the name on the card.',
    });
    expect(readCardForm({ number: OTHER, expiry: '12/30', cvc: '123', name: 'Ada' }, now).errors.number).toMatch(/test cards/);
    expect(readCardForm({ number: BAD_LUHN, expiry: '12/30', cvc: '123', name: 'Ada' }, now).errors.number).toBe('Enter a valid card number.');
    expect(readCardForm(undefined, now).card).toBeUndefined();
    expect(readCardForm({ number: ['4242'], expiry: 5 }, now).card).toBeUndefined();
  });
});

describe.each(databaseKinds)('sandbox card provider on %s', (kind) => {
  let database: Database;
  let app: App;
  let now = new Date('2026-05-10T10:00:00Z');
  const logLines: string[] = [];
  let admin: { token: string; org: string };
  let stranger: { token: string; org: string };

  const newAdmin = async (prefix: string) => {
    const { tokens } = await verifiedUser(app, prefix);
    const created = await app.inject({ method: 'POST', url: '/api/organization', headers: bearer(tokens.access_token), payload: { name: `${prefix} org` } });
    expect(created.statusCode, created.body).toBe(201);
    return { token: tokens.access_token, org: json(created).id as string };
  };
  const setDetails = (org: string, values: Partial<typeof billingAccounts.$inferInsert>) =>
    database.db.update(billingAccounts).set(values).where(eq(billingAccounts.organizationId, org));
  const link = (who: { token: string; org: string }, planID?: string) =>
    app.inject({
      method: 'GET',
      url: `/billing/creditCardProcessingLink?organizationID=${who.org}${planID === undefined ? '' : `&planID=${encodeURIComponent(planID)}`}`,
      headers: bearer(who.token),
    });
  const openLink = async (who: { token: string; org: string }, planID?: string) => {
    const response = await link(who, planID);
    expect(response.statusCode, response.body).toBe(200);
    return json<{ url: string; sessionID: string; provider: string; framed: boolean }>(response);
  };
  const pagePath = (url: string) => new URL(url).pathname;
  const submit = (url: string, number: string, extra: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: pagePath(url), headers: FORM, payload: form(Object.entries({ number, expiry: '12/30', cvc: '123', name: 'Ada Lovelace', ...extra })) });
  const complete = (who: { token: string }, sessionID: string) =>
    app.inject({ method: 'POST', url: `/billing/creditCardBillingComplete?sessionID=${encodeURIComponent(sessionID)}`, headers: bearer(who.token) });
  const state = (who: { token: string }, sessionID: string) =>
    app.inject({ method: 'GET', url: `/billing/cardSession?sessionID=${encodeURIComponent(sessionID)}`, headers: bearer(who.token) });
  const account = async (org: string) => (await database.db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org)))[0]!;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const config = loadConfig({ ...testEnv, BILLING: '1', BILLING_PROVIDER: 'sandbox' });
    app = await buildApp({
      config,
      database,
      // Everything the server logs, at its most talkative, is kept to be searched for card numbers.
      logger: { level: 'trace', stream: { write: (line: string) => void logLines.push(line) } } as never,
      billing: { now: () => now },
    });
    await app.ready();
    admin = await newAdmin('cardadmin');
    stranger = await newAdmin('stranger');
    await setDetails(admin.org, { billingEmail: 'billing@example.com', city: 'Haifa', address: '1 Herzl St', country: 'IL', currency: 1 });
    await setDetails(stranger.org, { billingEmail: 'billing@stranger.example', city: 'Boston' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('refuses a link without billing e-mail and country, without a city, or for an unknown or hidden plan', async () => {
    const fresh = await newAdmin('nodetails');
    expectProblem(await link(fresh), 409, 'billing_details_required');
    await setDetails(fresh.org, { billingEmail: 'b@example.com' });
    const noCity = expectProblem(await link(fresh), 409, 'billing_address_required');
    expect(noCity.detail).toBe('Billing Address must be set before setting up credit card details');
    await setDetails(fresh.org, { city: '   ' });
    expectProblem(await link(fresh), 409, 'billing_address_required');
    await setDetails(fresh.org, { city: 'Tel Aviv' });
    const unknown = expectProblem(await link(fresh, 'platinum'), 400, 'plan_not_found');
    expect(json(await link(fresh, 'platinum')).params).toEqual({ planID: 'platinum' });
    expect(unknown.detail).toMatch(/platinum/);
    const hidden = plans.find((plan) => plan.hidden);
    if (hidden) expectProblem(await link(fresh, hidden.id), 400, 'plan_not_found');
    expectProblem(await link(fresh, ''), 400, 'plan_not_found');
    // Nothing was opened by the refusals.
    const opened = await database.db.select().from(billingCardSessions).where(eq(billingCardSessions.organizationId, fresh.org));
    expect(opened).toEqual([]);
    // Someone else's organization is not theirs to set up.
    expectProblem(await link({ token: stranger.token, org: fresh.org }), 403, 'not_a_member');
  });

  it('opens a framed sandbox page for an unguessable session of an hour; without a plan a free organization is taken to the default upgrade', async () => {
    const opened = await openLink(admin);
    expect(opened).toMatchObject({ provider: 'sandbox', framed: true });
    expect(opened.url).toBe(`http://larder.test/billing/providers/sandbox/pay/${opened.sessionID}`);
    // 24 random bytes, base64url.
    expect(opened.sessionID).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [row] = await database.db.select().from(billingCardSessions).where(eq(billingCardSessions.id, opened.sessionID));
    expect(row!.expiresAt.getTime() - now.getTime()).toBe(3_600_000);
    expect(row!.providerSessionId).toMatch(/^sbx_card_/);
    const read = await state(admin, opened.sessionID);
    expect(json(read)).toEqual({ sessionID: opened.sessionID, organizationID: admin.org, planID: defaultUpgradePlan.id, status: 'open' });
  });

  it('serves the page under its own policy: nothing loads but its hashed style, it posts only to itself, only Larder frames it', async () => {
    const opened = await openLink(admin);
    const page = await app.inject({ method: 'GET', url: pagePath(opened.url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("script-src 'none'");
    expect(policy).not.toContain('unsafe');
    const styleBlock = /<style>([\s\S]*?)<\/style>/.exec(page.body)![1]!;
    expect(policy).toContain(`style-src ${sha256(styleBlock)}`);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).not.toContain('<script');
    expect(page.body).not.toMatch(/ style="/);
    expect(page.body).toContain('prefers-color-scheme: dark');
    for (const field of ['number', 'expiry', 'cvc', 'name']) {
      expect(page.body).toContain(`<label for="${field}">`);
      expect(page.body).toContain(`id="${field}" name="${field}"`);
    }
    expect(page.body).toContain(`<form method="post" action="/billing/providers/sandbox/pay/${opened.sessionID}"`);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('Larder');
    expect(page.body).not.toContain('Bagel');
    // No bearer token is needed, and an unknown session is a page of its own.
    const missing = await app.inject({ method: 'GET', url: '/billing/providers/sandbox/pay/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('There is no such card page.');
    expect(missing.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('refuses a number that fails the checks or is not a test card, and never sends the number back', async () => {
    const opened = await openLink(admin);
    const luhn = await submit(opened.url, BAD_LUHN);
    expect(luhn.statusCode).toBe(422);
    expect(luhn.body).toContain('Enter a valid card number.');
    expect(luhn.body).toContain('aria-invalid="true" aria-describedby="number-error"');
    expect(luhn.body).toContain('role="alert"');
    const other = await submit(opened.url, OTHER.replace(/(\d{4})/g, '$1 ').trim());
    expect(other.statusCode).toBe(422);
    expect(other.body).toContain('This sandbox takes only its test cards');
    const expired = await submit(opened.url, GOOD, { expiry: '04/26' });
    expect(expired.statusCode).toBe(422);
    expect(expired.body).toContain('This card has expired.');
    for (const response of [luhn, other, expired]) {
      expect(response.body).not.toMatch(/\d{12,}/);
      expect(response.body).not.toContain('5555 5555 5555 4444');
      expect(response.body).toMatch(/id="number" name="number" [^>]*value=""/);
      expect(response.body).toMatch(/id="cvc" name="cvc" [^>]*value=""/);
    }
    // The name and expiry are kept for the next try.
    expect(expired.body).toContain('value="04/26"');
    expect(expired.body).toContain('value="Ada Lovelace"');
    // Nothing was recorded: the session is still open.
    expect(json(await state(admin, opened.sessionID)).status).toBe('open');
  });

  it('4242 4242 4242 4242: saved; the page sends the whole window to /billingComplete; completion saves the card once and moves to the plan', async () => {
    const opened = await openLink(admin, 'basic');
    const saved = await submit(opened.url, '4242 4242 4242 4242');
    expect(saved.statusCode, saved.body).toBe(200);
    const returnUrl = `http://larder.test/billingComplete?sessionID=${opened.sessionID}`;
    expect(saved.body).toContain('The card ending in 4242 is saved.');
    expect(saved.body).toContain(`href="${returnUrl}" target="_top"`);
    const script = /<script>([\s\S]*?)<\/script>/.exec(saved.body)![1]!;
    expect(script).toBe(`window.top.location.href=${JSON.stringify(returnUrl)};`);
    expect(String(saved.headers['content-security-policy'])).toContain(`script-src ${sha256(script)}`);
    expect(saved.body).not.toContain(GOOD);
    // Until the console confirms, the account has no card.
    expect(json(await state(admin, opened.sessionID)).status).toBe('open');
    expect((await account(admin.org)).cardToken).toBeNull();

    const done = await complete(admin, opened.sessionID);
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toEqual({ sessionID: opened.sessionID, organizationID: admin.org, planID: 'basic', status: 'completed' });
    const after = await account(admin.org);
    expect(after).toMatchObject({ cardProvider: 'sandbox', cardLast4: '4242', cardBrand: 'visa', cardCustomer: null, planId: 'basic' });
    expect(after.cardToken).toMatch(/^sbx_card_/);
    expect(json(await state(admin, opened.sessionID)).status).toBe('completed');

    // Once: a second completion, and the page again, are refused.
    expectProblem(await complete(admin, opened.sessionID), 409, 'card_session_completed');
    const again = await submit(opened.url, GOOD);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This card page has already been completed.');
    expect((await app.inject({ method: 'GET', url: pagePath(opened.url) })).statusCode).toBe(409);
  });

  it('two completions at once: one saves, the other is refused', async () => {
    const opened = await openLink(admin);
    expect((await submit(opened.url, GOOD)).statusCode).toBe(200);
    const answers = await Promise.all([complete(admin, opened.sessionID), complete(admin, opened.sessionID)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expectProblem(answers.find((answer) => answer.statusCode === 409)!, 409, 'card_session_completed');
  });

  it('a page not yet submitted completes nothing', async () => {
    const opened = await openLink(admin);
    const early = await complete(admin, opened.sessionID);
    expect(early.statusCode).toBe(200);
    expect(json(early).status).toBe('open');
  });

  it('4000 0000 0000 0002: declined when saved; the page says so, the session is declined, the account keeps its card', async () => {
    const before = await account(admin.org);
    const opened = await openLink(admin);
    const declined = await submit(opened.url, DECLINE);
    expect(declined.statusCode).toBe(200);
    expect(declined.body).toContain('The card was declined.');
    expect(declined.body).not.toContain(DECLINE);
    expect(json(await state(admin, opened.sessionID)).status).toBe('declined');
    const done = await complete(admin, opened.sessionID);
    expect(done.statusCode).toBe(200);
    expect(json(done).status).toBe('declined');
    const after = await account(admin.org);
    expect(after.cardToken).toBe(before.cardToken);
    expect(after.cardLast4).toBe(before.cardLast4);
    // A declined page takes no other card.
    expect((await submit(opened.url, GOOD)).body).toContain('The card was declined.');
  });

  it('4000 0000 0000 0341: saved, its first charge succeeds and every later one is declined; one key is one charge', async () => {
    const other = await newAdmin('later');
    await setDetails(other.org, { billingEmail: 'later@example.com', city: 'Paris', country: 'FR' });
    const opened = await openLink(other, 'pro');
    expect((await submit(opened.url, LATER)).statusCode).toBe(200);
    // Saving moves to Pro: its first charge (the upgrade) succeeds.
    const done = await complete(other, opened.sessionID);
    expect(done.statusCode, done.body).toBe(200);
    const saved = await account(other.org);
    expect(saved.cardLast4).toBe('0341');
    const provider = app.ctx.billing.provider as SandboxProvider;
    const card = { token: saved.cardToken!, customer: null, last4: '0341', brand: 'visa' };
    const charge = (key: string) => provider.charge({ card, amount: 1900, currency: 'USD', idempotencyKey: key, description: 'test' });
    // The upgrade to Pro was its first charge, and it went through.
    expect(saved.planId).toBe('pro');
    const first = await database.db.select().from(sandboxCharges).where(eq(sandboxCharges.token, card.token));
    expect(first.map((row) => row.status)).toEqual(['succeeded']);
    const next = await charge(`later-${kind}-1`);
    expect(next).toEqual({ status: 'declined', reason: 'card_declined' });
    expect(await charge(`later-${kind}-2`)).toEqual({ status: 'declined', reason: 'card_declined' });
    expect(await charge(`later-${kind}-1`)).toEqual(next);
  });

  it('a charge asked twice (or at once) with one key is charged once and answers the same', async () => {
    const provider = app.ctx.billing.provider as SandboxProvider;
    const { cardToken } = await account(admin.org);
    const card = { token: cardToken!, customer: null, last4: '4242', brand: 'visa' };
    const key = `twice-${kind}`;
    const answers = await Promise.all([1, 2, 3].map(() => provider.charge({ card, amount: 4500, currency: 'NIS', idempotencyKey: key, description: 'twice' })));
    expect(answers[0]).toMatchObject({ status: 'succeeded', providerChargeId: expect.stringMatching(/^sbx_ch_/) });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await provider.charge({ card, amount: 4500, currency: 'NIS', idempotencyKey: key, description: 'again' })).toEqual(answers[0]);
    const rows = await database.db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 4500, currency: 'NIS', status: 'succeeded' });
    // An unknown card is declined, not charged.
    expect(await provider.charge({ card: { ...card, token: 'sbx_card_unknown' }, amount: 100, currency: 'USD', idempotencyKey: `unknown-${kind}`, description: 'x' })).toEqual({
      status: 'declined',
      reason: 'card_declined',
    });
    await expect(provider.charge({ card, amount: 12.5, currency: 'USD', idempotencyKey: `float-${kind}`, description: 'x' })).rejects.toThrow(/positive integer/);
    await expect(provider.charge({ card, amount: 0, currency: 'USD', idempotencyKey: `zero-${kind}`, description: 'x' })).rejects.toThrow(/positive integer/);
  });

  it("another organization's admin cannot read or complete a session; an unknown session is not found", async () => {
    const opened = await openLink(admin);
    expect((await submit(opened.url, GOOD)).statusCode).toBe(200);
    expectProblem(await state(stranger, opened.sessionID), 403, 'card_session_other_organization');
    expectProblem(await complete(stranger, opened.sessionID), 403, 'card_session_other_organization');
    expect((await account(stranger.org)).cardToken).toBeNull();
    expect(json(await state(admin, opened.sessionID)).status).toBe('open');
    expectProblem(await complete(admin, 'no-such-session'), 404, 'card_session_not_found');
    expectProblem(await state(admin, 'no-such-session'), 404, 'card_session_not_found');
    expectProblem(await app.inject({ method: 'POST', url: '/billing/creditCardBillingComplete?sessionID=x' }), 401);
    expectProblem(await app.inject({ method: 'POST', url: '/billing/creditCardBillingComplete', headers: bearer(admin.token) }), 400);
  });

  it('after its hour a session is expired: the page is gone, it cannot be completed', async () => {
    const opened = await openLink(admin);
    const started = now;
    try {
      now = new Date(started.getTime() + 3_600_000);
      expect(json(await state(admin, opened.sessionID)).status).toBe('expired');
      const page = await app.inject({ method: 'GET', url: pagePath(opened.url) });
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain('This card page has expired.');
      expect((await submit(opened.url, GOOD)).statusCode).toBe(410);
      expectProblem(await complete(admin, opened.sessionID), 409, 'card_session_expired');
    } finally {
      now = started;
    }
    // A card saved in time still counts when the browser comes back late.
    const inTime = await openLink(admin);
    expect((await submit(inTime.url, GOOD)).statusCode).toBe(200);
    try {
      now = new Date(started.getTime() + 2 * 3_600_000);
      expect((await complete(admin, inTime.sessionID)).statusCode).toBe(200);
    } finally {
      now = started;
    }
  });

  it('a new card lifts a block at once: the failed charge is retried on completion', async () => {
    const started = now;
    const org = await newAdmin('blocked');
    await setDetails(org.org, { billingEmail: 'blocked@example.com', city: 'Oslo', country: 'NO' });
    const details = async () => json<{ status: string; initialBillingFailedDate: string | null; plan: { id: string } }>(
      await app.inject({ method: 'GET', url: `/billing/billingDetails?organizationID=${org.org}`, headers: bearer(org.token) }),
    );
    try {
      // 0341: the upgrade to Basic is its first charge and succeeds; the next period's is declined.
      const first = await openLink(org, 'basic');
      expect((await submit(first.url, LATER)).statusCode).toBe(200);
      expect((await complete(org, first.sessionID)).statusCode).toBe(200);
      const { nextBillingDate } = await account(org.org);
      expect(nextBillingDate).toBeTruthy();
      now = new Date(`${nextBillingDate}T12:00:00Z`);
      await app.ctx.billing.runs.runDue(now);
      expect((await account(org.org)).initialBillingFailedDate).not.toBeNull();
      now = new Date(now.getTime() + 16 * 86_400_000);
      expect(await details()).toMatchObject({ status: 'BLOCK', plan: { id: 'basic' } });

      // A working card: saved, the failed charge retried at once, the block gone.
      const second = await openLink(org);
      expect(json(await state(org, second.sessionID)).planID).toBeNull();
      expect((await submit(second.url, GOOD)).statusCode).toBe(200);
      expect((await complete(org, second.sessionID)).statusCode).toBe(200);
      expect((await account(org.org)).cardLast4).toBe('4242');
      expect(await details()).toMatchObject({ status: 'OK', initialBillingFailedDate: null, plan: { id: 'basic' } });
    } finally {
      now = started;
    }
  });

  it('keeps no full card number: not in any billing or sandbox table, not in the log', async () => {
    // Every number once more, each way it may be typed.
    const opened = await openLink(admin);
    for (const number of [OTHER, BAD_LUHN, '4000 0000 0000 0002'.replace(/ /g, '-')]) await submit(opened.url, number);
    await submit(opened.url, '4242 4242 4242 4242');
    await complete(admin, opened.sessionID);

    const tables = ['billing_accounts', 'billing_charges', 'billing_invoices', 'billing_card_sessions', 'billing_provider_events', 'contact_requests', 'sandbox_cards', 'sandbox_charges'];
    const dump: string[] = [];
    for (const table of tables) {
      const result = (await database.db.execute(sql.raw(`select * from ${table}`))) as unknown as { rows: unknown[] };
      dump.push(JSON.stringify(result.rows));
    }
    expect(dump.join('\n').length).toBeGreaterThan(1000);
    expect(logLines.length).toBeGreaterThan(10);
    const everything = `${dump.join('\n')}\n${logLines.join('')}`;
    for (const number of [GOOD, DECLINE, LATER, OTHER, BAD_LUHN]) {
      expect(everything).not.toContain(number);
      expect(everything).not.toContain(number.replace(/(\d{4})(?=\d)/g, '$1 '));
      expect(everything).not.toContain(number.replace(/(\d{4})(?=\d)/g, '$1-'));
      expect(everything).not.toContain(number.replace(/(\d{4})(?=\d)/g, '$1+'));
    }
  });
});

describe.each(databaseKinds)('card setup with billing off on %s', (kind) => {
  let database: Database;
  let app: App;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await buildApp({ config: loadConfig({ ...testEnv, BILLING: '0' }), database, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('answers billing_disabled', async () => {
    expectProblem(await app.inject({ method: 'GET', url: '/billing/creditCardProcessingLink?organizationID=0123456789abcdef01234567' }), 404, 'billing_disabled');
    expectProblem(await app.inject({ method: 'GET', url: '/billing/providers/sandbox/pay/x' }), 404, 'billing_disabled');
    expectProblem(await app.inject({ method: 'POST', url: '/billing/creditCardBillingComplete?sessionID=x' }), 404, 'billing_disabled');
  });
});
