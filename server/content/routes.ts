/**
 * The content API of a project, under `/api/organization/{org}/project/{proj}/`:
 * collections, their schemas and fields, and items (nested ones through `nestedID`). Reading needs
 * the read permission, creating create, changing update and removing delete.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Action } from '../../definitions/permissions.ts';
import { contentLimits } from '../../definitions/content.ts';
import { currentUser } from '../auth/authenticate.ts';
import { collectionVisibilityOf, type CollectionVisibility } from '../main/projects.ts';
import { badRequest, problem } from '../lib/errors.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { CollectionService, invalid, toCollectionView } from './collections.ts';
import { ItemService, parseVersion, StaleItemError } from './items.ts';
import { ItemQueryService, type ListResult } from './query/index.ts';
import { exportListCsv } from './csv.ts';
import { CollectionId, Id, ItemId, ItemSchema, ListParams, NestedId, Page } from './route-schemas.ts';
import type { Item } from './storage.ts';

const FieldId = Type.String({ pattern: '^([0-9a-f]{24}|_metadata)$', description: 'a field id' });

const SchemaField = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    type: Type.Integer(),
    helpText: Type.Optional(Type.String()),
    required: Type.Optional(Type.Boolean()),
    primaryField: Type.Optional(Type.Boolean()),
    unique: Type.Optional(Type.Boolean()),
    visible: Type.Optional(Type.Boolean()),
    options: Type.Optional(Type.Array(Type.Object({ _id: Type.String(), value: Type.String() }))),
    referenceCollectionID: Type.Optional(Type.String()),
    nestedCollectionSchema: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true, description: 'a schema field (content spec §3); type-specific settings as the field type declares them' },
);
/** What a field definition may hold; the field type decides the rest (checked in code, with paths). */
const FieldInput = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    slug: Type.Optional(Type.String({ maxLength: 1000 })),
    type: Type.Optional(Type.Integer()),
    helpText: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    required: Type.Optional(Type.Boolean()),
    primaryField: Type.Optional(Type.Boolean()),
    unique: Type.Optional(Type.Boolean()),
    visible: Type.Optional(Type.Boolean()),
    options: Type.Optional(Type.Array(Type.Unknown(), { maxItems: contentLimits.optionsPerField })),
    referenceCollectionID: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    nestedCollectionSchema: Type.Optional(Type.Array(Type.Unknown(), { maxItems: contentLimits.fieldsPerSchema })),
  },
  { additionalProperties: true },
);
const Collection = Type.Object({
  id: Type.String(),
  name: Type.String(),
  schema: Type.Array(SchemaField),
  singleItem: Type.Boolean(),
  rtlDirection: Type.Boolean(),
  itemCount: Type.Integer(),
  createdDate: Type.String(),
});
const ItemBody = Type.Record(Type.String(), Type.Unknown(), { description: 'values keyed by field slug; system keys are ignored' });
const StaleProblem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    item: Type.Optional(ItemSchema),
  },
  { description: 'a conflict; for a stale write `item` is the item as it is now' },
);

/** A listed item (or, with a projection or a pipeline, the document it became). */
const ListEntry = Type.Record(Type.String(), Type.Unknown(), { description: 'an item, projected; or an aggregation output document' });

const project = { org: Id, proj: Id };
const inCollection = Type.Object({ ...project, collection: CollectionId });
const inField = Type.Object({ ...project, collection: CollectionId, field: FieldId });
const inItem = Type.Object({ ...project, collection: CollectionId, item: ItemId });

/** A request-validation failure as content errors are: one entry per property, named by its path. */
function validationFailure(error: FastifyError) {
  const context = (error as FastifyError & { validationContext?: string }).validationContext ?? 'body';
  const problems = (error.validation ?? []).map((v) => {
    const segments = v.instancePath
      .split('/')
      .filter(Boolean)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const params = v.params as { additionalProperty?: string; missingProperty?: string };
    if (params.additionalProperty) segments.push(params.additionalProperty);
    if (params.missingProperty) segments.push(params.missingProperty);
    const path = segments.join('.');
    return {
      path: context === 'body' ? path : [context, path].filter(Boolean).join('.'),
      message: params.additionalProperty ? 'is not a known property' : (v.message ?? 'is invalid'),
    };
  });
  return invalid(problems);
}

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
  reply.header('item-count', String(result.total));
  if (result.json !== undefined) return reply.type('application/json; charset=utf-8').send(result.json);
  return reply.send(result.items);
}

export async function contentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { access, projects, database } = app.ctx;
  const collections = new CollectionService(database.db);
  const items = new ItemService(database.db);
  const itemQueries = new ItemQueryService(database.db, database.read, app.ctx.caches);
  const security = [{ bearer: [] as string[] }];

  app.addHook('onRequest', app.requireUser);
  // Bad input is reported by path, the way item and field problems are (`{path: 'slug', …}`).
  const bodyLimit = 2 * contentLimits.itemBytesMax;
  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
    // Items may be large (rich text, JSON): their own limits answer 400 naming the field, well before this.
    if (route.method !== 'GET' && route.url.includes('/item')) route.bodyLimit = bodyLimit;
  });
  app.addHook('preHandler', async (request) => {
    if (request.validationError) throw validationFailure(request.validationError as FastifyError);
  });

  /**
   * The permission check every call makes first; then the project must be in the organization, and
   * a collection named in the address must be one the caller sees (a restricted view hides the
   * rest as if they did not exist: server/main/projects.ts).
   */
  async function allowIn(request: FastifyRequest, action: Action): Promise<{ proj: string; visibility: CollectionVisibility }> {
    const { org, proj, collection } = request.params as { org: string; proj: string; collection?: string };
    const viewer = await access.require(currentUser(request).userId, org, action);
    const visibility = collectionVisibilityOf(await projects.row(org, proj), viewer);
    if (collection !== undefined) visibility.require(collection);
    return { proj, visibility };
  }
  const allow = async (request: FastifyRequest, action: Action): Promise<string> => (await allowIn(request, action)).proj;

  const route = <S extends { params?: TSchema; querystring?: TSchema; headers?: TSchema; body?: TSchema }, R extends Record<number, TSchema>>(
    summary: string,
    tag: string,
    schema: S,
    response: R,
  ) => ({
    schema: { summary, tags: [tag], security, ...schema, response: responses(response) },
  });

  // Collections.
  app.get('/collection', route('The project’s collections (read)', 'collections', { params: Type.Object(project) }, { 200: Type.Array(Collection) }), async (request) => {
    const { proj, visibility } = await allowIn(request, 'read');
    return (await collections.list(proj)).filter((c) => visibility.visible(c.slug)).map(toCollectionView);
  });

  app.post(
    '/collection',
    route(
      'Create a collection (create). The id is the collection ID; without one it is derived from the name.',
      'collections',
      {
        params: Type.Object(project),
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
    async (request, reply) => {
      const { proj, visibility } = await allowIn(request, 'create');
      visibility.requireUnrestricted();
      return reply.code(201).send(await collections.create(proj, request.body));
    },
  );

  app.get('/collection/:collection', route('One collection with its schema (read)', 'collections', { params: inCollection }, { 200: Collection }), async (request) =>
    toCollectionView(await collections.row(await allow(request, 'read'), request.params.collection)),
  );

  app.put(
    '/collection/:collection',
    route(
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
    async (request) => collections.update(await allow(request, 'update'), request.params.collection, request.body),
  );

  app.delete(
    '/collection/:collection',
    route('Delete a collection with all its items (delete)', 'collections', { params: inCollection }, { 204: Empty }),
    async (request, reply) => {
      await collections.delete(await allow(request, 'delete'), request.params.collection);
      return reply.code(204).send(null);
    },
  );

  // Schemas and fields.
  const nestedQuery = Type.Object({ nestedID: Type.Optional(NestedId) });

  app.get(
    '/collection/:collection/schema',
    route('The schema of a collection or of one of its nested collections (read)', 'schemas', { params: inCollection, querystring: nestedQuery }, { 200: Type.Array(SchemaField) }),
    async (request) => collections.schema(await allow(request, 'read'), request.params.collection, request.query.nestedID),
  );

  app.put(
    '/collection/:collection/schema',
    route(
      'Save a schema level: the same fields in a new order with changed attributes (update)',
      'schemas',
      { params: inCollection, querystring: nestedQuery, body: Type.Array(FieldInput, { maxItems: contentLimits.fieldsPerSchema }) },
      { 200: Type.Array(SchemaField) },
    ),
    async (request) => collections.replaceSchema(await allow(request, 'update'), request.params.collection, request.body, request.query.nestedID),
  );

  app.put(
    '/collection/:collection/schema/order',
    route(
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
    async (request) => {
      const proj = await allow(request, 'update');
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
      'Add a field to the schema, or (nestedID) to a nested collection’s schema (create)',
      'schemas',
      { params: inCollection, querystring: nestedQuery, body: FieldInput },
      { 201: SchemaField },
    ),
    async (request, reply) =>
      reply.code(201).send(await collections.addField(await allow(request, 'create'), request.params.collection, request.body, request.query.nestedID)),
  );

  app.post(
    '/collection/:collection/field/:field',
    route(
      'Add a field to the nested schema of nested-collection field {field} (create)',
      'schemas',
      { params: inField, querystring: Type.Object({ nestedSlug: Type.Optional(NestedId) }), body: FieldInput },
      { 201: SchemaField },
    ),
    async (request, reply) =>
      reply
        .code(201)
        .send(await collections.addNestedField(await allow(request, 'create'), request.params.collection, request.params.field, request.body, request.query.nestedSlug)),
  );

  app.put(
    '/collection/:collection/field/:field',
    route(
      'Change a field: the attributes given (update). Its type and slug stay.',
      'schemas',
      { params: inField, querystring: Type.Object({ nestedSlug: Type.Optional(NestedId) }), body: FieldInput },
      { 200: SchemaField },
    ),
    async (request) =>
      collections.updateField(await allow(request, 'update'), request.params.collection, request.params.field, request.body, request.query.nestedSlug),
  );

  app.delete(
    '/collection/:collection/field/:field',
    route('Delete a field and all its values (delete)', 'schemas', { params: inField, querystring: nestedQuery }, { 204: Empty }),
    async (request, reply) => {
      await collections.deleteField(await allow(request, 'delete'), request.params.collection, request.params.field, request.query.nestedID);
      return reply.code(204).send(null);
    },
  );

  // Items.

  // Lists run on the query engine (server/content/query, docs/content-storage.md "Listing and searching items").
  const listQuery = Type.Object(ListParams);
  app.get(
    '/collection/:collection/item',
    route(
      'A page of items, filtered, searched, sorted and projected (read); the item-count header gives the total matching',
      'items',
      { params: inCollection, querystring: listQuery },
      { 200: Type.Array(ListEntry) },
    ),
    async (request, reply) => {
      const proj = await allow(request, 'read');
      if (request.query.download === 'csv') return exportListCsv(database.db, { projectId: proj, slug: request.params.collection }, request.query, reply);
      const { download: _download, pagination: _pagination, ...params } = request.query;
      return sendList(reply, await itemQueries.list(proj, request.params.collection, params));
    },
  );

  app.get(
    '/collection/:collection/search',
    route(
      'Search a collection: `query` holds terms separated by | matching _id, text fields (case-insensitive), numbers or linked items (read); item-count gives the total',
      'items',
      {
        params: inCollection,
        querystring: Type.Object({
          query: Type.Optional(Type.String({ maxLength: 256, description: 'search terms separated by |' })),
          ...Page,
          sort: ListParams.sort,
          order: ListParams.order,
        }),
      },
      { 200: Type.Array(ListEntry) },
    ),
    async (request, reply) => {
      const proj = await allow(request, 'read');
      const { query: search, ...rest } = request.query;
      return sendList(reply, await itemQueries.list(proj, request.params.collection, { ...rest, search: search ?? '' }));
    },
  );

  app.post(
    '/collection/:collection/item',
    route('Create an item (create)', 'items', { params: inCollection, body: ItemBody }, { 201: ItemSchema }),
    async (request, reply) => {
      const item = await items.create(await allow(request, 'create'), request.params.collection, request.body);
      return reply.code(201).header('etag', etag(item)).send(item);
    },
  );

  app.get(
    '/collection/:collection/item/:item',
    route(
      'One item; with nestedID a nested list (ending in a slug, with item-count) or a nested item (ending in an id) (read)',
      'items',
      { params: inItem, querystring: Type.Object({ nestedID: Type.Optional(NestedId), ...ListParams }) },
      { 200: Type.Union([ItemSchema, Type.Array(ListEntry)]) },
    ),
    async (request, reply) => {
      const proj = await allow(request, 'read');
      const { nestedID, download, pagination: _pagination, ...params } = request.query;
      if (download === 'csv' && nestedID) {
        return exportListCsv(database.db, { projectId: proj, slug: request.params.collection, itemId: request.params.item, nestedID }, params, reply);
      }
      const nestedList = nestedID ? await itemQueries.nestedList(proj, request.params.collection, request.params.item, nestedID, params, { perPage: 100 }) : undefined;
      if (nestedList) return sendList(reply, nestedList);
      const page = { pageNumber: request.query.pageNumber ?? 1, perPage: perPageOf(request.query.perPage, 100) };
      const found = await items.get(proj, request.params.collection, request.params.item, request.query.nestedID, page);
      if ('item' in found) return reply.header('etag', etag(found.item)).send(found.item);
      return reply.header('item-count', String(found.total)).send(found.items);
    },
  );

  app.post(
    '/collection/:collection/item/:item',
    route(
      'Create a nested item in the list nestedID names under item {item} (create)',
      'items',
      { params: inItem, querystring: Type.Object({ nestedID: NestedId }), body: ItemBody },
      { 201: ItemSchema },
    ),
    async (request, reply) => {
      const proj = await allow(request, 'create');
      if (!request.query.nestedID) throw badRequest('validation_failed', 'nestedID must name the nested collection to create the item in.');
      const item = await items.create(proj, request.params.collection, request.body, { itemId: request.params.item, nestedID: request.query.nestedID });
      return reply.code(201).header('etag', etag(item)).send(item);
    },
  );

  const versionHeader = Type.Object({ 'if-match': Type.Optional(Type.String({ maxLength: 100 })) });

  app.put(
    '/collection/:collection/item/:item',
    route(
      'Change the given fields of an item or (nestedID) a nested item (update). If-Match or _lastUpdatedDate makes it conditional.',
      'items',
      { params: inItem, querystring: nestedQuery, headers: versionHeader, body: ItemBody },
      { 200: ItemSchema, 409: StaleProblem },
    ),
    async (request, reply) => {
      const proj = await allow(request, 'update');
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
      'Delete an item or (nestedID) a nested item, with everything nested in it (delete). If-Match makes it conditional.',
      'items',
      { params: inItem, querystring: nestedQuery, headers: versionHeader },
      { 204: Empty, 409: StaleProblem },
    ),
    async (request, reply) => {
      const proj = await allow(request, 'delete');
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
