/** TanStack Query hooks over the content calls: thin wrappers, the calls live in content.ts. */
import { createContext, useContext, useMemo } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import {
  getContentApi,
  type Collection,
  type CollectionChanges,
  type CollectionDraft,
  type ContentApi,
  type FieldInput,
  type Item,
  type ItemValues,
  type ItemWriteOptions,
  type ListParams,
  type PageQuery,
  type ProjectScope,
  type VersionedItem,
} from './content.ts';
import { itemInList } from './item-address.ts';
import { shouldRetry } from './queries.ts';

/**
 * Query keys, nested so that invalidating a prefix reaches everything under it: a collection's
 * key is the prefix of its schema's and its items' keys.
 */
export const contentKeys = {
  project: (scope: ProjectScope) => ['content', scope.organizationID, scope.projectID] as const,
  collections: (scope: ProjectScope) => [...contentKeys.project(scope), 'collections'] as const,
  collection: (scope: ProjectScope, collectionID: string) => [...contentKeys.project(scope), 'collection', collectionID] as const,
  schema: (scope: ProjectScope, collectionID: string, nestedID?: string) => [...contentKeys.collection(scope, collectionID), 'schema', nestedID ?? ''] as const,
  allSchemas: (scope: ProjectScope, collectionID: string) => [...contentKeys.collection(scope, collectionID), 'schema'] as const,
  items: (scope: ProjectScope, collectionID: string) => [...contentKeys.collection(scope, collectionID), 'items'] as const,
  itemPage: (scope: ProjectScope, collectionID: string, page: PageQuery) =>
    [...contentKeys.items(scope, collectionID), 'page', page.pageNumber ?? 1, page.perPage ?? null] as const,
  item: (scope: ProjectScope, collectionID: string, itemID: string, nestedID?: string) =>
    [...contentKeys.items(scope, collectionID), 'item', itemID, nestedID ?? ''] as const,
  itemList: (scope: ProjectScope, collectionID: string, params: ListParams) => [...contentKeys.items(scope, collectionID), 'list', params] as const,
};

const ContentApiContext = createContext<ContentApi | null>(null);

/** Overrides the content calls for a subtree (tests); without it the page's client is used. */
export const ContentApiProvider = ContentApiContext.Provider;

export function useContentApi(): ContentApi {
  return useContext(ContentApiContext) ?? getContentApi();
}

export function useCollections(scope: ProjectScope) {
  const api = useContentApi();
  return useQuery({ queryKey: contentKeys.collections(scope), queryFn: () => api.collections(scope), retry: shouldRetry });
}

export function useCollection(scope: ProjectScope, collectionID: string, options: { enabled?: boolean } = {}) {
  const api = useContentApi();
  return useQuery({
    queryKey: contentKeys.collection(scope, collectionID),
    queryFn: () => api.collection(scope, collectionID),
    enabled: (options.enabled ?? true) && collectionID !== '',
    retry: shouldRetry,
  });
}

export function useSchema(scope: ProjectScope, collectionID: string, options: { nestedID?: string; enabled?: boolean } = {}) {
  const api = useContentApi();
  return useQuery({
    queryKey: contentKeys.schema(scope, collectionID, options.nestedID),
    queryFn: () => api.schema(scope, collectionID, options.nestedID ? { nestedID: options.nestedID } : {}),
    enabled: (options.enabled ?? true) && collectionID !== '',
    retry: shouldRetry,
  });
}

export function useItems(scope: ProjectScope, collectionID: string, page: PageQuery = {}, options: { enabled?: boolean } = {}) {
  const api = useContentApi();
  return useQuery({
    queryKey: contentKeys.itemPage(scope, collectionID, page),
    queryFn: () => api.items(scope, collectionID, page),
    enabled: (options.enabled ?? true) && collectionID !== '',
    retry: shouldRetry,
  });
}

/** One item (or, with nestedID ending in an id, one nested item) with its ETag. */
export function useItem(scope: ProjectScope, collectionID: string, itemID: string, options: { nestedID?: string; enabled?: boolean } = {}) {
  const api = useContentApi();
  return useQuery({
    queryKey: contentKeys.item(scope, collectionID, itemID, options.nestedID),
    queryFn: () => (options.nestedID ? api.nestedItem(scope, collectionID, itemID, options.nestedID) : api.item(scope, collectionID, itemID)),
    enabled: (options.enabled ?? true) && collectionID !== '' && itemID !== '',
    retry: shouldRetry,
  });
}

/** The collection list and the collection itself (its schema and items are under its key). */
function collectionChanged(queryClient: QueryClient, scope: ProjectScope, collectionID: string) {
  void queryClient.invalidateQueries({ queryKey: contentKeys.collections(scope) });
  void queryClient.invalidateQueries({ queryKey: contentKeys.collection(scope, collectionID) });
}

export function useCreateCollection(scope: ProjectScope) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: CollectionDraft) => api.createCollection(scope, draft),
    onSuccess: (collection) => {
      queryClient.setQueryData(contentKeys.collection(scope, collection.id), collection);
      void queryClient.invalidateQueries({ queryKey: contentKeys.collections(scope) });
    },
  });
}

export function useUpdateCollection(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: CollectionChanges) => api.updateCollection(scope, collectionID, changes),
    onSuccess: (collection: Collection) => {
      queryClient.setQueryData(contentKeys.collection(scope, collectionID), collection);
      void queryClient.invalidateQueries({ queryKey: contentKeys.collections(scope) });
    },
  });
}

export function useDeleteCollection(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.deleteCollection(scope, collectionID),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: contentKeys.collection(scope, collectionID) });
      void queryClient.invalidateQueries({ queryKey: contentKeys.collections(scope) });
    },
  });
}

/** Any schema change: the schema levels, the collection (it embeds the schema) and the list. */
export function useReplaceSchema(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, nestedID }: { fields: FieldInput[]; nestedID?: string }) => api.replaceSchema(scope, collectionID, fields, nestedID ? { nestedID } : {}),
    onSuccess: () => collectionChanged(queryClient, scope, collectionID),
  });
}

export function useReorderSchema(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ order, nestedID }: { order: (string | FieldInput)[]; nestedID?: string }) => api.reorderSchema(scope, collectionID, order, nestedID ? { nestedID } : {}),
    onSuccess: (schema: SchemaField[], { nestedID }) => {
      queryClient.setQueryData(contentKeys.schema(scope, collectionID, nestedID), schema);
      collectionChanged(queryClient, scope, collectionID);
    },
  });
}

export function useAddField(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ field, nestedID }: { field: FieldInput; nestedID?: string }) => api.addField(scope, collectionID, field, nestedID ? { nestedID } : {}),
    onSuccess: () => collectionChanged(queryClient, scope, collectionID),
  });
}

export function useAddNestedField(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ nestedFieldId, field, nestedSlug }: { nestedFieldId: string; field: FieldInput; nestedSlug?: string }) =>
      api.addNestedField(scope, collectionID, nestedFieldId, field, nestedSlug ? { nestedSlug } : {}),
    onSuccess: () => collectionChanged(queryClient, scope, collectionID),
  });
}

export function useUpdateField(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fieldId, changes, nestedSlug }: { fieldId: string; changes: FieldInput; nestedSlug?: string }) =>
      api.updateField(scope, collectionID, fieldId, changes, nestedSlug ? { nestedSlug } : {}),
    onSuccess: () => collectionChanged(queryClient, scope, collectionID),
  });
}

/** Deleting a field deletes its values too: items are refetched with the schema. */
export function useDeleteField(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fieldId, nestedID }: { fieldId: string; nestedID?: string }) => api.deleteField(scope, collectionID, fieldId, nestedID ? { nestedID } : {}),
    onSuccess: () => collectionChanged(queryClient, scope, collectionID),
  });
}

/** Item writes change the items and the collection's item count. */
function itemsChanged(queryClient: QueryClient, scope: ProjectScope, collectionID: string) {
  void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collectionID) });
  void queryClient.invalidateQueries({ queryKey: contentKeys.collection(scope, collectionID), exact: true });
  void queryClient.invalidateQueries({ queryKey: contentKeys.collections(scope) });
}

/** Creates an item, or with `itemID` and `nestedID` a nested item. */
export function useCreateItem(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ values, itemID, nestedID }: { values: ItemValues; itemID?: string; nestedID?: string }) =>
      itemID && nestedID ? api.createNestedItem(scope, collectionID, itemID, nestedID, values) : api.createItem(scope, collectionID, values),
    onSuccess: () => itemsChanged(queryClient, scope, collectionID),
  });
}

/** Updates an item; pass the ETag it was read with as `ifMatch` to refuse overwriting another's change. */
export function useUpdateItem(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemID, values, ...options }: { itemID: string; values: ItemValues } & ItemWriteOptions) => api.updateItem(scope, collectionID, itemID, values, options),
    onSuccess: (versioned, { itemID, nestedID }) => {
      queryClient.setQueryData(contentKeys.item(scope, collectionID, itemID, nestedID), versioned);
      void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collectionID) });
    },
  });
}

export function useDeleteItem(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemID, ...options }: { itemID: string } & ItemWriteOptions) => api.deleteItem(scope, collectionID, itemID, options),
    onSuccess: (_answer, { itemID, nestedID }) => {
      queryClient.removeQueries({ queryKey: contentKeys.item(scope, collectionID, itemID, nestedID) });
      itemsChanged(queryClient, scope, collectionID);
    },
  });
}

/** One page of the item list with every list parameter; the total comes from `item-count`. */
export function useItemList(scope: ProjectScope, collectionID: string, params: ListParams = {}, options: { enabled?: boolean } = {}) {
  const api = useContentApi();
  return useQuery({
    queryKey: contentKeys.itemList(scope, collectionID, params),
    queryFn: () => api.listItems(scope, collectionID, params),
    enabled: (options.enabled ?? true) && collectionID !== '',
    retry: shouldRetry,
  });
}

/** Deletes several items (multi-select); resolves with the ids that failed. */
export function useDeleteItems(scope: ProjectScope, collectionID: string, nested?: { itemID: string; nestedID: string }) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (itemIDs: readonly string[]) => {
      // A nested item is addressed through its top-level item, nestedID ending in its own id.
      const remove = (itemID: string) => {
        const { itemID: id, nestedID } = itemInList(nested, itemID);
        return nestedID ? api.deleteItem(scope, collectionID, id, { nestedID }) : api.deleteItem(scope, collectionID, id);
      };
      const results = await Promise.allSettled(itemIDs.map(remove));
      return itemIDs.filter((_id, i) => results[i]?.status === 'rejected');
    },
    onSettled: () => itemsChanged(queryClient, scope, collectionID),
  });
}

/** Moves an item to a new rank (the drag handle): right after or right before another item. */
export function useMoveItem(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemID, ...target }: { itemID: string; afterID?: string; beforeID?: string; order?: number; nestedID?: string }) => api.moveItem(scope, collectionID, itemID, target),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collectionID) }),
  });
}

/**
 * Gives every item of one list a rank, batch by batch: the top level, or with `list` a nested list
 * (`parentItemID` its top-level item, `nestedID` ending in its nested collection slug).
 */
export function useInitListRank(scope: ProjectScope, collectionID: string, list?: { parentItemID: string; nestedID: string }, onProgress?: (remaining: number) => void) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      let ranked = 0;
      // Each call ranks one batch; a batch that ranks nothing ends the loop either way.
      for (let batch = 0; batch < 10_000; batch += 1) {
        const answer = await api.initRank(scope, collectionID, list ? { parentItemID: list.parentItemID, nestedID: list.nestedID } : {});
        ranked += answer.ranked;
        onProgress?.(answer.remaining);
        if (answer.remaining === 0 || answer.ranked === 0) break;
      }
      return ranked;
    },
    onSettled: () => itemsChanged(queryClient, scope, collectionID),
  });
}

/** Where an item is: top-level by `itemID`, or nested under the top-level `parentItemID` by `nestedID` (ending in the item's id). */
export interface ItemPlace {
  itemID: string;
  nestedID?: string | undefined;
  parentItemID?: string | undefined;
}

/** A create (no `itemID`) or an update naming the version it edited (`version`, sent as If-Match). */
export interface ItemSave {
  mode: 'create' | 'update';
  itemID: string | null;
  nestedID?: string | undefined;
  parentItemID?: string | undefined;
  values: ItemValues;
  version: string | null;
}

/**
 * The item page's calls (the item-form machine's actors): read one item with its version, create
 * or update it (If-Match with the version edited; a 409 rejects with StaleItemError), delete it.
 * Writes refresh the collection's lists and count.
 */
export function useItemCalls(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const nestedOf = (place: { nestedID?: string | undefined; parentItemID?: string | undefined }) =>
      place.nestedID && place.parentItemID ? { nestedID: place.nestedID, parentItemID: place.parentItemID } : null;
    return {
      load: (place: ItemPlace): Promise<VersionedItem> => {
        const nested = nestedOf(place);
        return nested ? api.nestedItem(scope, collectionID, nested.parentItemID, nested.nestedID) : api.item(scope, collectionID, place.itemID);
      },
      save: async (input: ItemSave): Promise<VersionedItem> => {
        const nested = nestedOf(input);
        let result: VersionedItem;
        if (input.mode === 'create' || input.itemID === null) {
          result = nested ? await api.createNestedItem(scope, collectionID, nested.parentItemID, nested.nestedID, input.values) : await api.createItem(scope, collectionID, input.values);
        } else if (nested) {
          result = await api.updateItem(scope, collectionID, nested.parentItemID, input.values, { nestedID: nested.nestedID, ifMatch: input.version });
        } else {
          result = await api.updateItem(scope, collectionID, input.itemID, input.values, { ifMatch: input.version });
        }
        itemsChanged(queryClient, scope, collectionID);
        return result;
      },
      remove: async (place: ItemPlace & { version: string | null }): Promise<void> => {
        const nested = nestedOf(place);
        if (nested) await api.deleteItem(scope, collectionID, nested.parentItemID, { nestedID: nested.nestedID, ifMatch: place.version });
        else await api.deleteItem(scope, collectionID, place.itemID, { ifMatch: place.version });
        queryClient.removeQueries({ queryKey: contentKeys.item(scope, collectionID, place.itemID, place.nestedID) });
        itemsChanged(queryClient, scope, collectionID);
      },
    };
  }, [api, queryClient, scope, collectionID]);
}

/** The one item of a single-item collection (the first of its list), or null while it has none. */
export function useSingleItem(scope: ProjectScope, collectionID: string, options: { enabled?: boolean } = {}) {
  const api = useContentApi();
  return useQuery({
    queryKey: [...contentKeys.items(scope, collectionID), 'single'] as const,
    queryFn: async (): Promise<Item | null> => (await api.listItems(scope, collectionID, { pageNumber: 1, perPage: 1 })).items[0] ?? null,
    enabled: (options.enabled ?? true) && collectionID !== '',
    retry: shouldRetry,
    staleTime: 0,
  });
}
