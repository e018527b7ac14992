/**
 * `POST /api/public/collection/{c}/import?format&skipBadRows&ignoreUnknown`: the console's item
 * import (server/content/import-routes.ts, docs/content-storage.md "Importing items") for an API
 * token or user with the create right on the collection (server/public/principal.ts); metered as
 * one call like the others. Its own plugin: the body is the file, handed on as the raw stream
 * instead of the public API's JSON parsing.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ImportAnswer, ImportQuery } from '../../definitions/schemas/import.ts';
import { importFromRequest, importLimits, streamBodies } from '../content/import-request.ts';
import { requireRight } from './principal.ts';
import { inCollection, principalOf, security, tags, type PublicApp } from './support.ts';

export async function publicImportRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database } = app.ctx;
  streamBodies(app);

  app.post(
    '/collection/:collection/import',
    {
      schema: {
        summary: 'Import items from a CSV, JSON array or NDJSON file (the body): all rows or none, unless skipBadRows (create)',
        tags,
        security,
        params: inCollection,
        querystring: ImportQuery,
        response: { 200: ImportAnswer },
      },
      bodyLimit: importLimits.maxBytes,
    },
    async function importCollection(request) {
      const principal = principalOf(request);
      await requireRight(app, principal, request.params.collection, 'create');
      const { importID, imported, skipped, errors } = await importFromRequest(database.db, { projectId: principal.projectId, collection: request.params.collection }, request, request.query);
      return { importID, imported, skipped, errors };
    },
  );
}
