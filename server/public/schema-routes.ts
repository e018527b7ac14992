/**
 * The project and the schemas through the public v1 API: `GET /project`
 * (`withSchemas=true` adds each collection's fields) and `GET /collection/{c}/schema` (the fields
 * and the Metadata entry, type 100). Only collections the caller may read are shown.
 */
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { metadataField } from '../../definitions/content.ts';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { responses } from '../lib/schemas.ts';
import { can, requireRight } from './principal.ts';
import { inCollection, principalOf, security, tags, type PublicApp } from './support.ts';

/** A schema as the client reads it: the fields, and the Metadata entry last. */
const withMetadata = (fields: SchemaField[]) => (fields.some((f) => f.id === metadataField.id) ? fields : [...fields, { ...metadataField }]);

export async function publicSchemaRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { projects, collections } = app.ctx;

  app.get(
    '/project',
    {
      schema: {
        summary: 'The project of the caller, with the collections it may read (their schemas with withSchemas=true)',
        tags,
        security,
        querystring: Type.Object({ withSchemas: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: responses({
          200: Type.Object({ id: Type.String(), name: Type.String(), description: Type.String(), collections: Type.Array(Type.Unknown()) }),
        }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const project = await projects.get(principal.organizationId, principal.projectId);
      // The collections' schemas (field slugs) only when asked for, as the client documents.
      const withSchemas = request.query.withSchemas === 'true';
      const readable = [];
      for (const { schema, ...collection } of project.collections) {
        if (!(await can(app, principal, collection.id, 'read')).allowed) continue;
        readable.push(withSchemas ? { ...collection, schema: withMetadata(schema as SchemaField[]) } : collection);
      }
      return { id: project.id, name: project.name, description: project.description, collections: readable };
    },
  );

  app.get(
    '/collection/:collection/schema',
    {
      schema: {
        summary: 'The fields of a collection, with the Metadata entry (type 100) (read)',
        tags,
        security,
        params: inCollection,
        response: responses({ 200: Type.Array(Type.Unknown()) }),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      await requireRight(app, principal, request.params.collection, 'read');
      return withMetadata(await collections.schema(principal.projectId, request.params.collection));
    },
  );
}
