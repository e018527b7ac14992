/** The billing service (`/billing`). This issue brings seats; plans, details and invoices arrive with the billing issue. */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { platform } from '../../definitions/platform.ts';
import { namedIn } from '../lib/request-scope.ts';
import { responses } from '../lib/schemas.ts';

export async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { organizations } = app.ctx;
  app.addHook('onRequest', app.requireUser);

  app.put(
    '/billingDetails/seats',
    {
      config: { action: 'admin', scope: 'organization', locate: namedIn('query') },
      schema: {
        summary: 'Add seats to an organization (admin)',
        tags: ['billing'],
        security: [{ bearer: [] as string[] }],
        querystring: Type.Object({ organizationID: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
        body: Type.Object(
          { numberOfSeats: Type.Integer({ minimum: 1, maximum: platform.limits.seatsPerRequest }) },
          { additionalProperties: false },
        ),
        response: responses({ 200: Type.Object({ seats: Type.Integer() }) }),
      },
    },
    async function addSeats(request) {
      return { seats: await organizations.addSeats(request.query.organizationID, request.body.numberOfSeats) };
    },
  );
}
