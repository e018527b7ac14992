/**
 * The generated OpenAPI 3.1 document of one project as one caller may use it (docs/studio.md
 * "The generated document"): a pure function of the project's collections, the caller's rights
 * per collection and the public API's surface (server/studio/surface.ts).
 *
 * - Each collection level has its item schema typed from its field types (each declares the JSON
 *   Schema of its value as read, and as written where that differs: definitions/field-types/*).
 * - Nested collections have paths of their own. The public API names a nested level by the
 *   `nestedID` query parameter, and OpenAPI tells operations apart by path only, so a nested
 *   level's path carries its `nestedID` chain, the item ids in it as path parameters:
 *   `/collection/things/items/{item}?nestedID=parts.{partsID}.bolts`.
 * - Only what the caller may do is there: a collection it may not read has no read operations,
 *   one it may not touch has no paths and no schemas.
 */
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import type { Json, Parameter, PublicSurface } from './surface.ts';

export type Operation = 'read' | 'create' | 'update' | 'delete';
export type Rights = Record<Operation, boolean>;

export interface DocumentCollection {
  slug: string;
  name: string;
  schema: SchemaField[];
}

/** What the document shows: per top-level collection, the operations the caller may use. */
export interface DocumentScope {
  collections: ReadonlyMap<string, Rights>;
  /** Item users (`bagelUsers`) and setting a user's password: a User Admin API token. */
  userAdmin: boolean;
  /** Storing project files without naming a collection (`POST /collection//assets`). */
  assets: boolean;
  /** Whom the document is for, in its description. */
  caller: string;
}

export interface DocumentInput {
  project: { id: string; name: string; description?: string | null };
  collections: readonly DocumentCollection[];
  scope: DocumentScope;
  surface: PublicSurface;
  /** The server's public address (no trailing slash). */
  publicUrl: string;
}

const problemResponses = {
  '4XX': { description: 'A refusal: RFC 9457 problem details with a stable `code` (docs/errors.md)', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
};
const idAnswer = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
const jsonBody = (schema: Json, required = true) => ({ required, content: { 'application/json': { schema } } });
const jsonAnswer = (description: string, schema: Json, headers?: Json) => ({ description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } });
const itemCount = {
  'item-count': { description: 'The number of items matching the request, all pages together', schema: { type: 'string', pattern: '^[0-9]+$' } },
};
const multipart = (properties: Json, required: string[] = []) => ({
  required: true,
  content: { 'multipart/form-data': { schema: { type: 'object', properties, ...(required.length ? { required } : {}) } } },
});
const binary = { type: 'string', contentMediaType: 'application/octet-stream' };

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

const withoutNull = (schema: Json): Json => {
  if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((type) => type !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  if (Array.isArray(schema.anyOf)) {
    const rest = (schema.anyOf as Json[]).filter((part) => part.type !== 'null');
    return rest.length === 1 ? { ...rest[0] } : { ...schema, anyOf: rest };
  }
  return schema;
};

/**
 * One collection level: its place, its fields, and the names of its schemas and parameters. Its
 * item schema is named by its slugs (`things.parts`); the write schemas `create_…` and `change_…`
 * (a collection id has no `_`, so they never meet a level's name).
 */
interface Level {
  top: string;
  /** Slugs of the nested steps from the top level ([] at the top). */
  steps: string[];
  /** The path parameter naming the item of each nested step. */
  stepParams: string[];
  title: string;
  fields: SchemaField[];
  component: string;
}

/** The levels of a collection, top first (a nested level after its parent). */
function levelsOf(collection: DocumentCollection): Level[] {
  const out: Level[] = [];
  const walk = (fields: SchemaField[], steps: string[], stepParams: string[], title: string) => {
    const component = [collection.slug, ...steps].join('.');
    out.push({ top: collection.slug, steps, stepParams, title, fields, component });
    for (const field of fields) {
      if (!Array.isArray(field.nestedCollectionSchema) || fieldType(field.type)?.name !== 'NestedCollection') continue;
      const taken = new Set(['item', ...stepParams]);
      let param = `${field.slug}ID`;
      for (let n = 2; taken.has(param); n++) param = `${field.slug}ID${n}`;
      walk(field.nestedCollectionSchema, [...steps, field.slug], [...stepParams, param], `${title} › ${field.name}`);
    }
  };
  walk(collection.schema, [], [], collection.name);
  return out;
}

/** Fields whose values the item carries (not the Metadata entry). */
const valueFields = (level: Level) => level.fields.filter((field) => fieldType(field.type) && field.slug !== '_metadata' && fieldType(field.type)!.name !== 'Metadata');
const isNested = (field: SchemaField) => fieldType(field.type)?.name === 'NestedCollection';

function fieldDescription(field: SchemaField): string {
  const type = fieldType(field.type)!;
  const notes = [`${field.name} (${type.name})`];
  if (field.required) notes.push('required');
  if (field.unique) notes.push('unique');
  if (typeof field.referenceCollectionID === 'string') notes.push(`links to items of "${field.referenceCollectionID}"`);
  if (Array.isArray(field.options) && field.options.length) notes.push(`choices: ${field.options.map((o) => `${o._id} = ${o.value}`).join(', ')}`);
  return notes.join('; ');
}

/**
 * The item as read: system keys and each field's value schema (nested lists by their item
 * schema). With `everything=true` an ItemRef link also carries the linked item (`item`): typed
 * when the caller may read its collection (`linked` names its schema), else any object.
 */
function readSchema(level: Level, nestedRef: (slug: string) => string, linked: (collection: string) => string | undefined): Json {
  const properties: Json = {
    _id: { type: 'string', description: 'The item’s id' },
    _createdDate: { type: 'string', format: 'date-time' },
    _lastUpdatedDate: { type: 'string', format: 'date-time' },
    _order: { type: 'number' },
    _rank: { type: 'string' },
  };
  for (const field of valueFields(level)) {
    const type = fieldType(field.type)!;
    if (isNested(field)) {
      properties[field.slug] = { type: 'array', items: { $ref: nestedRef(field.slug) }, description: `${fieldDescription(field)}; in lists only when projected on` };
      continue;
    }
    let schema: Json = { ...type.valueSchema };
    const links = schema.items as Json | undefined;
    if (type.name === 'ItemRef' && links && typeof links.properties === 'object') {
      const target = typeof field.referenceCollectionID === 'string' ? linked(field.referenceCollectionID) : undefined;
      const item = target ? { $ref: target, description: 'The linked item (everything=true)' } : { type: 'object', description: 'The linked item (everything=true)' };
      schema = { ...schema, items: { ...links, properties: { ...(links.properties as Json), item } } };
    }
    properties[field.slug] = { ...schema, description: fieldDescription(field) };
  }
  // Only `_id` is always there: `projectOn` leaves the rest out.
  return { type: 'object', title: level.title, properties, required: ['_id'] };
}

/** The item as written: each writable field's write schema; `required` fields required on create. */
function writeSchema(level: Level, create: boolean): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const field of valueFields(level)) {
    if (isNested(field)) continue;
    const type = fieldType(field.type)!;
    let schema: Json = { ...(type.writeSchema ?? type.valueSchema) };
    if (type.name === 'Option' && Array.isArray(field.options) && field.options.length) {
      // The choice is named by its `_id`, one of the field's choices.
      schema = {
        anyOf: [
          { type: 'object', properties: { _id: { enum: field.options.map((o) => o._id) }, value: { type: 'string' } }, required: ['_id'], additionalProperties: false },
          { type: 'null' },
        ],
      };
    }
    if (create && field.required) {
      required.push(field.slug);
      schema = withoutNull(schema);
    }
    properties[field.slug] = { ...schema, description: fieldDescription(field) };
  }
  return { type: 'object', title: `${level.title} (${create ? 'create' : 'change'})`, properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** Builds the document. */
export function buildDocument(input: DocumentInput): Json {
  const { surface, scope } = input;
  const paths: Record<string, Json> = {};
  const schemas: Json = { Problem: surface.problem, Id: idAnswer };
  const operationIds = new Set<string>();
  const opId = (name: string) => {
    let id = name;
    for (let n = 2; operationIds.has(id); n++) id = `${name}${n}`;
    operationIds.add(id);
    return id;
  };
  const add = (path: string, method: string, operation: Json) => {
    (paths[path] ??= {})[method] = operation;
  };
  const pathParam = (name: string, description: string): Parameter => ({ name, in: 'path', required: true, schema: surface.itemId, description });
  const tags: Json[] = [];
  const slugs = new Set(input.collections.map((c) => c.slug));
  const linked = (collection: string) => (slugs.has(collection) && scope.collections.get(collection)?.read ? `#/components/schemas/${collection}` : undefined);

  for (const collection of input.collections) {
    const rights = scope.collections.get(collection.slug);
    if (!rights || !(rights.read || rights.create || rights.update || rights.delete)) continue;
    tags.push({ name: collection.slug, description: collection.name });
    const levels = levelsOf(collection);
    for (const level of levels) {
      const nestedRef = (slug: string) => `#/components/schemas/${level.component}.${slug}`;
      schemas[level.component] = readSchema(level, nestedRef, linked);
      if (rights.create) schemas[`create_${level.component}`] = writeSchema(level, true);
      if (rights.update) schemas[`change_${level.component}`] = writeSchema(level, false);
      const itemRef = { $ref: `#/components/schemas/${level.component}` };
      const name = pascal([collection.slug, ...level.steps].join(' ')) || 'Collection';
      const top = `/collection/${collection.slug}/items`;
      const nested = level.steps.length > 0;
      // The nestedID chain to this level's list and to one of its items, item ids as parameters.
      const chain = level.steps.map((slug, i) => (i < level.steps.length - 1 ? `${slug}.{${level.stepParams[i]}}` : slug)).join('.');
      const itemChain = nested ? `${chain}.{${level.stepParams.at(-1)}}` : '';
      const listPath = nested ? `${top}/{item}?nestedID=${chain}` : top;
      const itemPath = nested ? `${top}/{item}?nestedID=${itemChain}` : `${top}/{item}`;
      const at = (suffix: string) => (nested ? `${top}/{item}${suffix}?nestedID=${itemChain}` : `${top}/{item}${suffix}`);
      const parentParams: Parameter[] = nested
        ? [pathParam('item', `The top-level ${collection.slug} item`), ...level.stepParams.slice(0, -1).map((p, i) => pathParam(p, `The ${level.steps[i]} item`))]
        : [];
      const itemParams: Parameter[] = nested ? [...parentParams, pathParam(level.stepParams.at(-1)!, `The ${level.steps.at(-1)} item`)] : [pathParam('item', `The ${collection.slug} item`)];
      const tagged = { tags: [collection.slug] };

      if (rights.read) {
        add(listPath, 'get', {
          ...tagged,
          operationId: opId(`list${name}`),
          summary: `A page of ${level.title} items; the item-count header gives the total matching`,
          parameters: [...parentParams, ...surface.listParams],
          responses: { 200: jsonAnswer('The items of the page', { type: 'array', items: itemRef }, itemCount), ...problemResponses },
        });
        add(itemPath, 'get', {
          ...tagged,
          operationId: opId(`get${name}`),
          summary: `One ${level.title} item`,
          parameters: [...itemParams, ...surface.itemParams],
          responses: { 200: jsonAnswer('The item', itemRef), ...problemResponses },
        });
      }
      if (rights.create) {
        add(listPath, 'post', {
          ...tagged,
          operationId: opId(`create${name}`),
          summary: `Create a ${level.title} item; answers its id`,
          parameters: parentParams,
          requestBody: jsonBody({ $ref: `#/components/schemas/create_${level.component}` }),
          responses: { 201: jsonAnswer('Created', { $ref: '#/components/schemas/Id' }), ...problemResponses },
        });
      }
      if (rights.update) {
        add(itemPath, 'put', {
          ...tagged,
          operationId: opId(`update${name}`),
          summary: `Change the given fields of a ${level.title} item${rights.create ? '; set=true creates it with this id when there is none (create)' : ''}`,
          parameters: [...itemParams, ...surface.putParams],
          requestBody: jsonBody({ $ref: `#/components/schemas/change_${level.component}` }),
          responses: { 200: jsonAnswer('Changed', { $ref: '#/components/schemas/Id' }), 201: jsonAnswer('Created (set=true)', { $ref: '#/components/schemas/Id' }), ...problemResponses },
        });
        const fields = valueFields(level).filter((field) => !isNested(field));
        const modifiable = fields.filter((field) => (fieldType(field.type)!.modifiers ?? []).length > 0);
        if (modifiable.length) {
          add(at('/field/{field}'), 'put', {
            ...tagged,
            operationId: opId(`changeField${name}`),
            summary: 'Append item links to an ItemRef field (body {value}), or add ?increment=n to a Number field',
            parameters: [...itemParams, { name: 'field', in: 'path', required: true, schema: { enum: modifiable.map((f) => f.slug) } }, ...surface.fieldParams],
            requestBody: jsonBody({ type: 'object', properties: { value: { description: 'An item id, a list of them, or links [{itemRefID}]' } } }, false),
            responses: { 200: jsonAnswer('Changed', { $ref: '#/components/schemas/Id' }), ...problemResponses },
          });
        }
        if (fields.length) {
          add(at('/field/{field}'), 'delete', {
            ...tagged,
            operationId: opId(`emptyField${name}`),
            summary: 'Remove the links {value} from an ItemRef field; any other field is emptied',
            parameters: [...itemParams, { name: 'field', in: 'path', required: true, schema: { enum: fields.map((f) => f.slug) } }],
            requestBody: jsonBody({ type: 'object', properties: { value: {} } }, false),
            responses: { 200: jsonAnswer('Changed', { $ref: '#/components/schemas/Id' }), ...problemResponses },
          });
        }
        const images = fields.filter((field) => fieldType(field.type)!.files);
        if (images.length) {
          add(at('/image'), 'put', {
            ...tagged,
            operationId: opId(`uploadImage${name}`),
            summary: 'Upload a file (imageFile) or fetch one (imageLink) into an ImageRef field, or append it to an ImageRefSet',
            parameters: [...itemParams, ...surface.imageParams.map((p) => (p.name === 'imageSlug' ? { ...p, schema: { enum: images.map((f) => f.slug) } } : p))],
            requestBody: multipart({ altText: { type: 'string' }, imageFile: binary, imageLink: { type: 'string', format: 'uri' } }),
            responses: { 200: jsonAnswer('Stored', { type: 'object', properties: { id: { type: 'string' }, imageURL: { type: 'string' } }, required: ['id', 'imageURL'] }), ...problemResponses },
          });
        }
      }
      if (rights.delete) {
        add(itemPath, 'delete', {
          ...tagged,
          operationId: opId(`delete${name}`),
          summary: `Delete a ${level.title} item with everything nested in it`,
          parameters: itemParams,
          responses: { 200: jsonAnswer('Deleted', { $ref: '#/components/schemas/Id' }), ...problemResponses },
        });
      }
      if (scope.userAdmin) {
        const users = { type: 'array', items: { type: 'object', properties: { userID: { type: 'string' } }, required: ['userID'] } };
        const userBody = jsonBody({ type: 'object', properties: { userID: { type: 'string' } }, required: ['userID'] });
        add(at('/bagelUsers'), 'get', { ...tagged, operationId: opId(`itemUsers${name}`), summary: 'The project users linked to the item', parameters: itemParams, responses: { 200: jsonAnswer('Its users', users), ...problemResponses } });
        add(at('/bagelUsers'), 'put', { ...tagged, operationId: opId(`addItemUser${name}`), summary: 'Link a project user to the item', parameters: itemParams, requestBody: userBody, responses: { 200: jsonAnswer('Its users', users), ...problemResponses } });
        add(at('/bagelUsers'), 'delete', { ...tagged, operationId: opId(`removeItemUser${name}`), summary: 'Unlink a project user from the item', parameters: itemParams, requestBody: userBody, responses: { 200: jsonAnswer('Its users', users), ...problemResponses } });
      }
    }

    const collectionName = pascal(collection.slug) || 'Collection';
    if (rights.read) {
      add(`/collection/${collection.slug}/schema`, 'get', {
        tags: [collection.slug],
        operationId: opId(`schema${collectionName}`),
        summary: `The fields of ${collection.name}, with the Metadata entry (type 100)`,
        responses: { 200: jsonAnswer('The fields', { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, id: { type: 'string' }, slug: { type: 'string' }, type: { type: 'integer' } } } }), ...problemResponses },
      });
      add(`/collection/${collection.slug}/live`, 'get', {
        tags: [collection.slug],
        operationId: opId(`live${collectionName}`),
        summary: `Server-sent events of ${collection.name}'s item writes: \`start\` (its request id), messages {collectionID, itemID, nestedID, trigger, item}, \`stop\` (resume with requestID)`,
        description: 'EventSource sends no headers: the token goes in `authorization`.',
        security: [],
        parameters: surface.liveParams,
        responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...problemResponses },
      });
    }
    if (rights.create || rights.update) {
      add(`/collection/${collection.slug}/assets`, 'post', {
        tags: [collection.slug],
        operationId: opId(`storeAssets${collectionName}`),
        summary: 'Store project files: parts fileAssets (files) or urlAssets (addresses fetched)',
        requestBody: multipart({ fileAssets: { type: 'array', items: binary }, urlAssets: { type: 'array', items: { type: 'string', format: 'uri' } } }),
        responses: { 201: jsonAnswer('One entry per part, in order', assetsAnswer), ...problemResponses },
      });
    }
  }

  if (scope.assets) {
    add('/collection//assets', 'post', {
      tags: ['project'],
      operationId: opId('storeAssets'),
      summary: 'Store project files without naming a collection (a create or update right)',
      requestBody: multipart({ fileAssets: { type: 'array', items: binary }, urlAssets: { type: 'array', items: { type: 'string', format: 'uri' } } }),
      responses: { 201: jsonAnswer('One entry per part, in order', assetsAnswer), ...problemResponses },
    });
  }
  add('/project', 'get', {
    tags: ['project'],
    operationId: opId('getProject'),
    summary: 'The project, with the collections this token may read (their fields with withSchemas=true)',
    parameters: surface.projectParams,
    responses: {
      200: jsonAnswer('The project', { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, collections: { type: 'array', items: { type: 'object' } } } }),
      ...problemResponses,
    },
  });

  // The end-user auth calls (server/auth/public-routes.ts) under their own base address.
  const authServer = [{ url: `${input.publicUrl}/auth/public`, description: 'End-user auth' }];
  for (const [path, operations] of Object.entries(surface.auth)) {
    if (path === '/user/updatePassword' && !scope.userAdmin) continue;
    const item: Json = { servers: authServer };
    for (const [method, operation] of Object.entries(operations)) {
      const name = `auth${pascal(`${method} ${path.replace(/\{[^}]+\}/g, '')}`)}`;
      item[method] = { ...(operation as Json), tags: ['auth'], operationId: opId(name) };
    }
    paths[path] = item;
  }
  tags.push({ name: 'project', description: 'The project' }, { name: 'auth', description: 'Sign-up, sign-in and tokens of the project’s users (/auth/public)' });

  return {
    openapi: '3.1.0',
    info: {
      title: `${input.project.name} API`,
      version: '1',
      description: `The public API of project ${input.project.name} as ${scope.caller} may use it: only its collections and operations. Every call sends \`Accept-Version: v1\` and the token as a bearer (docs/studio.md).`,
    },
    servers: [{ url: `${input.publicUrl}/api/public`, description: 'Public API v1' }],
    security: [{ bearer: [] }],
    tags,
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A project API token or a project user’s access token' } }, schemas },
  };
}

const assetsAnswer = {
  type: 'array',
  items: { type: 'object', properties: { imageName: { type: 'string' }, altText: { type: 'string' }, imageUrl: { type: 'string' }, extension: { type: 'string' } }, required: ['imageName', 'imageUrl'] },
};
