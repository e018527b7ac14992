/**
 * The generated OpenAPI 3.1 document of one project as one caller may use it (docs/studio.md
 * "The generated document"): a pure function of the project's collections, the caller's rights
 * per collection and the public API's surface (server/studio/surface.ts).
 *
 * - Each collection level has its item schema typed from its field types (each declares the JSON
 *   Schema of its value as read, and as written where that differs: definitions/field-types/*).
 * - Nested collections have paths of their own, the public API's nested paths
 *   (server/public/nested-paths.ts), the item ids on the way as path parameters:
 *   `/collection/things/items/{item}/nested/parts/items/{partsID}/nested/bolts/items`.
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

// What many operations share is in `components` once and referred to: the document of a large
// project stays small (docs/studio.md "Performance").
const problemResponse = {
  description: 'A refusal: RFC 9457 problem details with a stable `code` (docs/errors.md)',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
const problemResponses = { '4XX': { $ref: '#/components/responses/Problem' } };
const idResponse = { $ref: '#/components/responses/Id' };
const idAnswer = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
const jsonBody = (schema: Json, required = true) => ({ required, content: { 'application/json': { schema } } });
const jsonAnswer = (description: string, schema: Json, headers?: Json) => ({ description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } });
const itemCount = { 'item-count': { $ref: '#/components/headers/item-count' } };
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


/**
 * One collection level: its place, its fields, and the names of its schemas and parameters. Its
 * item schema is named by its slugs (`things.parts`); the write schemas `write_…` and `create_…`
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

/** A type's value schemas, once per document: `value.<Type>` as read, `input.<Type>` as written. */
const typeRefs = new Map<string, Json>();
const typeRef = (schemas: Json, kind: 'value' | 'input', field: SchemaField): Json => {
  const type = fieldType(field.type)!;
  const name = `${kind}.${type.name}`;
  schemas[name] ??= kind === 'value' ? type.valueSchema : (type.writeSchema ?? type.valueSchema);
  let ref = typeRefs.get(name);
  if (!ref) typeRefs.set(name, (ref = Object.freeze({ $ref: `#/components/schemas/${name}` })));
  return ref;
};

/**
 * The item as read: system keys and each field's value schema (nested lists by their item
 * schema). With `everything=true` an ItemRef link also carries the linked item (`item`): typed
 * when the caller may read its collection (`linked` names its schema), else any object.
 */
function readSchema(schemas: Json, level: Level, nestedRef: (slug: string) => string, linked: (collection: string) => string | undefined): Json {
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
    const links = type.valueSchema.items as Json | undefined;
    if (type.name === 'ItemRef' && links && typeof links.properties === 'object') {
      const target = typeof field.referenceCollectionID === 'string' ? linked(field.referenceCollectionID) : undefined;
      const item = target ? { $ref: target, description: 'The linked item (everything=true)' } : { type: 'object', description: 'The linked item (everything=true)' };
      properties[field.slug] = { ...type.valueSchema, items: { ...links, properties: { ...(links.properties as Json), item } }, description: fieldDescription(field) };
      continue;
    }
    properties[field.slug] = { ...typeRef(schemas, 'value', field), description: fieldDescription(field) };
  }
  // Only `_id` is always there: `projectOn` leaves the rest out.
  return { type: 'object', title: level.title, properties, required: ['_id'] };
}

/** The item as written (`write_…`): each writable field's write schema, an Option's choices by `_id`. */
function writeSchema(schemas: Json, level: Level): Json {
  const properties: Json = {};
  for (const field of valueFields(level)) {
    if (isNested(field)) continue;
    const type = fieldType(field.type)!;
    if (type.name === 'Option' && Array.isArray(field.options) && field.options.length) {
      properties[field.slug] = {
        anyOf: [
          { type: 'object', properties: { _id: { enum: field.options.map((o) => o._id) }, value: { type: 'string' } }, required: ['_id'], additionalProperties: false },
          { type: 'null' },
        ],
      };
      continue;
    }
    properties[field.slug] = typeRef(schemas, 'input', field);
  }
  return { type: 'object', title: `${level.title} (written)`, properties, additionalProperties: false };
}

/** A create (`create_…`): the written item with the `required` fields. */
function createSchema(level: Level, write: string): Json {
  const required = valueFields(level).filter((field) => field.required && !isNested(field)).map((field) => field.slug);
  return required.length ? { $ref: write, required } : { $ref: write };
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
  const parameters: Record<string, Parameter> = {};
  const parameterRefs = new Map<string, Json>();
  /**
   * A parameter as a reference to its one copy in `components.parameters` (inline when another of
   * its name differs). One reference object per parameter: the document is serialised once, and
   * fewer objects are fewer to collect.
   */
  const shared = (param: Parameter): Json => {
    const key = `${param.in}.${param.name}`;
    const known = parameters[key];
    if (!known) parameters[key] = param;
    else if (known !== param && JSON.stringify(known) !== JSON.stringify(param)) return param;
    let ref = parameterRefs.get(key);
    if (!ref) parameterRefs.set(key, (ref = { $ref: `#/components/parameters/${key}` }));
    return ref;
  };
  const itemIdParams = new Map<string, Parameter>();
  const pathParam = (name: string): Parameter => {
    let param = itemIdParams.get(name);
    if (!param) itemIdParams.set(name, (param = { name, in: 'path', required: true, schema: surface.itemId, description: 'An item id' }));
    return param;
  };
  const refs = (list: Parameter[]) => list.map(shared);
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
      schemas[level.component] = readSchema(schemas, level, nestedRef, linked);
      const write = `#/components/schemas/write_${level.component}`;
      if (rights.create || rights.update) schemas[`write_${level.component}`] = writeSchema(schemas, level);
      if (rights.create) schemas[`create_${level.component}`] = createSchema(level, write);
      const itemRef = { $ref: `#/components/schemas/${level.component}` };
      const name = pascal([collection.slug, ...level.steps].join(' ')) || 'Collection';
      const top = `/collection/${collection.slug}/items`;
      const nested = level.steps.length > 0;
      // The nested path to this level's list and to one of its items, item ids as parameters.
      const chain = level.steps.map((slug, i) => `/nested/${slug}/items${i < level.steps.length - 1 ? `/{${level.stepParams[i]}}` : ''}`).join('');
      const listPath = nested ? `${top}/{item}${chain}` : top;
      const itemPath = nested ? `${listPath}/{${level.stepParams.at(-1)}}` : `${top}/{item}`;
      const at = (suffix: string) => `${itemPath}${suffix}`;
      const parentParams: Parameter[] = nested
        ? [pathParam('item'), ...level.stepParams.slice(0, -1).map((p) => pathParam(p))]
        : [];
      const itemParams: Parameter[] = nested ? [...parentParams, pathParam(level.stepParams.at(-1)!)] : [pathParam('item')];
      const tagged = { tags: [collection.slug] };

      if (rights.read) {
        add(listPath, 'get', {
          ...tagged,
          operationId: opId(`list${name}`),
          summary: `List ${level.title}`,
          parameters: refs([...parentParams, ...surface.listParams]),
          responses: { 200: jsonAnswer('A page of items', { type: 'array', items: itemRef }, itemCount), ...problemResponses },
        });
        add(itemPath, 'get', {
          ...tagged,
          operationId: opId(`get${name}`),
          summary: `Get a ${level.title} item`,
          parameters: refs([...itemParams, ...surface.itemParams.filter((param) => param.name === 'everything')]),
          responses: { 200: jsonAnswer('The item', itemRef), ...problemResponses },
        });
      }
      if (rights.create) {
        add(listPath, 'post', {
          ...tagged,
          operationId: opId(`create${name}`),
          summary: `Create a ${level.title} item`,
          parameters: refs(parentParams),
          requestBody: jsonBody({ $ref: `#/components/schemas/create_${level.component}` }),
          responses: { 201: idResponse, ...problemResponses },
        });
      }
      if (rights.update) {
        add(itemPath, 'put', {
          ...tagged,
          operationId: opId(`update${name}`),
          summary: `Change a ${level.title} item${rights.create ? ' (set=true: create it with this id)' : ''}`,
          parameters: refs([...itemParams, ...surface.putParams]),
          requestBody: jsonBody({ $ref: write }),
          responses: { 200: idResponse, 201: idResponse, ...problemResponses },
        });
        const fields = valueFields(level).filter((field) => !isNested(field));
        const modifiable = fields.filter((field) => (fieldType(field.type)!.modifiers ?? []).length > 0);
        if (modifiable.length) {
          add(at('/field/{field}'), 'put', {
            ...tagged,
            operationId: opId(`changeField${name}`),
            summary: 'Append links to an ItemRef field, or increment a Number',
            parameters: [...refs(itemParams), { name: 'field', in: 'path', required: true, schema: { enum: modifiable.map((f) => f.slug) } }, ...refs(surface.fieldParams)],
            requestBody: { $ref: '#/components/requestBodies/FieldValue' },
            responses: { 200: idResponse, ...problemResponses },
          });
        }
        if (fields.length) {
          add(at('/field/{field}'), 'delete', {
            ...tagged,
            operationId: opId(`emptyField${name}`),
            summary: 'Remove links from an ItemRef field, or empty a field',
            parameters: [...refs(itemParams), { name: 'field', in: 'path', required: true, schema: { enum: fields.map((f) => f.slug) } }],
            requestBody: { $ref: '#/components/requestBodies/FieldValue' },
            responses: { 200: idResponse, ...problemResponses },
          });
        }
        const images = fields.filter((field) => fieldType(field.type)!.files);
        if (images.length) {
          add(at('/image'), 'put', {
            ...tagged,
            operationId: opId(`uploadImage${name}`),
            summary: 'Upload or fetch a file into an ImageRef or ImageRefSet field',
            parameters: [...refs(itemParams), ...surface.imageParams.map((p) => (p.name === 'imageSlug' ? { ...p, schema: { enum: images.map((f) => f.slug) } } : shared(p)))],
            requestBody: { $ref: '#/components/requestBodies/Image' },
            responses: { 200: { $ref: '#/components/responses/Image' }, ...problemResponses },
          });
        }
      }
      if (rights.delete) {
        add(itemPath, 'delete', {
          ...tagged,
          operationId: opId(`delete${name}`),
          summary: `Delete a ${level.title} item and what is nested in it`,
          parameters: refs(itemParams),
          responses: { 200: idResponse, ...problemResponses },
        });
      }
      if (scope.userAdmin) {
        const users = { $ref: '#/components/responses/ItemUsers' };
        const userBody = { $ref: '#/components/requestBodies/ItemUser' };
        add(at('/bagelUsers'), 'get', { ...tagged, operationId: opId(`itemUsers${name}`), summary: 'Its users', parameters: refs(itemParams), responses: { 200: users, ...problemResponses } });
        add(at('/bagelUsers'), 'put', { ...tagged, operationId: opId(`addItemUser${name}`), summary: 'Link a user', parameters: refs(itemParams), requestBody: userBody, responses: { 200: users, ...problemResponses } });
        add(at('/bagelUsers'), 'delete', { ...tagged, operationId: opId(`removeItemUser${name}`), summary: 'Unlink a user', parameters: refs(itemParams), requestBody: userBody, responses: { 200: users, ...problemResponses } });
      }
    }

    const collectionName = pascal(collection.slug) || 'Collection';
    if (rights.read) {
      add(`/collection/${collection.slug}/schema`, 'get', {
        tags: [collection.slug],
        operationId: opId(`schema${collectionName}`),
        summary: `The fields of ${collection.name}`,
        responses: { 200: { $ref: '#/components/responses/Fields' }, ...problemResponses },
      });
      add(`/collection/${collection.slug}/live`, 'get', {
        tags: [collection.slug],
        operationId: opId(`live${collectionName}`),
        summary: `Live item writes of ${collection.name}`,
        security: [],
        parameters: refs(surface.liveParams),
        responses: { 200: { $ref: '#/components/responses/Live' }, ...problemResponses },
      });
    }
    if (rights.create || rights.update) {
      add(`/collection/${collection.slug}/assets`, 'post', {
        tags: [collection.slug],
        operationId: opId(`storeAssets${collectionName}`),
        summary: 'Store project files: parts fileAssets (files) or urlAssets (addresses fetched)',
        requestBody: { $ref: '#/components/requestBodies/Assets' },
        responses: { 201: { $ref: '#/components/responses/Assets' }, ...problemResponses },
      });
    }
  }

  if (scope.assets) {
    add('/collection//assets', 'post', {
      tags: ['project'],
      operationId: opId('storeAssets'),
      summary: 'Store project files without naming a collection (a create or update right)',
      requestBody: { $ref: '#/components/requestBodies/Assets' },
      responses: { 201: { $ref: '#/components/responses/Assets' }, ...problemResponses },
    });
  }
  add('/project', 'get', {
    tags: ['project'],
    operationId: opId('getProject'),
    summary: 'The project, with the collections this token may read (their fields with withSchemas=true)',
    parameters: refs(surface.projectParams),
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
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A project API token or a project user’s access token' } },
      schemas,
      parameters,
      responses: {
        Problem: problemResponse,
        Id: jsonAnswer('The item’s id', { $ref: '#/components/schemas/Id' }),
        ItemUsers: jsonAnswer('The item’s users', { type: 'array', items: { type: 'object', properties: { userID: { type: 'string' } }, required: ['userID'] } }),
        Image: jsonAnswer('Stored', { type: 'object', properties: { id: { type: 'string' }, imageURL: { type: 'string' } }, required: ['id', 'imageURL'] }),
        Assets: jsonAnswer('One entry per part, in order', assetsAnswer),
        Fields: jsonAnswer('The fields, with the Metadata entry (type 100)', {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, id: { type: 'string' }, slug: { type: 'string' }, type: { type: 'integer' } } },
        }),
        Live: {
          description:
            'Server-sent events: `start` (the request id), messages {collectionID, itemID, nestedID, trigger, item}, `stop` (reconnect with requestID). EventSource sends no headers: the token goes in `authorization`.',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
      },
      requestBodies: {
        FieldValue: jsonBody({ type: 'object', properties: { value: { description: 'An item id, a list of them, or links [{itemRefID}]; absent to empty the field' } } }, false),
        Image: multipart({ altText: { type: 'string' }, imageFile: binary, imageLink: { type: 'string', format: 'uri' } }),
        Assets: multipart({ fileAssets: { type: 'array', items: binary }, urlAssets: { type: 'array', items: { type: 'string', format: 'uri' } } }),
        ItemUser: jsonBody({ type: 'object', properties: { userID: { type: 'string' } }, required: ['userID'] }),
      },
      headers: { 'item-count': { description: 'The number of items matching the request, all pages together', schema: { type: 'string', pattern: '^[0-9]+$' } } },
    },
  };
}

const assetsAnswer = {
  type: 'array',
  items: { type: 'object', properties: { imageName: { type: 'string' }, altText: { type: 'string' }, imageUrl: { type: 'string' }, extension: { type: 'string' } }, required: ['imageName', 'imageUrl'] },
};
