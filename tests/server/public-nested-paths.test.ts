/**
 * Nested levels as paths of their own (docs/public-api.md "Nested levels as paths"): every call
 * the official client makes with `nestedID` answers the same through the nested path, on the same
 * rows; the client's form keeps working beside it; malformed nested paths are 404, a second
 * nestedID is refused, and neither changes anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';

describe.each(databaseKinds)('nested paths of the public API on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        {
          name: 'Chapters',
          slug: 'chapters',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Heading', slug: 'heading', type: 1 },
            { name: 'Words', slug: 'words', type: 3 },
            { name: 'Paragraphs', slug: 'paragraphs', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
          ],
        },
      ],
    });
    token = await mintToken(t, f, { powerRead: true, powerWrite: true });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/api/public/${path}`,
      headers: {
        'accept-version': 'v1',
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => {
    const response = await call(method, path, body);
    expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
    return response;
  };

  it('creates, lists, reads, changes and deletes at two nested levels, the same rows as the nestedID form', async () => {
    const top = (await createItem(f, 'books', { title: 'A book' }))._id as string;
    const base = `collection/books/items/${top}`;

    const c1 = json<{ id: string }>(await ok('POST', `${base}/nested/chapters/items`, { heading: 'One', words: 10 })).id;
    const c2 = json<{ id: string }>(await ok('POST', `${base}?nestedID=chapters`, { heading: 'Two', words: 5 })).id;
    const byPath = await ok('GET', `${base}/nested/chapters/items?sort=words&order=asc`);
    const byQuery = await ok('GET', `${base}?nestedID=chapters&sort=words&order=asc`);
    expect(json(byPath)).toEqual(json(byQuery));
    expect(json<{ heading: string }[]>(byPath).map((c) => c.heading)).toEqual(['Two', 'One']);
    expect(byPath.headers['item-count']).toBe('2');

    expect(json(await ok('GET', `${base}/nested/chapters/items/${c1}`))).toEqual(json(await ok('GET', `${base}?nestedID=chapters.${c1}`)));
    expect(json(await ok('GET', `${base}/nested/chapters/items/${c1}`))).toMatchObject({ _id: c1, heading: 'One', words: 10 });

    await ok('PUT', `${base}/nested/chapters/items/${c1}`, { heading: 'One, revised' });
    await ok('PUT', `${base}/nested/chapters/items/${c1}/field/words?increment=5`);
    expect(json(await ok('GET', `${base}?nestedID=chapters.${c1}`))).toMatchObject({ heading: 'One, revised', words: 15 });

    const p1 = json<{ id: string }>(await ok('POST', `${base}/nested/chapters/items/${c1}/nested/paragraphs/items`, { text: 'First' })).id;
    expect(json(await ok('GET', `${base}?nestedID=chapters.${c1}.paragraphs`))).toEqual([expect.objectContaining({ _id: p1, text: 'First' })]);
    expect(json(await ok('GET', `${base}/nested/chapters/items/${c1}/nested/paragraphs/items/${p1}`))).toMatchObject({ text: 'First' });
    await ok('DELETE', `${base}/nested/chapters/items/${c1}/nested/paragraphs/items/${p1}`);
    expect(json(await ok('GET', `${base}/nested/chapters/items/${c1}/nested/paragraphs/items`))).toEqual([]);

    await ok('DELETE', `${base}/nested/chapters/items/${c2}`);
    expect(json<{ _id: string }[]>(await ok('GET', `${base}?nestedID=chapters`)).map((c) => c._id)).toEqual([c1]);
    // The top-level item is untouched by all of it.
    expect(json(await ok('GET', base))).toMatchObject({ _id: top, title: 'A book' });
  });

  it('a malformed nested path is 404 and a second nestedID 400, each changing nothing', async () => {
    const top = (await createItem(f, 'books', { title: 'Kept' }))._id as string;
    const base = `collection/books/items/${top}`;
    const c1 = json<{ id: string }>(await ok('POST', `${base}/nested/chapters/items`, { heading: 'Only' })).id;
    const before = json(await ok('GET', `${base}?nestedID=chapters`));

    for (const path of [`${base}/nested/chapters`, `${base}/nested//items`, `${base}/nested/chapters/things`, `${base}/nested/chapters/items/${c1}/extra/part`]) {
      const response = await call('PUT', path, { heading: 'Changed' });
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const twice = await call('PUT', `${base}/nested/chapters/items/${c1}?nestedID=chapters.${c1}`, { heading: 'Changed' });
    expect(twice.statusCode, twice.body).toBe(400);
    // A nested level that does not exist is the API's own 404, as in the nestedID form.
    const unknown = await call('GET', `${base}/nested/sections/items`);
    const unknownByQuery = await call('GET', `${base}?nestedID=sections`);
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual(json(unknownByQuery));
    expect(json(await ok('GET', `${base}?nestedID=chapters`))).toEqual(before);
  });
});
