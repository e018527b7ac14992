/**
 * `GET /billing/getBillingStatuses`: the server's billing status windows (docs/billing.md
 * "Billing status"), which the console's billing-status machine fetches at start. Any signed-in
 * user: every member's console computes its organizations' status from `initialBillingFailedDate`
 * (on the organization) and these windows. With BILLING=0 it answers 404 `billing_disabled`, like
 * every billing route; the console does not ask then (`/api/config` says `billing: false`).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BillingStatusWindows } from '../../definitions/schemas/billing.ts';
import { notFound } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';

export async function billingStatusRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = app.ctx;

  app.get(
    '/getBillingStatuses',
    {
      onRequest: [app.requireUser],
      schema: {
        summary: 'The billing status windows: days since a failed charge of GRACE, NO_CLIENT and BLOCK (any signed-in user)',
        tags: ['billing'],
        security: [{ bearer: [] as string[] }],
        response: responses({ 200: BillingStatusWindows }),
      },
    },
    async function billingStatuses() {
      if (!config.billing.enabled) throw notFound('billing_disabled', 'Billing is turned off on this server.');
      return config.billing.statusWindows;
    },
  );
}
