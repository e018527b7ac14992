/**
 * Items through the public v1 API, on the console's item service and query engine
 * unchanged: `GET|POST …/collection/{c}/items`, `GET|POST|PUT|DELETE …/items/{id}` (nestedID chains
 * of any depth; `PUT ?set=true` upserts with the caller's id) and the field operations
 * `PUT|DELETE …/items/{id}/field/{f}` (append, increment/decrement, unset/value). Every call needs
 * the principal's right on the top-level collection (server/public/principal.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isItemId, parseNestedId } from '../../definitions/content.ts';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { AppError, badRequest, notFound } from '../lib/errors.ts';
import { invalid, levelOf } from '../content/collections.ts';
import { type ListResult } from '../content/query/index.ts';
import { ListParams } from '../content/route-schemas.ts';
import { levelAt, type SchemaLevel } from '../content/schema-tree.ts';
import { query, rowToItem, selectList, type Item } from '../content/storage.ts';
import { associatedItems, can, requireAssociated, requireRight, type Principal } from './principal.ts';
import { changeField, inField, inItem, inCollection, nestedQuery, objectBody, principalOf, refuseServerKeys, security, tags, valuesOnly, type PublicApp } from './support.ts';

/** The list parameters the client sends, plus `everything`. */
const listQuery = Type.Object({
  pageNumber: ListParams.pageNumber,
  perPage: ListParams.perPage,
  sort: ListParams.sort,
  order: ListParams.order,
  query: ListParams.query,
  find: ListParams.find,
  aggregationPipeline: ListParams.aggregationPipeline,
  projectOn: ListParams.projectOn,
  projectOff: ListParams.projectOff,
  everything: Type.Optional(Type.String({ maxLength: 10, description: 'true: each ItemRef link also carries the linked item as `item`' })),
  ...nestedQuery,
});

const IdAnswer = Type.Object({ id: Type.String() });
const Entry = Type.Record(Type.String(), Type.Unknown());

export async function publicItemRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, collections, items, itemQueries: queries } = app.ctx;

  /**
   * `everything=true`: each ItemRef link of the items gets the linked item as `item` (one query per
   * ItemRef field), for collections the principal may read; the others' links stay as they are.
   */
  async function expandLinks(principal: Principal, level: SchemaLevel, entries: Record<string, unknown>[]) {
    const linkFields = level.fields.filter((f) => fieldType(f.type)?.name === 'ItemRef' && typeof f.referenceCollectionID === 'string');
    for (const field of linkFields) {
      const links = entries.flatMap((entry) => (Array.isArray(entry[field.slug]) ? (entry[field.slug] as Record<string, unknown>[]) : []));
      const ids = [...new Set(links.map((link) => link?.itemRefID).filter((id): id is string => isItemId(id)))];
      if (ids.length === 0) continue;
      const slug = field.referenceCollectionID as string;
      if (!(await can(app, principal, slug, 'read')).allowed) continue;
      let target: SchemaLevel;
      try {
        target = levelOf(await collections.schemaRow(principal.projectId, slug));
      } catch {
        continue;
      }
      const rows = await query(
        database.read,
        sql`select ${selectList(target)} from ${sql.identifier(target.table)} where ${sql.identifier('_id')} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
      const found = new Map(rows.map((row) => [String(row._id), rowToItem(target, row)]));
      for (const link of links) {
        const item = typeof link?.itemRefID === 'string' ? found.get(link.itemRefID) : undefined;
        if (item) link.item = item;
      }
    }
  }

  /** A list answer: the page, the `item-count` header (the total matching), links expanded with `everything`. */
  async function sendList(reply: FastifyReply, principal: Principal, level: SchemaLevel, result: ListResult, everything: boolean) {
    reply.header('item-count', String(result.total));
    if (!everything) {
      if (result.json !== undefined) return reply.type('application/json; charset=utf-8').send(result.json);
      return reply.send(result.items);
    }
    const entries = result.json !== undefined ? (JSON.parse(result.json) as Record<string, unknown>[]) : result.items;
    await expandLinks(principal, level, entries);
    return reply.send(entries);
  }

  /** The schema level a nestedID chain ends at (for `everything` on nested lists and items). */
  function levelOfChain(top: SchemaLevel, nestedID: string | undefined): SchemaLevel {
    const steps = nestedID ? parseNestedId(nestedID) : [];
    const slugs = (steps ?? []).flatMap((step) => (step.kind === 'collection' ? [step.slug] : []));
    return levelAt(top, slugs) ?? top;
  }

  /** The rows the list parameters of an "associated items only" caller are narrowed to. */
  function narrowed<T extends { find?: string | undefined }>(params: T, ids: string[] | undefined): T {
    if (!ids) return params;
    const own = { _id: { $in: ids } };
    let find: unknown = own;
    if (params.find) {
      try {
        find = { $and: [JSON.parse(params.find), own] };
      } catch {
        throw badRequest('invalid_query', 'find must be JSON.');
      }
    }
    return { ...params, find: JSON.stringify(find) };
  }

  const everythingOf = (value: string | undefined) => value === 'true';

  // After an item write the files it may have orphaned (a replaced image, a deleted item's files) go at once (docs/files.md).
  app.addHook('onResponse', (request, reply, done) => {
    done();
    if ((request.method !== 'PUT' && request.method !== 'DELETE') || reply.statusCode >= 400 || !request.principal) return;
    const { collection, item } = request.params as { collection?: string; item?: string };
    const files = (fastify as FastifyInstance).files;
    if (!collection || !item || !files) return;
    const projectId = request.principal.projectId;
    files.schedule(async () => files.sweepItem((await collections.schemaRow(projectId, collection)).id, item));
  });

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
    async (request, reply) => {
      const principal = principalOf(request);
      const grant = await requireRight(app, principal, request.params.collection, 'read');
      const { everything, nestedID: _nested, ...params } = request.query;
      const scoped = narrowed(params, await associatedItems(app, principal, grant, request.params.collection));
      const result = await queries.list(principal.projectId, request.params.collection, scoped, { perPage: 100 });
      const level = everythingOf(everything) ? levelOf(await collections.schemaRow(principal.projectId, request.params.collection)) : undefined;
      return sendList(reply, principal, level!, result, everythingOf(everything));
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
    async (request, reply) => {
      const principal = principalOf(request);
      const { collection, item } = request.params;
      const grant = await requireRight(app, principal, collection, 'read');
      await requireAssociated(app, principal, grant, collection, item);
      const { everything, nestedID, ...params } = request.query;
      const expand = everythingOf(everything);
      const top = expand ? levelOf(await collections.schemaRow(principal.projectId, collection)) : undefined;
      if (nestedID) {
        const nestedList = await queries.nestedList(principal.projectId, collection, item, nestedID, params, { perPage: 100 });
        if (nestedList) return sendList(reply, principal, top ? levelOfChain(top, nestedID) : top!, nestedList, expand);
      }
      const found = await items.get(principal.projectId, collection, item, nestedID || undefined, { pageNumber: 1, perPage: 0 });
      if (!('item' in found)) throw notFound('item_not_found', 'Could not find item');
      if (top) await expandLinks(principal, levelOfChain(top, nestedID), [found.item]);
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
    async (request, reply) => create(request, reply, request.params.collection, request.body),
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
    async (request, reply) => {
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
    async (request, reply) => {
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
    async (request, reply) => {
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

  // Field operations: the item as it is now, one field changed, retried on a concurrent write.
  async function fieldOf(request: FastifyRequest, params: { collection: string; item: string; field: string }, query: { nestedID?: string | undefined }) {
    const principal = principalOf(request);
    const { collection, item, field: slug } = params;
    const grant = await requireRight(app, principal, collection, 'update');
    await requireAssociated(app, principal, grant, collection, item);
    const nestedID = query.nestedID || undefined;
    const found = await items.get(principal.projectId, collection, item, nestedID, { pageNumber: 1, perPage: 0 });
    if (!('item' in found)) throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item to change' }]);
    const level = levelOfChain(levelOf(await collections.schemaRow(principal.projectId, collection)), nestedID);
    const field = level.fields.find((f) => f.slug === slug);
    const type = field ? fieldType(field.type) : undefined;
    if (!field || !type) throw invalid([{ path: 'field', message: `"${slug}" is not a field of this item` }]);
    const change = (fn: (current: unknown) => unknown) => changeField(items, principal.projectId, { collection, item, nestedID }, slug, found.item, fn);
    return { field: field as SchemaField, typeName: type.name, change };
  }

  const linkIds = (value: unknown, path: string): string[] => {
    const list = Array.isArray(value) ? value : [value];
    const ids = list.map((v) => (typeof v === 'object' && v !== null ? (v as { itemRefID?: unknown }).itemRefID : v));
    if (ids.length === 0 || ids.some((id) => !isItemId(id))) throw invalid([{ path, message: 'must be the id of an item (or a list of them)' }]);
    return ids as string[];
  };
  const linksOf = (current: unknown) => (Array.isArray(current) ? (current as { itemRefID: string }[]) : []);

  const fieldQuery = Type.Object({ increment: Type.Optional(Type.String({ maxLength: 40 })), ...nestedQuery });

  app.put(
    '/collection/:collection/items/:item/field/:field',
    {
      schema: {
        summary: 'Append an item link to an ItemRef field (body {value}), or add ?increment=n to a Number field (update)',
        tags,
        security,
        params: inField,
        querystring: fieldQuery,
        body: Type.Unknown(),
        response: { 200: IdAnswer },
      },
    },
    async (request, reply) => {
      const { field, typeName, change } = await fieldOf(request, request.params, request.query);
      let updated: Item;
      if (request.query.increment !== undefined) {
        const by = Number(request.query.increment);
        if (request.query.increment.trim() === '' || !Number.isFinite(by)) throw invalid([{ path: 'increment', message: 'must be a number' }]);
        if (typeName !== 'Number') throw invalid([{ path: 'field', message: `"${field.slug}" is not a Number field` }]);
        updated = await change((current) => (typeof current === 'number' ? current : 0) + by);
      } else {
        const body = objectBody(request.body);
        if (typeName !== 'ItemRef') throw invalid([{ path: 'field', message: `"${field.slug}" is not an ItemRef field: only links can be appended` }]);
        const ids = linkIds(body.value, 'value');
        updated = await change((current) => {
          const links: { itemRefID: string }[] = [...linksOf(current)];
          for (const id of ids) if (!links.some((link) => link.itemRefID === id)) links.push({ itemRefID: id });
          return links;
        });
      }
      return reply.send({ id: updated._id });
    },
  );

  app.delete(
    '/collection/:collection/items/:item/field/:field',
    {
      schema: {
        summary: 'Remove the link {value} from an ItemRef field; any other field is emptied (update). The client sends unset() and value() this way.',
        tags,
        security,
        params: inField,
        querystring: Type.Object(nestedQuery),
        body: Type.Unknown(),
        response: { 200: IdAnswer },
      },
    },
    async (request, reply) => {
      const { typeName, change } = await fieldOf(request, request.params, request.query);
      const body = objectBody(request.body, true);
      let updated: Item;
      if (typeName === 'ItemRef' && body.value !== undefined && body.value !== null) {
        const ids = linkIds(body.value, 'value');
        updated = await change((current) => {
          const rest = linksOf(current).filter((link) => !ids.includes(link.itemRefID));
          return rest.length ? rest : null;
        });
      } else {
        updated = await change(() => null);
      }
      return reply.send({ id: updated._id });
    },
  );
}
