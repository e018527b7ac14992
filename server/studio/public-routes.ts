/**
 * `GET /api/public/openapi.json`: the project's generated OpenAPI 3.1 document as the bearer
 * (an API token or a project user's token) may use it (docs/studio.md "The generated document").
 * Registered inside the public API's plugin (server/public/routes.ts), so its authentication
 * (401 for a missing, invalid or expired bearer), CORS and metering apply.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { principalOf, security, tags } from '../public/support.ts';
import { responses } from '../lib/schemas.ts';
import { studioDocuments } from './documents.ts';

export async function publicOpenApiRoutes(app: FastifyInstance) {
  const documents = studioDocuments(app);
  app.get(
    '/openapi.json',
    {
      schema: {
        summary: 'The OpenAPI 3.1 document of the caller’s project: only the collections and operations its token may use',
        tags,
        security,
        response: responses({ 200: Type.Object({ openapi: Type.String() }, { additionalProperties: true }) }),
      },
    },
    async function publicOpenApi(request, reply) {
      const text = await documents.forPrincipal(principalOf(request));
      // The document is kept as JSON text: sent as it is.
      return reply.type('application/json; charset=utf-8').send(text as unknown as { openapi: string });
    },
  );
}
