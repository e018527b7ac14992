import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import { contentPath, createContentApi, isStaleItemError, StaleItemError, type Item, type ProjectScope } from '../../src/api/content.ts';
import { ApiError } from '../../src/api/errors.ts';
import { createSession } from '../../src/api/session.ts';
import { fakeFetch, json, problem, type Handler } from './support/fake-fetch.ts';

const ORG = '0123456789abcdef01234567';
const PROJ = 'fedcba9876543210fedcba98';
const ITEM = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const FIELD = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const scope: ProjectScope = { organizationID: ORG, projectID: PROJ };
const base = `/api/organization/${ORG}/project/${PROJ}`;

const item: Item = { _id: ITEM, _createdDate: '2026-01-01T00:00:00.000Z', _lastUpdatedDate: '2026-01-02T00:00:00.000Z', _order: 1, _rank: 'a0', title: 'Hello' };
const collection = { id: 'posts', name: 'Posts', schema: [], singleItem: false, rtlDirection: false, itemCount: 0, createdDate: '2026-01-01T00:00:00.000Z' };
const field = { id: FIELD, name: 'Title', slug: 'title', type: 1 };

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

/** Answers every call with `answer`, recording the If-Match each call carried. */
function start(handler: Handler = (request) => json(request.method === 'DELETE' ? 204 : 200, {})) {
  const ifMatch: (string | null)[] = [];
  const fake = fakeFetch((request, sent) => {
    ifMatch.push(request.headers.get('if-match'));
    return handler(request, sent);
  });
  const client = createApiClient({ session: createSession({ events: null }), prefixUrl: 'http://localhost/', fetch: fake.fetch });
  clients.push(client);
  return { api: createContentApi(client), fake, ifMatch };
}

const last = (fake: ReturnType<typeof fakeFetch>) => {
  const entry = fake.sent.at(-1);
  if (!entry) throw new Error('nothing was sent');
  return { method: entry.method, url: entry.url, body: entry.body === '' ? undefined : (JSON.parse(entry.body) as unknown) };
};

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('content api: paths', () => {
  it('encodes every segment of a content path', () => {
    expect(contentPath({ organizationID: 'o/1', projectID: 'p 1' }, 'collection', 'a/b')).toBe('api/organization/o%2F1/project/p%201/collection/a%2Fb');
  });
});

describe('content api: collections', () => {
  it('lists, reads, creates, renames and deletes collections', async () => {
    const { api, fake } = start((request, sent) => {
      if (request.method === 'DELETE') return json(204, null);
      if (sent.url.endsWith('/collection') && request.method === 'GET') return json(200, [collection]);
      return json(request.method === 'POST' ? 201 : 200, collection);
    });
    expect(await api.collections(scope)).toEqual([collection]);
    expect(last(fake)).toEqual({ method: 'GET', url: `${base}/collection`, body: undefined });

    expect(await api.collection(scope, 'posts')).toEqual(collection);
    expect(last(fake)).toEqual({ method: 'GET', url: `${base}/collection/posts`, body: undefined });

    await api.createCollection(scope, { name: 'Posts', id: 'posts', singleItem: false });
    expect(last(fake)).toEqual({ method: 'POST', url: `${base}/collection`, body: { name: 'Posts', id: 'posts', singleItem: false } });

    await api.updateCollection(scope, 'posts', { name: 'Articles' });
    expect(last(fake)).toEqual({ method: 'PUT', url: `${base}/collection/posts`, body: { name: 'Articles' } });

    await expect(api.deleteCollection(scope, 'posts')).resolves.toBeUndefined();
    expect(last(fake)).toEqual({ method: 'DELETE', url: `${base}/collection/posts`, body: undefined });
  });

  it('maps problem details to ApiError with code, detail and per-path errors', async () => {
    const { api } = start(
      () =>
        new Response(
          JSON.stringify({ type: 'about:blank', title: 'Bad', status: 400, code: 'validation_failed', detail: 'The collection is invalid.', errors: [{ path: 'id', message: 'is reserved' }] }),
          { status: 400, headers: { 'content-type': 'application/problem+json' } },
        ),
    );
    const error = await rejection(api.createCollection(scope, { name: 'New', id: 'new' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('validation_failed');
    expect(error.detail).toBe('The collection is invalid.');
    expect(error.problem?.errors).toEqual([{ path: 'id', message: 'is reserved' }]);
  });

  it('maps a 404 and a network failure', async () => {
    const missing = start(() => problem(404, 'collection_not_found'));
    expect((await rejection(missing.api.collection(scope, 'ghosts'))).code).toBe('collection_not_found');
    const offline = start(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await rejection(offline.api.collections(scope));
    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
  });
});

describe('content api: schema and fields', () => {
  it('reads and saves a schema level, with nestedID only when given', async () => {
    const { api, fake } = start(() => json(200, [field]));
    expect(await api.schema(scope, 'posts')).toEqual([field]);
    expect(last(fake).url).toBe(`${base}/collection/posts/schema`);
    await api.schema(scope, 'posts', { nestedID: 'chapters' });
    expect(last(fake).url).toBe(`${base}/collection/posts/schema?nestedID=chapters`);
    await api.replaceSchema(scope, 'posts', [{ name: 'Title', slug: 'title', type: 1 }], { nestedID: 'chapters' });
    expect(last(fake)).toEqual({ method: 'PUT', url: `${base}/collection/posts/schema?nestedID=chapters`, body: [{ name: 'Title', slug: 'title', type: 1 }] });
  });

  it('reorders with the payload the server reads', async () => {
    const { api, fake } = start(() => json(200, [field]));
    await api.reorderSchema(scope, 'posts', [FIELD, '_metadata']);
    expect(last(fake)).toEqual({
      method: 'PUT',
      url: `${base}/collection/posts/schema/order`,
      body: { organizationID: ORG, projectID: PROJ, collectionID: 'posts', collectionSchema: [FIELD, '_metadata'] },
    });
    await api.reorderSchema(scope, 'posts', [FIELD], { nestedID: 'chapters' });
    expect(last(fake).body).toMatchObject({ nestedID: 'chapters' });
  });

  it('adds, adds nested, updates and deletes fields with their own query names', async () => {
    const { api, fake } = start((request) => (request.method === 'DELETE' ? json(204, null) : json(request.method === 'POST' ? 201 : 200, field)));
    expect(await api.addField(scope, 'posts', { name: 'Title', slug: 'title', type: 1 })).toEqual(field);
    expect(last(fake)).toEqual({ method: 'POST', url: `${base}/collection/posts/field`, body: { name: 'Title', slug: 'title', type: 1 } });
    await api.addField(scope, 'posts', { name: 'Title', slug: 'title', type: 1 }, { nestedID: 'chapters' });
    expect(last(fake).url).toBe(`${base}/collection/posts/field?nestedID=chapters`);

    await api.addNestedField(scope, 'posts', FIELD, { name: 'Line', slug: 'line', type: 1 }, { nestedSlug: 'chapters' });
    expect(last(fake)).toEqual({ method: 'POST', url: `${base}/collection/posts/field/${FIELD}?nestedSlug=chapters`, body: { name: 'Line', slug: 'line', type: 1 } });

    await api.updateField(scope, 'posts', FIELD, { name: 'Heading' });
    expect(last(fake)).toEqual({ method: 'PUT', url: `${base}/collection/posts/field/${FIELD}`, body: { name: 'Heading' } });
    await api.updateField(scope, 'posts', FIELD, { name: 'Heading' }, { nestedSlug: 'chapters' });
    expect(last(fake).url).toBe(`${base}/collection/posts/field/${FIELD}?nestedSlug=chapters`);

    await expect(api.deleteField(scope, 'posts', FIELD, { nestedID: 'chapters' })).resolves.toBeUndefined();
    expect(last(fake)).toEqual({ method: 'DELETE', url: `${base}/collection/posts/field/${FIELD}?nestedID=chapters`, body: undefined });
  });
});

describe('content api: items', () => {
  it('pages items with the total from item-count', async () => {
    const { api, fake } = start(() => json(200, [item], { 'item-count': '42' }));
    expect(await api.items(scope, 'posts', { pageNumber: 2, perPage: 10 })).toEqual({ items: [item], total: 42 });
    expect(last(fake)).toEqual({ method: 'GET', url: `${base}/collection/posts/item?pageNumber=2&perPage=10`, body: undefined });
    await api.items(scope, 'posts');
    expect(last(fake).url).toBe(`${base}/collection/posts/item`);
  });

  it('falls back to the page length without item-count', async () => {
    const { api } = start(() => json(200, [item, item]));
    expect((await api.items(scope, 'posts')).total).toBe(2);
  });

  it('reads an item and a nested list and item, with ETags', async () => {
    const { api, fake } = start((_request, sent) =>
      sent.url.includes('nestedID=chapters&') || sent.url.endsWith('nestedID=chapters')
        ? json(200, [item], { 'item-count': '1' })
        : json(200, item, { etag: '"2026-01-02T00:00:00.000Z"' }),
    );
    expect(await api.item(scope, 'posts', { itemID: ITEM })).toEqual({ item, etag: '"2026-01-02T00:00:00.000Z"' });
    expect(last(fake).url).toBe(`${base}/collection/posts/item/${ITEM}`);

    expect(await api.items(scope, 'posts', { perPage: 5 }, { itemID: ITEM, nestedID: 'chapters' })).toEqual({ items: [item], total: 1 });
    expect(last(fake).url).toBe(`${base}/collection/posts/item/${ITEM}?nestedID=chapters&perPage=5`);

    expect((await api.item(scope, 'posts', { itemID: ITEM, nestedID: `chapters.${ITEM}` })).etag).toBe('"2026-01-02T00:00:00.000Z"');
    expect(last(fake).url).toBe(`${base}/collection/posts/item/${ITEM}?nestedID=chapters.${ITEM}`);
  });

  it('creates items and nested items', async () => {
    const { api, fake } = start(() => json(201, item, { etag: '"v1"' }));
    expect(await api.createItem(scope, 'posts', { title: 'Hello' })).toEqual({ item, etag: '"v1"' });
    expect(last(fake)).toEqual({ method: 'POST', url: `${base}/collection/posts/item`, body: { title: 'Hello' } });
    await api.createItem(scope, 'posts', { line: 'One' }, { itemID: ITEM, nestedID: 'chapters' });
    expect(last(fake)).toEqual({ method: 'POST', url: `${base}/collection/posts/item/${ITEM}?nestedID=chapters`, body: { line: 'One' } });
  });

  it('sends If-Match on conditional updates and deletes, and nothing otherwise', async () => {
    const { api, fake, ifMatch } = start((request) => (request.method === 'DELETE' ? json(204, null) : json(200, item, { etag: '"v2"' })));
    expect(await api.updateItem(scope, 'posts', { itemID: ITEM }, { title: 'Hi' }, { ifMatch: '"v1"' })).toEqual({ item, etag: '"v2"' });
    expect(last(fake)).toEqual({ method: 'PUT', url: `${base}/collection/posts/item/${ITEM}`, body: { title: 'Hi' } });
    expect(ifMatch.at(-1)).toBe('"v1"');

    await api.updateItem(scope, 'posts', { itemID: ITEM, nestedID: `chapters.${ITEM}` }, { line: 'Two' });
    expect(last(fake).url).toBe(`${base}/collection/posts/item/${ITEM}?nestedID=chapters.${ITEM}`);
    expect(ifMatch.at(-1)).toBeNull();

    await expect(api.deleteItem(scope, 'posts', { itemID: ITEM, nestedID: `chapters.${ITEM}` }, { ifMatch: '"v2"' })).resolves.toBeUndefined();
    expect(last(fake)).toEqual({ method: 'DELETE', url: `${base}/collection/posts/item/${ITEM}?nestedID=chapters.${ITEM}`, body: undefined });
    expect(ifMatch.at(-1)).toBe('"v2"');
  });

  it('turns a stale write into a StaleItemError carrying the item as it is now', async () => {
    const current = { ...item, title: 'Changed by someone else', _lastUpdatedDate: '2026-01-03T00:00:00.000Z' };
    const { api } = start(
      () =>
        new Response(JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, code: 'stale_item', detail: 'The item was changed.', item: current }), {
          status: 409,
          headers: { 'content-type': 'application/problem+json', etag: '"2026-01-03T00:00:00.000Z"' },
        }),
    );
    const error = await rejection(api.updateItem(scope, 'posts', { itemID: ITEM }, { title: 'Mine' }, { ifMatch: '"old"' }));
    expect(isStaleItemError(error)).toBe(true);
    const stale = error as StaleItemError;
    expect(stale.status).toBe(409);
    expect(stale.code).toBe('stale_item');
    expect(stale.detail).toBe('The item was changed.');
    expect(stale.current).toEqual(current);
    expect(stale.etag).toBe('"2026-01-03T00:00:00.000Z"');
    expect(isStaleItemError(await rejection(api.deleteItem(scope, 'posts', { itemID: ITEM }, { ifMatch: '"old"' })))).toBe(true);
  });

  it('maps other item failures to a plain ApiError', async () => {
    const { api } = start(() => problem(400, 'validation_failed', 'title is required'));
    const error = await rejection(api.createItem(scope, 'posts', {}));
    expect(isStaleItemError(error)).toBe(false);
    expect(error.code).toBe('validation_failed');
    expect(error.detail).toBe('title is required');
  });

  it('a 409 without a body still is a StaleItemError, without the current item', async () => {
    const { api } = start(() => new Response('conflict', { status: 409, headers: { 'content-type': 'text/plain' } }));
    const error = await rejection(api.updateItem(scope, 'posts', { itemID: ITEM }, {}, { ifMatch: '"x"' }));
    expect(error).toBeInstanceOf(StaleItemError);
    expect((error as StaleItemError).current).toBeNull();
  });
});

describe('CSV download', () => {
  it('reports rows as the file arrives, against the item-count header, and returns the whole file', async () => {
    const lines = ['_id,title', ...Array.from({ length: 5 }, (_, i) => `id${i},Title ${i}`)];
    const encoder = new TextEncoder();
    const { api, fake } = start(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              // Two chunks, split inside a row.
              const text = `${lines.join('\n')}\n`;
              controller.enqueue(encoder.encode(text.slice(0, 20)));
              controller.enqueue(encoder.encode(text.slice(20)));
              controller.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'text/csv', 'item-count': '5' } },
        ),
    );
    const progress: [number, number | null][] = [];
    const blob = await api.itemsCsv(scope, 'posts', { sort: 'title', order: 'asc' }, (rows, total) => progress.push([rows, total]));
    expect(await blob.text()).toBe(`${lines.join('\n')}\n`);
    expect(progress.at(-1)).toEqual([5, 5]);
    expect(progress.length).toBe(2);
    expect(progress[0]![0]).toBeLessThan(5);
    expect(last(fake).url).toBe(`${base}/collection/posts/csv?sort=title&order=asc`);
  });
});
