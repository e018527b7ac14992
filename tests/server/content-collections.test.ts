/**
 * Collections, schemas and fields through the API: ids, reserved names,
 * every field rule, nested schemas, ordering, deletion of fields and collections with their data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataField } from '../../definitions/content.ts';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { addField, contentFixture, contentTables, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';

const type = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const T = {
  text: type('PlainText'),
  rich: type('RichText'),
  number: type('Number'),
  phone: type('Phone'),
  image: type('ImageRef'),
  ref: type('ItemRef'),
  option: type('Option'),
  bool: type('Bool'),
  link: type('Link'),
  date: type('Date'),
  images: type('ImageRefSet'),
  nested: type('NestedCollection'),
  geo: type('GeoPoint'),
  json: type('JSON'),
};

describe.each(databaseKinds)('content collections on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let n = 0;
  const uniqueId = (prefix = 'c') => `${prefix}${++n}`;

  /** Everything a refused call could have changed: the collection, its schema and the tables. */
  async function state(collection: string) {
    return { collection: json(await f.call('GET', `collection/${collection}`)), tables: await contentTables(t) };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
  });
  afterAll(() => t.close());

  describe('collections', () => {
    it('creates a collection with the metadata entry in its schema and lists it, in the project view too', async () => {
      const created = await createCollection(f, { id: 'articles', name: 'Articles' });
      expect(created).toMatchObject({ id: 'articles', name: 'Articles', singleItem: false, rtlDirection: false, itemCount: 0 });
      expect(created.schema).toEqual([metadataField]);
      const list = json(await f.call('GET', 'collection'));
      expect(list.map((c: { id: string }) => c.id)).toContain('articles');
      const project = json(await t.app.inject({ method: 'GET', url: `/api/organization/${f.org}/project/${f.project}`, headers: { authorization: `Bearer ${f.access}` } }));
      expect(project.collections).toContainEqual({ id: 'articles', name: 'Articles', schema: [metadataField], singleItem: false, rtlDirection: false });
    });

    it('derives the id from the name when none is given (camelCase, first letter lowercase)', async () => {
      const created = await createCollection(f, { name: 'Blog posts 2024!' });
      expect(created.id).toBe('blogPosts2024');
    });

    it('refuses a second collection with the same id: 409 CollectionID already exists, nothing changed', async () => {
      await createCollection(f, { id: 'dupe', name: 'First', rtlDirection: true });
      const before = await state('dupe');
      const again = await f.call('POST', 'collection', { id: 'dupe', name: 'Second' });
      expect(expectProblem(again, 409, 'collection_exists').detail).toBe('CollectionID already exists');
      expect(await state('dupe')).toEqual(before);
    });

    it('allows the same id in another project', async () => {
      await createCollection(f, { id: 'shared', name: 'Shared' });
      const other = await f.otherProject();
      expect((await other.call('POST', 'collection', { id: 'shared', name: 'Shared' })).statusCode).toBe(201);
    });

    it('refuses bad ids, the reserved id new and a missing name, naming the field', async () => {
      const tables = await contentTables(t);
      for (const id of ['new', 'my posts', 'Posts', 'a.b', 'ü', '', 'x'.repeat(65)]) {
        expectInvalid(await f.call('POST', 'collection', { id, name: 'X' }), ['id']);
      }
      expectInvalid(await f.call('POST', 'collection', { id: 'okay', name: '   ' }), ['name']);
      expectInvalid(await f.call('POST', 'collection', { id: 'okay' }), ['name']);
      expectInvalid(await f.call('POST', 'collection', { id: 'okay', name: 'X', colour: 'red' }), ['colour']);
      expectInvalid(await f.call('POST', 'collection', { id: 5, name: 'X' }), ['id']);
      expect(await contentTables(t)).toEqual(tables);
      expect((await f.call('GET', 'collection/okay')).statusCode).toBe(404);
    });

    it('renames, switches direction and type with PUT', async () => {
      await createCollection(f, { id: 'settings', name: 'Settings' });
      const changed = await f.call('PUT', 'collection/settings', { name: 'Site settings', rtlDirection: true, singleItem: true });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(json(changed)).toMatchObject({ id: 'settings', name: 'Site settings', rtlDirection: true, singleItem: true });
      expectInvalid(await f.call('PUT', 'collection/settings', {}), ['']);
      expectInvalid(await f.call('PUT', 'collection/settings', { id: 'other' }), ['id']);
      expect((await f.call('PUT', 'collection/nothing', { name: 'X' })).statusCode).toBe(404);
    });

    it('refuses single-item conversion while more than one item exists, and allows it with one', async () => {
      await createCollection(f, { id: 'pages', name: 'Pages', schema: [{ name: 'Title', slug: 'title', type: T.text }] });
      const first = await createItem(f, 'pages', { title: 'One' });
      await createItem(f, 'pages', { title: 'Two' });
      const refused = await f.call('PUT', 'collection/pages', { singleItem: true });
      expect(expectProblem(refused, 409, 'single_item_too_many').detail).toBe('This collection must have no more than one item to become a single item collection.');
      expect(json(await f.call('GET', 'collection/pages')).singleItem).toBe(false);
      expect((await f.call('DELETE', `collection/pages/item/${first._id}`)).statusCode).toBe(204);
      const allowed = await f.call('PUT', 'collection/pages', { singleItem: true });
      expect(json(allowed).singleItem).toBe(true);
      // A single-item collection holds one item.
      expectProblem(await f.call('POST', 'collection/pages/item', { title: 'Three' }), 409, 'single_item_exists');
    });

    it('deletes a collection with its items and every table it had, nested ones included', async () => {
      await createCollection(f, {
        id: 'doomed',
        name: 'Doomed',
        schema: [
          { name: 'Title', slug: 'title', type: T.text },
          { name: 'Parts', slug: 'parts', type: T.nested, nestedCollectionSchema: [{ name: 'Step', slug: 'step', type: T.text }] },
        ],
      });
      const item = await createItem(f, 'doomed', { title: 'x' });
      await createItem(f, 'doomed', { step: 'inner' }, { item: item._id, nestedID: 'parts' });
      const before = await contentTables(t);
      expect(before.length).toBeGreaterThanOrEqual(2);
      expect((await f.call('DELETE', 'collection/doomed')).statusCode).toBe(204);
      expect((await f.call('GET', 'collection/doomed')).statusCode).toBe(404);
      expect((await f.call('GET', `collection/doomed/item/${item._id}`)).statusCode).toBe(404);
      const after = await contentTables(t);
      expect(before.filter((name) => !after.includes(name))).toHaveLength(2);
      // The id is free again, and the new collection starts empty.
      const again = await createCollection(f, { id: 'doomed', name: 'Doomed again', schema: [{ name: 'Title', slug: 'title', type: T.text }] });
      expect(again.itemCount).toBe(0);
      expect(json(await f.call('GET', 'collection/doomed/item'))).toEqual([]);
    });

    it('refuses to delete a collection another collection refers to', async () => {
      await createCollection(f, { id: 'people', name: 'People' });
      await createCollection(f, { id: 'quotes', name: 'Quotes', schema: [{ name: 'By', slug: 'by', type: T.ref, referenceCollectionID: 'people' }] });
      const referenced = expectProblem(await f.call('DELETE', 'collection/people'), 409, 'collection_referenced');
      expect((referenced as { params?: unknown }).params).toEqual({ field: 'By', collection: 'quotes' });
      expect((expectProblem(await f.call('GET', 'collection/nobody'), 404, 'collection_not_found') as { params?: unknown }).params).toEqual({ collection: 'nobody' });
      expect((await f.call('GET', 'collection/people')).statusCode).toBe(200);
    });

    it('answers 400, never 500, for text PostgreSQL cannot store and for malformed addresses', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Odd text', schema: [{ name: 'Body', slug: 'body', type: T.rich }] });
      const body = json(await f.call('GET', `collection/${id}/schema`))[0];
      const before = await state(id);
      expectInvalid(await f.call('POST', 'collection', { id: uniqueId(), name: 'nul\u0000name' }), ['name']);
      expectInvalid(await f.call('PUT', `collection/${id}`, { name: 'half \ud800 surrogate' }), ['name']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'bad\u0000', slug: 'bad', type: T.text }), ['name']);
      expectInvalid(await f.call('PUT', `collection/${id}/field/${body.id}`, { richTextCustomCSS: 'p{}\u0000' }), ['richTextCustomCSS']);
      expectInvalid(await f.call('POST', `collection/${id}/item`, { body: 'a\u0000b' }), ['body']);
      expectInvalid(await f.call('GET', `collection/a%00b`), ['params.collection']);
      expectInvalid(await f.call('GET', `collection/${id}/item/not.an.id`), ['params.item']);
      expectInvalid(await f.call('GET', `collection/${id}/item/${'a'.repeat(24)}?nestedID=x%00y`), ['querystring.nestedID']);
      expectInvalid(await f.call('DELETE', `collection/${id}/field/nope`), ['params.field']);
      expect(await state(id)).toEqual(before);
    });

    it('answers 404 for collections of other projects and projects of other organizations', async () => {
      await createCollection(f, { id: 'mine', name: 'Mine' });
      const other = await f.otherProject();
      expect((await other.call('GET', 'collection/mine')).statusCode).toBe(404);
      const stranger = await contentFixture(t);
      const foreign = await t.app.inject({
        method: 'GET',
        url: `/api/organization/${stranger.org}/project/${f.project}/collection/mine`,
        headers: { authorization: `Bearer ${stranger.access}` },
      });
      expectProblem(foreign, 404, 'project_not_found');
    });
  });

  describe('fields', () => {
    it('adds a field of every creatable type, before the metadata entry, with storage for each', async () => {
      const id = uniqueId();
      await createCollection(f, { id: 'target' + id, name: 'Target' });
      await createCollection(f, { id, name: 'Everything' });
      const tablesBefore = (await contentTables(t)).length;
      const specs: Record<string, unknown>[] = [
        { name: 'Title', slug: 'title', type: T.text, min: 1, max: 80, primaryField: true },
        { name: 'Body', slug: 'body', type: T.rich },
        { name: 'Price', slug: 'price', type: T.number, unique: true },
        { name: 'Phone', slug: 'phone', type: T.phone },
        { name: 'Cover', slug: 'cover', type: T.image, accept: 'image/*' },
        { name: 'Author', slug: 'author', type: T.ref, referenceCollectionID: 'target' + id },
        { name: 'Size', slug: 'size', type: T.option, options: [{ value: 'Small' }, { _id: 'l', value: 'Large' }] },
        { name: 'Live', slug: 'live', type: T.bool, defaultValue: true },
        { name: 'Site', slug: 'site', type: T.link },
        { name: 'When', slug: 'when', type: T.date },
        { name: 'Gallery', slug: 'gallery', type: T.images },
        { name: 'Steps', slug: 'steps', type: T.nested },
        { name: 'Place', slug: 'place', type: T.geo },
        { name: 'Extra', slug: 'extra', type: T.json },
      ];
      for (const spec of specs) {
        const field = await addField(f, id, spec);
        expect(field).toMatchObject({ name: spec.name, slug: spec.slug, type: spec.type, id: expect.stringMatching(/^[0-9a-f]{24}$/) });
      }
      const schema = json(await f.call('GET', `collection/${id}/schema`));
      expect(schema.map((s: { slug: string }) => s.slug)).toEqual([...specs.map((s) => s.slug), '_metadata']);
      const title = schema[0];
      expect(title).toMatchObject({ primaryField: true, required: true, min: 1, max: 80 });
      const size = schema.find((s: { slug: string }) => s.slug === 'size');
      expect(size.options).toEqual([{ _id: expect.any(String), value: 'Small' }, { _id: 'l', value: 'Large' }]);
      expect(schema.find((s: { slug: string }) => s.slug === 'steps').nestedCollectionSchema).toEqual([metadataField]);
      expect((await contentTables(t)).length).toBe(tablesBefore + 1);
    });

    it('an update keeps the settings it does not name and clears the ones sent as null', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Limits', schema: [{ name: 'Title', slug: 'title', type: T.text, min: 2, max: 40, helpText: 'Short' }] });
      const [title] = json(await f.call('GET', `collection/${id}/schema`));
      const renamed = await f.call('PUT', `collection/${id}/field/${title.id}`, { name: 'Heading' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(json(await f.call('GET', `collection/${id}/schema`))[0]).toMatchObject({ name: 'Heading', min: 2, max: 40, helpText: 'Short' });
      const cleared = await f.call('PUT', `collection/${id}/field/${title.id}`, { min: null, max: null, helpText: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      const after = json(await f.call('GET', `collection/${id}/schema`))[0];
      expect(after).toMatchObject({ name: 'Heading' });
      expect(after).not.toHaveProperty('min');
      expect(after).not.toHaveProperty('max');
      expect(after).not.toHaveProperty('helpText');
    });

    it('refuses reserved and duplicate slugs, missing names and slugs, naming the field; nothing changes', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Slugs', schema: [{ name: 'Title', slug: 'title', type: T.text }] });
      const before = await state(id);
      for (const slug of ['_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank', '_metadata']) {
        expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug, type: T.text }), ['slug']);
      }
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'Again', slug: 'title', type: T.number }), ['slug']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'Bad', slug: 'has space', type: T.text }), ['slug']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { slug: 'nameless', type: T.text }), ['name']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: ' ', slug: 'blank', type: T.text }), ['name']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'No slug', type: T.text }), ['slug']);
      expect(await state(id)).toEqual(before);
    });

    it('refuses unknown type codes and Metadata, unknown attributes and settings of other types', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Types' });
      const before = await state(id);
      for (const code of [0, 15, 99, 100, -1]) expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug: 'x', type: code }), ['type']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug: 'x', type: '1' }), ['type']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug: 'x' }), ['type']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug: 'x', type: T.text, colour: 'red' }), ['colour']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug: 'x', type: T.text, options: [{ value: 'A' }] }), ['options']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug: 'x', type: T.number, min: 2 }), ['min']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'X', slug: 'x', type: T.text, min: 5, max: 2 }), ['min']);
      expect(await state(id)).toEqual(before);
    });

    it('needs at least one option with text for an Option field', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Options' });
      const before = await state(id);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'S', slug: 's', type: T.option }), ['options']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'S', slug: 's', type: T.option, options: [] }), ['options']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'S', slug: 's', type: T.option, options: [{ value: 'A' }, { value: '  ' }] }), ['options.1.value']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'S', slug: 's', type: T.option, options: [{ value: 'A', _id: 'x' }, { value: 'B', _id: 'x' }] }), [
        'options.1._id',
      ]);
      expectInvalid(
        await f.call('POST', `collection/${id}/field`, { name: 'S', slug: 's', type: T.option, options: Array.from({ length: 501 }, (_, i) => ({ value: `o${i}` })) }),
        ['options'],
      );
      expect(await state(id)).toEqual(before);
    });

    it('needs an ItemRef to name another existing collection of the same project', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Refs' });
      const other = await f.otherProject();
      await createCollection(other, { id: 'elsewhere', name: 'Elsewhere' });
      const before = await state(id);
      for (const referenceCollectionID of [undefined, '', id, 'missing', 'elsewhere']) {
        expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'R', slug: 'r', type: T.ref, referenceCollectionID }), ['referenceCollectionID']);
      }
      expect(await state(id)).toEqual(before);
      await createCollection(f, { id: `${id}-target`, name: 'Target' });
      expect((await f.call('POST', `collection/${id}/field`, { name: 'R', slug: 'r', type: T.ref, referenceCollectionID: `${id}-target` })).statusCode).toBe(201);
    });

    it('refuses primary for NestedCollection, ItemRef, GeoPoint, ImageRef, ImageRefSet and required for NestedCollection', async () => {
      const id = uniqueId();
      await createCollection(f, { id: `${id}-t`, name: 'T' });
      await createCollection(f, { id, name: 'Flags' });
      const before = await state(id);
      const extra: Record<number, Record<string, unknown>> = { [T.ref]: { referenceCollectionID: `${id}-t` } };
      for (const code of [T.nested, T.ref, T.geo, T.image, T.images]) {
        expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'P', slug: 'p', type: code, primaryField: true, ...extra[code] }), ['primaryField']);
      }
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'N', slug: 'n', type: T.nested, required: true }), ['required']);
      expectInvalid(await f.call('POST', `collection/${id}/field`, { name: 'B', slug: 'b', type: T.bool, unique: true }), ['unique']);
      expect(await state(id)).toEqual(before);
    });

    it('makes a primary field required and keeps one primary field per schema', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Primary' });
      const a = await addField(f, id, { name: 'A', slug: 'a', type: T.text, primaryField: true, required: false });
      expect(a).toMatchObject({ primaryField: true, required: true });
      await addField(f, id, { name: 'B', slug: 'b', type: T.number, primaryField: true });
      const schema = json(await f.call('GET', `collection/${id}/schema`));
      expect(schema.filter((s: { primaryField?: boolean }) => s.primaryField).map((s: { slug: string }) => s.slug)).toEqual(['b']);
      expectInvalid(
        await f.call('POST', 'collection', {
          id: uniqueId(),
          name: 'Two primaries',
          schema: [
            { name: 'A', slug: 'a', type: T.text, primaryField: true },
            { name: 'B', slug: 'b', type: T.text, primaryField: true },
          ],
        }),
        ['schema.1.primaryField'],
      );
    });

    it('changes a field with PUT but never its type or slug', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Change' });
      const size = await addField(f, id, { name: 'Size', slug: 'size', type: T.option, options: [{ _id: 's', value: 'S' }] });
      const changed = await f.call('PUT', `collection/${id}/field/${size.id}`, { name: 'Sizes', helpText: 'Pick one', options: [{ _id: 's', value: 'Small' }, { value: 'Big' }] });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(json(changed)).toMatchObject({ id: size.id, name: 'Sizes', slug: 'size', helpText: 'Pick one', options: [{ _id: 's', value: 'Small' }, { value: 'Big' }] });
      const before = await state(id);
      expectInvalid(await f.call('PUT', `collection/${id}/field/${size.id}`, { type: T.text }), ['type']);
      expectInvalid(await f.call('PUT', `collection/${id}/field/${size.id}`, { slug: 'renamed' }), ['slug']);
      expectInvalid(await f.call('PUT', `collection/${id}/field/${size.id}`, { options: [] }), ['options']);
      expectInvalid(await f.call('PUT', `collection/${id}/field/${size.id}`, { name: '' }), ['name']);
      expect(await state(id)).toEqual(before);
      expect((await f.call('PUT', `collection/${id}/field/${'0'.repeat(24)}`, { name: 'X' })).statusCode).toBe(404);
      expectProblem(await f.call('PUT', `collection/${id}/field/_metadata`, { name: 'X' }), 400, 'metadata_field');
    });

    it('turns uniqueness on only when stored values do not repeat, and enforces it afterwards', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Unique' });
      const code = await addField(f, id, { name: 'Code', slug: 'code', type: T.text });
      await createItem(f, id, { code: 'A' });
      const second = await createItem(f, id, { code: 'A' });
      expectInvalid(await f.call('PUT', `collection/${id}/field/${code.id}`, { unique: true }), ['unique']);
      expect((await f.call('PUT', `collection/${id}/item/${second._id}`, { code: 'B' })).statusCode).toBe(200);
      expect(json(await f.call('PUT', `collection/${id}/field/${code.id}`, { unique: true })).unique).toBe(true);
      expectInvalid(await f.call('POST', `collection/${id}/item`, { code: 'B' }), ['code']);
      expectInvalid(await f.call('PUT', `collection/${id}/item/${second._id}`, { code: 'A' }), ['code']);
      expect(json(await f.call('PUT', `collection/${id}/field/${code.id}`, { unique: false })).unique).toBe(false);
      expect((await f.call('POST', `collection/${id}/item`, { code: 'B' })).statusCode).toBe(201);
    });

    it('deleting a field deletes its data: a field added again with its slug starts empty', async () => {
      const id = uniqueId();
      await createCollection(f, { id, name: 'Forget', schema: [{ name: 'Keep', slug: 'keep', type: T.text }] });
      const secret = await addField(f, id, { name: 'Secret', slug: 'secret', type: T.text });
      const item = await createItem(f, id, { keep: 'k', secret: 's3cret' });
      expect(json(await f.call('GET', `collection/${id}/item/${item._id}`)).secret).toBe('s3cret');
      expect((await f.call('DELETE', `collection/${id}/field/${secret.id}`)).statusCode).toBe(204);
      const without = json(await f.call('GET', `collection/${id}/item/${item._id}`));
      expect(without.secret).toBeUndefined();
      expect(without.keep).toBe('k');
      await addField(f, id, { name: 'Secret', slug: 'secret', type: T.text });
      expect(json(await f.call('GET', `collection/${id}/item/${item._id}`)).secret).toBeUndefined();
      expect((await f.call('DELETE', `collection/${id}/field/${secret.id}`)).statusCode).toBe(404);
      expectProblem(await f.call('DELETE', `collection/${id}/field/_metadata`), 400, 'metadata_field');
    });

    it('reorders a schema by ids (schema/order) and saves a whole level (PUT schema); both need every field once', async () => {
      const id = uniqueId();
      await createCollection(f, {
        id,
        name: 'Order',
        schema: [
          { name: 'A', slug: 'a', type: T.text },
          { name: 'B', slug: 'b', type: T.number },
        ],
      });
      const schema = json(await f.call('GET', `collection/${id}/schema`));
      const [a, b, meta] = schema;
      const reordered = await f.call('PUT', `collection/${id}/schema/order`, { organizationID: f.org, projectID: f.project, collectionID: id, collectionSchema: [meta, b, a] });
      expect(reordered.statusCode, reordered.body).toBe(200);
      expect(json(reordered).map((s: { slug: string }) => s.slug)).toEqual(['_metadata', 'b', 'a']);
      expectInvalid(await f.call('PUT', `collection/${id}/schema/order`, { collectionSchema: [a.id, b.id] }), ['collectionSchema']);
      expectInvalid(await f.call('PUT', `collection/${id}/schema/order`, { collectionSchema: [a.id, a.id, meta.id] }), ['collectionSchema']);
      expectInvalid(await f.call('PUT', `collection/${id}/schema/order`, { collectionID: 'other', collectionSchema: [a.id, b.id, meta.id] }), ['collectionID']);

      const saved = await f.call('PUT', `collection/${id}/schema`, [
        { ...a, name: 'Alpha', required: true },
        { ...b, name: 'Beta' },
        meta,
      ]);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(json(saved).map((s: { name: string }) => s.name)).toEqual(['Alpha', 'Beta', 'Metadata']);
      expect(json(saved)[0].required).toBe(true);
      const before = await state(id);
      expectInvalid(await f.call('PUT', `collection/${id}/schema`, [{ ...a, name: '' }, b, meta]), ['0.name']);
      expectInvalid(await f.call('PUT', `collection/${id}/schema`, [a, meta]), ['']);
      expectInvalid(await f.call('PUT', `collection/${id}/schema`, [{ ...a, type: T.number }, b, meta]), ['0.type']);
      expect(await state(id)).toEqual(before);
    });

    it('builds nested schemas three levels deep, addressed by nestedID, nestedSlug or the nested field id', async () => {
      const id = uniqueId();
      await createCollection(f, {
        id,
        name: 'Book',
        schema: [
          { name: 'Title', slug: 'title', type: T.text },
          {
            name: 'Chapters',
            slug: 'chapters',
            type: T.nested,
            nestedCollectionSchema: [
              { name: 'Heading', slug: 'heading', type: T.text },
              { name: 'Paragraphs', slug: 'paragraphs', type: T.nested, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: T.rich }] },
            ],
          },
        ],
      });
      const chapters = json(await f.call('GET', `collection/${id}/schema?nestedID=chapters`));
      expect(chapters.map((s: { slug: string }) => s.slug)).toEqual(['heading', 'paragraphs', '_metadata']);
      const paragraphsField = chapters[1];
      // A third level, added to the paragraphs' schema through the nested field's id.
      const notes = await f.call('POST', `collection/${id}/field/${paragraphsField.id}?nestedSlug=chapters.paragraphs`, { name: 'Notes', slug: 'notes', type: T.nested });
      expect(notes.statusCode, notes.body).toBe(201);
      await addField(f, id, { name: 'Note', slug: 'note', type: T.text }, 'chapters.paragraphs.notes');
      const deep = json(await f.call('GET', `collection/${id}/schema?nestedID=chapters.paragraphs.notes`));
      expect(deep.map((s: { slug: string }) => s.slug)).toEqual(['note', '_metadata']);
      // The item-chain form of nestedID names the same level.
      const viaItems = json(await f.call('GET', `collection/${id}/schema?nestedID=chapters.${'a'.repeat(24)}.paragraphs`));
      expect(viaItems.map((s: { slug: string }) => s.slug)).toEqual(['text', 'notes', '_metadata']);
      expect((await f.call('GET', `collection/${id}/schema?nestedID=nothing`)).statusCode).toBe(404);
      // Slugs are unique per level, not across levels.
      await addField(f, id, { name: 'Title', slug: 'title', type: T.text }, 'chapters');
      expectInvalid(await f.call('POST', `collection/${id}/field?nestedID=chapters`, { name: 'Heading', slug: 'heading', type: T.text }), ['slug']);
      // A nested field is changed and deleted by its id; nestedSlug must agree when given.
      const heading = chapters[0];
      expect((await f.call('PUT', `collection/${id}/field/${heading.id}?nestedSlug=chapters`, { name: 'Chapter heading' })).statusCode).toBe(200);
      expect((await f.call('PUT', `collection/${id}/field/${heading.id}?nestedSlug=chapters.paragraphs`, { name: 'X' })).statusCode).toBe(404);
      const tables = await contentTables(t);
      expect((await f.call('DELETE', `collection/${id}/field/${paragraphsField.id}?nestedID=chapters`)).statusCode).toBe(204);
      // The paragraphs' and the notes' tables went with the field.
      expect(tables.length - (await contentTables(t)).length).toBe(2);
      expect(json(await f.call('GET', `collection/${id}/schema?nestedID=chapters`)).map((s: { slug: string }) => s.slug)).toEqual(['heading', 'title', '_metadata']);
    });

    it('refuses schemas nested too deep or too large, and nested settings on other types', async () => {
      let schema: Record<string, unknown>[] = [{ name: 'Leaf', slug: 'leaf', type: T.text }];
      for (let depth = 0; depth < 6; depth += 1) schema = [{ name: `L${depth}`, slug: `l${depth}`, type: T.nested, nestedCollectionSchema: schema }];
      const deep = await f.call('POST', 'collection', { id: uniqueId(), name: 'Deep', schema });
      // The nested field at depth 5 would open a sixth level.
      expect(expectInvalid(deep, [`schema.0${'.nestedCollectionSchema.0'.repeat(5)}.type`])[0]!.message).toMatch(/5 levels/);
      const many = Array.from({ length: 100 }, (_, i) => ({ name: `F${i}`, slug: `f${i}`, type: T.text }));
      expectInvalid(await f.call('POST', 'collection', { id: uniqueId(), name: 'Wide', schema: many }), ['schema']);
      expectInvalid(await f.call('POST', 'collection', { id: uniqueId(), name: 'Odd', schema: [{ name: 'X', slug: 'x', type: T.text, nestedCollectionSchema: [{ name: 'Y', slug: 'y', type: T.text }] }] }), [
        'schema.0.nestedCollectionSchema',
      ]);
      const long = await f.call('POST', 'collection', { id: uniqueId(), name: 'x'.repeat(101) });
      expectInvalid(long, ['name']);
    });
  });
});
