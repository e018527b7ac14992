/**
 * `PUT /billing/billingDetails/billingDate` takes a next billing date from today (UTC, by the
 * billing clock) to two years ahead (definitions/billing/billing-date.ts): a past one would make
 * each billing run charge another period until it caught up. A refusal is 400
 * `billing_date_out_of_range` naming the field, and changes nothing (no audit entry either).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { adminAudit, billingAccounts, users } from '../../server/db/schema.ts';
import { billingDateRange } from '../../definitions/billing/billing-date.ts';
import { expectProblem } from './support/assertions.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';

describe('the range of next billing dates', () => {
  it('runs from the UTC day of the moment to the same day two years on', () => {
    expect(billingDateRange(new Date('2026-11-28T23:59:59Z'))).toEqual({ earliest: '2026-11-28', latest: '2028-11-28' });
    expect(billingDateRange(new Date('2027-01-01T00:00:00Z'))).toEqual({ earliest: '2027-01-01', latest: '2029-01-01' });
    // A leap day's two years on has no 29 February: the day after.
    expect(billingDateRange(new Date('2028-02-29T12:00:00Z'))).toEqual({ earliest: '2028-02-29', latest: '2030-03-01' });
  });
});

describe.each(databaseKinds)('the next billing date on %s', (kind) => {
  // Late in the UTC day: a client west of Greenwich still sees the day before, which is refused.
  const clock = { now: new Date('2027-06-10T23:30:00Z') };
  let app: Awaited<ReturnType<typeof buildApp>>;
  let close: () => Promise<void>;
  let db: Awaited<ReturnType<typeof openTestDatabase>>['db'];
  let boss: string;
  let org: string;

  const put = (nextBillingDate: unknown) =>
    app.inject({ method: 'PUT', url: `/billing/billingDetails/billingDate?organizationID=${org}`, headers: bearer(boss), payload: { nextBillingDate } });
  const account = async () => (await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org)))[0];
  const audits = async () => (await db.select().from(adminAudit).where(eq(adminAudit.targetId, org))).length;

  beforeAll(async () => {
    const config = loadConfig({ ...testEnv });
    const database = await openTestDatabase(kind);
    db = database.db;
    app = await buildApp({ config, database, logger: false, billing: { now: () => clock.now } });
    await app.ready();
    close = async () => (await app.close(), await database.close());
    const admin = await verifiedUser(app, 'datesboss');
    await db.update(users).set({ superAdmin: true }).where(eq(users.email, admin.account.email));
    boss = admin.tokens.access_token;
    const created = await app.inject({ method: 'POST', url: '/api/organization', headers: bearer(boss), payload: { name: 'Dates' } });
    expect(created.statusCode, created.body).toBe(201);
    org = json(created).id;
  });
  afterAll(() => close?.());

  it('refuses a past day, the day before today and a day past two years with 400 at the field, changing nothing', async () => {
    const before = await account();
    const auditsBefore = await audits();
    for (const date of ['1900-01-01', '2027-06-09', '2029-06-11', '9999-12-31']) {
      const response = await put(date);
      expectProblem(response, 400, 'billing_date_out_of_range');
      const problem = json(response);
      expect(problem.params).toEqual({ earliest: '2027-06-10', latest: '2029-06-10' });
      expect(problem.errors).toEqual([{ path: 'body/nextBillingDate', message: expect.stringContaining('2027-06-10') }]);
      expect(problem.detail).toContain(date);
    }
    expect(await account()).toEqual(before);
    expect(await audits()).toBe(auditsBefore);
  });

  it('takes today and the last day of the range', async () => {
    for (const date of ['2027-06-10', '2029-06-10', '2028-01-15']) {
      const response = await put(date);
      expect(response.statusCode, response.body).toBe(200);
      expect(json(response).nextBillingDate).toBe(date);
      expect((await account())!.nextBillingDate).toBe(date);
    }
  });

  it('follows the billing clock: what was today is refused the next day', async () => {
    clock.now = new Date('2027-06-11T00:00:01Z');
    try {
      expectProblem(await put('2027-06-10'), 400, 'billing_date_out_of_range');
      expect((await put('2027-06-11')).statusCode).toBe(200);
    } finally {
      clock.now = new Date('2027-06-10T23:30:00Z');
    }
  });

  it('still refuses a day that is no calendar day, and a non-super-admin before anything else', async () => {
    expectProblem(await put('2027-02-30'), 400, 'invalid_request');
    const other = await verifiedUser(app, 'datesmember');
    const refused = await app.inject({
      method: 'PUT',
      url: `/billing/billingDetails/billingDate?organizationID=${org}`,
      headers: bearer(other.tokens.access_token),
      payload: { nextBillingDate: '1900-01-01' },
    });
    expect(refused.statusCode).toBe(403);
  });
});
