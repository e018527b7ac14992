/**
 * Ranks and CSV export under `/api/organization/{org}/project/{proj}/` (docs/content-storage.md
 * "Ranks and CSV"):
 * - `PUT collection/{c}/item/{id}/sort?nestedID&order|afterID|beforeID` moves an item (update);
 * - `PUT collection/{c}/initRank {parentItemID, nestedID, perPage}` ranks a batch of unranked
 *   items (update), answering `{ranked, remaining}`;
 * - `GET collection/{c}/csv?…list parameters` and `GET collection/{c}/item/{id}/csv?nestedID&…`
 *   stream a list (top level or nested) as CSV (read).
 * Same permission and visibility checks as the rest of the content API (server/content/routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { responses } from '../lib/schemas.ts';
import { invalid } from './collections.ts';
import { exportListCsv } from './csv.ts';
import { parseOrder, rankLimits, type MoveTarget } from './ranks.ts';
import { CollectionId, Id, ItemId, ItemSchema, ListParams, NestedId } from './route-schemas.ts';
import type { Item } from './storage.ts';



const orderDescription =
  'The position to move the item to, 1-based, in the list’s rank order (the order of `(_rank, _id)`, counted with the moved item in ' +
  'the list): 1 makes it first, n (the list size) or more makes it last. Or give `afterID` (the item it goes right after) and/or `beforeID` ' +
  '(the item it goes right before) instead: exact even when others move items at the same time.';

export async function rankRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, ranks } = app.ctx;
  const security = [{ bearer: [] as string[] }];

  app.addHook('onRequest', app.requireUser);

  const inCollection = Type.Object({ org: Id, proj: Id, collection: CollectionId });
  const inItem = Type.Object({ org: Id, proj: Id, collection: CollectionId, item: ItemId });
  const etag = (item: Item) => `"${item._lastUpdatedDate}"`;

  app.put(
    '/collection/:collection/item/:item/sort',
    {
      config: { action: 'update', scope: 'collection' },
      schema: {
        summary: 'Move an item (or, with nestedID ending in its id, a nested item) to a new place in its list (update)',
        description: `${orderDescription} The new rank is a fractional key between the new neighbours’ ranks: no other item changes.`,
        tags: ['items'],
        security,
        params: inItem,
        querystring: Type.Object(
          {
            nestedID: Type.Optional(NestedId),
            order: Type.Optional(Type.String({ maxLength: 12, description: orderDescription })),
            afterID: Type.Optional(Type.String({ maxLength: 64, description: 'the item of the same list the moved item goes right after' })),
            beforeID: Type.Optional(Type.String({ maxLength: 64, description: 'the item of the same list the moved item goes right before' })),
          },
          { additionalProperties: false },
        ),
        response: responses({ 200: ItemSchema }),
      },
    },
    async function moveItem(request, reply) {
      const { proj } = request.params;
      const { nestedID, afterID, beforeID } = request.query;
      const order = parseOrder(request.query.order);
      if (order !== undefined && (afterID || beforeID)) throw invalid([{ path: 'order', message: 'give either order or afterID/beforeID, not both' }]);
      const target: MoveTarget = order !== undefined ? { order } : { afterID: afterID || undefined, beforeID: beforeID || undefined };
      const item = await ranks.move(proj, request.params.collection, request.params.item, nestedID || undefined, target);
      return reply.header('etag', etag(item)).send(item);
    },
  );

  app.put(
    '/collection/:collection/initRank',
    {
      config: { action: 'update', scope: 'collection' },
      schema: {
        summary: 'Give unranked items of a list a rank, one batch per call (update)',
        description:
          'A one-way migration: up to `perPage` items without a rank (empty `_rank`: imported, or from before ranks) get fractional keys after the ranked ' +
          'items, in `_id` order, in one transaction. Answers `{ranked, remaining}`: call again until `remaining` is 0. A list whose items all have ranks ' +
          'answers `{ranked: 0, remaining: 0}` and changes nothing. `parentItemID` (a top-level item) and `nestedID` (ending in a nested collection slug) ' +
          'address a nested list; both empty mean the top level.',
        tags: ['items'],
        security,
        params: inCollection,
        body: Type.Object(
          {
            parentItemID: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
            nestedID: Type.Optional(Type.Union([NestedId, Type.Null()])),
            perPage: Type.Optional(
              Type.Integer({ minimum: 1, maximum: rankLimits.initRankMaxPerPage, description: `items ranked per call (default ${rankLimits.initRankDefaultPerPage})` }),
            ),
          },
          { additionalProperties: false },
        ),
        response: responses({
          200: Type.Object({
            ranked: Type.Integer({ description: 'items given a rank by this call' }),
            remaining: Type.Integer({ description: 'items of the list still without a rank' }),
          }),
        }),
      },
    },
    async function initRank(request) {
      return ranks.initRank(request.params.proj, request.params.collection, request.body ?? {});
    },
  );

  const csvDescription =
    'Streams the whole list (filtered, searched and sorted as the list call would) as CSV: a header row of keys (`_id`, field slugs, `_createdDate`, ' +
    '`_lastUpdatedDate`), cells written by each field type’s CSV codec; text cells starting with = + - @, tab or CR are prefixed with `\'`. ' +
    'The `item-count` header gives the number of rows; the file is named `{collection}-{YYYY-MM-DD}.csv`.';

  app.get(
    '/collection/:collection/csv',
    {
      config: { action: 'read', scope: 'collection' },
      schema: {
        summary: 'Download the list as CSV (read)',
        description: csvDescription,
        tags: ['items'],
        security,
        params: inCollection,
        querystring: Type.Object(ListParams, { additionalProperties: false }),
        produces: ['text/csv'],
      },
    },
    async function exportList(request, reply) {
      return exportListCsv(database.db, { projectId: request.params.proj, slug: request.params.collection }, request.query, reply);
    },
  );

  app.get(
    '/collection/:collection/item/:item/csv',
    {
      config: { action: 'read', scope: 'collection' },
      schema: {
        summary: 'Download a nested list (nestedID ending in a nested collection slug) as CSV (read)',
        description: csvDescription,
        tags: ['items'],
        security,
        params: inItem,
        querystring: Type.Object({ nestedID: NestedId, ...ListParams }, { additionalProperties: false }),
        produces: ['text/csv'],
      },
    },
    async function exportNestedList(request, reply) {
      const { nestedID, ...params } = request.query;
      const projectId = request.params.proj;
      if (!nestedID) throw invalid([{ path: 'nestedID', message: 'must name the nested list to export' }]);
      return exportListCsv(database.db, { projectId, slug: request.params.collection, itemId: request.params.item, nestedID }, params, reply);
    },
  );
}
