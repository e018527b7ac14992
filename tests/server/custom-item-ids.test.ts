/**
 * Caller-chosen item ids (docs/public-api.md "Item ids"): the official client's `set` upserts an
 * item at an id the app picks (`art-42`), and every address that takes an item id (public API,
 * console API, nested chains, ItemRef links, CSV) then accepts it. Well-formed unknown ids answer
 * 404, malformed ones 400. Generated ids stay 24 hex characters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';

describe.each(databaseKinds)('caller-chosen item ids on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: string;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url: `/api/public/${path}`,
      headers: { ...bearer(token), 'accept-version': 'v1', ...headers },
      ...(payload === undefined ? {} : typeof payload === 'string' ? { payload } : { payload: payload as object }),
    });
  /** The client's set: a PUT with ?set=true and the body as a JSON string. */
  const set = (path: string, values: Record<string, unknown>, nestedID?: string) =>
    api('PUT', `${path}?set=true${nestedID ? `&nestedID=${nestedID}` : ''}`, JSON.stringify(values), { 'content-type': 'application/x-www-form-urlencoded' });
  const ok = (response: LightMyRequestResponse, status = 200) => {
    expect(response.statusCode, response.body).toBe(status);
    return response.body ? json(response) : undefined;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'authors', name: 'Authors', schema: [{ name: 'Name', slug: 'name', type: 1, primaryField: true }] });
    await createCollection(f, {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Views', slug: 'views', type: 3 },
        { name: 'Author', slug: 'author', type: 6, referenceCollectionID: 'authors' },
        {
          name: 'Chapters',
          slug: 'chapters',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Heading', slug: 'heading', type: 1 },
            { name: 'Paragraphs', slug: 'paragraphs', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
          ],
        },
      ],
    });
    const minted = await t.app.inject({
      method: 'POST',
      url: '/api/apiTokens',
      headers: bearer(f.access),
      payload: { name: 'app', projectID: f.project, organizationID: f.org, powerRead: true, powerWrite: true },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    token = json(minted).jwtToken;
  });
  afterAll(() => t.close());

  it('set creates at the caller’s id, set again updates it, and get, put, field operations and delete address it', async () => {
    expect(ok(await set('collection/articles/items/art-42', { _id: 'art-42', title: 'Answer', views: 1 }), 201)).toEqual({ id: 'art-42' });
    expect(ok(await set('collection/articles/items/art-42', { views: 2 }))).toEqual({ id: 'art-42' });
    expect(ok(await api('GET', 'collection/articles/items/art-42?pageNumber=1&perPage=100'))).toMatchObject({ _id: 'art-42', title: 'Answer', views: 2 });
    expect(ok(await api('PUT', 'collection/articles/items/art-42', JSON.stringify({ title: 'Answered' }), { 'content-type': 'text/plain' }))).toEqual({ id: 'art-42' });
    ok(await api('PUT', 'collection/articles/items/art-42/field/views?increment=5'));
    expect(ok(await api('GET', 'collection/articles/items/art-42'))).toMatchObject({ title: 'Answered', views: 7 });
    // One item, not two: the list holds it once.
    const list = ok(await api('GET', 'collection/articles/items?pageNumber=1&perPage=100&query=title%3A%3D%3AAnswered')) as { _id: string }[];
    expect(list.map((item) => item._id)).toEqual(['art-42']);
    // Ids are case-sensitive: another spelling is another (unknown) item.
    expectProblem(await api('GET', 'collection/articles/items/ART-42'), 404, 'item_not_found');
    // Letters, digits, - and _, from 1 to 64 characters.
    for (const id of ['x', 'A_b-9', 'z'.repeat(64)]) expect(ok(await set(`collection/articles/items/${id}`, { title: id }), 201)).toEqual({ id });
    expect(ok(await api('DELETE', 'collection/articles/items/art-42'))).toEqual({ id: 'art-42' });
    expectProblem(await api('GET', 'collection/articles/items/art-42'), 404, 'item_not_found');
  });

  it('generated ids stay 24 hexadecimal characters', async () => {
    const { id } = ok(await api('POST', 'collection/articles/items', { title: 'Generated' }), 201) as { id: string };
    expect(id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('answers 404 for a well-formed id that does not exist, 400 for one that is not an id', async () => {
    for (const [method, path] of [
      ['GET', 'collection/articles/items/no-such_item'],
      ['PUT', 'collection/articles/items/no-such_item'],
      ['DELETE', 'collection/articles/items/no-such_item'],
      ['PUT', 'collection/articles/items/no-such_item/field/views?increment=1'],
    ] as const) {
      expectProblem(await api(method, path, method === 'PUT' ? { views: 1 } : undefined), 404);
    }
    for (const bad of ['a%20b', 'a.b', 'y'.repeat(65), '..%2Fx', '%C3%A9t%C3%A9', 'a%2Fb']) {
      expectProblem(await api('GET', `collection/articles/items/${bad}`), 400);
      expectProblem(await set(`collection/articles/items/${bad}`, { title: 'x' }), 400);
      expectProblem(await api('DELETE', `collection/articles/items/${bad}`), 400);
    }
    // Nothing was created by the refused sets.
    const all = ok(await api('GET', 'collection/articles/items?pageNumber=1&perPage=1000')) as { _id: string }[];
    expect(all.some((item) => item._id.length > 64 || /[^A-Za-z0-9_-]/.test(item._id))).toBe(false);
  });

  it('follows nested chains through caller ids, and answers 404 / 400 along them', async () => {
    ok(await set('collection/articles/items/book-1', { title: 'Book' }), 201);
    expect(ok(await set('collection/articles/items/book-1', { heading: 'One' }, 'chapters.ch-1'), 201)).toEqual({ id: 'ch-1' });
    expect(ok(await set('collection/articles/items/book-1', { heading: 'Uno' }, 'chapters.ch-1'))).toEqual({ id: 'ch-1' });
    const { id: posted } = ok(await api('POST', 'collection/articles/items/book-1?nestedID=chapters.ch-1.paragraphs', { text: 'Posted' }), 201) as { id: string };
    expect(posted).toMatch(/^[0-9a-f]{24}$/);
    expect(ok(await set('collection/articles/items/book-1', { text: 'Set' }, 'chapters.ch-1.paragraphs.p_1'), 201)).toEqual({ id: 'p_1' });
    expect(ok(await api('GET', 'collection/articles/items/book-1?pageNumber=1&perPage=100&nestedID=chapters.ch-1'))).toMatchObject({ _id: 'ch-1', heading: 'Uno' });
    const paragraphs = ok(await api('GET', 'collection/articles/items/book-1?pageNumber=1&perPage=100&nestedID=chapters.ch-1.paragraphs')) as { _id: string; text: string }[];
    expect(paragraphs.map((p) => [p._id, p.text])).toEqual([
      [posted, 'Posted'],
      ['p_1', 'Set'],
    ]);
    ok(await api('PUT', 'collection/articles/items/book-1?nestedID=chapters.ch-1.paragraphs.p_1', JSON.stringify({ text: 'Changed' })));
    expect(ok(await api('GET', 'collection/articles/items/book-1?nestedID=chapters.ch-1.paragraphs.p_1'))).toMatchObject({ _id: 'p_1', text: 'Changed' });
    // Well-formed unknown ids along the chain: 404.
    expectProblem(await api('GET', 'collection/articles/items/book-1?nestedID=chapters.ch-2'), 404);
    expectProblem(await api('GET', 'collection/articles/items/book-1?nestedID=chapters.ch-2.paragraphs'), 404);
    expectProblem(await api('PUT', 'collection/articles/items/book-1?nestedID=chapters.ch-1.paragraphs.p_2', { text: 'x' }), 404);
    expectProblem(await api('DELETE', 'collection/articles/items/book-1?nestedID=chapters.ch-1.paragraphs.p_2'), 404);
    // Malformed ones: 400 (an id of 65 characters, an empty step, a character outside the rule).
    expectProblem(await api('GET', `collection/articles/items/book-1?nestedID=chapters.${'c'.repeat(65)}`), 400);
    expectProblem(await set('collection/articles/items/book-1', { heading: 'x' }, `chapters.${'c'.repeat(65)}`), 400);
    expectProblem(await api('GET', 'collection/articles/items/book-1?nestedID=chapters..paragraphs'), 400);
    expectProblem(await api('GET', 'collection/articles/items/book-1?nestedID=chapters.a%20b'), 400);
    // A nested id is unique in its nested collection: taken under another item, a set there is a 409.
    ok(await set('collection/articles/items/book-2', { title: 'Other book' }), 201);
    expectProblem(await set('collection/articles/items/book-2', { heading: 'Taken' }, 'chapters.ch-1'), 409, 'item_id_taken');
    expect(ok(await api('GET', 'collection/articles/items/book-1?nestedID=chapters.ch-1'))).toMatchObject({ heading: 'Uno' });
    ok(await api('DELETE', 'collection/articles/items/book-1?nestedID=chapters.ch-1.paragraphs.p_1'));
    expectProblem(await api('GET', 'collection/articles/items/book-1?nestedID=chapters.ch-1.paragraphs.p_1'), 404);
    ok(await api('DELETE', 'collection/articles/items/book-1?nestedID=chapters.ch-1'));
    expect((await api('GET', 'collection/articles/items/book-1?nestedID=chapters')).headers['item-count']).toBe('0');
  });

  it('links ItemRefs to caller ids (write, append, unset, query, everything), and refuses malformed ones', async () => {
    ok(await set('collection/authors/items/ada', { name: 'Ada' }), 201);
    ok(await set('collection/authors/items/bob_2', { name: 'Bob' }), 201);
    ok(await set('collection/articles/items/linked', { title: 'Linked', author: [{ itemRefID: 'ada' }] }), 201);
    expect(ok(await api('GET', 'collection/articles/items/linked')).author).toEqual([{ itemRefID: 'ada', value: 'Ada' }]);
    ok(await api('PUT', 'collection/articles/items/linked/field/author', { value: 'bob_2' }));
    expect(ok(await api('GET', 'collection/articles/items/linked')).author).toEqual([
      { itemRefID: 'ada', value: 'Ada' },
      { itemRefID: 'bob_2', value: 'Bob' },
    ]);
    const byRef = ok(await api('GET', `collection/articles/items?query=${encodeURIComponent('author.itemRefID:=:bob_2')}`)) as { _id: string }[];
    expect(byRef.map((a) => a._id)).toEqual(['linked']);
    const everything = ok(await api('GET', 'collection/articles/items/linked?everything=true')) as { author: { item: { name: string } }[] };
    expect(everything.author.map((link) => link.item.name)).toEqual(['Ada', 'Bob']);
    ok(await api('DELETE', 'collection/articles/items/linked/field/author', { value: 'ada' }));
    expect(ok(await api('GET', 'collection/articles/items/linked')).author).toEqual([{ itemRefID: 'bob_2', value: 'Bob' }]);
    // The console API writes the same links.
    const viaConsole = await f.call('PUT', 'collection/articles/item/linked', { author: [{ itemRefID: 'ada' }, { itemRefID: 'bob_2' }] });
    expect(viaConsole.statusCode, viaConsole.body).toBe(200);
    expect(json(viaConsole).author.map((l: { value: string }) => l.value)).toEqual(['Ada', 'Bob']);
    // Malformed link ids are refused; a well-formed unknown one too (nothing to link to).
    expectProblem(await api('PUT', 'collection/articles/items/linked', { author: [{ itemRefID: 'a b' }] }), 400);
    expectProblem(await api('PUT', 'collection/articles/items/linked/field/author', { value: 'a.b' }), 400);
    expectProblem(await api('PUT', 'collection/articles/items/linked', { author: [{ itemRefID: 'nobody' }] }), 400);
  });

  it('the console API opens, edits, moves, exports and deletes items with caller ids', async () => {
    ok(await set('collection/articles/items/console-1', { title: 'Console' }), 201);
    ok(await set('collection/articles/items/console-1', { heading: 'Part' }, 'chapters.part-1'), 201);
    const opened = await f.call('GET', 'collection/articles/item/console-1');
    expect(opened.statusCode, opened.body).toBe(200);
    expect(json(opened)).toMatchObject({ _id: 'console-1', title: 'Console' });
    const edited = await f.call('PUT', 'collection/articles/item/console-1', { title: 'Edited' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(json(edited).title).toBe('Edited');
    const nested = await f.call('GET', 'collection/articles/item/console-1?nestedID=chapters.part-1');
    expect(json(nested)).toMatchObject({ _id: 'part-1', heading: 'Part' });
    const moved = await f.call('PUT', 'collection/articles/item/console-1/sort?order=1');
    expect(moved.statusCode, moved.body).toBe(200);
    const users = await f.call('GET', 'collection/articles/item/console-1/bagelUsers');
    expect(users.statusCode, users.body).toBe(200);
    const csv = await f.call('GET', 'collection/articles/csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.split('\n').some((line) => line.startsWith('console-1,Edited'))).toBe(true);
    const nestedCsv = await f.call('GET', 'collection/articles/item/console-1/csv?nestedID=chapters');
    expect(nestedCsv.statusCode, nestedCsv.body).toBe(200);
    expect(nestedCsv.body).toContain('part-1,Part');
    expectProblem(await f.call('GET', 'collection/articles/item/no-such-item'), 404);
    expectProblem(await f.call('GET', 'collection/articles/item/a.b'), 400);
    expectProblem(await f.call('GET', `collection/articles/item/${'q'.repeat(65)}`), 400);
    const removed = await f.call('DELETE', 'collection/articles/item/console-1');
    expect(removed.statusCode, removed.body).toBe(204);
    expectProblem(await f.call('GET', 'collection/articles/item/console-1'), 404);
  });

  it('two sets at one new id at the same time make one item', async () => {
    for (let round = 0; round < 5; round++) {
      const id = `race-${round}`;
      const answers = await Promise.all([set(`collection/articles/items/${id}`, { title: 'first', views: 1 }), set(`collection/articles/items/${id}`, { title: 'second', views: 2 })]);
      expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join(' ')).toEqual([200, 201]);
      const all = ok(await api('GET', 'collection/articles/items?pageNumber=1&perPage=1000')) as { _id: string; title: string }[];
      const found = all.filter((item) => item._id === id);
      expect(found).toHaveLength(1);
      expect(['first', 'second']).toContain(found[0]!.title);
    }
    // The same at a new nested id.
    ok(await set('collection/articles/items/race-0', { title: 'parent' }));
    const nested = await Promise.all([set('collection/articles/items/race-0', { heading: 'a' }, 'chapters.n-1'), set('collection/articles/items/race-0', { heading: 'b' }, 'chapters.n-1')]);
    expect(nested.map((a) => a.statusCode).sort(), nested.map((a) => a.body).join(' ')).toEqual([200, 201]);
    expect((await api('GET', 'collection/articles/items/race-0?nestedID=chapters')).headers['item-count']).toBe('1');
  });
});
