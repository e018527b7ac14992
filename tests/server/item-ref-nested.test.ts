/**
 * ItemRef nested picks: a field with
 * `nestedReferenceCollectionID` stores, under each link, items of those nested collections of the
 * linked item. The server accepts only the slugs the field lists, checks every picked id is an item
 * of that nested collection of that very linked item, fills in display values, and refuses
 * anything else with a 400 naming the field, changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('ItemRef nested picks on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  type Ref = { _id: string };
  let ada: Ref;
  let grace: Ref;
  /** Ada's chapters and notes, Grace's chapter. */
  let engines: Ref;
  let early: Ref;
  let adaNote: Ref;
  let compilers: Ref;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'authors',
      name: 'Authors',
      schema: [
        { name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true },
        { name: 'Chapters', slug: 'chapters', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: code('PlainText'), primaryField: true }] },
        { name: 'Notes', slug: 'notes', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: code('PlainText') }] },
        { name: 'Drafts', slug: 'drafts', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: code('PlainText') }] },
      ],
    });
    ada = await createItem(f, 'authors', { name: 'Ada Lovelace' });
    grace = await createItem(f, 'authors', { name: 'Grace Hopper' });
    engines = await createItem(f, 'authors', { heading: 'Engines' }, { item: ada._id, nestedID: 'chapters' });
    early = await createItem(f, 'authors', { heading: 'Early years' }, { item: ada._id, nestedID: 'chapters' });
    adaNote = await createItem(f, 'authors', { text: 'A note' }, { item: ada._id, nestedID: 'notes' });
    compilers = await createItem(f, 'authors', { heading: 'Compilers' }, { item: grace._id, nestedID: 'chapters' });
    await createCollection(f, {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        // Picks chapters and notes of the linked authors; not drafts.
        { name: 'Author', slug: 'author', type: code('ItemRef'), referenceCollectionID: 'authors', nestedReferenceCollectionID: ['chapters', 'notes'] },
        { name: 'Editor', slug: 'editor', type: code('ItemRef'), referenceCollectionID: 'authors' },
      ],
    });
  });
  afterAll(() => t.close());

  it('creates and updates with nested picks, storing each pick with its display value', async () => {
    const created = await createItem(f, 'books', {
      title: 'Notes on the engine',
      author: [
        { itemRefID: ada._id, chapters: [{ itemRefID: engines._id, value: 'what the client says' }, { itemRefID: early._id }], notes: [{ itemRefID: adaNote._id }] },
        { itemRefID: grace._id, chapters: [{ itemRefID: compilers._id }] },
      ],
    });
    expect(created.author).toEqual([
      {
        itemRefID: ada._id,
        value: 'Ada Lovelace',
        chapters: [
          { itemRefID: engines._id, value: 'Engines' },
          { itemRefID: early._id, value: 'Early years' },
        ],
        // Notes have no primary field: a pick is named by its id.
        notes: [{ itemRefID: adaNote._id, value: adaNote._id }],
      },
      { itemRefID: grace._id, value: 'Grace Hopper', chapters: [{ itemRefID: compilers._id, value: 'Compilers' }] },
    ]);
    const id = created._id as string;

    const updated = await f.call('PUT', `collection/books/item/${id}`, { author: [{ itemRefID: ada._id, chapters: [{ itemRefID: early._id }], notes: [] }] });
    expect(updated.statusCode, updated.body).toBe(200);
    // An empty pick is not kept.
    expect(json(updated).author).toEqual([{ itemRefID: ada._id, value: 'Ada Lovelace', chapters: [{ itemRefID: early._id, value: 'Early years' }] }]);
    const read = await f.call('GET', `collection/books/item/${id}`);
    expect(json(read).author).toEqual(json(updated).author);
  });

  describe('refusals', () => {
    let book: string;
    let before: unknown;

    beforeAll(async () => {
      const created = await createItem(f, 'books', { title: 'Kept', author: [{ itemRefID: ada._id, chapters: [{ itemRefID: engines._id }] }] });
      book = created._id as string;
      before = created.author;
    });

    const refusals: [string, () => unknown, RegExp][] = [
      ['a slug the field does not list', () => [{ itemRefID: ada._id, drafts: [{ itemRefID: engines._id }] }], /nested collections this field picks from \(chapters, notes\), not "drafts"/],
      ['a nested id of another linked item', () => [{ itemRefID: ada._id, chapters: [{ itemRefID: compilers._id }] }], new RegExp(`belongs to item ${'[0-9a-f]{24}'}, not to the linked item`)],
      ['a nested id that does not exist', () => [{ itemRefID: ada._id, chapters: [{ itemRefID: 'e'.repeat(24) }] }], /is not in nested collection "chapters" of collection "authors"/],
      ['an item of another nested collection of the same item', () => [{ itemRefID: ada._id, chapters: [{ itemRefID: adaNote._id }] }], /is not in nested collection "chapters"/],
      ['picks that are not a list', () => [{ itemRefID: ada._id, chapters: { itemRefID: engines._id } }], /"chapters" items picked in item [0-9a-f]{24} must be a list/],
      ['a pick that is not an item id', () => [{ itemRefID: ada._id, chapters: [{ itemRefID: 'no.pe' }] }], /"no.pe" is not an item id/],
      ['a pick named twice', () => [{ itemRefID: ada._id, chapters: [{ itemRefID: engines._id }, { itemRefID: engines._id }] }], /name item [0-9a-f]{24} twice/],
      ['a pick with extra keys', () => [{ itemRefID: ada._id, chapters: [{ itemRefID: engines._id, heading: 'x' }] }], /hold only itemRefID \(and value\)/],
    ];

    it.each(refusals)('refuses %s on create and on update, naming the field', async (_name, value, message) => {
      const create = await f.call('POST', 'collection/books/item', { title: 'Refused', author: value() });
      const [createError] = expectInvalid(create, ['author']);
      expect(createError!.message).toMatch(message);
      const update = await f.call('PUT', `collection/books/item/${book}`, { author: value() });
      const [updateError] = expectInvalid(update, ['author']);
      expect(updateError!.message).toMatch(message);
      expect(json(await f.call('GET', `collection/books/item/${book}`)).author).toEqual(before);
    });

    it('refuses nested picks on a field that lists no nested collections', async () => {
      const [error] = expectInvalid(await f.call('POST', 'collection/books/item', { title: 'Refused', editor: [{ itemRefID: ada._id, chapters: [{ itemRefID: engines._id }] }] }), ['editor']);
      expect(error!.message).toBe('entries hold only itemRefID (and value)');
    });

    it('refuses a value that is not a list', async () => {
      const [error] = expectInvalid(await f.call('PUT', `collection/books/item/${book}`, { author: { itemRefID: ada._id, chapters: [] } }), ['author']);
      expect(error!.message).toBe('must be a list of {"itemRefID": "…"}');
      expect(json(await f.call('GET', `collection/books/item/${book}`)).author).toEqual(before);
    });

    it('refuses a pick from a nested collection the referenced collection no longer has', async () => {
      const schema = json(await f.call('GET', 'collection/authors')).schema as Record<string, unknown>[];
      const notes = schema.find((field) => field.slug === 'notes')!;
      const removed = await f.call('DELETE', `collection/authors/field/${String(notes.id)}`);
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      const [error] = expectInvalid(await f.call('POST', 'collection/books/item', { title: 'Refused', author: [{ itemRefID: ada._id, notes: [{ itemRefID: adaNote._id }] }] }), ['author']);
      expect(error!.message).toBe('picks items of nested collection "notes", which collection "authors" does not have');
    });
  });
});
