/**
 * Pages kept in memory (server/content/query/engine.ts PageCache, docs/content-storage.md "Pages
 * kept in memory"): a list page read again is served from memory only while no write to its
 * collection can have happened — whatever made the write (the API, SQL on another connection, a
 * nested item, a schema change) — so every answer equals a fresh read.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { deepPageStats } from '../../server/content/query/engine.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('pages kept in memory on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let table: string;
  let titleColumn: string;

  const stats = () => ({ ...t.app.ctx.itemQueries.pageCache!.stats });
  async function read(params: Record<string, string> = {}, path = 'collection/notes/item') {
    const response = await f.call('GET', `${path}?${new URLSearchParams(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return { body: response.body, total: response.headers['item-count'] as string | undefined, titles: json<{ title: string }[]>(response).map((item) => item.title) };
  }
  /** Reads twice: the second answer must come from memory and equal the first. */
  async function readTwice(params: Record<string, string> = {}, path?: string) {
    const first = await read(params, path);
    const before = stats();
    const second = await read(params, path);
    expect(stats().hits, JSON.stringify(params)).toBe(before.hits + 1);
    expect(second).toEqual(first);
    return second;
  }
  /** A read after a write: not from memory, and showing the write. */
  async function readFresh(params: Record<string, string> = {}, path?: string) {
    const before = stats();
    const answer = await read(params, path);
    expect(stats().hits, JSON.stringify(params)).toBe(before.hits);
    return answer;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'notes',
      name: 'Notes',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Price', slug: 'price', type: code('Number') },
        { name: 'Parts', slug: 'parts', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Label', slug: 'label', type: code('PlainText') }] },
      ],
    });
    const [row] = ((await t.database.db.execute(sql`select id, schema from content_collections where project_id = ${f.project} and slug = 'notes'`)) as unknown as {
      rows: { id: string; schema: { slug: string; id: string }[] }[];
    }).rows;
    table = `content_${row!.id}`;
    titleColumn = `f_${row!.schema.find((field) => field.slug === 'title')!.id}`;
    for (let i = 0; i < 12; i++) await createItem(f, 'notes', { title: `note ${i}`, price: i });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves a page read again from memory, the same bytes and total, for lists, filters, searches and sorts', async () => {
    expect(t.app.ctx.itemQueries.pageCache).toBeDefined();
    const page = await readTwice({ perPage: '5' });
    expect(page.total).toBe('12');
    await readTwice({ perPage: '5', pageNumber: '2' });
    await readTwice({ query: 'price:>:6' });
    await readTwice({ search: 'note', sort: 'price', order: 'desc' });
    await readTwice({ query: 'note' }, 'collection/notes/search');
    const untotalled = await readTwice({ perPage: '5', total: 'false' });
    expect(untotalled.total).toBeUndefined();
    // Different parameters are different pages.
    expect((await read({ perPage: '4' })).titles).toHaveLength(4);
  });

  it('reads afresh after a write through the API, then keeps the new page', async () => {
    await readTwice({ perPage: '50' });
    await createItem(f, 'notes', { title: 'written by the API', price: 100 });
    const fresh = await readFresh({ perPage: '50' });
    expect(fresh.titles).toContain('written by the API');
    expect(fresh.total).toBe('13');
    await readTwice({ perPage: '50' });
  });

  it('reads afresh after SQL written by hand, and after a write on another connection', async () => {
    await readTwice({ perPage: '50' });
    await t.database.db.execute(sql`update ${sql.identifier(table)} set ${sql.identifier(titleColumn)} = 'changed by SQL' where ${sql.identifier(titleColumn)} = 'note 0'`);
    expect((await readFresh({ perPage: '50' })).titles).toContain('changed by SQL');
    await readTwice({ perPage: '50' });
    if (kind !== 'postgres') return;
    // Another process's write: a connection of its own, committed before the next read starts.
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    try {
      await other.query(`update ${table} set ${titleColumn} = 'changed elsewhere' where ${titleColumn} = 'note 1'`);
    } finally {
      await other.end();
    }
    expect((await readFresh({ perPage: '50' })).titles).toContain('changed elsewhere');
  });

  it('reads afresh after a nested item is written and after the schema changes', async () => {
    const [top] = json<{ _id: string }[]>(await f.call('GET', 'collection/notes/item?perPage=1'));
    await readTwice({ perPage: '50' });
    await createItem(f, 'notes', { label: 'inner' }, { item: top!._id, nestedID: 'parts' });
    await readFresh({ perPage: '50' });
    await readTwice({ perPage: '50' });
    await addField(f, 'notes', { name: 'Extra', slug: 'extra', type: code('PlainText') });
    await readFresh({ perPage: '50' });
    await readTwice({ perPage: '50' });
  });

  it('keeps a deep page the list anchors served, and reads it afresh after a write', async () => {
    // Anchors from offset 4, every 2 entries, even right after a write (set on this app's tuning).
    const tuning = t.app.ctx.config.listQueries.list;
    const saved = { ...tuning };
    Object.assign(tuning, { anchorOffset: 4, anchorStep: 2, anchorQuietMs: 0 });
    try {
      const params = { perPage: '3', sort: '_createdDate', order: 'desc' };
      // The first deep read walks the index and keeps anchors; the next deep page starts from one.
      const before = await read({ ...params, pageNumber: '3' });
      const anchored = deepPageStats.anchored;
      const deep = await readTwice({ ...params, pageNumber: '4' });
      expect(deepPageStats.anchored).toBe(anchored + 1);
      await createItem(f, 'notes', { title: 'most expensive', price: 1000 });
      const fresh = await readFresh({ ...params, pageNumber: '4' });
      // The new first entry shifts every later one by one place.
      expect(fresh.titles).toEqual([before.titles.at(-1), ...deep.titles.slice(0, 2)]);
    } finally {
      Object.assign(tuning, saved);
    }
  });
});
