/**
 * Projects and their collections: the project view lists them, a project made from a template
 * gets copies of its collections and schemas (never its items), and deleting a project or an
 * organization takes every item table with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { contentFixture, contentTables, createCollection, createItem, type ContentFixture } from './support/content.ts';

/** A schema without its ids, to compare copies. */
const shape = (schema: SchemaField[]): unknown[] =>
  schema.map(({ id: _id, nestedCollectionSchema, ...rest }) => ({ ...rest, ...(nestedCollectionSchema ? { nestedCollectionSchema: shape(nestedCollectionSchema) } : {}) }));

const allIds = (schema: SchemaField[]): string[] => schema.flatMap((f) => [f.id, ...allIds(f.nestedCollectionSchema ?? [])]);

describe.each(databaseKinds)('project templates on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'authors', name: 'Authors', schema: [{ name: 'Name', slug: 'name', type: 1, primaryField: true }] });
    await createCollection(f, {
      id: 'articles',
      name: 'Articles',
      rtlDirection: true,
      schema: [
        { name: 'Title', slug: 'title', type: 1, required: true, unique: true },
        { name: 'By', slug: 'by', type: 6, referenceCollectionID: 'authors' },
        { name: 'State', slug: 'state', type: 7, options: [{ _id: 'd', value: 'Draft' }, { _id: 'p', value: 'Published' }] },
        { name: 'Sections', slug: 'sections', type: 12, nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: 1 }] },
      ],
    });
    await createCollection(f, { id: 'home', name: 'Home', singleItem: true });
    const ada = await createItem(f, 'authors', { name: 'Ada' });
    const article = await createItem(f, 'articles', { title: 'Hello', by: [{ itemRefID: ada._id }], state: { _id: 'p' } });
    await createItem(f, 'articles', { heading: 'Intro' }, { item: article._id, nestedID: 'sections' });
  });
  afterAll(() => t.close());

  const projectView = async (project: string) =>
    json(await t.app.inject({ method: 'GET', url: `/api/organization/${f.org}/project/${project}`, headers: bearer(f.access) }));

  it('lists the project’s collections in its view, in creation order', async () => {
    const view = await projectView(f.project);
    expect(view.collections.map((c: { id: string }) => c.id)).toEqual(['authors', 'articles', 'home']);
    expect(view.collections[1]).toMatchObject({ id: 'articles', name: 'Articles', rtlDirection: true, singleItem: false });
    expect(view.collections[2]).toMatchObject({ id: 'home', singleItem: true });
  });

  it('copies collections and schemas from a template, never items, with storage of their own', async () => {
    const tablesBefore = await contentTables(t);
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/organization/${f.org}/project?templateID=${f.project}`,
      headers: bearer(f.access),
      payload: { name: 'From template' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const copy = json(created);
    const original = await projectView(f.project);
    expect(copy.collections.map((c: { id: string }) => c.id)).toEqual(['authors', 'articles', 'home']);
    for (const [i, collection] of copy.collections.entries()) {
      const source = original.collections[i];
      expect({ ...collection, schema: shape(collection.schema) }).toEqual({ ...source, schema: shape(source.schema) });
      // New field ids everywhere but the metadata entry: the copy's nested tables are its own.
      const fresh = allIds(collection.schema).filter((id) => id !== '_metadata');
      const old = new Set(allIds(source.schema));
      expect(fresh.every((id) => !old.has(id))).toBe(true);
    }
    // 3 collections and 1 nested collection: 4 new tables.
    expect((await contentTables(t)).length).toBe(tablesBefore.length + 4);

    const base = `/api/organization/${f.org}/project/${copy.id}/`;
    const call = (method: 'GET' | 'POST', path: string, payload?: object) =>
      t.app.inject({ method, url: base + path, headers: bearer(f.access), ...(payload ? { payload } : {}) });
    const items = await call('GET', 'collection/articles/item');
    expect(json(items)).toEqual([]);
    expect(items.headers['item-count']).toBe('0');
    // The copy works on its own: its references point at its own authors.
    const author = json(await call('POST', 'collection/authors/item', { name: 'Grace' }));
    const article = await call('POST', 'collection/articles/item', { title: 'Hello', by: [{ itemRefID: author._id }], state: { _id: 'd' } });
    expect(article.statusCode, article.body).toBe(201);
    expect(json(article).by).toEqual([{ itemRefID: author._id, value: 'Grace' }]);
    expect(json(await f.call('GET', 'collection/articles/item')).length).toBe(1);
  });

  it('refuses a template from another organization and creates nothing', async () => {
    const stranger = await contentFixture(t);
    const tables = await contentTables(t);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/organization/${stranger.org}/project?templateID=${f.project}`,
      headers: bearer(stranger.access),
      payload: { name: 'Stolen' },
    });
    expect(response.statusCode).toBe(400);
    expect(await contentTables(t)).toEqual(tables);
  });

  it('deleting a project, or an organization, drops the item tables of its collections', async () => {
    const other = await contentFixture(t);
    const before = await contentTables(t);
    await createCollection(other, { id: 'a', name: 'A', schema: [{ name: 'N', slug: 'n', type: 12 }] });
    const second = await other.otherProject();
    await createCollection(second, { id: 'b', name: 'B' });
    expect((await contentTables(t)).length).toBe(before.length + 3);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/organization/${other.org}/project/${second.project}`, headers: bearer(other.access) });
    expect(removed.statusCode).toBe(204);
    expect((await contentTables(t)).length).toBe(before.length + 2);
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/organization/${other.org}`, headers: bearer(other.access) });
    expect(gone.statusCode).toBe(204);
    expect(await contentTables(t)).toEqual(before);
  });
});
