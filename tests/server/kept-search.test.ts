/**
 * Totals kept for short searches the word index does not serve (migration 0021,
 * server/content/query/kept-search.ts): the first search registers its conditions and counts once;
 * later ones read the kept total, which must equal the rows the search finds after every kind of
 * write — creations, updates, deletions, many-row statements, rolled-back writers, writers in
 * progress while the term is registered — through folding, replacement of the least recently used
 * term, and schema changes.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { keptSearchStats, keptSearchTotal } from '../../server/content/query/kept-search.ts';
import { defaultQueryTuning, type KeptSearchLimits } from '../../server/content/query/tuning.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

/** Texts holding `ka` in every spelling ILIKE matches (the Kelvin sign lower-cases to k), and texts that do not. */
const texts = ['kabuki', 'KAYAK', 'oKa', '\u212aarma', 'k a', 'kite', 'Ankara', 'zebra', 'ka', 'Kä', 'ak'];

describe.each(databaseKinds)('kept search totals on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let table: string;
  /** The term of the search `ka`. */
  let kaTerm: string;
  const savedKept = defaultQueryTuning.keptSearch;
  /** This app's kept-search limits (config.listQueries), which tests lower for a while. */
  let keptSearchLimits: KeptSearchLimits;

  const rows = async <T,>(statement: ReturnType<typeof sql>) => ((await t.database.db.execute(statement)) as unknown as { rows: T[] }).rows;
  const terms = () => rows<{ id: string; base: string | null; cond: string }>(sql`select id, base, cond from item_search_terms order by created_at`);
  const searchTriggers = async () =>
    (await rows<{ n: number }>(sql`select count(*)::integer as n from pg_trigger where tgrelid = ${table}::regclass and tgname like ${`${table}_s%`}`))[0]!.n;

  /** A list search: the ids it finds (every match fits one page) and its item-count. */
  async function search(params: Record<string, string>, path = 'collection/notes/item') {
    const response = await f.call('GET', `${path}?${new URLSearchParams({ perPage: '1000', ...params })}`);
    expect(response.statusCode, response.body).toBe(200);
    return { found: (json(response) as { _id: string }[]).length, total: Number(response.headers['item-count']) };
  }
  async function expectExact(params: Record<string, string>) {
    const { found, total } = await search(params);
    expect(total, JSON.stringify(params)).toBe(found);
    return found;
  }
  const put = async (id: string, body: Record<string, unknown>) => {
    const response = await f.call('PUT', `collection/notes/item/${id}`, body);
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    // Pages are not kept in memory here: the tests write kept counts by hand, which no item write announces.
    // Which texts are kept depends on the word indexes, here made with their fields (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager', LIST_PAGE_CACHE_MB: '0' });
    // Every text is searched without the word index, as a text held by thousands of words is.
    Object.assign(t.app.ctx.config.listQueries.searchWords, { tokens: -1 });
    // Terms are registered as soon as they are searched (the spacing has a test of its own).
    keptSearchLimits = t.app.ctx.config.listQueries.keptSearch;
    keptSearchLimits.registerSpacingMs = 0;
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'notes',
      name: 'Notes',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Body', slug: 'body', type: code('RichText') },
        { name: 'Price', slug: 'price', type: code('Number') },
      ],
    });
    const [row] = await rows<{ id: string }>(sql`select id from content_collections where project_id = ${f.project} and slug = 'notes'`);
    table = `content_${row!.id}`;
    for (const [i, text] of texts.entries()) await createItem(f, 'notes', { title: text, body: `<p>${texts[(i + 3) % texts.length]}</p>`, price: i });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts a short search once, then serves its total from the kept term, exact through creations, updates and deletions', async () => {
    const before = { ...keptSearchStats };
    const first = await expectExact({ search: 'ka' });
    expect(first).toBeGreaterThan(3);
    expect(first).toBeLessThan(texts.length);
    const [term, ...others] = await terms();
    expect(others).toEqual([]);
    kaTerm = term!.id;
    expect(term!.base).not.toBeNull();
    expect(keptSearchStats.registered - before.registered).toBe(1);
    expect(keptSearchStats.counted - before.counted).toBe(1);
    expect(await searchTriggers()).toBe(3);

    // Served from the kept term: a stray delta row shows in the total, and no count is made.
    await t.database.db.execute(sql`insert into item_search_counts (term_id, n) values (${term!.id}, 1000)`);
    const kept = await search({ search: 'ka' });
    expect(kept.total).toBe(kept.found + 1000);
    await t.database.db.execute(sql`delete from item_search_counts where n = 1000`);
    expect(keptSearchStats.counted - before.counted).toBe(1);
    expect(keptSearchStats.served - before.served).toBeGreaterThan(0);

    // The search call (`query`) makes the same conditions: the same term.
    const call = await search({ query: 'ka' }, 'collection/notes/search');
    expect(call.total).toBe(first);
    expect((await terms()).length).toBe(1);

    const matching = (await createItem(f, 'notes', { title: 'karma' }))._id as string;
    const other = (await createItem(f, 'notes', { title: 'plain', body: '<p>KA in the body</p>' }))._id as string;
    const unmatched = (await createItem(f, 'notes', { title: 'none' }))._id as string;
    expect(await expectExact({ search: 'ka' })).toBe(first + 2);
    await put(matching, { title: 'now without' });
    await put(unmatched, { title: 'OKAY' });
    await put(other, { price: 99 });
    expect(await expectExact({ search: 'ka' })).toBe(first + 2);
    await put(other, { body: '<p>gone</p>' });
    expect(await expectExact({ search: 'ka' })).toBe(first + 1);
    expect((await f.call('DELETE', `collection/notes/item/${unmatched}`)).statusCode).toBe(204);
    expect((await f.call('DELETE', `collection/notes/item/${matching}`)).statusCode).toBe(204);
    expect(await expectExact({ search: 'ka' })).toBe(first);

    // Statements of many rows (an import; ranks before the API's), and a writer that gives up.
    await t.database.db.execute(
      sql`insert into ${sql.identifier(table)} (_id, _rank, _created_date, _last_updated_date, ${sql.identifier(await column('title'))})
          select 'bulk' || g, '0b' || lpad(g::text, 4, '0'), now(), now(), case when g % 3 = 0 then 'baKa' else 'bulk' end from generate_series(1, 30) g`,
    );
    await t.database.db.execute(sql`update ${sql.identifier(table)} set ${sql.identifier(await column('title'))} = 'kaput' where _id like 'bulk1%'`);
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`delete from ${sql.identifier(table)} where _id like 'bulk%'`);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await expectExact({ search: 'ka' });
    await t.database.db.execute(sql`delete from ${sql.identifier(table)} where _id like 'bulk2%'`);
    await expectExact({ search: 'ka' });
    expect(keptSearchStats.counted - before.counted).toBe(1);
  });

  async function column(slug: string) {
    const schema = (await rows<{ schema: { slug: string; id: string }[] }>(sql`select schema from content_collections where project_id = ${f.project} and slug = 'notes'`))[0]!.schema;
    return `f_${schema.find((x) => x.slug === slug)!.id}`;
  }

  it('keeps a term for a search with a filter and for several terms, each exact', async () => {
    const known = (await terms()).length;
    await expectExact({ search: 'ka', query: 'price:>:4' });
    await expectExact({ search: 'ka|ak' });
    await expectExact({ search: 'Ka|ak' });
    // A longer text the word index declines (here every text: tokens -1) is kept as well.
    await expectExact({ search: 'kabuki' });
    const kept = await terms();
    // `_id` is compared exactly: `Ka|ak` is a term of its own.
    expect(kept.length).toBe(known + 4);
    for (const term of kept) expect(term.cond).not.toMatch(/content_words/);
    await createItem(f, 'notes', { title: 'AK-47 kayak', price: 50 });
    await put(((await createItem(f, 'notes', { title: 'x', price: 1 }))._id as string), { title: 'ska', price: 7 });
    await expectExact({ search: 'ka', query: 'price:>:4' });
    await expectExact({ search: 'ka|ak' });
    await expectExact({ search: 'ka' });
    // Quotes and backslashes are written into the kept condition as literals, and mean what they say.
    const quoted = await expectExact({ search: "'a" });
    const slashed = await expectExact({ search: 'k\\' });
    await createItem(f, 'notes', { title: "O'adk\\x" });
    expect(await expectExact({ search: "'a" })).toBe(quoted + 1);
    expect(await expectExact({ search: 'k\\' })).toBe(slashed + 1);
    expect(await expectExact({ search: 'k%' })).toBe(0);
  });

  it('folds the delta rows into the base and stays exact', async () => {
    keptSearchLimits.foldAt = 5;
    try {
      for (let i = 0; i < 12; i += 1) await createItem(f, 'notes', { title: i % 2 ? `ka ${i}` : `no ${i}` });
      const before = keptSearchStats.folded;
      await expectExact({ search: 'ka' });
      expect(keptSearchStats.folded).toBe(before + 1);
      const [left] = await rows<{ n: number }>(sql`select count(*)::integer as n from item_search_counts where term_id = ${kaTerm}`);
      expect(left!.n).toBe(0);
      await createItem(f, 'notes', { title: 'ka again' });
      await expectExact({ search: 'ka' });
    } finally {
      keptSearchLimits.foldAt = savedKept.foldAt;
    }
  });

  it('keeps at most a few terms per collection, replacing the least recently used', async () => {
    keptSearchLimits.termsPerCollection = 2;
    try {
      await expectExact({ search: 'ab' });
      await expectExact({ search: 'ra' });
      const kept = await terms();
      expect(kept.length).toBe(2);
      expect(await searchTriggers()).toBe(6);
      await createItem(f, 'notes', { title: 'Zebra abroad' });
      await expectExact({ search: 'ab' });
      await expectExact({ search: 'ra' });
      await expectExact({ search: 'ka' });
      expect((await terms()).length).toBe(2);
    } finally {
      keptSearchLimits.termsPerCollection = savedKept.termsPerCollection;
    }
  });

  it('drops the terms of a collection whose schema changes; writes go on and a new search is kept again', async () => {
    await expectExact({ search: 'ka' });
    expect((await terms()).length).toBeGreaterThan(0);
    const bodyId = (await column('body')).slice(2);
    const removed = await f.call('DELETE', `collection/notes/field/${bodyId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await terms()).toEqual([]);
    expect(await searchTriggers()).toBe(0);
    await createItem(f, 'notes', { title: 'kale' });
    const after = await expectExact({ search: 'ka' });
    expect((await terms()).length).toBe(1);
    await createItem(f, 'notes', { title: 'kale two' });
    expect(await expectExact({ search: 'ka' })).toBe(after + 1);
  });

  it('registers at most one term per collection in a while: a new search in between counts as before', async () => {
    const before = { ...keptSearchStats };
    await expectExact({ search: 'ox' });
    keptSearchLimits.registerSpacingMs = 60_000;
    try {
      await expectExact({ search: 'oy' });
      expect(keptSearchStats.registered - before.registered).toBe(1);
      expect(keptSearchStats.spaced - before.spaced).toBe(1);
      const conds = (await terms()).map((term) => term.cond);
      expect(conds.some((cond) => cond.includes("'%ox%'"))).toBe(true);
      expect(conds.some((cond) => cond.includes("'%oy%'"))).toBe(false);
    } finally {
      keptSearchLimits.registerSpacingMs = 0;
    }
  });

  it('does not keep a condition naming a column the table no longer has (a field removed while the search ran)', async () => {
    const collectionId = table.slice('content_'.length);
    const before = keptSearchStats.skipped;
    const total = await keptSearchTotal(t.database.db, t.database.db, { collectionId, table, cond: `("f_gone" || '') like '%ka%'`, key: 'gone' }, sql`select 7`, keptSearchLimits);
    expect(await rows<{ n: number }>(sql`select (${total})::integer as n`)).toEqual([{ n: 7 }]);
    expect(keptSearchStats.skipped).toBe(before + 1);
    expect((await terms()).some((term) => term.cond.includes('f_gone'))).toBe(false);
    // No trigger was left behind to fail the writes.
    await createItem(f, 'notes', { title: 'still writable' });
  });

  it.runIf(kind === 'postgres')('stays exact when writers are in progress while a term is registered', async () => {
    const pool = new pg.Pool({ connectionString: t.database.url!, max: 6 });
    const title = await column('title');
    let stop = false;
    let writes = 0;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i += 1) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const idText = `w${w}_${i}`;
          await client.query(`insert into "${table}" (_id, _rank, _created_date, _last_updated_date, "${title}") values ($1, $2, now(), now(), $3)`, [idText, `0w${w}${String(i).padStart(6, '0')}`, i % 2 ? 'Kaw' : 'caw']);
          // Writers in progress across the registration: some sleep inside their transaction.
          if (i % 3 === 0) await client.query('select pg_sleep(0.03)');
          if (i > 2) await client.query(`update "${table}" set "${title}" = case when "${title}" = 'Kaw' then 'xx' else 'zkaz' end where _id = $1`, [`w${w}_${i - 2}`]);
          if (i % 4 === 0 && i > 0) await client.query(`delete from "${table}" where _id = $1`, [`w${w}_${i - 1}`]);
          await client.query(i % 7 === 0 ? 'rollback' : 'commit');
          writes += 1;
        } finally {
          client.release();
        }
      }
    };
    const before = { ...keptSearchStats };
    try {
      const running = [0, 1, 2, 3].map(writer);
      // Each search of a new term registers it (and replaces older ones) while the writers run.
      for (const term of ['aw', 'zk', 'xx', 'kA', 'ca']) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        await search({ search: term });
      }
      stop = true;
      await Promise.all(running);
    } finally {
      stop = true;
      await pool.end();
    }
    expect(writes).toBeGreaterThan(20);
    // Registered while the writers ran (on a loaded machine one may give up on a writer past the lock timeout).
    expect(keptSearchStats.registered - before.registered + keptSearchStats.skipped - before.skipped).toBe(5);
    expect(keptSearchStats.registered - before.registered).toBeGreaterThanOrEqual(3);
    for (const term of ['aw', 'zk', 'xx', 'kA', 'ca']) await expectExact({ search: term });
  });

  it.runIf(kind === 'postgres')('does not wait on a writer that holds the table: it counts, and registers later', async () => {
    const client = new pg.Client({ connectionString: t.database.url! });
    await client.connect();
    const before = { ...keptSearchStats };
    try {
      await client.query('begin');
      await client.query(`update "${table}" set _last_updated_date = now() where _id = (select _id from "${table}" limit 1)`);
      const started = Date.now();
      await expectExact({ search: 'qj' });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(keptSearchStats.skipped).toBe(before.skipped + 1);
      expect((await terms()).some((term) => term.cond.includes('qj'))).toBe(false);
    } finally {
      await client.query('commit');
      await client.end();
    }
    await createItem(f, 'notes', { title: 'QJ' });
    expect(await expectExact({ search: 'qj' })).toBe(1);
    expect((await terms()).some((term) => term.cond.includes('qj'))).toBe(true);
  });
});
