/**
 * Totals kept beyond short searches (server/content/query/kept-search.ts, docs/content-storage.md
 * "Listing and searching items"): a word the word index declines (held by too many tokens or rows)
 * walks the sort index for its page and keeps its total; conditions whose count proved slow are kept
 * when they come again; `total=false` counts nothing. Pages must be the rows that match, in order,
 * whatever path found them, and kept totals exact after every kind of write.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { prng } from '../../bench/support/data.ts';
import { keptSearchStats } from '../../server/content/query/kept-search.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

type Note = { _id: string; title: string; body?: string; price: number };

const filler = ['river', 'stone', 'quiet', 'lamp', 'harbor', 'paper', 'orbit', 'maple', 'signal', 'copper'];

describe.each(databaseKinds)('kept totals beyond short searches on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let table: string;
  const random = prng(28);

  const rows = async <T,>(statement: ReturnType<typeof sql>) => ((await t.database.db.execute(statement)) as unknown as { rows: T[] }).rows;
  const termCount = async () => (await rows<{ n: number }>(sql`select count(*)::integer as n from item_search_terms`))[0]!.n;

  /** A body: filler words, with `market` (or a word holding it) in about 85 % of them and `zebra` in a few. */
  function body(i: number): string {
    const words = Array.from({ length: 6 + Math.floor(random() * 6) }, () => filler[Math.floor(random() * filler.length)]!);
    if (random() < 0.85) words.splice(Math.floor(random() * words.length), 0, ['market', 'Markets', 'supermarket', 'MARKETING'][i % 4]!);
    if (i % 17 === 0) words.push('zebra');
    return words.join(' ');
  }

  async function list(params: Record<string, string>, path = 'collection/notes/item') {
    const response = await f.call('GET', `${path}?${new URLSearchParams(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return { items: json<Note[]>(response), total: response.headers['item-count'] as string | undefined };
  }

  /** Every item in rank order (the list's default order). */
  const everything = async () => (await list({ perPage: '1000' })).items;

  /** The items holding `text` in title or body, case-insensitively, in rank order or by price descending. */
  async function expected(text: string, sort?: 'price') {
    const found = (await everything()).filter((item) => `${item.title}\u0000${item.body ?? ''}`.toLowerCase().includes(text.toLowerCase()));
    return sort === 'price' ? found.sort((a, b) => b.price - a.price) : found;
  }

  /** Reads every page of a search and checks each against the expected rows and the total. */
  async function expectPages(text: string, sort?: 'price', perPage = 7) {
    const want = await expected(text, sort);
    const got: string[] = [];
    for (let page = 1; page <= Math.ceil(want.length / perPage) + 1; page++) {
      const { items, total } = await list({ search: text, perPage: String(perPage), pageNumber: String(page), ...(sort ? { sort, order: 'desc' } : {}) });
      expect(Number(total), `${text} page ${page}`).toBe(want.length);
      got.push(...items.map((item) => item._id));
    }
    expect(got).toEqual(want.map((item) => item._id));
    return want.length;
  }

  beforeAll(async () => {
    // Which words the word index declines, with word indexes made with their fields (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager' });
    // A text held by more than one token of a field is declined by the word index (`market`:
    // market, markets, supermarket, marketing); `zebra` has one token and is served.
    t.app.ctx.config.listQueries.searchWords.tokens = 1;
    t.app.ctx.config.listQueries.keptSearch.registerSpacingMs = 0;
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'notes',
      name: 'Notes',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Body', slug: 'body', type: code('PlainText') },
        { name: 'Price', slug: 'price', type: code('Number') },
      ],
    });
    const [row] = await rows<{ id: string }>(sql`select id from content_collections where project_id = ${f.project} and slug = 'notes'`);
    table = `content_${row!.id}`;
    for (let i = 0; i < 90; i++) await createItem(f, 'notes', { title: `${filler[i % filler.length]} ${i}`, body: body(i), price: (i * 37) % 101 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a word the word index declines: every page holds the rows that match, in each sort, and its total is kept', async () => {
    const before = { ...keptSearchStats };
    const terms = await termCount();
    const n = await expectPages('market');
    expect(n).toBeGreaterThan(60);
    expect(keptSearchStats.registered - before.registered).toBe(1);
    expect(await termCount()).toBe(terms + 1);
    await expectPages('market', 'price');
    // The search route answers the same.
    const viaSearch = await list({ query: 'market', perPage: '5' }, 'collection/notes/search');
    expect(Number(viaSearch.total)).toBe(n);
    expect(keptSearchStats.counted - before.counted).toBe(1);
    expect(keptSearchStats.served - before.served).toBeGreaterThan(5);
    // Typed in capitals: the same rows (the lower-case LIKE first, ILIKE for the rest).
    expect(await expectPages('MaRKet')).toBe(n);
  });

  it('the kept total of a common word stays exact through creations, updates, deletions, many-row statements and a rollback', async () => {
    const counted = keptSearchStats.counted;
    const check = async () => {
      const { total } = await list({ search: 'market', perPage: '1' });
      expect(Number(total)).toBe((await expected('market')).length);
    };
    await check();
    const a = await createItem(f, 'notes', { title: 'new market stall', price: 500 });
    const b = await createItem(f, 'notes', { title: 'plain', price: 501 });
    await check();
    const put = async (id: string, values: Record<string, unknown>) =>
      expect((await f.call('PUT', `collection/notes/item/${id}`, values)).statusCode).toBe(200);
    await put(b._id as string, { body: 'now a MARKET too' });
    await put(a._id as string, { title: 'no longer' });
    await check();
    expect((await f.call('DELETE', `collection/notes/item/${b._id as string}`)).statusCode).toBe(204);
    await check();
    // Statements of many rows, written by SQL as an import would.
    const bodyColumn = await column('body');
    await t.database.db.execute(sql`update ${sql.identifier(table)} set ${sql.identifier(bodyColumn)} = 'stone river' where ${sql.identifier(bodyColumn)} like '%supermarket%'`);
    await check();
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update ${sql.identifier(table)} set ${sql.identifier(bodyColumn)} = 'market' where ${sql.identifier(bodyColumn)} not ilike '%market%'`);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await check();
    await expectPages('market', 'price', 11);
    expect(keptSearchStats.counted).toBe(counted);
  });

  async function column(slug: string) {
    const schema = (await rows<{ schema: { slug: string; id: string }[] }>(sql`select schema from content_collections where project_id = ${f.project} and slug = 'notes'`))[0]!.schema;
    return `f_${schema.find((x) => x.slug === slug)!.id}`;
  }

  it('a word the word index serves is not kept: its matches come from the index', async () => {
    const terms = await termCount();
    const n = await expectPages('zebra');
    expect(n).toBeGreaterThan(3);
    expect(await termCount()).toBe(terms);
  });

  it('total=false: the same rows, no item-count, nothing counted or kept', async () => {
    const terms = await termCount();
    const before = { ...keptSearchStats };
    // `arket` is a declined text never searched before: with a total it would be registered.
    const want = await expected('arket');
    const { items, total } = await list({ search: 'arket', perPage: '1000', total: 'false' });
    expect(total).toBeUndefined();
    expect(items.map((item) => item._id)).toEqual(want.map((item) => item._id));
    expect(await termCount()).toBe(terms);
    expect(keptSearchStats.registered).toBe(before.registered);
    const unfiltered = await list({ perPage: '3', total: 'false' });
    expect(unfiltered.total).toBeUndefined();
    expect(unfiltered.items).toHaveLength(3);
    const searched = await list({ query: 'arket', total: 'FALSE' }, 'collection/notes/search');
    expect(searched.total).toBeUndefined();
    const refused = await f.call('GET', 'collection/notes/item?total=maybe');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('must be true or false');
  });

  it('keeps the total of conditions whose count proved slow when they come again, exact after writes', async () => {
    const tuning = t.app.ctx.config.listQueries.keptSearch;
    const saved = { ...tuning };
    try {
      // Counted quickly (under a minute): never kept, however often it comes.
      tuning.slowTotalMs = 60_000;
      const terms = await termCount();
      for (let i = 1; i <= 3; i++) await list({ query: 'price:>:40', perPage: '2', pageNumber: String(i) });
      expect(await termCount()).toBe(terms);
      // Every count is slow: the first notes it, the second keeps it.
      tuning.slowTotalMs = 0.001;
      const count = async () => (await everything()).filter((item) => item.price > 60).length;
      const first = await list({ query: 'price:>:60', perPage: '2' });
      expect(Number(first.total)).toBe(await count());
      expect(await termCount()).toBe(terms);
      // The next page: the same conditions (the same page again would be served from memory: page-cache.test.ts).
      const second = await list({ query: 'price:>:60', perPage: '2', pageNumber: '2' });
      expect(Number(second.total)).toBe(await count());
      expect(await termCount()).toBe(terms + 1);
      const served = keptSearchStats.served;
      await createItem(f, 'notes', { title: 'pricey', price: 99.5 });
      await createItem(f, 'notes', { title: 'cheap', price: 1 });
      await t.database.db.execute(sql`delete from ${sql.identifier(table)} where ${sql.identifier(await column('price'))} between 61 and 70`);
      const third = await list({ query: 'price:>:60', perPage: '2', pageNumber: '3' });
      expect(Number(third.total)).toBe(await count());
      expect(keptSearchStats.served).toBe(served + 1);
      // Forgotten after slowRememberMs: counted again, the kept term stays until replaced.
      tuning.slowRememberMs = -1;
      const fourth = await list({ query: 'price:>:60', perPage: '2', pageNumber: '4' });
      expect(Number(fourth.total)).toBe(await count());
      expect(keptSearchStats.served).toBe(served + 1);
    } finally {
      Object.assign(tuning, saved);
    }
  });
});
