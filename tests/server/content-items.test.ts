/**
 * Items through the API: every value checked by its
 * field type, server-owned keys, optimistic concurrency, lists with counts, nested items three
 * levels deep, and bad input answered 400 naming the field with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { sql } from 'drizzle-orm';
import { contentFixture, contentTables, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('content items on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let authors: Record<string, { _id: string }>;

  /** A collection holding one field of every type, referring to `authors`. */
  const everything = 'everything';

  async function listAll(collection: string) {
    const response = await f.call('GET', `collection/${collection}/item?perPage=1000`);
    expect(response.statusCode, response.body).toBe(200);
    return { items: json(response) as Record<string, unknown>[], count: Number(response.headers['item-count']) };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'authors',
      name: 'Authors',
      schema: [
        { name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true },
        { name: 'Age', slug: 'age', type: code('Number') },
      ],
    });
    authors = {
      ada: await createItem(f, 'authors', { name: 'Ada Lovelace', age: 36 }),
      grace: await createItem(f, 'authors', { name: 'Grace Hopper' }),
    };
    await createCollection(f, {
      id: everything,
      name: 'Everything',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), required: true, max: 20 },
        { name: 'Body', slug: 'body', type: code('RichText') },
        { name: 'Price', slug: 'price', type: code('Number') },
        { name: 'Phone', slug: 'phone', type: code('Phone') },
        { name: 'Cover', slug: 'cover', type: code('ImageRef') },
        { name: 'Authors', slug: 'authors', type: code('ItemRef'), referenceCollectionID: 'authors' },
        { name: 'Size', slug: 'size', type: code('Option'), options: [{ _id: 's', value: 'Small' }, { _id: 'l', value: 'Large' }] },
        { name: 'Live', slug: 'live', type: code('Bool'), required: true, defaultValue: false },
        { name: 'Site', slug: 'site', type: code('Link') },
        { name: 'When', slug: 'when', type: code('Date') },
        { name: 'Gallery', slug: 'gallery', type: code('ImageRefSet') },
        { name: 'Place', slug: 'place', type: code('GeoPoint') },
        { name: 'Extra', slug: 'extra', type: code('JSON') },
        { name: 'Parts', slug: 'parts', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Label', slug: 'label', type: code('PlainText') }] },
      ],
    });
  });
  afterAll(() => t.close());

  it('stores a value of every type and reads it back in its wire shape', async () => {
    const created = await f.call('POST', `collection/${everything}/item`, {
      title: 'Hello',
      body: '<p>Hi</p>',
      price: 12.5,
      phone: '+1 (555) 010-2030',
      cover: { imageURL: 'https://cdn.example/a.png', altText: 'A' },
      authors: [{ itemRefID: authors.ada!._id }, { itemRefID: authors.grace!._id, value: 'whatever the client says' }],
      size: { _id: 'l' },
      site: 'https://example.com',
      when: '2024-05-01T11:30:00+02:00',
      gallery: [{ imageURL: 'https://cdn.example/1.png' }, { imageURL: 'https://cdn.example/2.png' }],
      place: { lat: 48.8584, lng: 2.2945 },
      extra: { tags: ['a', 'b'], n: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const item = json(created);
    expect(created.headers.etag).toBe(`"${item._lastUpdatedDate}"`);
    expect(item).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _createdDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      _lastUpdatedDate: item._createdDate,
      _order: expect.any(Number),
      _rank: expect.any(String),
      title: 'Hello',
      body: '<p>Hi</p>',
      price: 12.5,
      phone: '15550102030',
      cover: { imageURL: 'https://cdn.example/a.png', altText: 'A' },
      authors: [
        { itemRefID: authors.ada!._id, value: 'Ada Lovelace' },
        { itemRefID: authors.grace!._id, value: 'Grace Hopper' },
      ],
      size: { _id: 'l', value: 'Large' },
      live: false,
      site: 'https://example.com',
      when: '2024-05-01T09:30:00.000Z',
      gallery: [{ imageURL: 'https://cdn.example/1.png' }, { imageURL: 'https://cdn.example/2.png' }],
      place: { lat: 48.8584, lng: 2.2945 },
      extra: { tags: ['a', 'b'], n: 1 },
    });
    const read = await f.call('GET', `collection/${everything}/item/${item._id}`);
    expect(json(read)).toEqual(item);
    expect(read.headers.etag).toBe(`"${item._lastUpdatedDate}"`);
  });

  it('ignores the server’s keys in a body and keeps its own', async () => {
    const item = await createItem(f, everything, {
      title: 'Keys',
      _id: 'f'.repeat(24),
      _createdDate: '2000-01-01T00:00:00Z',
      _order: -5,
      _rank: '!!',
    });
    expect(item._id).not.toBe('f'.repeat(24));
    expect(item._createdDate).not.toBe('2000-01-01T00:00:00.000Z');
    expect(item._rank).not.toBe('!!');
    expect((await f.call('GET', `collection/${everything}/item/${'f'.repeat(24)}`)).statusCode).toBe(404);
  });

  it('refuses unknown fields, wrong value types and values out of range, naming each field; nothing is written', async () => {
    const before = await listAll(everything);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ title: 'x', colour: 'red' }, ['colour']],
      [{ title: 5 }, ['title']],
      [{ title: 'x'.repeat(21) }, ['title']],
      [{ title: 'x', price: '12' }, ['price']],
      [{ title: 'x', phone: 'none' }, ['phone']],
      [{ title: 'x', cover: 'https://x/a.png' }, ['cover']],
      [{ title: 'x', cover: { imageURL: 'a', script: 'b' } }, ['cover']],
      [{ title: 'x', authors: { itemRefID: authors.ada!._id } }, ['authors']],
      [{ title: 'x', authors: [{ itemRefID: 'c'.repeat(24) }] }, ['authors']],
      [{ title: 'x', size: 'l' }, ['size']],
      [{ title: 'x', size: { _id: 'xl' } }, ['size']],
      [{ title: 'x', live: 'yes' }, ['live']],
      [{ title: 'x', site: `https://example.com/${'a'.repeat(240)}` }, ['site']],
      [{ title: 'x', site: 'javascript:alert(1)' }, ['site']],
      [{ title: 'x', when: '2024-02-30' }, ['when']],
      [{ title: 'x', when: 1714550400 }, ['when']],
      [{ title: 'x', gallery: [{ imageURL: 'a' }, 'b'] }, ['gallery']],
      [{ title: 'x', place: { lat: 91, lng: 0 } }, ['place']],
      [{ title: 'x', place: { lat: 1 } }, ['place']],
      [{ title: 'x', extra: { bad: 'a\u0000b' } }, ['extra']],
      [{ title: 'x', parts: [{ label: 'inline' }] }, ['parts']],
      [{ title: 'x', _metadata: {} }, ['_metadata']],
      [{ price: 'a', colour: 1 }, ['price', 'colour', 'title']],
    ];
    for (const [body, paths] of cases) {
      const errors = expectInvalid(await f.call('POST', `collection/${everything}/item`, body), paths);
      expect(errors.every((e) => e.message.length > 0)).toBe(true);
    }
    expectInvalid(await f.call('POST', `collection/${everything}/item`, [1, 2]), ['']);
    expect(await listAll(everything)).toEqual(before);
  });

  it('needs every required field but Bool, and says which by name', async () => {
    const missing = expectInvalid(await f.call('POST', `collection/${everything}/item`, { price: 1 }), ['title']);
    expect(missing[0]!.message).toBe('Title is a required field');
    expectInvalid(await f.call('POST', `collection/${everything}/item`, { title: '' }), ['title']);
    expectInvalid(await f.call('POST', `collection/${everything}/item`, { title: null }), ['title']);
    // `live` is a required Bool: never missing, and its default fills in.
    const made = await createItem(f, everything, { title: 'Bool', live: null });
    expect(made.live).toBeUndefined();
    expect((await createItem(f, everything, { title: 'Default' })).live).toBe(false);
    // A partial update need not repeat required fields, but may not empty them.
    expect((await f.call('PUT', `collection/${everything}/item/${made._id}`, { price: 3 })).statusCode).toBe(200);
    expectInvalid(await f.call('PUT', `collection/${everything}/item/${made._id}`, { title: '' }), ['title']);
  });

  it('gives each refused value its refusal code and values beside the words', async () => {
    const errors = expectInvalid(await f.call('POST', `collection/${everything}/item`, { price: 'a', colour: 1, cover: { imageURL: 5 }, title: 'x'.repeat(21) }), ['price', 'colour', 'cover', 'title']);
    expect(Object.fromEntries(errors.map((e) => [e.path, e]))).toEqual({
      price: { path: 'price', message: 'must be a number', code: 'notNumber' },
      colour: { path: 'colour', message: `is not a field of collection "${everything}"`, code: 'notAField', params: { collection: everything } },
      cover: { path: 'cover', message: 'imageURL must be text', code: 'notText', params: { member: 'imageURL' } },
      title: { path: 'title', message: 'must be at most 20 characters', code: 'tooLong', params: { max: 20 } },
    });
    const missing = expectInvalid(await f.call('POST', `collection/${everything}/item`, { price: 1 }), ['title']);
    expect(missing[0]).toEqual({ path: 'title', message: 'Title is a required field', code: 'required', params: { field: 'Title' } });
  });

  it('updates only the given fields, clears a field with null, and answers 404 for unknown items', async () => {
    const item = await createItem(f, everything, { title: 'Partial', price: 1, site: 'https://a.example' });
    const updated = await f.call('PUT', `collection/${everything}/item/${item._id}`, { price: 2, site: null });
    expect(updated.statusCode, updated.body).toBe(200);
    const body = json(updated);
    expect(body).toMatchObject({ _id: item._id, title: 'Partial', price: 2, _createdDate: item._createdDate });
    expect(body.site).toBeUndefined();
    expect(body._lastUpdatedDate > item._lastUpdatedDate).toBe(true);
    expect(json(await f.call('GET', `collection/${everything}/item/${item._id}`))).toEqual(body);
    expectProblem(await f.call('PUT', `collection/${everything}/item/${'0'.repeat(24)}`, { price: 1 }), 404, 'item_not_found');
    expectProblem(await f.call('PUT', `collection/nothing/item/${item._id}`, { price: 1 }), 404, 'collection_not_found');
  });

  it('refuses a stale write with 409 and the current item; without a version the last writer wins', async () => {
    const item = await createItem(f, everything, { title: 'Versioned', price: 1 });
    const first = await f.call('PUT', `collection/${everything}/item/${item._id}`, { price: 2 }, { headers: { 'if-match': `"${item._lastUpdatedDate}"` } });
    expect(first.statusCode, first.body).toBe(200);
    const current = json(first);

    const stale = await f.call('PUT', `collection/${everything}/item/${item._id}`, { price: 3 }, { headers: { 'if-match': `"${item._lastUpdatedDate}"` } });
    const problem = expectProblem(stale, 409, 'stale_item') as unknown as { item: Record<string, unknown> };
    expect(problem.item).toEqual(current);
    const staleBody = await f.call('PUT', `collection/${everything}/item/${item._id}`, { price: 4, _lastUpdatedDate: item._lastUpdatedDate });
    expect((expectProblem(staleBody, 409, 'stale_item') as unknown as { item: Record<string, unknown> }).item.price).toBe(2);
    expect(json(await f.call('GET', `collection/${everything}/item/${item._id}`)).price).toBe(2);

    // The current version passes, as header or as the item's own key sent back.
    const echoed = await f.call('PUT', `collection/${everything}/item/${item._id}`, { ...current, price: 5 });
    expect(echoed.statusCode, echoed.body).toBe(200);
    const blind = await f.call('PUT', `collection/${everything}/item/${item._id}`, { price: 6 });
    expect(json(blind).price).toBe(6);
    expectInvalid(await f.call('PUT', `collection/${everything}/item/${item._id}`, { price: 7 }, { headers: { 'if-match': 'yesterday' } }), ['If-Match']);

    const staleDelete = await f.call('DELETE', `collection/${everything}/item/${item._id}`, undefined, { headers: { 'if-match': `"${current._lastUpdatedDate}"` } });
    expectProblem(staleDelete, 409, 'stale_item');
    expect((await f.call('GET', `collection/${everything}/item/${item._id}`)).statusCode).toBe(200);
  });

  it('gives concurrent writes distinct, increasing versions', async () => {
    const item = await createItem(f, everything, { title: 'Race', price: 0 });
    const results = await Promise.all(
      [1, 2, 3, 4].map((price) => f.call('PUT', `collection/${everything}/item/${item._id}`, { price }, { headers: { 'if-match': `"${item._lastUpdatedDate}"` } })),
    );
    // Exactly one writer based on the original version wins; the others learn it changed.
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
  });

  it('enforces unique values per collection and answers 400 naming the field', async () => {
    await createCollection(f, { id: 'codes', name: 'Codes', schema: [{ name: 'Code', slug: 'code', type: code('PlainText'), unique: true }] });
    await createItem(f, 'codes', { code: 'A1' });
    const other = await createItem(f, 'codes', { code: 'B2' });
    expectInvalid(await f.call('POST', 'collection/codes/item', { code: 'A1' }), ['code']);
    expectInvalid(await f.call('PUT', `collection/codes/item/${other._id}`, { code: 'A1' }), ['code']);
    // Unset values never collide.
    await createItem(f, 'codes', {});
    await createItem(f, 'codes', {});
    expect((await listAll('codes')).count).toBe(4);
  });

  it('lists items in rank order with pages and the item-count header, and deletes them', async () => {
    await createCollection(f, { id: 'numbers', name: 'Numbers', schema: [{ name: 'N', slug: 'n', type: code('Number') }] });
    const made = [];
    for (let n = 1; n <= 7; n += 1) made.push(await createItem(f, 'numbers', { n }));
    const ranks = made.map((item) => item._rank as string);
    expect([...ranks].sort()).toEqual(ranks);
    const page2 = await f.call('GET', 'collection/numbers/item?pageNumber=2&perPage=3');
    expect(page2.headers['item-count']).toBe('7');
    expect(json(page2).map((item: { n: number }) => item.n)).toEqual([4, 5, 6]);
    const countOnly = await f.call('GET', 'collection/numbers/item?pageNumber=1&perPage=0');
    expect(json(countOnly)).toEqual([]);
    expect(countOnly.headers['item-count']).toBe('7');
    expectInvalid(await f.call('GET', 'collection/numbers/item?perPage=abc'), ['querystring.perPage']);
    expectInvalid(await f.call('GET', 'collection/numbers/item?pageNumber=0'), ['querystring.pageNumber']);

    expect((await f.call('DELETE', `collection/numbers/item/${made[0]!._id}`)).statusCode).toBe(204);
    expectProblem(await f.call('DELETE', `collection/numbers/item/${made[0]!._id}`), 404, 'item_not_found');
    expectProblem(await f.call('GET', `collection/numbers/item/${made[0]!._id}`), 404, 'item_not_found');
    const after = await listAll('numbers');
    expect(after.count).toBe(6);
    expect(after.items.map((item) => item.n)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(json(await f.call('GET', 'collection/numbers')).itemCount).toBe(6);
  });

  it('fills ItemRef display values from the linked item’s primary field, or its id without one', async () => {
    await createCollection(f, { id: 'tags', name: 'Tags', schema: [{ name: 'Label', slug: 'label', type: code('PlainText') }] });
    const tag = await createItem(f, 'tags', { label: 'no primary here' });
    await createCollection(f, { id: 'posts', name: 'Posts', schema: [{ name: 'Tags', slug: 'tags', type: code('ItemRef'), referenceCollectionID: 'tags' }] });
    const post = await createItem(f, 'posts', { tags: [{ itemRefID: tag._id }] });
    expect(post.tags).toEqual([{ itemRefID: tag._id, value: tag._id }]);
    // An item of another collection is not a tag.
    expectInvalid(await f.call('POST', 'collection/posts/item', { tags: [{ itemRefID: authors.ada!._id }] }), ['tags']);
  });

  it('refuses an item larger than the limit, naming its largest field', async () => {
    await createCollection(f, {
      id: 'big',
      name: 'Big',
      schema: [
        { name: 'A', slug: 'a', type: code('RichText') },
        { name: 'B', slug: 'b', type: code('RichText') },
        { name: 'C', slug: 'c', type: code('RichText') },
      ],
    });
    const chunk = (n: number) => 'x'.repeat(n);
    expectInvalid(await f.call('POST', 'collection/big/item', { a: chunk(400_000), b: chunk(450_000), c: chunk(300_000) }), ['b']);
    expectInvalid(await f.call('POST', 'collection/big/item', { a: chunk(500_001) }), ['a']);
    expect((await listAll('big')).count).toBe(0);
    const tooLarge = await f.call('POST', 'collection/big/item', { a: chunk(2_100_000) });
    expectProblem(tooLarge, 413);
  });

  describe('nested items', () => {
    let chapter: { _id: string };
    let book: { _id: string };

    beforeAll(async () => {
      await createCollection(f, {
        id: 'books',
        name: 'Books',
        schema: [
          { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
          {
            name: 'Chapters',
            slug: 'chapters',
            type: code('NestedCollection'),
            nestedCollectionSchema: [
              { name: 'Heading', slug: 'heading', type: code('PlainText'), required: true },
              {
                name: 'Paragraphs',
                slug: 'paragraphs',
                type: code('NestedCollection'),
                nestedCollectionSchema: [
                  { name: 'Text', slug: 'text', type: code('RichText') },
                  { name: 'Notes', slug: 'notes', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Note', slug: 'note', type: code('PlainText'), unique: true }] },
                ],
              },
            ],
          },
        ],
      });
      book = await createItem(f, 'books', { title: 'Dune' });
      chapter = await createItem(f, 'books', { heading: 'One' }, { item: book._id, nestedID: 'chapters' });
    });

    it('writes, reads, lists, updates and deletes items three levels deep', async () => {
      const paragraph = await createItem(f, 'books', { text: '<p>First</p>' }, { item: book._id, nestedID: `chapters.${chapter._id}.paragraphs` });
      const note = await createItem(f, 'books', { note: 'remember' }, { item: book._id, nestedID: `chapters.${chapter._id}.paragraphs.${paragraph._id}.notes` });
      const notePath = `chapters.${chapter._id}.paragraphs.${paragraph._id}.notes.${note._id}`;
      const read = await f.call('GET', `collection/books/item/${book._id}?nestedID=${notePath}`);
      expect(read.statusCode, read.body).toBe(200);
      expect(json(read)).toMatchObject({ _id: note._id, note: 'remember' });

      const list = await f.call('GET', `collection/books/item/${book._id}?nestedID=chapters.${chapter._id}.paragraphs.${paragraph._id}.notes`);
      expect(list.headers['item-count']).toBe('1');
      expect(json(list).map((n: { _id: string }) => n._id)).toEqual([note._id]);

      const changed = await f.call('PUT', `collection/books/item/${book._id}?nestedID=${notePath}`, { note: 'forget' }, { headers: { 'if-match': `"${note._lastUpdatedDate}"` } });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(json(changed).note).toBe('forget');
      expectProblem(await f.call('PUT', `collection/books/item/${book._id}?nestedID=${notePath}`, { note: 'late' }, { headers: { 'if-match': `"${note._lastUpdatedDate}"` } }), 409, 'stale_item');
      expectInvalid(await f.call('PUT', `collection/books/item/${book._id}?nestedID=${notePath}`, { text: 'wrong level' }), ['text']);

      // Uniqueness holds within one parent's list, not across parents.
      expectInvalid(await f.call('POST', `collection/books/item/${book._id}?nestedID=chapters.${chapter._id}.paragraphs.${paragraph._id}.notes`, { note: 'forget' }), ['note']);
      const other = await createItem(f, 'books', { text: 'second' }, { item: book._id, nestedID: `chapters.${chapter._id}.paragraphs` });
      await createItem(f, 'books', { note: 'forget' }, { item: book._id, nestedID: `chapters.${chapter._id}.paragraphs.${other._id}.notes` });

      expect((await f.call('DELETE', `collection/books/item/${book._id}?nestedID=${notePath}`)).statusCode).toBe(204);
      expectProblem(await f.call('GET', `collection/books/item/${book._id}?nestedID=${notePath}`), 404, 'item_not_found');
      // Nested items never count as the collection's items.
      expect(json(await f.call('GET', 'collection/books')).itemCount).toBe(1);
    });

    it('checks every step of the chain: slugs, ids and that each item belongs to the one before', async () => {
      const second = await createItem(f, 'books', { title: 'Emma' });
      // The chapter is Dune's: reaching it through Emma is not found.
      expectProblem(await f.call('GET', `collection/books/item/${second._id}?nestedID=chapters.${chapter._id}`), 404, 'item_not_found');
      expectProblem(await f.call('POST', `collection/books/item/${second._id}?nestedID=chapters.${chapter._id}.paragraphs`, { text: 'x' }), 404, 'item_not_found');
      expectProblem(await f.call('GET', `collection/books/item/${book._id}?nestedID=verses`), 404, 'nested_collection_not_found');
      expectProblem(await f.call('GET', `collection/books/item/${book._id}?nestedID=title`), 404, 'nested_collection_not_found');
      expectProblem(await f.call('GET', `collection/books/item/${'0'.repeat(24)}?nestedID=chapters`), 404, 'item_not_found');
      expectInvalid(await f.call('GET', `collection/books/item/${book._id}?nestedID=chapters..x`), ['nestedID']);
      expectInvalid(await f.call('POST', `collection/books/item/${book._id}?nestedID=chapters.${chapter._id}`, { heading: 'x' }), ['nestedID']);
      expectInvalid(await f.call('PUT', `collection/books/item/${book._id}?nestedID=chapters`, { heading: 'x' }), ['nestedID']);
      expectInvalid(await f.call('POST', `collection/books/item/${book._id}?nestedID=chapters`, { title: 'wrong level' }), ['title', 'heading']);
      expectProblem(await f.call('POST', `collection/books/item/${book._id}`, { heading: 'x' }), 400);
    });

    it('deleting an item deletes everything nested in it', async () => {
      const doomed = await createItem(f, 'books', { title: 'Doomed' });
      const c = await createItem(f, 'books', { heading: 'C' }, { item: doomed._id, nestedID: 'chapters' });
      const p = await createItem(f, 'books', { text: 'P' }, { item: doomed._id, nestedID: `chapters.${c._id}.paragraphs` });
      await createItem(f, 'books', { note: 'N' }, { item: doomed._id, nestedID: `chapters.${c._id}.paragraphs.${p._id}.notes` });
      expect((await f.call('DELETE', `collection/books/item/${doomed._id}`)).statusCode).toBe(204);
      // Every table of the project is searched for the nested items by id.
      let leftovers = 0;
      for (const table of await contentTables(t)) {
        const found = (await t.database.db.execute(sql`select count(*)::integer as n from ${sql.identifier(table)} where _id in (${c._id}, ${p._id})`)) as unknown as {
          rows: { n: number }[];
        };
        leftovers += found.rows[0]!.n;
      }
      expect(leftovers).toBe(0);
    });
  });
});
