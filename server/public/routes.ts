/**
 * The public v1 API (`/api/public`) that apps call with a project API token. This issue brings
 * token authentication and `GET /project`; the content calls arrive with the public-API issue.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { bearerToken } from '../auth/authenticate.ts';
import { unauthorized } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';
import type { VerifiedToken } from '../main/api-tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiToken: VerifiedToken | null;
  }
}

export async function publicRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { apiTokens, projects } = app.ctx;
  app.decorateRequest('apiToken', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('missing_token', 'Send the project API token as a bearer token.');
    request.apiToken = await apiTokens.verify(token);
  });

  app.get(
    '/project',
    {
      schema: {
        summary: 'The project of the API token',
        tags: ['public'],
        security: [{ bearer: [] as string[] }],
        querystring: Type.Object({ withSchemas: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: responses({
          200: Type.Object({ id: Type.String(), name: Type.String(), description: Type.String(), collections: Type.Array(Type.Unknown()) }),
        }),
      },
    },
    async (request) => {
      const token = request.apiToken!;
      const project = await projects.get(token.organizationId, token.projectId);
      // The collections' schemas (field slugs) only when asked for, as the client documents.
      const withSchemas = request.query.withSchemas === 'true';
      const collections = project.collections.map(({ schema, ...collection }) => (withSchemas ? { ...collection, schema } : collection));
      return { id: project.id, name: project.name, description: project.description, collections };
    },
  );
}
