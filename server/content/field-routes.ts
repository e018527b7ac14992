/** A collection's schema and its fields, nested levels through `nestedID` (reached through contentRoutes). */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentLimits } from '../../definitions/content.ts';
import { FieldInput, SchemaField } from '../../definitions/schemas/collection.ts';
import { Empty } from '../lib/schemas.ts';
import { invalid } from './collections.ts';
import { contentRoute as route, inCollection, inField, nestedQuery } from './content-route.ts';
import { NestedId } from './route-schemas.ts';

export async function fieldRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { collections } = app.ctx;

  app.get(
    '/collection/:collection/schema',
    route({ action: 'read', scope: 'collection' }, 'The schema of a collection or of one of its nested collections (read)', 'schemas', { params: inCollection, querystring: nestedQuery }, { 200: Type.Array(SchemaField) }),
    async function readSchema(request) {
      return collections.schema(request.params.proj, request.params.collection, request.query.nestedID);
    },
  );

  app.put(
    '/collection/:collection/schema',
    route(
      { action: 'update', scope: 'collection' },
      'Save a schema level: the same fields in a new order with changed attributes (update)',
      'schemas',
      { params: inCollection, querystring: nestedQuery, body: Type.Array(FieldInput, { maxItems: contentLimits.fieldsPerSchema }) },
      { 200: Type.Array(SchemaField) },
    ),
    async function replaceSchema(request) {
      return collections.replaceSchema(request.params.proj, request.params.collection, request.body, request.query.nestedID);
    },
  );

  app.put(
    '/collection/:collection/schema/order',
    route(
      { action: 'update', scope: 'collection' },
      'Reorder a schema level (update). The spec’s payload: organizationID, projectID, collectionID, collectionSchema.',
      'schemas',
      {
        params: inCollection,
        body: Type.Object(
          {
            organizationID: Type.Optional(Type.String()),
            projectID: Type.Optional(Type.String()),
            collectionID: Type.Optional(Type.String()),
            nestedID: Type.Optional(NestedId),
            collectionSchema: Type.Array(Type.Union([Type.String(), FieldInput]), { maxItems: contentLimits.fieldsPerSchema }),
          },
          { additionalProperties: false },
        ),
      },
      { 200: Type.Array(SchemaField) },
    ),
    async function reorderSchema(request) {
      const { proj } = request.params;
      const { organizationID, projectID, collectionID, nestedID, collectionSchema } = request.body;
      const mismatch = (
        [
          ['organizationID', organizationID, request.params.org],
          ['projectID', projectID, request.params.proj],
          ['collectionID', collectionID, request.params.collection],
        ] as const
      ).filter(([, given, actual]) => given !== undefined && given !== actual);
      if (mismatch.length) throw invalid(mismatch.map(([path]) => ({ path, message: 'does not match the address of the call' })));
      return collections.reorder(proj, request.params.collection, collectionSchema, nestedID);
    },
  );

  app.post(
    '/collection/:collection/field',
    route(
      { action: 'create', scope: 'collection' },
      'Add a field to the schema, or (nestedID) to a nested collection’s schema (create)',
      'schemas',
      { params: inCollection, querystring: nestedQuery, body: FieldInput },
      { 201: SchemaField },
    ),
    async function addField(request, reply) {
      return reply.code(201).send(await collections.addField(request.params.proj, request.params.collection, request.body, request.query.nestedID));
    },
  );

  app.post(
    '/collection/:collection/field/:field',
    route(
      { action: 'create', scope: 'collection' },
      'Add a field to the nested schema of nested-collection field {field} (create)',
      'schemas',
      { params: inField, querystring: Type.Object({ nestedSlug: Type.Optional(NestedId) }), body: FieldInput },
      { 201: SchemaField },
    ),
    async function addNestedField(request, reply) {
      return reply
        .code(201)
        .send(await collections.addNestedField(request.params.proj, request.params.collection, request.params.field, request.body, request.query.nestedSlug));
    },
  );

  app.put(
    '/collection/:collection/field/:field',
    route(
      { action: 'update', scope: 'collection' },
      'Change a field: the attributes given (update). Its type and slug stay.',
      'schemas',
      { params: inField, querystring: Type.Object({ nestedSlug: Type.Optional(NestedId) }), body: FieldInput },
      { 200: SchemaField },
    ),
    async function changeField(request) {
      return collections.updateField(request.params.proj, request.params.collection, request.params.field, request.body, request.query.nestedSlug);
    },
  );

  app.delete(
    '/collection/:collection/field/:field',
    route({ action: 'delete', scope: 'collection' }, 'Delete a field and all its values (delete)', 'schemas', { params: inField, querystring: nestedQuery }, { 204: Empty }),
    async function deleteField(request, reply) {
      await collections.deleteField(request.params.proj, request.params.collection, request.params.field, request.query.nestedID);
      return reply.code(204).send(null);
    },
  );
}
