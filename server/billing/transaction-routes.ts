/**
 * Transactions and invoices under `/billing` (docs/billing.md "Invoices"), and the billing run on
 * demand:
 * - `GET transactions?organizationID` (admin): every successful charge with its invoice, newest first;
 * - `GET transactions/invoice?organizationID&invoiceID` (admin): the invoice's PDF by its number
 *   (another organization's, or none, is 404 `invoice_not_found`);
 * - `POST admin/run` (platform super-admins): runs the billing run now and answers what it did.
 * With BILLING=0 they answer 404 `billing_disabled`.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OrganizationIdQuery, Transaction } from '../../definitions/schemas/billing.ts';
import { currentUser } from '../auth/authenticate.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { namedIn } from '../lib/request-scope.ts';
import { responses } from '../lib/schemas.ts';
import { invoiceFilename, renderInvoicePdf } from './invoices.ts';

const security = [{ bearer: [] as string[] }];
const tags = ['billing'];
const admin = { action: 'admin' as const, scope: 'organization' as const, locate: namedIn('query') };

const RunReport = Type.Object({
  opened: Type.Integer(),
  succeeded: Type.Integer(),
  declined: Type.Integer(),
  nothingDue: Type.Integer(),
  unknown: Type.Integer(),
  recovered: Type.Integer(),
  retried: Type.Integer(),
});

export async function billingTransactionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { billing, access } = app.ctx;
  if (!billing.enabled) {
    app.addHook('onRequest', async () => {
      throw notFound('billing_disabled', 'Billing is turned off on this installation.');
    });
  }
  app.addHook('onRequest', app.requireUser);
  const { invoices } = billing.runs;

  app.get(
    '/transactions',
    {
      config: admin,
      schema: {
        summary: "The organization's transactions, newest first: each successful charge with its invoice (admin)",
        tags,
        security,
        querystring: Type.Object({ organizationID: OrganizationIdQuery }),
        response: responses({ 200: Type.Array(Transaction) }),
      },
    },
    async function listTransactions(request) {
      return invoices.transactions(request.query.organizationID);
    },
  );

  app.get(
    '/transactions/invoice',
    {
      config: admin,
      schema: {
        summary: "An invoice's PDF by its number (admin)",
        tags,
        security,
        produces: ['application/pdf'],
        querystring: Type.Object({ organizationID: OrganizationIdQuery, invoiceID: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: { description: 'application/pdf', type: 'string', format: 'binary' }, ...responses({}) },
      },
    },
    async function downloadInvoice(request, reply) {
      const { organizationID, invoiceID } = request.query;
      const found = await invoices.find(organizationID, invoiceID);
      if (!found) throw notFound('invoice_not_found', `The organization has no invoice ${invoiceID}.`);
      const pdf = await renderInvoicePdf(found.invoice, { period: found.period });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${invoiceFilename(found.invoice.invoiceNumber)}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.post(
    '/admin/run',
    {
      schema: {
        summary: 'Run the billing run now (platform super-admins): charge every organization due, retry failed and unsettled charges',
        tags,
        security,
        response: responses({ 200: RunReport }),
      },
    },
    async function runNow(request) {
      const { userId } = currentUser(request);
      if (!(await access.isSuperAdmin(userId))) throw forbidden('insufficient_permissions', 'Only platform super-admins may start a billing run.');
      return billing.runs.runDue();
    },
  );
}
