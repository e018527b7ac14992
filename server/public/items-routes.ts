/**
 * Items through the public v1 API, on the console's item service and query engine
 * unchanged: `GET|POST …/collection/{c}/items`, `GET|POST|PUT|DELETE …/items/{id}` (nestedID chains
 * of any depth; `PUT ?set=true` upserts with the caller's id). The field operations are in
 * item-field-routes.ts. Every call needs the principal's right on the top-level collection
 * (server/public/principal.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parseNestedId } from '../../definitions/content.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { invalid, levelOf } from '../content/collections.ts';
import { associatedItems, requireAssociated, requireRight } from './principal.ts';
import { inItem, inCollection, nestedQuery, objectBody, principalOf, refuseServerKeys, security, tags, valuesOnly, type PublicApp } from './support.ts';
import { Entry, everythingOf, expandLinks, IdAnswer, levelOfChain, listQuery, narrowed, sendList } from './item-answers.ts';

export async function publicItemRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { collections, items, itemQueries: queries } = app.ctx;

  app.get(
    '/collection/:collection/items',
    {
      schema: {
        summary: 'A page of items (read); the item-count header gives the total matching',
        tags,
        security,
        params: inCollection,
        querystring: listQuery,
        response: { 200: Type.Array(Entry) },
      },
    },
    async function listItems(request, reply) {
      const principal = principalOf(request);
      const grant = await requireRight(app, principal, request.params.collection, 'read');
      const { everything, nestedID: _nested, ...params } = request.query;
      const scoped = narrowed(params, await associatedItems(app, principal, grant, request.params.collection));
      const result = await queries.list(principal.projectId, request.params.collection, scoped, { perPage: 100 });
      const level = everythingOf(everything) ? levelOf(await collections.schemaRow(principal.projectId, request.params.collection)) : undefined;
      return sendList(app, reply, principal, level!, result, everythingOf(everything));
    },
  );

  app.get(
    '/collection/:collection/items/:item',
    {
      schema: {
        summary: 'One item; with nestedID a nested list (ending in a slug, with item-count) or a nested item (ending in an id) (read)',
        tags,
        security,
        params: inItem,
        querystring: listQuery,
        response: { 200: Type.Union([Entry, Type.Array(Entry)]) },
      },
    },
    async function readItem(request, reply) {
      const principal = principalOf(request);
      const { collection, item } = request.params;
      const grant = await requireRight(app, principal, collection, 'read');
      await requireAssociated(app, principal, grant, collection, item);
      const { everything, nestedID, ...params } = request.query;
      const expand = everythingOf(everything);
      const top = expand ? levelOf(await collections.schemaRow(principal.projectId, collection)) : undefined;
      if (nestedID) {
        const nestedList = await queries.nestedList(principal.projectId, collection, item, nestedID, params, { perPage: 100 });
        if (nestedList) return sendList(app, reply, principal, top ? levelOfChain(top, nestedID) : top!, nestedList, expand);
      }
      const found = await items.get(principal.projectId, collection, item, nestedID || undefined, { pageNumber: 1, perPage: 0 });
      if (!('item' in found)) throw notFound('item_not_found', 'Could not find item');
      if (top) await expandLinks(app, principal, levelOfChain(top, nestedID), [found.item]);
      return reply.send(found.item);
    },
  );

  /** Creates a top-level item, or (nestedID ending in a slug) a nested one under `parent`. */
  async function create(request: FastifyRequest, reply: FastifyReply, collection: string, body: unknown, nested?: { itemId: string; nestedID: string }) {
    const principal = principalOf(request);
    const grant = await requireRight(app, principal, collection, 'create');
    if (nested) await requireAssociated(app, principal, grant, collection, nested.itemId);
    const values = objectBody(body);
    refuseServerKeys(values);
    const item = await items.create(principal.projectId, collection, values, nested);
    return reply.code(201).send({ id: item._id });
  }

  app.post(
    '/collection/:collection/items',
    { schema: { summary: 'Create an item (create); answers its id', tags, security, params: inCollection, body: Type.Unknown(), response: { 201: IdAnswer } } },
    async function createItem(request, reply) {
      return create(request, reply, request.params.collection, request.body);
    },
  );

  app.post(
    '/collection/:collection/items/:item',
    {
      schema: {
        summary: 'Create a nested item in the list nestedID names under item {item} (create); without nestedID a top-level item, as the client sends it',
        tags,
        security,
        params: inItem,
        querystring: Type.Object(nestedQuery),
        body: Type.Unknown(),
        response: { 201: IdAnswer },
      },
    },
    async function createNestedItem(request, reply) {
      const { nestedID } = request.query;
      return create(request, reply, request.params.collection, request.body, nestedID ? { itemId: request.params.item, nestedID } : undefined);
    },
  );

  app.put(
    '/collection/:collection/items/:item',
    {
      schema: {
        summary: 'Change the given fields of an item or (nestedID) a nested item (update); set=true creates it with this id when it does not exist (create)',
        tags,
        security,
        params: inItem,
        querystring: Type.Object({ set: Type.Optional(Type.String({ maxLength: 10 })), ...nestedQuery }),
        body: Type.Unknown(),
        response: { 200: IdAnswer, 201: IdAnswer },
      },
    },
    async function updateItem(request, reply) {
      const principal = principalOf(request);
      const { collection, item } = request.params;
      const nestedID = request.query.nestedID || undefined;
      const steps = nestedID ? parseNestedId(nestedID) : [];
      const last = steps?.[steps.length - 1];
      if (nestedID && (!steps || last?.kind !== 'item')) throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item to change' }]);
      const addressedId = last?.kind === 'item' ? last.id : item;
      const values = objectBody(request.body, true);
      refuseServerKeys(values, request.query.set === 'true' ? addressedId : undefined);
      const update = async () => {
        const grant = await requireRight(app, principal, collection, 'update');
        await requireAssociated(app, principal, grant, collection, item);
        const updated = await items.update(principal.projectId, collection, item, valuesOnly(values), { nestedID });
        return reply.send({ id: updated._id });
      };
      if (request.query.set !== 'true') return update();
      // Upsert: an existing item is updated; a missing one is created with the caller's id.
      const exists = await items.get(principal.projectId, collection, item, nestedID, { pageNumber: 1, perPage: 0 }).then(
        () => true,
        (error: unknown) => {
          if (error instanceof AppError && error.status === 404 && error.code === 'item_not_found') return false;
          throw error;
        },
      );
      if (exists) return update();
      const grant = await requireRight(app, principal, collection, 'create');
      const nested = nestedID ? { itemId: item, nestedID: nestedID.split('.').slice(0, -1).join('.') } : undefined;
      if (nested) await requireAssociated(app, principal, grant, collection, item);
      try {
        const created = await items.create(principal.projectId, collection, valuesOnly(values), nested, addressedId);
        return reply.code(201).send({ id: created._id });
      } catch (error) {
        // Another set of the same id created it meanwhile: this one updates it. (The id taken by an
        // item elsewhere, under another parent in a nested collection, stays a 409.)
        const raced = error instanceof AppError && error.code === 'item_id_taken' && (await items.get(principal.projectId, collection, item, nestedID, { pageNumber: 1, perPage: 0 }).then(() => true, () => false));
        if (raced) return update();
        throw error;
      }
    },
  );

  app.delete(
    '/collection/:collection/items/:item',
    {
      schema: {
        summary: 'Delete an item or (nestedID) a nested item, with everything nested in it (delete)',
        tags,
        security,
        params: inItem,
        querystring: Type.Object(nestedQuery),
        response: { 200: IdAnswer },
      },
    },
    async function deleteItem(request, reply) {
      const principal = principalOf(request);
      const { collection, item } = request.params;
      const grant = await requireRight(app, principal, collection, 'delete');
      await requireAssociated(app, principal, grant, collection, item);
      const nestedID = request.query.nestedID || undefined;
      await items.delete(principal.projectId, collection, item, { nestedID });
      const steps = nestedID ? parseNestedId(nestedID) : undefined;
      const last = steps?.[steps.length - 1];
      return reply.send({ id: last?.kind === 'item' ? last.id : item });
    },
  );
}
