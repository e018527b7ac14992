/**
 * Indexes made when needed (FIELD_INDEXES=lazy; server/content/field-indexes.ts, docs/content-storage.md
 * "Indexes made when needed"): a new collection starts with its primary key and rank index only;
 * the first list sorting, filtering or searching by a field is answered at once, correctly, and
 * the indexes serving it are made meanwhile; a word index serves searches only once its field's
 * vocabulary holds every row's words; an index unused for FIELD_INDEX_IDLE_DAYS is dropped with its
 * vocabulary and triggers, and made again when wanted. On PostgreSQL, writes go on while an index
 * is built.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('indexes made when needed on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let table: string;
  const column: Record<string, string> = {};

  const rows = async <T,>(statement: ReturnType<typeof sql>) => ((await t.database.db.execute(statement)) as unknown as { rows: T[] }).rows;
  const indexes = async () => (await rows<{ indexname: string }>(sql`select indexname from pg_indexes where tablename = ${table} order by indexname`)).map((r) => r.indexname);
  const vocabulary = async (slug: string) => (await rows<{ n: number }>(sql`select count(*)::int as n from item_search_words where field_column = ${column[slug]!}`))[0]!.n;
  const triggers = async () => (await rows<{ tgname: string }>(sql`select tgname from pg_trigger where tgrelid = ${table}::regclass and not tgisinternal order by tgname`)).map((r) => r.tgname);
  async function list(params: Record<string, string>) {
    const response = await f.call('GET', `collection/articles/item?${new URLSearchParams({ perPage: '100', ...params })}`);
    expect(response.statusCode, response.body).toBe(200);
    return { titles: json<{ title: string }[]>(response).map((item) => item.title), total: Number(response.headers['item-count']) };
  }

  const titles = ['Alpha market', 'Beta harbour', 'Gamma market stall', 'Delta field', 'Epsilon marketplace', 'Zeta'];

  beforeAll(async () => {
    // Page cache off: every list here is read from the table.
    t = await createTestApp(kind, { FIELD_INDEXES: 'lazy', LIST_PAGE_CACHE_MB: '0' });
    f = await contentFixture(t);
    const created = await createCollection(f, {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Views', slug: 'views', type: code('Number') },
        { name: 'Code', slug: 'code', type: code('PlainText'), unique: true },
      ],
    });
    const body = created as { schema: { slug: string; id: string }[] };
    for (const field of body.schema) column[field.slug] = `f_${field.id}`;
    table = (await rows<{ t: string }>(sql`select storage_tables[1] as t from content_collections where slug = 'articles'`))[0]!.t;
    for (const [i, title] of titles.entries()) await createItem(f, 'articles', { title, views: (i * 7) % 5, code: `c${i}` });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts a collection with its primary key, rank index and unique indexes only, and no vocabulary', async () => {
    expect(await indexes()).toEqual([`${table}_${column.code!.slice(2)}_u`, `${table}_pkey`, `${table}_rank`].sort());
    expect(await vocabulary('title')).toBe(0);
    expect(await triggers()).not.toContain(`${table}_${column.title!.slice(2)}_wi`);
  });

  it('answers a sort at once and makes its index meanwhile', async () => {
    const expected = titles.map((title, i) => ({ title, views: (i * 7) % 5 })).sort((a, b) => a.views - b.views || 0);
    const first = await list({ sort: 'views', order: 'asc' });
    expect(first.titles.map((title) => expected.find((e) => e.title === title)!.views)).toEqual(expected.map((e) => e.views));
    await t.app.ctx.fieldIndexes.settled();
    const made = await indexes();
    expect(made.filter((name) => name.startsWith(`${table}_${column.views!.slice(2)}_`))).toHaveLength(1);
    const [state] = await rows<{ state: string }>(sql`select state from item_lazy_indexes where table_name = ${table}`);
    expect(state!.state).toBe('ready');
    expect((await list({ sort: 'views', order: 'asc' })).titles).toEqual(first.titles);
    // A system key's index too.
    await list({ sort: '_createdDate', order: 'desc' });
    await t.app.ctx.fieldIndexes.settled();
    expect(await indexes()).toContain(`${table}_created`);
  });

  it('searches correctly before the word index is ready and after, and keeps the vocabulary from then on', async () => {
    // An export reads the search's words as the list does: nothing from a vocabulary not yet filled.
    const exported = await f.call('GET', `collection/articles/csv?${new URLSearchParams({ search: 'market', sort: 'title' })}`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body.trim().split('\n').slice(1).map((line) => line.split(',').find((cell) => cell.includes('market')))).toEqual(['Alpha market', 'Epsilon marketplace', 'Gamma market stall']);
    const search = await list({ search: 'market' });
    expect(search.titles.sort()).toEqual(['Alpha market', 'Epsilon marketplace', 'Gamma market stall']);
    expect(search.total).toBe(3);
    await t.app.ctx.fieldIndexes.settled();
    const wordIndex = `${table}_${column.title!.slice(2)}_w`;
    expect(await indexes()).toContain(wordIndex);
    expect(t.app.ctx.fieldIndexes.wordsReady(table, column.title!)).toBe(true);
    // Analyzed once made: the search reads the word index's statistics to turn away common words.
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from pg_stats where tablename = ${wordIndex}`))[0]!.n).toBeGreaterThan(0);
    // Every row's words are in the vocabulary (filled from the rows), and new rows' words go in as they are written.
    expect(await vocabulary('title')).toBeGreaterThanOrEqual(titles.length);
    await createItem(f, 'articles', { title: 'Eta market bazaar', views: 9, code: 'c9' });
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from item_search_words where field_column = ${column.title!} and word = 'bazaar'`))[0]!.n).toBe(1);
    const after = await list({ search: 'market' });
    expect(after.titles.sort()).toEqual(['Alpha market', 'Epsilon marketplace', 'Eta market bazaar', 'Gamma market stall']);
    expect(after.total).toBe(4);
    expect((await list({ search: 'bazaar' })).titles).toEqual(['Eta market bazaar']);
  });

  it('drops an index no list used for the idle days, with its vocabulary and triggers, and makes it again when wanted', async () => {
    const wordIndex = `${table}_${column.title!.slice(2)}_w`;
    await t.database.db.execute(sql`update item_lazy_indexes set used_at = now() - interval '31 days' where name = ${wordIndex}`);
    // Marked first (this process stops searching through it at once, others within a minute), dropped by a sweep 5 minutes on.
    expect(await t.app.ctx.fieldIndexes.sweep()).toEqual([]);
    expect(t.app.ctx.fieldIndexes.wordsReady(table, column.title!)).toBe(false);
    expect(await indexes()).toContain(wordIndex);
    const dropped = await t.app.ctx.fieldIndexes.sweep(new Date(Date.now() + 6 * 60_000));
    expect(dropped).toEqual([wordIndex]);
    expect(await indexes()).not.toContain(wordIndex);
    expect(await vocabulary('title')).toBe(0);
    expect(await triggers()).not.toContain(`${table}_${column.title!.slice(2)}_wi`);
    expect(t.app.ctx.fieldIndexes.wordsReady(table, column.title!)).toBe(false);
    // A row taken for removal (a sweep dropping it) is not revived by a list wanting it meanwhile.
    await t.database.db.execute(sql`insert into item_lazy_indexes (name, table_name, state) values (${wordIndex}, ${table}, 'removing')`);
    await list({ search: 'bazaar' });
    await t.app.ctx.fieldIndexes.settled();
    expect((await rows<{ state: string }>(sql`select state from item_lazy_indexes where name = ${wordIndex}`))[0]!.state).toBe('removing');
    expect(t.app.ctx.fieldIndexes.wordsReady(table, column.title!)).toBe(false);
    await t.database.db.execute(sql`delete from item_lazy_indexes where name = ${wordIndex}`);
    // Removed: the next reading of what is ready (every minute) lets a list ask for it again.
    await t.app.ctx.fieldIndexes.refresh();
    // Others stay: the sort index was used lately.
    expect((await indexes()).some((name) => name.startsWith(`${table}_${column.views!.slice(2)}_`))).toBe(true);
    // One marked for dropping and wanted again is kept.
    const sortIndex = (await indexes()).find((name) => name.startsWith(`${table}_${column.views!.slice(2)}_`))!;
    await t.database.db.execute(sql`update item_lazy_indexes set used_at = now() - interval '31 days' where name = ${sortIndex}`);
    expect(await t.app.ctx.fieldIndexes.sweep()).toEqual([]);
    await list({ sort: 'views' });
    await t.app.ctx.fieldIndexes.settled();
    expect(await t.app.ctx.fieldIndexes.sweep(new Date(Date.now() + 6 * 60_000))).toEqual([]);
    expect(await indexes()).toContain(sortIndex);
    // Still searched correctly, and made again.
    expect((await list({ search: 'bazaar' })).titles).toEqual(['Eta market bazaar']);
    await t.app.ctx.fieldIndexes.settled();
    expect(await indexes()).toContain(wordIndex);
    expect((await list({ search: 'market' })).total).toBe(4);
  });

  it('makes a nested list’s word index, with its triggers and vocabulary, when a top-level condition reaches it', async () => {
    const made = (await createCollection(f, {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Chapters', slug: 'chapters', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: code('PlainText') }] },
      ],
    })) as { schema: { slug: string; nestedCollectionSchema?: { slug: string; id: string }[] }[] };
    const heading = `f_${made.schema.find((field) => field.slug === 'chapters')!.nestedCollectionSchema![0]!.id}`;
    const book = (await createItem(f, 'books', { title: 'Atlas' }))._id;
    for (const words of ['One', 'Two']) await createItem(f, 'books', { heading: words }, { item: book, nestedID: 'chapters' });
    const nested = (params: Record<string, string>) => f.call('GET', `collection/books/item/${book}?${new URLSearchParams({ nestedID: 'chapters', ...params })}`);
    // A top-level condition on the chapters' headings: their text indexes are made with the chapters' table.
    const find = JSON.stringify({ chapters: { $elemMatch: { heading: { $regex: '^T' } } } });
    expect(json<{ title: string }[]>(await f.call('GET', `collection/books/item?${new URLSearchParams({ find })}`)).map((item) => item.title)).toEqual(['Atlas']);
    await t.app.ctx.fieldIndexes.settled();
    const nestedTable = (await rows<{ nested: string }>(sql`select storage_tables[2] as nested from content_collections where slug = 'books'`))[0]!.nested;
    expect(t.app.ctx.fieldIndexes.wordsReady(nestedTable, heading)).toBe(true);
    expect((await rows<{ word: string }>(sql`select word from item_search_words where field_column = ${heading} order by word`)).map((r) => r.word)).toEqual(['one', 'two']);
    expect((await rows<{ tgname: string }>(sql`select tgname from pg_trigger where tgrelid = ${nestedTable}::regclass and not tgisinternal and tgname like ${`%${heading.slice(2)}%`}`)).length).toBeGreaterThan(0);
    expect(json<{ heading: string }[]>(await nested({ search: 'tw' })).map((item) => item.heading)).toEqual(['Two']);
    await createItem(f, 'books', { heading: 'Twelve' }, { item: book, nestedID: 'chapters' });
    expect(json<{ heading: string }[]>(await nested({ search: 'tw' })).map((item) => item.heading)).toEqual(['Two', 'Twelve']);
  });
});

describe.runIf(databaseKinds.includes('postgres'))('an index made when needed on PostgreSQL', () => {
  let t: TestApp;
  let f: ContentFixture;

  beforeAll(async () => {
    t = await createTestApp('postgres', { FIELD_INDEXES: 'lazy', LIST_PAGE_CACHE_MB: '0' });
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'logs',
      name: 'Logs',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Body', slug: 'body', type: code('PlainText') },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is built while items are written, none held back by it', async () => {
    const [{ t: table }] = ((await t.database.db.execute(sql`select storage_tables[1] as t from content_collections where slug = 'logs'`)) as unknown as { rows: { t: string }[] }).rows as [{ t: string }];
    const [{ id: bodyId }] = ((await t.database.db.execute(sql`select (schema->1->>'id') as id from content_collections where slug = 'logs'`)) as unknown as { rows: { id: string }[] }).rows as [{ id: string }];
    // 60,000 rows written by SQL: the word index and its vocabulary take a few seconds to make.
    await t.database.db.execute(
      sql.raw(`insert into "${table}" (_id, _rank, _created_date, _last_updated_date, "f_${bodyId}")
        select 'r' || g, 'f' || lpad(g::text, 6, '0'), now(), now(), 'entry ' || g || ' word' || (g % 5000) || ' lorem ipsum dolor ' || md5(g::text) from generate_series(1, 60000) g`),
    );
    let writing = true;
    const waits: number[] = [];
    const writer = (async () => {
      let n = 0;
      while (writing) {
        const started = performance.now();
        await createItem(f, 'logs', { title: `during ${n++}`, body: 'written during the build' });
        waits.push(performance.now() - started);
      }
    })();
    const building = performance.now();
    const response = await f.call('GET', `collection/logs/item?${new URLSearchParams({ search: 'word123', perPage: '5' })}`);
    expect(response.statusCode, response.body).toBe(200);
    await t.app.ctx.fieldIndexes.settled();
    const took = performance.now() - building;
    writing = false;
    await writer;
    expect(t.app.ctx.fieldIndexes.wordsReady(table, `f_${bodyId}`)).toBe(true);
    // Writes went on during the build (several of them), and none waited long.
    expect(waits.length, `build took ${Math.round(took)} ms`).toBeGreaterThan(3);
    // A write held by the build would wait for all of it (seconds); a loaded runner's slowest create stays well under 3 s.
    expect(Math.max(...waits), `build took ${Math.round(took)} ms`).toBeLessThan(Math.min(3000, took / 2));
    // The rows written during the build are searchable through the new index.
    const during = await f.call('GET', `collection/logs/item?${new URLSearchParams({ search: 'during', perPage: '1' })}`);
    expect(Number(during.headers['item-count'])).toBe(waits.length);
  }, 120_000);

  it('stops a build on its table when a field is added, instead of holding the collection behind it', async () => {
    const [{ t: table }] = ((await t.database.db.execute(sql`select storage_tables[1] as t from content_collections where slug = 'logs'`)) as unknown as { rows: { t: string }[] }).rows as [{ t: string }];
    const [{ id: bodyId }] = ((await t.database.db.execute(sql`select (schema->1->>'id') as id from content_collections where slug = 'logs'`)) as unknown as { rows: { id: string }[] }).rows as [{ id: string }];
    // The body's trigram index, made by the search above, is dropped so that the next search makes it again.
    const trigram = ((await t.database.db.execute(sql`select indexname from pg_indexes where tablename = ${table} and indexdef like '%gin_trgm_ops%' and indexdef like ${`%f_${bodyId}%`}`)) as unknown as { rows: { indexname: string }[] }).rows[0]!.indexname;
    await t.database.db.execute(sql`drop index ${sql.identifier(trigram)}`);
    await t.database.db.execute(sql`delete from item_lazy_indexes where name = ${trigram}`);
    await t.app.ctx.fieldIndexes.refresh();
    expect((await f.call('GET', `collection/logs/item?${new URLSearchParams({ search: 'lorem', perPage: '1' })}`)).statusCode).toBe(200);
    const building = async () =>
      ((await t.database.db.execute(sql`select count(*)::int as n from pg_stat_activity where query like ${`create index concurrently%"${trigram}"%`}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n > 0;
    const deadline = Date.now() + 20_000;
    while (!(await building())) {
      expect(Date.now(), 'the build started').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const started = performance.now();
    const added = await f.call('POST', 'collection/logs/field', { name: 'Level', slug: 'level', type: code('Number') });
    const took = performance.now() - started;
    expect(added.statusCode, added.body).toBe(201);
    await t.app.ctx.fieldIndexes.settled();
    // The build was stopped (it is made again when a list next wants it, after the retry pause).
    expect(((await t.database.db.execute(sql`select count(*)::int as n from item_lazy_indexes where name = ${trigram}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    expect(took, 'the field was added without waiting for the build').toBeLessThan(5000);
    expect((await createItem(f, 'logs', { title: 'after', level: 3 }))._id).toBeTruthy();
  }, 120_000);
});
