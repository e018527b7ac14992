// @vitest-environment jsdom
import { createElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import type { Collection, ContentApi, Item, ProjectScope } from '../../src/api/content.ts';
import { contentKeys } from '../../src/api/content-keys.ts';
import { ContentApiProvider, useAddField, useAddNestedField, useCollection, useCollections, useCreateCollection, useCreateItem, useDeleteCollection, useDeleteField, useDeleteItem, useItem, useItems, useReorderSchema, useReplaceSchema, useSchema, useUpdateCollection, useUpdateField, useUpdateItem } from '../../src/api/content-queries.ts';

const scope: ProjectScope = { organizationID: 'org', projectID: 'proj' };
const collection: Collection = { id: 'posts', name: 'Posts', schema: [], singleItem: false, rtlDirection: false, itemCount: 1, createdDate: '2026-01-01T00:00:00.000Z' };
const item: Item = { _id: 'i1', _createdDate: 'c', _lastUpdatedDate: 'u', _order: 1, _rank: 'a0' };
const field = { id: 'f1', name: 'Title', slug: 'title', type: 1 };

function fakeContent(): ContentApi {
  return {
    collections: vi.fn(async () => [collection]),
    collection: vi.fn(async () => collection),
    createCollection: vi.fn(async () => ({ ...collection, id: 'authors' })),
    updateCollection: vi.fn(async () => ({ ...collection, name: 'Articles' })),
    deleteCollection: vi.fn(async () => undefined),
    schema: vi.fn(async () => [field]),
    replaceSchema: vi.fn(async () => [field]),
    reorderSchema: vi.fn(async () => [field]),
    addField: vi.fn(async () => field),
    addNestedField: vi.fn(async () => field),
    updateField: vi.fn(async () => field),
    deleteField: vi.fn(async () => undefined),
    items: vi.fn(async () => ({ items: [item], total: 1 })),
    item: vi.fn(async (_scope, _collection, at) => ({ item, etag: at.nestedID ? '"n1"' : '"v1"' })),
    createItem: vi.fn(async () => ({ item, etag: '"v1"' })),
    updateItem: vi.fn(async () => ({ item: { ...item, title: 'Hi' }, etag: '"v2"' })),
    deleteItem: vi.fn(async () => undefined),
    listItems: vi.fn(async () => ({ items: [item], total: 1 })),
    itemsCsv: vi.fn(async () => new Blob(['_id\n'])),
    importItems: vi.fn(async () => ({ importID: 'imp1', imported: 0, skipped: 0, errors: [] })),
    initRank: vi.fn(async () => ({ ranked: 0, remaining: 0 })),
    moveItem: vi.fn(async () => ({ item, etag: '"v2"' })),
  };
}

function setup() {
  const api = fakeContent();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: queryClient }, createElement(ContentApiProvider, { value: api }, children));
  // A cache holding one answer under every kind of key, none of them stale.
  const keys = {
    collections: contentKeys.collections(scope),
    collection: contentKeys.collection(scope, 'posts'),
    otherCollection: contentKeys.collection(scope, 'authors'),
    schema: contentKeys.schema(scope, 'posts'),
    nestedSchema: contentKeys.schema(scope, 'posts', 'chapters'),
    itemPage: contentKeys.itemPage(scope, 'posts', {}),
    item: contentKeys.item(scope, 'posts', 'i1'),
  };
  for (const key of Object.values(keys)) queryClient.setQueryData(key, { seeded: true });
  const invalidated = () =>
    (Object.entries(keys) as [keyof typeof keys, QueryKey][]).filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated).map(([name]) => name).sort();
  return { api, queryClient, wrapper, keys, invalidated };
}

describe('content query hooks: reads', () => {
  it('read collections, a collection, a schema level, a page of items and an item through the provided api', async () => {
    const { api, wrapper } = setup();
    const { result } = renderHook(
      () => ({
        collections: useCollections({ organizationID: 'o2', projectID: 'p2' }),
        collection: useCollection(scope, 'tags'),
        schema: useSchema(scope, 'tags', { nestedID: 'chapters' }),
        items: useItems(scope, 'tags', { pageNumber: 2, perPage: 10 }),
        item: useItem(scope, 'tags', 'i1'),
        nestedItem: useItem(scope, 'tags', 'i1', { nestedID: 'chapters.i2' }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(Object.values(result.current).every((query) => query.isSuccess)).toBe(true));
    expect(result.current.collections.data).toEqual([collection]);
    expect(api.collections).toHaveBeenCalledWith({ organizationID: 'o2', projectID: 'p2' });
    expect(api.collection).toHaveBeenCalledWith(scope, 'tags');
    expect(api.schema).toHaveBeenCalledWith(scope, 'tags', { nestedID: 'chapters' });
    expect(api.items).toHaveBeenCalledWith(scope, 'tags', { pageNumber: 2, perPage: 10 });
    expect(result.current.item.data).toEqual({ item, etag: '"v1"' });
    expect(api.item).toHaveBeenCalledWith(scope, 'tags', { itemID: 'i1', nestedID: 'chapters.i2' });
    expect(result.current.nestedItem.data?.etag).toBe('"n1"');
  });

  it('waits while disabled or without a collection', async () => {
    const { api, wrapper } = setup();
    const { result } = renderHook(() => ({ collection: useCollection(scope, ''), items: useItems(scope, 'tags', {}, { enabled: false }), item: useItem(scope, 'tags', '') }), {
      wrapper,
    });
    await act(async () => undefined);
    expect(result.current.collection.fetchStatus).toBe('idle');
    expect(result.current.items.fetchStatus).toBe('idle');
    expect(result.current.item.fetchStatus).toBe('idle');
    expect(api.collection).not.toHaveBeenCalled();
    expect(api.items).not.toHaveBeenCalled();
  });
});

describe('content query hooks: mutations invalidate what they change', () => {
  it('creating a collection caches it and reloads the list', async () => {
    const { api, wrapper, queryClient, invalidated } = setup();
    const { result } = renderHook(() => useCreateCollection(scope), { wrapper });
    await act(() => result.current.mutateAsync({ name: 'Authors' }));
    expect(api.createCollection).toHaveBeenCalledWith(scope, { name: 'Authors' });
    expect(queryClient.getQueryData(contentKeys.collection(scope, 'authors'))).toMatchObject({ id: 'authors' });
    expect(invalidated()).toEqual(['collections']);
  });

  it('updating a collection replaces it and reloads the list', async () => {
    const { api, wrapper, queryClient, invalidated } = setup();
    const { result } = renderHook(() => useUpdateCollection(scope, 'posts'), { wrapper });
    await act(() => result.current.mutateAsync({ name: 'Articles' }));
    expect(api.updateCollection).toHaveBeenCalledWith(scope, 'posts', { name: 'Articles' });
    expect(queryClient.getQueryData(contentKeys.collection(scope, 'posts'))).toMatchObject({ name: 'Articles' });
    expect(invalidated()).toContain('collections');
  });

  it('deleting a collection forgets everything under it', async () => {
    const { wrapper, queryClient, keys, invalidated } = setup();
    const { result } = renderHook(() => useDeleteCollection(scope, 'posts'), { wrapper });
    await act(() => result.current.mutateAsync());
    expect(queryClient.getQueryData(keys.collection)).toBeUndefined();
    expect(queryClient.getQueryData(keys.schema)).toBeUndefined();
    expect(queryClient.getQueryData(keys.item)).toBeUndefined();
    expect(queryClient.getQueryData(keys.otherCollection)).toEqual({ seeded: true });
    expect(invalidated()).toEqual(['collections']);
  });

  it('field and schema changes reload the collection, its schemas, items and the list, not other collections', async () => {
    const everythingOfPosts = ['collection', 'collections', 'item', 'itemPage', 'nestedSchema', 'schema'];
    const useHooks = () => ({
      add: useAddField(scope, 'posts'),
      addNested: useAddNestedField(scope, 'posts'),
      update: useUpdateField(scope, 'posts'),
      remove: useDeleteField(scope, 'posts'),
      replace: useReplaceSchema(scope, 'posts'),
    });
    for (const [name, run] of [
      ['add', (h: ReturnType<typeof useHooks>) => h.add.mutateAsync({ field: { name: 'A' }, nestedID: 'chapters' })],
      ['addNested', (h: ReturnType<typeof useHooks>) => h.addNested.mutateAsync({ nestedFieldId: 'f9', field: { name: 'B' }, nestedSlug: 'chapters' })],
      ['update', (h: ReturnType<typeof useHooks>) => h.update.mutateAsync({ fieldId: 'f1', changes: { name: 'C' } })],
      ['remove', (h: ReturnType<typeof useHooks>) => h.remove.mutateAsync({ fieldId: 'f1', nestedID: 'chapters' })],
      ['replace', (h: ReturnType<typeof useHooks>) => h.replace.mutateAsync({ fields: [{ name: 'D' }] })],
    ] as const) {
      const { api, wrapper, invalidated } = setup();
      const { result } = renderHook(useHooks, { wrapper });
      await act(async () => {
        await run(result.current);
      });
      expect(invalidated(), name).toEqual(everythingOfPosts);
      if (name === 'add') expect(api.addField).toHaveBeenCalledWith(scope, 'posts', { name: 'A' }, { nestedID: 'chapters' });
      if (name === 'addNested') expect(api.addNestedField).toHaveBeenCalledWith(scope, 'posts', 'f9', { name: 'B' }, { nestedSlug: 'chapters' });
      if (name === 'update') expect(api.updateField).toHaveBeenCalledWith(scope, 'posts', 'f1', { name: 'C' }, {});
      if (name === 'remove') expect(api.deleteField).toHaveBeenCalledWith(scope, 'posts', 'f1', { nestedID: 'chapters' });
      if (name === 'replace') expect(api.replaceSchema).toHaveBeenCalledWith(scope, 'posts', [{ name: 'D' }], {});
    }
  });

  it('reordering caches the new order of that level', async () => {
    const { api, wrapper, queryClient, keys } = setup();
    const { result } = renderHook(() => useReorderSchema(scope, 'posts'), { wrapper });
    await act(() => result.current.mutateAsync({ order: ['f1'], nestedID: 'chapters' }));
    expect(api.reorderSchema).toHaveBeenCalledWith(scope, 'posts', ['f1'], { nestedID: 'chapters' });
    expect(queryClient.getQueryData(keys.nestedSchema)).toEqual([field]);
  });

  it('creating an item reloads the items, the collection (its count) and the list, but not its schema', async () => {
    const { api, wrapper, invalidated } = setup();
    const { result } = renderHook(() => useCreateItem(scope, 'posts'), { wrapper });
    await act(() => result.current.mutateAsync({ values: { title: 'Hello' } }));
    expect(api.createItem).toHaveBeenCalledWith(scope, 'posts', { title: 'Hello' });
    expect(invalidated()).toEqual(['collection', 'collections', 'item', 'itemPage']);

    await act(() => result.current.mutateAsync({ values: { line: 'One' }, list: { itemID: 'i1', nestedID: 'chapters' } }));
    expect(api.createItem).toHaveBeenCalledWith(scope, 'posts', { line: 'One' }, { itemID: 'i1', nestedID: 'chapters' });
  });

  it('updating an item passes If-Match, caches the new version and reloads the pages', async () => {
    const { api, wrapper, queryClient, keys, invalidated } = setup();
    const { result } = renderHook(() => useUpdateItem(scope, 'posts'), { wrapper });
    await act(() => result.current.mutateAsync({ itemID: 'i1', values: { title: 'Hi' }, ifMatch: '"v1"' }));
    expect(api.updateItem).toHaveBeenCalledWith(scope, 'posts', { itemID: 'i1' }, { title: 'Hi' }, { ifMatch: '"v1"' });
    expect(invalidated()).toContain('itemPage');
    expect(invalidated()).not.toContain('schema');
    await waitFor(() => expect(queryClient.getQueryData(keys.item)).toMatchObject({ etag: '"v2"' }));
  });

  it('deleting an item forgets it and reloads the items and counts', async () => {
    const { api, wrapper, queryClient, keys, invalidated } = setup();
    const { result } = renderHook(() => useDeleteItem(scope, 'posts'), { wrapper });
    await act(() => result.current.mutateAsync({ itemID: 'i1', ifMatch: '"v1"' }));
    expect(api.deleteItem).toHaveBeenCalledWith(scope, 'posts', { itemID: 'i1' }, { ifMatch: '"v1"' });
    expect(queryClient.getQueryData(keys.item)).toBeUndefined();
    expect(invalidated()).toEqual(['collection', 'collections', 'itemPage']);
  });
});
