/**
 * `POST …/collection/{c}/import?format&skipBadRows&ignoreUnknown`: a file of items written into
 * the collection in one transaction (docs/content-storage.md "Importing items"; the create
 * permission). Its own plugin: the body is the file, handed on as the raw stream.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ImportAnswer, ImportQuery } from '../../definitions/schemas/import.ts';
import { contentRoute as route, inCollection } from './content-route.ts';
import { importFromRequest, importLimits, streamBodies } from './import-request.ts';

export async function importRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database } = app.ctx;
  streamBodies(app);

  app.post(
    '/collection/:collection/import',
    {
      ...route(
        { action: 'create', scope: 'collection' },
        'Import items from a CSV, JSON array or NDJSON file (the body): all rows or none, unless skipBadRows (create)',
        'items',
        { params: inCollection, querystring: ImportQuery },
        { 200: ImportAnswer },
      ),
      // Counted while the body streams (import-request.ts); this only stops fastify's own limit.
      bodyLimit: importLimits.maxBytes,
    },
    async function importCollection(request) {
      const { importID, imported, skipped, errors } = await importFromRequest(database.db, { projectId: request.params.proj, collection: request.params.collection }, request, request.query);
      return { importID, imported, skipped, errors };
    },
  );
}
