/**
 * The admin calls of the billing service (`/billing/…`, docs/admin.md "Organizations", "Soft
 * launch"): `adminBillingDetails`, soft launch and its whitelist, the plan override. Platform
 * super-admins only (server/admin/guard.ts); with BILLING=0 they answer 404 `billing_disabled`
 * (after the guard: nobody else learns even that). Every change records its audit entry in its
 * transaction. Credit, add-ons and the billing date are in server/billing/routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AdminPlanOverrideInput, SoftLaunch, SoftLaunchWhitelist } from '../../definitions/schemas/admin.ts';
import { BillingDetails, OrganizationIdQuery } from '../../definitions/schemas/billing.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';
import { auditActorOf, guardSuperAdmin } from './guard.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];
/** The most organizations one `adminBillingDetails` call reads (a page of the admin table is at most 100). */
export const maxBillingDetailsIds = 100;

export async function adminBillingRoutes(fastify: FastifyInstance) {
  guardSuperAdmin(fastify);
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { billing } = app.ctx;
  if (!billing.enabled) {
    app.addHook('onRequest', async () => {
      throw notFound('billing_disabled', 'Billing is turned off on this installation.');
    });
  }

  app.get(
    '/adminBillingDetails',
    {
      schema: {
        summary: `The billing accounts of up to ${maxBillingDetailsIds} organizations, comma-separated ids, in that order (platform super-admins only)`,
        tags,
        security,
        querystring: Type.Object({ organizationIDs: Type.String({ minLength: 1, maxLength: maxBillingDetailsIds * 25 }) }, { additionalProperties: false }),
        response: responses({ 200: Type.Array(BillingDetails) }),
      },
    },
    async function adminBillingDetails(request) {
      const ids = [...new Set(request.query.organizationIDs.split(',').map((id) => id.trim()))];
      const bad = ids.filter((id) => !/^[0-9a-f]{24}$/.test(id));
      if (bad.length) throw badRequest('invalid_request', `Not organization ids: ${bad.slice(0, 5).join(', ')}.`);
      if (ids.length > maxBillingDetailsIds) throw badRequest('invalid_request', `At most ${maxBillingDetailsIds} organizations at once.`);
      const known = await app.ctx.admin.organizations.existing(ids);
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length) throw notFound('organization_not_found', `There is no organization ${missing.slice(0, 5).join(', ')}.`);
      const out = [];
      // The admin's view: each account's own standing, whatever soft launch says.
      for (const id of ids) out.push(await billing.accounts.wire(await billing.accounts.ensure(id), true));
      return out;
    },
  );

  app.put(
    '/billingDetails/plan',
    {
      schema: {
        summary: "The plan override: sets the organization's plan at once, without a charge (any plan, hidden ones too; null: the free plan) (platform super-admins only)",
        tags,
        security,
        querystring: Type.Object({ organizationID: OrganizationIdQuery }, { additionalProperties: false }),
        body: AdminPlanOverrideInput,
        response: responses({ 200: BillingDetails }),
      },
    },
    async function overridePlan(request) {
      const organizationId = request.query.organizationID;
      if (!(await app.ctx.admin.organizations.existing([organizationId])).size) throw notFound('organization_not_found', 'There is no such organization.');
      const actor = await auditActorOf(app, request);
      const planOf = (row: { planId: string | null; pendingPlanId: string | null }) => ({ planID: row.planId, pendingPlanID: row.pendingPlanId });
      return billing.accounts.overridePlan(organizationId, request.body.planID, (tx, before, after) =>
        app.ctx.admin.audit.record(tx, actor, { action: 'organization.setPlan', targetKind: 'organization', targetId: organizationId, before: planOf(before), after: planOf(after) }),
      );
    },
  );

  app.get(
    '/softLaunch',
    { schema: { summary: 'Whether soft launch is on: billing then applies only to whitelisted organizations (platform super-admins only)', tags, security, response: responses({ 200: SoftLaunch }) } },
    async function readSoftLaunch() {
      return app.ctx.admin.softLaunch.get();
    },
  );

  app.put(
    '/softLaunch',
    {
      schema: { summary: 'Turns soft launch on or off (platform super-admins only)', tags, security, body: SoftLaunch, response: responses({ 200: SoftLaunch }) },
    },
    async function setSoftLaunch(request) {
      return app.ctx.admin.softLaunch.set(request.body.enabled, await auditActorOf(app, request));
    },
  );

  app.get(
    '/softLaunch/whitelistOrgs',
    { schema: { summary: 'The organizations billing applies to while soft launch is on (platform super-admins only)', tags, security, response: responses({ 200: SoftLaunchWhitelist }) } },
    async function readWhitelist() {
      return app.ctx.admin.softLaunch.whitelist();
    },
  );

  app.put(
    '/softLaunch/whitelistOrgs',
    {
      schema: {
        summary: 'Replaces the soft-launch whitelist; an unknown organization refuses the whole list (platform super-admins only)',
        tags,
        security,
        body: SoftLaunchWhitelist,
        response: responses({ 200: SoftLaunchWhitelist }),
      },
    },
    async function setWhitelist(request) {
      return app.ctx.admin.softLaunch.setWhitelist(request.body.organizationIDs, await auditActorOf(app, request));
    },
  );
}
