/**
 * The billing service (`/billing`, docs/billing.md): plans, the account's details, plan changes,
 * seats, the billing summary, and credit, add-ons and the billing date for platform super-admins.
 * Organization admins only, except `plans` (any signed-in user) and the super-admins' calls, each
 * of which records its audit entry in the transaction of its change (docs/admin.md "Audit log"). With
 * BILLING=0 every route here answers 404 `billing_disabled` except `billingDetails/seats`, which
 * adds seats at no cost.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { platform } from '../../definitions/platform.ts';
import { BillingDetails, BillingDetailsInput, BillingSummary, OrganizationIdQuery, Plan } from '../../definitions/schemas/billing.ts';
import { currentUser } from '../auth/authenticate.ts';
import { AppError, forbidden, notFound } from '../lib/errors.ts';
import { namedIn } from '../lib/request-scope.ts';
import { responses } from '../lib/schemas.ts';
import { isDate } from './pricing.ts';
import { billingDateRange } from '../../definitions/billing/billing-date.ts';
import { maxAddOns, type AccountChangeHook, type AccountRow } from './accounts.ts';
import type { AuditAction } from '../../definitions/admin.ts';
import { auditActorOf } from '../admin/guard.ts';

const security = [{ bearer: [] as string[] }];
const tags = ['billing'];
const orgQuery = Type.Object({ organizationID: OrganizationIdQuery });
const admin = { action: 'admin' as const, scope: 'organization' as const, locate: namedIn('query') };
const PlanId = Type.String({ minLength: 1, maxLength: 100 });
/** The most credit or add-on price one call sets: 10,000,000.00 in major units. */
const maxMinor = 1_000_000_000;

/** The routes that keep answering with BILLING=0 (seats are free then). */
const openWithoutBilling = new Set(['/billing/billingDetails/seats']);

export async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { billing, access } = app.ctx;
  const { accounts } = billing;

  if (!billing.enabled) {
    // First: no sign-in needed to learn that billing is off.
    app.addHook('onRequest', async (request) => {
      if (!openWithoutBilling.has(request.routeOptions.url ?? '')) throw notFound('billing_disabled', 'Billing is turned off on this installation.');
    });
  }
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/plans',
    {
      schema: {
        summary: 'The plans an organization can choose (hidden plans left out); `price` is the monthly USD price',
        tags,
        security,
        response: responses({ 200: Type.Array(Plan) }),
      },
    },
    async function listPlans(request) {
      currentUser(request);
      return accounts.plans();
    },
  );

  app.get(
    '/billingDetails',
    {
      config: admin,
      schema: { summary: "The organization's billing account (admin)", tags, security, querystring: orgQuery, response: responses({ 200: BillingDetails }) },
    },
    async function readDetails(request) {
      return accounts.details(request.query.organizationID);
    },
  );

  for (const method of ['post', 'put'] as const) {
    app[method](
      '/billingDetails',
      {
        config: admin,
        schema: {
          summary: `${method === 'post' ? 'Set' : 'Change'} the billing e-mail, address and frequency (admin); the currency follows the country (NIS for IL, else USD)`,
          tags,
          security,
          querystring: orgQuery,
          body: BillingDetailsInput,
          response: responses({ 200: BillingDetails }),
        },
      },
      async function saveDetails(request) {
        return accounts.update(request.query.organizationID, request.body);
      },
    );
  }

  app.post(
    '/billingDetails/organizationDetails',
    {
      config: admin,
      schema: {
        summary: "Makes the organization's billing account if missing; an empty billing e-mail becomes the caller's (admin)",
        tags,
        security,
        querystring: orgQuery,
        response: responses({ 200: BillingDetails }),
      },
    },
    async function organizationDetails(request) {
      return accounts.organizationDetails(request.query.organizationID, request.scope.standing.email);
    },
  );

  app.put(
    '/plan',
    {
      config: admin,
      schema: {
        summary: 'Change the plan (admin): an upgrade at once, charged pro rata; the Free Plan and cheaper plans at the next billing date',
        tags,
        security,
        querystring: Type.Object({ organizationID: OrganizationIdQuery, planID: PlanId }),
        response: responses({ 200: BillingDetails }),
      },
    },
    async function changePlan(request) {
      return accounts.changePlan(request.query.organizationID, request.query.planID);
    },
  );

  app.put(
    '/billingDetails/seats',
    {
      config: admin,
      schema: {
        summary: 'Add seats to an organization (admin); seats past the plan’s included ones are charged pro rata',
        tags,
        security,
        querystring: orgQuery,
        body: Type.Object({ numberOfSeats: Type.Integer({ minimum: 1, maximum: platform.limits.seatsPerRequest }) }, { additionalProperties: false }),
        response: responses({ 200: Type.Object({ seats: Type.Integer() }) }),
      },
    },
    async function addSeats(request) {
      return { seats: await accounts.addSeats(request.query.organizationID, request.body.numberOfSeats) };
    },
  );

  app.get(
    '/billingSummary',
    {
      config: admin,
      schema: {
        summary: "What a plan's next full period costs with the organization's seats, add-ons and this month's overage, less credit, with the country's tax (admin)",
        tags,
        security,
        querystring: Type.Object({ organizationID: OrganizationIdQuery, country: Type.String({ minLength: 1, maxLength: 10 }), planID: PlanId }),
        response: responses({ 200: BillingSummary }),
      },
    },
    async function summary(request) {
      const { organizationID, country, planID } = request.query;
      return accounts.summary(organizationID, country, planID);
    },
  );

  const requireSuperAdmin = async (userId: string, what: string) => {
    if (!(await access.isSuperAdmin(userId))) throw forbidden('insufficient_permissions', `Only platform super-admins may ${what}.`);
  };

  /** The audit entry of a super-admin's change to an account: what `pick` reads of it, before and after. */
  const audited = async (request: FastifyRequest, action: AuditAction, organizationId: string, pick: (row: AccountRow) => unknown): Promise<AccountChangeHook> => {
    const actor = await auditActorOf(app, request);
    return (tx, before, after) => app.ctx.admin.audit.record(tx, actor, { action, targetKind: 'organization', targetId: organizationId, before: pick(before), after: pick(after) });
  };
  const creditOf = (row: AccountRow) => ({ credit: { amount: row.creditUsd, nisAmount: row.creditNis } });
  const addOnsOf = (row: AccountRow) => ({ addOns: row.addOns });
  const datesOf = (row: AccountRow) => ({ nextBillingDate: row.nextBillingDate, billingDay: row.billingDay });

  app.put(
    '/billingDetails/credit',
    {
      config: admin,
      schema: {
        summary: 'Add credit in minor units, per currency (platform super-admins only); charges use it before the card',
        tags,
        security,
        querystring: orgQuery,
        body: Type.Object(
          { amount: Type.Integer({ minimum: 0, maximum: maxMinor, description: 'USD cents' }), nisAmount: Type.Optional(Type.Integer({ minimum: 0, maximum: maxMinor, description: 'agorot' })) },
          { additionalProperties: false },
        ),
        response: responses({ 200: BillingDetails }),
      },
    },
    async function addCredit(request) {
      await requireSuperAdmin(currentUser(request).userId, 'add credit');
      const credit = { amount: request.body.amount, nisAmount: request.body.nisAmount ?? 0 };
      if (credit.amount + credit.nisAmount === 0) throw new AppError(400, 'invalid_request', 'Credit must be above 0 in at least one currency.');
      const org = request.query.organizationID;
      return accounts.addCredit(org, credit, await audited(request, 'organization.addCredit', org, creditOf));
    },
  );

  const AddOnInput = Type.Object(
    { title: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), amount: Type.Integer({ minimum: 0, maximum: maxMinor }), nisAmount: Type.Integer({ minimum: 0, maximum: maxMinor }) },
    { additionalProperties: false },
  );
  for (const method of ['post', 'put'] as const) {
    app[method](
      '/billingDetails/addOn',
      {
        config: admin,
        schema: {
          summary:
            method === 'post'
              ? 'Add an add-on, a price per period in minor units per currency (platform super-admins only; billed while add-ons are turned on)'
              : "Replace the organization's add-ons (platform super-admins only)",
          tags,
          security,
          querystring: orgQuery,
          body: method === 'post' ? AddOnInput : Type.Array(AddOnInput, { maxItems: maxAddOns }),
          response: responses({ 200: BillingDetails }),
        },
      },
      async function setAddOns(request) {
        await requireSuperAdmin(currentUser(request).userId, 'change add-ons');
        const body = request.body as typeof AddOnInput.static | (typeof AddOnInput.static)[];
        const org = request.query.organizationID;
        const hook = await audited(request, method === 'post' ? 'organization.addAddOn' : 'organization.replaceAddOns', org, addOnsOf);
        return accounts.setAddOns(org, Array.isArray(body) ? body : [body], method === 'post' ? 'add' : 'replace', hook);
      },
    );
  }

  app.put(
    '/billingDetails/billingDate',
    {
      config: admin,
      schema: {
        summary: 'Set the next billing date (platform super-admins only; a billing run then charges on that day)',
        tags,
        security,
        querystring: orgQuery,
        body: Type.Object({ nextBillingDate: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }) }, { additionalProperties: false }),
        response: responses({ 200: BillingDetails }),
      },
    },
    async function setBillingDate(request) {
      await requireSuperAdmin(currentUser(request).userId, 'move a billing date');
      const date = request.body.nextBillingDate;
      if (!isDate(date)) throw new AppError(400, 'invalid_request', `${date} is not a calendar day.`);
      // From today to two years ahead by the billing clock (definitions/billing/billing-date.ts).
      const { earliest, latest } = billingDateRange(accounts.deps.now());
      if (date < earliest || date > latest) {
        const message = `must be from ${earliest} (today, UTC) to ${latest}`;
        throw new AppError(400, 'billing_date_out_of_range', `The next billing date ${date} is out of range: it ${message}.`, {
          params: { earliest, latest },
          errors: [{ path: 'body/nextBillingDate', message }],
        });
      }
      const org = request.query.organizationID;
      return accounts.setNextBillingDate(org, date, await audited(request, 'organization.setBillingDate', org, datesOf));
    },
  );
}
