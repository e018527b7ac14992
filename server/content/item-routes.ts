/** A collection's items, nested ones through `nestedID`: lists, search, reads and writes (reached through contentRoutes). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { paging } from '../../definitions/constants.ts';
import { badRequest, problem } from '../lib/errors.ts';
import { Empty } from '../lib/schemas.ts';
import { Problem } from '../../definitions/schemas/problem.ts';
import { contentRoute as route, inCollection, inItem, nestedQuery } from './content-route.ts';
import { exportListCsv } from './csv.ts';
import { parseVersion, StaleItemError } from './items.ts';
import type { ListResult } from './query/index.ts';
import { ItemSchema, ListParams, NestedId, Page } from './route-schemas.ts';
import type { Item } from './storage.ts';

const ItemBody = Type.Record(Type.String(), Type.Unknown(), { description: 'values keyed by field slug; system keys are ignored' });
/** A problem (without params or errors) that carries the item as it is now. */
const StaleProblem = Type.Composite([Type.Omit(Problem, ['params', 'errors']), Type.Object({ item: Type.Optional(ItemSchema) })], {
  description: 'a conflict; for a stale write `item` is the item as it is now',
});

/** A listed item (or, with a projection or a pipeline, the document it became). */
const ListEntry = Type.Record(Type.String(), Type.Unknown(), { description: 'an item, projected; or an aggregation output document' });

const etag = (item: Item) => `"${item._lastUpdatedDate}"`;

function sendStale(reply: FastifyReply, error: StaleItemError) {
  return reply
    .code(409)
    .type('application/problem+json')
    .header('etag', etag(error.current))
    .send({ ...problem(409, error.code, error.message), item: error.current });
}

const perPageOf = (perPage: number | undefined, fallback: number) => perPage ?? fallback;

/**
 * A list page with its total. A page PostgreSQL wrote as JSON text goes out as it is (Fastify
 * sends a string of a JSON content type unserialised); items in objects (projections, pipelines)
 * through the route's serialiser.
 */
function sendList(reply: FastifyReply, result: ListResult) {
  // No total when the caller asked for none (`total=false`).
  if (result.total !== undefined) reply.header('item-count', String(result.total));
  if (result.json !== undefined) return reply.type('application/json; charset=utf-8').send(result.json);
  return reply.send(result.items);
}

export async function itemRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, items, itemQueries } = app.ctx;

  // Lists run on the query engine (server/content/query, docs/content-storage.md "Listing and searching items").
  const listQuery = Type.Object(ListParams);
  app.get(
    '/collection/:collection/item',
    route(
      { action: 'read', scope: 'collection' },
      'A page of items, filtered, searched, sorted and projected (read); the item-count header gives the total matching',
      'items',
      { params: inCollection, querystring: listQuery },
      { 200: Type.Array(ListEntry) },
    ),
    async function listItems(request, reply) {
      const { proj } = request.params;
      if (request.query.download === 'csv') return exportListCsv(database.db, { projectId: proj, slug: request.params.collection }, request.query, reply);
      const { download: _download, pagination: _pagination, ...params } = request.query;
      return sendList(reply, await itemQueries.list(proj, request.params.collection, params));
    },
  );

  app.get(
    '/collection/:collection/search',
    route(
      { action: 'read', scope: 'collection' },
      'Search a collection: `query` holds terms separated by | matching _id, text fields (case-insensitive), numbers or linked items (read); item-count gives the total',
      'items',
      {
        params: inCollection,
        querystring: Type.Object({
          query: Type.Optional(Type.String({ maxLength: paging.searchMaxChars, description: 'search terms separated by |' })),
          ...Page,
          sort: ListParams.sort,
          order: ListParams.order,
          total: ListParams.total,
        }),
      },
      { 200: Type.Array(ListEntry) },
    ),
    async function searchItems(request, reply) {
      const { proj } = request.params;
      const { query: search, ...rest } = request.query;
      return sendList(reply, await itemQueries.list(proj, request.params.collection, { ...rest, search: search ?? '' }));
    },
  );

  app.post(
    '/collection/:collection/item',
    route({ action: 'create', scope: 'collection' }, 'Create an item (create)', 'items', { params: inCollection, body: ItemBody }, { 201: ItemSchema }),
    async function createItem(request, reply) {
      const item = await items.create(request.params.proj, request.params.collection, request.body);
      return reply.code(201).header('etag', etag(item)).send(item);
    },
  );

  app.get(
    '/collection/:collection/item/:item',
    route(
      { action: 'read', scope: 'collection' },
      'One item; with nestedID a nested list (ending in a slug, with item-count) or a nested item (ending in an id) (read)',
      'items',
      { params: inItem, querystring: Type.Object({ nestedID: Type.Optional(NestedId), ...ListParams }) },
      { 200: Type.Union([ItemSchema, Type.Array(ListEntry)]) },
    ),
    async function readItem(request, reply) {
      const { proj } = request.params;
      const { nestedID, download, pagination: _pagination, ...params } = request.query;
      if (download === 'csv' && nestedID) {
        return exportListCsv(database.db, { projectId: proj, slug: request.params.collection, itemId: request.params.item, nestedID }, params, reply);
      }
      const nestedList = nestedID ? await itemQueries.nestedList(proj, request.params.collection, request.params.item, nestedID, params, { perPage: paging.nestedPageSize }) : undefined;
      if (nestedList) return sendList(reply, nestedList);
      const page = { pageNumber: request.query.pageNumber ?? 1, perPage: perPageOf(request.query.perPage, paging.nestedPageSize) };
      const found = await items.get(proj, request.params.collection, request.params.item, request.query.nestedID, page);
      if ('item' in found) return reply.header('etag', etag(found.item)).send(found.item);
      return reply.header('item-count', String(found.total)).send(found.items);
    },
  );

  app.post(
    '/collection/:collection/item/:item',
    route(
      { action: 'create', scope: 'collection' },
      'Create a nested item in the list nestedID names under item {item} (create)',
      'items',
      { params: inItem, querystring: Type.Object({ nestedID: NestedId }), body: ItemBody },
      { 201: ItemSchema },
    ),
    async function createNestedItem(request, reply) {
      const { proj } = request.params;
      if (!request.query.nestedID) throw badRequest('validation_failed', 'nestedID must name the nested collection to create the item in.');
      const item = await items.create(proj, request.params.collection, request.body, { itemId: request.params.item, nestedID: request.query.nestedID });
      return reply.code(201).header('etag', etag(item)).send(item);
    },
  );

  const versionHeader = Type.Object({ 'if-match': Type.Optional(Type.String({ maxLength: 100 })) });

  app.put(
    '/collection/:collection/item/:item',
    route(
      { action: 'update', scope: 'collection' },
      'Change the given fields of an item or (nestedID) a nested item (update). If-Match or _lastUpdatedDate makes it conditional.',
      'items',
      { params: inItem, querystring: nestedQuery, headers: versionHeader, body: ItemBody },
      { 200: ItemSchema, 409: StaleProblem },
    ),
    async function changeItem(request, reply) {
      const { proj } = request.params;
      try {
        const version = parseVersion(request.headers['if-match'], 'If-Match');
        const item = await items.update(proj, request.params.collection, request.params.item, request.body, { nestedID: request.query.nestedID, version });
        return reply.header('etag', etag(item)).send(item);
      } catch (error) {
        if (error instanceof StaleItemError) return sendStale(reply, error);
        throw error;
      }
    },
  );

  app.delete(
    '/collection/:collection/item/:item',
    route(
      { action: 'delete', scope: 'collection' },
      'Delete an item or (nestedID) a nested item, with everything nested in it (delete). If-Match makes it conditional.',
      'items',
      { params: inItem, querystring: nestedQuery, headers: versionHeader },
      { 204: Empty, 409: StaleProblem },
    ),
    async function deleteItem(request, reply) {
      const { proj } = request.params;
      try {
        const version = parseVersion(request.headers['if-match'], 'If-Match');
        await items.delete(proj, request.params.collection, request.params.item, { nestedID: request.query.nestedID, version });
        return reply.code(204).send(null);
      } catch (error) {
        if (error instanceof StaleItemError) return sendStale(reply, error);
        throw error;
      }
    },
  );
}
