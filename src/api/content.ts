/**
 * Typed calls of a project's content: collections, schemas and fields (nested
 * ones included) and items, under `api/organization/{org}/project/{proj}/`. All reject with
 * ApiError; a stale conditional item write rejects with StaleItemError, which carries the item as
 * it is now.
 */
import { isHTTPError } from 'ky';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import type { Collection } from '../../definitions/schemas/collection.ts';
import type { Item } from '../../definitions/schemas/item.ts';
import type { ListParams as ListQuery } from '../../definitions/schemas/list-params.ts';
import { importContentTypes, type ImportFormat } from '../../definitions/item-import.ts';
import type { ImportAnswer } from '../../definitions/schemas/import.ts';
import { getApiClient, type ApiClient } from './client.ts';
import { ApiError, toApiError } from './errors.ts';
import { progressFetch, type UploadProgress } from './progress-fetch.ts';
import type { ItemAddress, NestedListAddress } from './item-address.ts';
import { requestJson } from './request-json.ts';

/** The project every content call is made in. */
export interface ProjectScope {
  organizationID: string;
  projectID: string;
}

export type { Collection, Item };
export type { ItemAddress, NestedListAddress };

/** POST collection: without `id` the server derives it from the name. */
export interface CollectionDraft {
  id?: string;
  name: string;
  singleItem?: boolean;
  rtlDirection?: boolean;
  schema?: Partial<SchemaField>[];
}

/** PUT collection/{c}: at least one of these. */
export interface CollectionChanges {
  name?: string;
  rtlDirection?: boolean;
  singleItem?: boolean;
}

/** A field definition as written: the field type decides which settings it may hold. */
export type FieldInput = Partial<Omit<SchemaField, 'id'>>;

/** Values keyed by field slug (system keys are ignored by the server). */
export type ItemValues = Record<string, unknown>;

/** An item with its version, the ETag to send back as If-Match. */
export interface VersionedItem {
  item: Item;
  etag: string | null;
}

/** A page of items and the total the `item-count` header gives. */
export interface ItemPage {
  items: Item[];
  total: number;
}

export type PageQuery = Pick<ListQuery, 'pageNumber' | 'perPage'>;

/**
 * The item list's parameters (semantics in the docs/content-storage.md "Listing and searching
 * items"): the wire's (definitions/schemas/list-params.ts), the order as the console sends it, and
 * the place of a nested list.
 */
export type ListParams = Pick<ListQuery, 'pageNumber' | 'perPage' | 'sort' | 'query' | 'find' | 'filter' | 'search' | 'projectOn'> & {
  order?: 'asc' | 'desc';
  /** A nested list under an item (ends in a nested collection's slug), with `parentItemID`. */
  nestedID?: string;
  /** The top-level item a nested list hangs under: the list is read from item/{parentItemID}. */
  parentItemID?: string;
};

/** How a file of items is read (docs/content-storage.md "Importing items"). */
export interface ImportOptions {
  format: ImportFormat;
  skipBadRows?: boolean;
  ignoreUnknown?: boolean;
  /** Bytes of the file sent so far: the server reads the rows as they arrive. */
  onProgress?: UploadProgress;
  /** Aborting stops the upload; the server rolls the import back. */
  signal?: AbortSignal;
}

export type { ImportAnswer };

/** Conditional item writes: `ifMatch` is the ETag the item was read with. */
export interface ItemWriteOptions {
  ifMatch?: string | null;
}

/** A 409 of a conditional item write: someone changed the item since it was read. */
export class StaleItemError extends ApiError {
  /** The item as it is now, when the server sent it. */
  readonly current: Item | null;
  readonly etag: string | null;

  constructor(error: ApiError, current: Item | null, etag: string | null) {
    super({ status: error.status, code: error.code, detail: error.detail, problem: error.problem, cause: error });
    this.name = 'StaleItemError';
    this.current = current;
    this.etag = etag;
  }
}

export function isStaleItemError(error: unknown): error is StaleItemError {
  return error instanceof StaleItemError;
}

/** Every content call. */
export interface ContentApi {
  collections(scope: ProjectScope): Promise<Collection[]>;
  collection(scope: ProjectScope, collectionID: string): Promise<Collection>;
  createCollection(scope: ProjectScope, draft: CollectionDraft): Promise<Collection>;
  updateCollection(scope: ProjectScope, collectionID: string, changes: CollectionChanges): Promise<Collection>;
  deleteCollection(scope: ProjectScope, collectionID: string): Promise<void>;

  /** The schema of the collection or, with nestedID, of one of its nested collections. */
  schema(scope: ProjectScope, collectionID: string, options?: { nestedID?: string }): Promise<SchemaField[]>;
  /** Saves a schema level: the same fields, in a new order, with changed attributes. */
  replaceSchema(scope: ProjectScope, collectionID: string, fields: FieldInput[], options?: { nestedID?: string }): Promise<SchemaField[]>;
  /** Reorders a schema level; entries are field ids (or whole fields). */
  reorderSchema(scope: ProjectScope, collectionID: string, order: (string | FieldInput)[], options?: { nestedID?: string }): Promise<SchemaField[]>;
  /** POST collection/{c}/field, with nestedID for a nested collection's schema. */
  addField(scope: ProjectScope, collectionID: string, field: FieldInput, options?: { nestedID?: string }): Promise<SchemaField>;
  /** POST collection/{c}/field/{nestedFieldId}: adds to the nested schema of a nested-collection field. */
  addNestedField(scope: ProjectScope, collectionID: string, nestedFieldId: string, field: FieldInput, options?: { nestedSlug?: string }): Promise<SchemaField>;
  /** PUT collection/{c}/field/{id}: the attributes given; type and slug stay. */
  updateField(scope: ProjectScope, collectionID: string, fieldId: string, changes: FieldInput, options?: { nestedSlug?: string }): Promise<SchemaField>;
  deleteField(scope: ProjectScope, collectionID: string, fieldId: string, options?: { nestedID?: string }): Promise<void>;

  /** A page of the collection's top-level items, or with `list` of that nested list. */
  items(scope: ProjectScope, collectionID: string, page?: PageQuery, list?: NestedListAddress): Promise<ItemPage>;
  /** One item, top-level or nested, with its version. */
  item(scope: ProjectScope, collectionID: string, at: ItemAddress): Promise<VersionedItem>;
  /** Creates a top-level item, or with `list` an item in that nested list. */
  createItem(scope: ProjectScope, collectionID: string, values: ItemValues, list?: NestedListAddress): Promise<VersionedItem>;
  updateItem(scope: ProjectScope, collectionID: string, at: ItemAddress, values: ItemValues, options?: ItemWriteOptions): Promise<VersionedItem>;
  deleteItem(scope: ProjectScope, collectionID: string, at: ItemAddress, options?: ItemWriteOptions): Promise<void>;

  /** GET collection/{c}/item with every list parameter: a page and the `item-count` total. */
  listItems(scope: ProjectScope, collectionID: string, params?: ListParams, options?: { signal?: AbortSignal }): Promise<ItemPage>;
  /** GET collection/{c}/csv with the list's parameters (no paging): the exported file. */
  itemsCsv(
    scope: ProjectScope,
    collectionID: string,
    params?: Omit<ListParams, 'pageNumber' | 'perPage'>,
    /** Called as the file arrives: rows received so far and the rows to expect (the item-count header). */
    onProgress?: (rows: number, total: number | null) => void,
  ): Promise<Blob>;
  /**
   * POST collection/{c}/import: the file is the body. All rows or none: a bad row refuses the file
   * (an ApiError `import_refused`, its problem's `errors` naming each row's line or record),
   * unless `skipBadRows`.
   */
  importItems(scope: ProjectScope, collectionID: string, file: Blob, options: ImportOptions): Promise<ImportAnswer>;
  /** PUT collection/{c}/initRank: ranks one batch of unranked items (one way); call until `remaining` is 0. */
  initRank(scope: ProjectScope, collectionID: string, body?: { parentItemID?: string; nestedID?: string; perPage?: number }): Promise<{ ranked: number; remaining: number }>;
  /** PUT collection/{c}/item/{id}/sort: moves an item right after or before another of its list. */
  moveItem(scope: ProjectScope, collectionID: string, at: ItemAddress, target: { afterID?: string; beforeID?: string; order?: number }): Promise<VersionedItem>;
}

const seg = encodeURIComponent;

/** The path of the project's content, or of something in it. */
export function contentPath(scope: ProjectScope, ...rest: string[]): string {
  return [`api/organization/${seg(scope.organizationID)}/project/${seg(scope.projectID)}`, ...rest.map(seg)].join('/');
}

const only = (values: Record<string, string | number | undefined>) => {
  const searchParams: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== '') searchParams[key] = value;
  return Object.keys(searchParams).length ? { searchParams } : {};
};

const ifMatch = (etag: string | null | undefined) => (etag ? { headers: { 'if-match': etag } } : {});

export function createContentApi(client: ApiClient): ContentApi {
  const { json, http } = client;

  /** A call whose answer headers matter (ETag, item-count); a 409 becomes a StaleItemError. */
  async function withResponse<T>(path: string, options: Parameters<ApiClient['http']>[1]): Promise<{ body: T; response: Response }> {
    let response: Response;
    try {
      response = await http(path, options);
    } catch (error) {
      if (isHTTPError(error) && error.response.status === 409) {
        let current: Item | null = null;
        try {
          const body = (await error.response.clone().json()) as { item?: Item };
          current = body.item ?? null;
        } catch {
          current = null;
        }
        throw new StaleItemError(await toApiError(error), current, error.response.headers.get('etag'));
      }
      throw await toApiError(error);
    }
    return { body: await requestJson<T>(Promise.resolve(response)), response };
  }

  const versioned = async (path: string, options: Parameters<ApiClient['http']>[1]): Promise<VersionedItem> => {
    const { body, response } = await withResponse<Item>(path, options);
    return { item: body, etag: response.headers.get('etag') };
  };

  const page = async (path: string, searchParams: Record<string, string | number | undefined>, signal?: AbortSignal): Promise<ItemPage> => {
    const { body, response } = await withResponse<Item[]>(path, { ...only(searchParams), ...(signal ? { signal } : {}) });
    const header = Number(response.headers.get('item-count'));
    return { items: body, total: Number.isFinite(header) && response.headers.has('item-count') ? header : body.length };
  };

  return {
    collections: (scope) => json<Collection[]>(contentPath(scope, 'collection')),
    collection: (scope, collectionID) => json<Collection>(contentPath(scope, 'collection', collectionID)),
    createCollection: (scope, draft) => json<Collection>(contentPath(scope, 'collection'), { method: 'post', json: draft }),
    updateCollection: (scope, collectionID, changes) => json<Collection>(contentPath(scope, 'collection', collectionID), { method: 'put', json: changes }),
    deleteCollection: (scope, collectionID) => json<void>(contentPath(scope, 'collection', collectionID), { method: 'delete' }),

    schema: (scope, collectionID, options = {}) => json<SchemaField[]>(contentPath(scope, 'collection', collectionID, 'schema'), only({ nestedID: options.nestedID })),
    replaceSchema: (scope, collectionID, fields, options = {}) =>
      json<SchemaField[]>(contentPath(scope, 'collection', collectionID, 'schema'), { method: 'put', json: fields, ...only({ nestedID: options.nestedID }) }),
    reorderSchema: (scope, collectionID, order, options = {}) =>
      json<SchemaField[]>(contentPath(scope, 'collection', collectionID, 'schema', 'order'), {
        method: 'put',
        json: {
          organizationID: scope.organizationID,
          projectID: scope.projectID,
          collectionID,
          ...(options.nestedID ? { nestedID: options.nestedID } : {}),
          collectionSchema: order,
        },
      }),
    addField: (scope, collectionID, field, options = {}) =>
      json<SchemaField>(contentPath(scope, 'collection', collectionID, 'field'), { method: 'post', json: field, ...only({ nestedID: options.nestedID }) }),
    addNestedField: (scope, collectionID, nestedFieldId, field, options = {}) =>
      json<SchemaField>(contentPath(scope, 'collection', collectionID, 'field', nestedFieldId), { method: 'post', json: field, ...only({ nestedSlug: options.nestedSlug }) }),
    updateField: (scope, collectionID, fieldId, changes, options = {}) =>
      json<SchemaField>(contentPath(scope, 'collection', collectionID, 'field', fieldId), { method: 'put', json: changes, ...only({ nestedSlug: options.nestedSlug }) }),
    deleteField: (scope, collectionID, fieldId, options = {}) =>
      json<void>(contentPath(scope, 'collection', collectionID, 'field', fieldId), { method: 'delete', ...only({ nestedID: options.nestedID }) }),

    // A nested item or list is read and written through its top-level item, `nestedID` naming it.
    items: (scope, collectionID, query = {}, list) =>
      page(contentPath(scope, 'collection', collectionID, 'item', ...(list ? [list.itemID] : [])), { ...(list ? { nestedID: list.nestedID } : {}), ...query }),
    item: (scope, collectionID, at) => versioned(contentPath(scope, 'collection', collectionID, 'item', at.itemID), only({ nestedID: at.nestedID })),
    createItem: (scope, collectionID, values, list) =>
      versioned(contentPath(scope, 'collection', collectionID, 'item', ...(list ? [list.itemID] : [])), { method: 'post', json: values, ...only({ nestedID: list?.nestedID }) }),
    updateItem: (scope, collectionID, at, values, options = {}) =>
      versioned(contentPath(scope, 'collection', collectionID, 'item', at.itemID), {
        method: 'put',
        json: values,
        ...only({ nestedID: at.nestedID }),
        ...ifMatch(options.ifMatch),
      }),
    async deleteItem(scope, collectionID, at, options = {}) {
      await withResponse<void>(contentPath(scope, 'collection', collectionID, 'item', at.itemID), {
        method: 'delete',
        ...only({ nestedID: at.nestedID }),
        ...ifMatch(options.ifMatch),
      });
    },

    listItems: (scope, collectionID, { parentItemID, ...params } = {}, options = {}) =>
      page(contentPath(scope, 'collection', collectionID, 'item', ...(parentItemID ? [parentItemID] : [])), { ...params }, options.signal),
    async itemsCsv(scope, collectionID, { parentItemID, ...params } = {}, onProgress) {
      try {
        const where = parentItemID ? contentPath(scope, 'collection', collectionID, 'item', parentItemID, 'csv') : contentPath(scope, 'collection', collectionID, 'csv');
        // A big export streams for longer than any request timeout: none here.
        const response = await http(where, { ...only({ ...params }), timeout: false });
        const header = Number(response.headers.get('item-count'));
        const total = Number.isFinite(header) && response.headers.has('item-count') ? header : null;
        if (!response.body || !onProgress) return await response.blob();
        const chunks: Uint8Array[] = [];
        let lines = 0;
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          for (const byte of value) if (byte === 10) lines += 1;
          // The first line is the header row (a quoted cell may hold a line break: progress is an estimate).
          onProgress(Math.max(0, lines - 1), total);
        }
        return new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'text/csv' });
      } catch (error) {
        throw await toApiError(error);
      }
    },
    importItems: (scope, collectionID, file, { format, skipBadRows, ignoreUnknown, onProgress, signal }) =>
      json<ImportAnswer>(contentPath(scope, 'collection', collectionID, 'import'), {
        method: 'post',
        body: file,
        headers: { 'content-type': importContentTypes[format] },
        searchParams: { format, ...(skipBadRows ? { skipBadRows: 'true' } : {}), ...(ignoreUnknown ? { ignoreUnknown: 'true' } : {}) },
        // Uploading a large file outlasts any fixed timeout; the caller can abort. XMLHttpRequest
        // reports upload progress, fetch does not (src/api/files.ts).
        timeout: false,
        fetch: progressFetch(onProgress),
        ...(signal ? { signal } : {}),
      }),
    initRank: (scope, collectionID, body = {}) => json<{ ranked: number; remaining: number }>(contentPath(scope, 'collection', collectionID, 'initRank'), { method: 'put', json: body }),
    moveItem: (scope, collectionID, at, target) =>
      versioned(contentPath(scope, 'collection', collectionID, 'item', at.itemID, 'sort'), { method: 'put', ...only({ afterID: target.afterID, beforeID: target.beforeID, order: target.order, nestedID: at.nestedID }) }),
  };
}

let browserContentApi: ContentApi | null = null;

/** The content calls over the page's client. */
export function getContentApi(): ContentApi {
  browserContentApi ??= createContentApi(getApiClient());
  return browserContentApi;
}
