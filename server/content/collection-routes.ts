/** A project's collections, under `/api/organization/{org}/project/{proj}/collection` (reached through contentRoutes). */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentLimits } from '../../definitions/content.ts';
import { Collection } from '../../definitions/schemas/collection.ts';
import { Empty } from '../lib/schemas.ts';
import { toCollectionView } from './collections.ts';
import { contentRoute as route, inCollection, inProject } from './content-route.ts';

export async function collectionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { collections } = app.ctx;

  app.get('/collection', route({ action: 'read', scope: 'project' }, 'The project’s collections (read)', 'collections', { params: inProject }, { 200: Type.Array(Collection) }), async function listCollections(request) {
    const { projectId: proj, visibility } = request.scope;
    return (await collections.list(proj)).filter((c) => visibility.visible(c.slug)).map(toCollectionView);
  });

  app.post(
    '/collection',
    route(
      { action: 'create', scope: 'project' },
      'Create a collection (create). The id is the collection ID; without one it is derived from the name.',
      'collections',
      {
        params: inProject,
        body: Type.Object(
          {
            id: Type.Optional(Type.String({ maxLength: 200 })),
            name: Type.String({ maxLength: contentLimits.collectionNameMax }),
            singleItem: Type.Optional(Type.Boolean()),
            rtlDirection: Type.Optional(Type.Boolean()),
            schema: Type.Optional(Type.Array(Type.Unknown(), { maxItems: contentLimits.fieldsPerSchema })),
          },
          { additionalProperties: false },
        ),
      },
      { 201: Collection },
    ),
    async function createCollection(request, reply) {
      const { projectId: proj, visibility } = request.scope;
      visibility.requireUnrestricted();
      return reply.code(201).send(await collections.create(proj, request.body));
    },
  );

  app.get('/collection/:collection', route({ action: 'read', scope: 'collection' }, 'One collection with its schema (read)', 'collections', { params: inCollection }, { 200: Collection }), async function readCollection(request) {
      return toCollectionView(await collections.row(request.params.proj, request.params.collection));
    },
  );

  app.put(
    '/collection/:collection',
    route(
      { action: 'update', scope: 'collection' },
      'Rename a collection, switch its direction or its single-item type (update)',
      'collections',
      {
        params: inCollection,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ maxLength: contentLimits.collectionNameMax })),
            rtlDirection: Type.Optional(Type.Boolean()),
            singleItem: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
      },
      { 200: Collection },
    ),
    async function changeCollection(request) {
      return collections.update(request.params.proj, request.params.collection, request.body);
    },
  );

  app.delete(
    '/collection/:collection',
    route({ action: 'delete', scope: 'collection' }, 'Delete a collection with all its items (delete)', 'collections', { params: inCollection }, { 204: Empty }),
    async function deleteCollection(request, reply) {
      await collections.delete(request.params.proj, request.params.collection);
      return reply.code(204).send(null);
    },
  );
}
