/**
 * Contact Us (docs/billing.md "Contact Us"): `POST /api/organization/{org}/contactUs {name, email,
 * number}` from any member of the organization. The request is stored in `contact_requests` and
 * mailed to the configured sales address (BILLING_SALES_EMAIL); at most `contactRateLimit` per
 * user, so the form cannot be used to flood that mailbox. Answers 404 `billing_disabled` with BILLING=0.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import { formatMessage } from '../../definitions/messages/format.ts';
import { ContactRequestInput } from '../../definitions/schemas/billing.ts';
import { contactRequests, organizations } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { notFound } from '../lib/errors.ts';
import { routeRateLimit } from '../lib/rate-limit.ts';
import { responses } from '../lib/schemas.ts';

/** Contact requests per user: a handful an hour is plenty for a person, too few to spam with. */
export const contactRateLimit = { max: 5, windowMs: 60 * 60_000 };

const Id = Type.String({ pattern: '^[0-9a-f]{24}$', description: '24-character hex id' });

export async function contactRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, database, mailer } = app.ctx;
  const limit = routeRateLimit(app, contactRateLimit, (request) => `contact-user:${request.auth?.userId ?? request.ip}`, 'Too many contact requests.');
  const disabled = async () => {
    if (!config.billing.enabled) throw notFound('billing_disabled', 'Billing is turned off on this installation.');
  };

  app.post(
    '/organization/:org/contactUs',
    {
      onRequest: [disabled, app.requireUser],
      // Counted after validation: a refused body does not use up the sender's quota.
      preHandler: limit,
      config: { action: 'read', scope: 'organization' },
      bodyLimit: 4 * 1024,
      schema: {
        summary: 'Ask sales to get in touch (any member): stored and mailed to the sales address',
        tags: ['billing'],
        security: [{ bearer: [] as string[] }],
        params: Type.Object({ org: Id }),
        body: ContactRequestInput,
        response: responses({ 200: Type.Object({ sent: Type.Literal(true) }) }),
      },
    },
    async function contactUs(request) {
      const organizationId = request.params.org;
      const { name, email, number } = request.body;
      const id = newId();
      const row = { id, organizationId, userId: request.scope.standing.userId, name: name.trim(), email: email.trim(), number: number.trim() };
      await database.db.insert(contactRequests).values(row);
      const [org] = await database.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
      await mailer.send({
        kind: 'contact',
        to: config.billing.salesEmail,
        subject: formatMessage('mail.contact.subject', { organization: org?.name ?? organizationId }),
        text: formatMessage('mail.contact.text', {
          organization: org?.name ?? organizationId,
          organizationID: organizationId,
          name: row.name,
          email: row.email,
          number: row.number,
          signature: formatMessage('mail.signature'),
        }),
      });
      await database.db.update(contactRequests).set({ mailedAt: new Date() }).where(eq(contactRequests.id, id));
      return { sent: true as const };
    },
  );
}
