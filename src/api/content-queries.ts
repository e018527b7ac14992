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
import type { DeleteItemInput, LoadItemInput, SaveItemInput } from '../../machines/item-form.ts';
import { addressOfSaved, itemInList, listOfNewItem, type ItemAddress, type NestedListAddress } from './item-address.ts';
import { contentKeys } from './content-keys.ts';
import { shouldRetry } from './queries.ts';

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
    queryFn: () => api.item(scope, collectionID, options.nestedID ? { itemID, nestedID: options.nestedID } : { itemID }),
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

/** Creates a top-level item, or with `list` an item in that nested list. */
export function useCreateItem(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ values, list }: { values: ItemValues; list?: NestedListAddress }) =>
      list ? api.createItem(scope, collectionID, values, list) : api.createItem(scope, collectionID, values),
    onSuccess: () => itemsChanged(queryClient, scope, collectionID),
  });
}

/** Updates an item; pass the ETag it was read with as `ifMatch` to refuse overwriting another's change. */
export function useUpdateItem(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemID, nestedID, values, ...options }: ItemAddress & { values: ItemValues } & ItemWriteOptions) =>
      api.updateItem(scope, collectionID, nestedID ? { itemID, nestedID } : { itemID }, values, options),
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
    mutationFn: ({ itemID, nestedID, ...options }: ItemAddress & ItemWriteOptions) => api.deleteItem(scope, collectionID, nestedID ? { itemID, nestedID } : { itemID }, options),
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
export function useDeleteItems(scope: ProjectScope, collectionID: string, nested?: NestedListAddress) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (itemIDs: readonly string[]) => {
      const results = await Promise.allSettled(itemIDs.map((itemID) => api.deleteItem(scope, collectionID, itemInList(nested, itemID))));
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
    mutationFn: ({ itemID, nestedID, ...target }: ItemAddress & { afterID?: string; beforeID?: string; order?: number }) =>
      api.moveItem(scope, collectionID, nestedID ? { itemID, nestedID } : { itemID }, target),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collectionID) }),
  });
}

/**
 * Gives every item of one list a rank, batch by batch: the top level, or with `list` a nested list.
 */
export function useInitListRank(scope: ProjectScope, collectionID: string, list?: NestedListAddress, onProgress?: (remaining: number) => void) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      let ranked = 0;
      // Each call ranks one batch; a batch that ranks nothing ends the loop either way.
      for (let batch = 0; batch < 10_000; batch += 1) {
        const answer = await api.initRank(scope, collectionID, list ? { parentItemID: list.itemID, nestedID: list.nestedID } : {});
        ranked += answer.ranked;
        onProgress?.(answer.remaining);
        if (answer.remaining === 0 || answer.ranked === 0) break;
      }
      return ranked;
    },
    onSettled: () => itemsChanged(queryClient, scope, collectionID),
  });
}

/**
 * The item page's calls (the item-form machine's actors): read one item with its version, create
 * or update it (If-Match with the version edited; a 409 rejects with StaleItemError), delete it.
 * Writes refresh the collection's lists and count.
 */
export function useItemCalls(scope: ProjectScope, collectionID: string) {
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useMemo(
    () => ({
      load: (place: LoadItemInput): Promise<VersionedItem> => api.item(scope, collectionID, addressOfSaved(place, place.itemID)),
      save: async (input: SaveItemInput): Promise<VersionedItem> => {
        const list = listOfNewItem(input);
        const result =
          input.mode === 'create' || input.itemID === null
            ? await (list ? api.createItem(scope, collectionID, input.values, list) : api.createItem(scope, collectionID, input.values))
            : await api.updateItem(scope, collectionID, addressOfSaved(input, input.itemID), input.values, { ifMatch: input.version });
        itemsChanged(queryClient, scope, collectionID);
        return result;
      },
      remove: async (place: DeleteItemInput): Promise<void> => {
        const at = addressOfSaved(place, place.itemID);
        await api.deleteItem(scope, collectionID, at, { ifMatch: place.version });
        queryClient.removeQueries({ queryKey: contentKeys.item(scope, collectionID, at.itemID, at.nestedID) });
        itemsChanged(queryClient, scope, collectionID);
      },
    }),
    [api, queryClient, scope, collectionID],
  );
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
