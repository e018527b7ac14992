/**
 * The engine's statements are served by the indexes the field types declare: on a 100,000-item
 * collection (25,000 on PGlite), EXPLAIN shows index scans (the word GIN indexes and the vocabulary
 * for search, terms of 1 and 2 characters included; trigram GIN for search text with whitespace and
 * regexes; btree for equality, ranges and sorts; GIN containment for ItemRef; GiST over the point
 * for GeoPoint `within`), never a sequential
 * scan of the item table.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { levelOf } from '../../server/content/collections.ts';
import { compileListQuery, countStatement, pageStatement, parseListQuery, type RawListParams } from '../../server/content/query/index.ts';
import { holdsUnservedSearch, pageWithTotalStatement } from '../../server/content/query/compile.ts';
import { resolveSearchWords } from '../../server/content/query/search-words.ts';
import { fieldColumn, type SchemaLevel } from '../../server/content/schema-tree.ts';
import { contentCollections } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
/** 100,000 items on PostgreSQL; PGlite (single-threaded WebAssembly) loads 25,000 to keep the file under a minute. */
/** A word of one title (row 4242's hash) and one body (row 606's: 606 × 7 = 4242). */
const rare = createHash('md5').update('4242').digest('hex').slice(0, 8);
const sizeOn = (kind: string) => Number(process.env.QUERY_EXPLAIN_ITEMS ?? (kind === 'postgres' ? 100_000 : 25_000));

describe.each(databaseKinds)('query plans on %s', (kind) => {
  const size = sizeOn(kind);
  let t: TestApp;
  let level: SchemaLevel;
  let authorId: string;

  async function plan(statement: SQL): Promise<string> {
    const result = (await t.database.db.execute(sql`explain (format json) ${statement}`)) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
    const raw = result.rows[0]!['QUERY PLAN'];
    return typeof raw === 'string' ? raw : JSON.stringify(raw);
  }
  /** The plans of a list's page and count; for a search, the page with its total as the engine runs it (its matches found once). */
  async function plans(raw: RawListParams) {
    const parsed = parseListQuery(level, raw);
    // As the engine does: a search's texts get their tokens from the vocabularies first.
    const compiled = compileListQuery(level, { ...parsed, where: await resolveSearchWords(t.database.db, level.table, parsed.where) });
    const page = compiled.searched ? pageWithTotalStatement(compiled, { total: sql`(${countStatement(compiled)})`, deferredFrom: 1000 }) : pageStatement(compiled);
    return { page: await plan(page), count: await plan(countStatement(compiled)) };
  }
  /** Every scan of the plan: its node type and the index it reads, if any. */
  const scans = (text: string) => {
    const out: string[] = [];
    const walk = (node: Record<string, unknown>) => {
      const type = node['Node Type'] as string;
      if (type.endsWith('Scan')) out.push(`${type} ${(node['Index Name'] as string | undefined) ?? (node['Relation Name'] as string | undefined) ?? ''}`);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((JSON.parse(text) as { Plan: Record<string, unknown> }[])[0]!.Plan);
    return out;
  };
  /** The name of the index a field's storage made (its position in the type's index list). */
  const index = (slug: string, suffix: string) => `${level.table}_${level.fields.find((x) => x.slug === slug)!.id}_${suffix}`;
  const expectIndexed = (text: string, index: RegExp) => {
    const used = scans(text);
    expect(used.filter((s) => s.startsWith('Seq Scan')), text).toEqual([]);
    expect(used.some((s) => index.test(s)), `${used.join('\n')}\n${text}`).toBe(true);
  };

  beforeAll(async () => {
    // The plans checked are those of indexes made with their fields (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager' });
    const f = await contentFixture(t);
    await createCollection(f, { id: 'authors', name: 'Authors', schema: [{ name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true }] });
    authorId = (await createItem(f, 'authors', { name: 'Ada' }))._id;
    await createCollection(f, {
      id: 'big',
      name: 'Big',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText') },
        { name: 'Body', slug: 'body', type: code('RichText') },
        { name: 'Site', slug: 'site', type: code('Link') },
        { name: 'Phone', slug: 'phone', type: code('Phone') },
        { name: 'Price', slug: 'price', type: code('Number') },
        { name: 'When', slug: 'when', type: code('Date') },
        { name: 'Authors', slug: 'authors', type: code('ItemRef'), referenceCollectionID: 'authors' },
        { name: 'Status', slug: 'status', type: code('Option'), options: ['o0', 'o1', 'o2', 'o3'].map((_id) => ({ _id, value: _id.toUpperCase() })) },
        { name: 'Place', slug: 'place', type: code('GeoPoint') },
      ],
    });
    const [row] = await t.database.db.select().from(contentCollections).where(sql`${contentCollections.slug} = 'big'`);
    level = levelOf(row!);
    const col = (slug: string) => sql.identifier(fieldColumn(level.fields.find((x) => x.slug === slug)!.id));
    await t.database.db.execute(sql`insert into ${sql.identifier(level.table)}
      (_id, _rank, _created_date, _last_updated_date, ${col('title')}, ${col('body')}, ${col('site')}, ${col('phone')}, ${col('price')}, ${col('when')}, ${col('authors')}, ${col('status')}, ${col('place')})
      select lpad(to_hex(g), 24, '0'), lpad(to_hex(g), 8, '0'), now() - g * interval '1 second', now(),
        'title ' || md5(g::text) || case when g % 997 = 0 then ' Ωz' else '' end, '<p>' || md5((g * 7)::text) || ' body</p>', 'https://' || left(md5((g * 3)::text), 12) || '.example',
        (5550000 + g)::text, g, now() - g * interval '1 hour',
        case when g % 1000 = 0 then jsonb_build_array(jsonb_build_object('itemRefID', 'x' || g, 'value', 'Writer ' || g)) end,
        jsonb_build_object('_id', 'o' || (g % 4), 'value', 'O' || (g % 4)),
        case when g % 50 <> 0 then jsonb_build_object('lat', (g % 1799) / 10.0 - 89.9, 'lng', (g * 7 % 3599) / 10.0 - 179.9) end
      from generate_series(1, ${size}) g`);
    await t.database.db.execute(sql`update content_collections set item_count = ${size} where id = ${row!.id}`);
    // Rows written after a GIN index was made wait in its pending list until a vacuum merges them
    // (autovacuum does, as does an insert past gin_pending_list_limit); the planner prices them.
    await t.database.db.execute(sql`vacuum analyze ${sql.identifier(level.table)}`);
    await t.database.db.execute(sql`vacuum analyze item_search_words`);
    // Index-only scans need the visibility map, which a vacuum sets only for rows older than every
    // snapshot taken in this database, and a snapshot holds back the oldest transaction running on
    // the whole server (other test files', here). Vacuum again until the table is all visible, as
    // autovacuum would make it.
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const result = (await t.database.db.execute(sql`select relpages, relallvisible from pg_class where relname = ${level.table}`)) as unknown as { rows: { relpages: number; relallvisible: number }[] };
      const pages = result.rows[0];
      if (pages!.relallvisible >= pages!.relpages) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
      await t.database.db.execute(sql`vacuum ${sql.identifier(level.table)}`);
    }
  }, 300_000);
  afterAll(() => t?.close());

  it('search over every text field uses the word indexes (page and count)', async () => {
    const { page, count } = await plans({ search: rare });
    expectIndexed(page, new RegExp(`Bitmap Index Scan ${index('title', 'w')}$`));
    expectIndexed(count, new RegExp(`Bitmap Index Scan ${index('body', 'w')}$`));
    // Several terms, _id, numbers and linked items' display values: still index scans only.
    const many = await plans({ search: `beef42|5551234|${'0'.repeat(20)}1e240|Writer` });
    expectIndexed(many.page, /Bitmap Index Scan .*_pkey/);
    // Linked items' display values: their word index.
    expectIndexed(many.count, new RegExp(`Bitmap Index Scan ${index('authors', 'w')}$`));
    // `3000` is in thousands of the titles' hash tokens: the word index declines it there, so the
    // matches are many and the page walks the rank index testing each row (its total is kept).
    const declined = await plans({ search: `beef42|Writer|3000` });
    expectIndexed(declined.page, new RegExp(`Index Scan ${level.table}_rank`));
    // Text with whitespace keeps the trigram indexes (each candidate rechecked).
    expectIndexed((await plans({ search: 'wRiTeR 30' })).count, new RegExp(`Bitmap Index Scan ${index('authors', 't1')}$`));
    expectIndexed((await plans({ search: 'title c0f' })).count, new RegExp(`Bitmap Index Scan ${index('title', 't1')}$`));
  });

  it('search terms of 1 and 2 characters read the vocabulary and the word indexes, never the table in full', async () => {
    // 'z' and 'ωz' are in one token of the titles' vocabulary (about 1 title in 1,000).
    for (const search of ['z', 'ΩZ', 'Z|Ω']) {
      const { page, count } = await plans({ search });
      // The tokens were read from the vocabulary first (by its primary key: a short term has no trigram).
      for (const text of [page, count]) expectIndexed(text, new RegExp(`Bitmap Index Scan ${index('title', 'w')}$`));
    }
  });

  it('a term more than 256 tokens of a field hold is searched without the word index', async () => {
    // Every title holds a hash: 'c0' is in thousands of its tokens (and in about 1 row in 9). Such a
    // term costs one pass over the table (docs/content-storage.md); no trigram index is read for it.
    const { page, count } = await plans({ search: 'c0' });
    for (const text of [page, count]) expect(scans(text).filter((scan) => /_(t\d+|w)$/.test(scan)), text).toEqual([]);
  });

  it('a search page with its total reads the matches once, and equals the page and the count apart', async () => {
    const rows = async (statement: SQL) => ((await t.database.db.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows;
    const cases: RawListParams[] = [
      { search: rare },
      { search: 'beef|Writer 3000|5551234', sort: 'price', order: 'desc', perPage: '5' },
      { search: 'title 0', sort: 'title', pageNumber: '4', perPage: '20' },
      { search: 'title 0', query: 'price:<:5000', sort: 'when', order: 'desc' },
      { search: 'ffff|eeee', sort: '_createdDate', pageNumber: '2', perPage: '3' },
      { search: 'no such text anywhere' },
    ];
    let searched = 0;
    for (const raw of cases) {
      const parsed = parseListQuery(level, raw);
      const where = await resolveSearchWords(t.database.db, level.table, parsed.where);
      const compiled = compileListQuery(level, { ...parsed, where });
      // A text the word index declines (held by too many tokens) makes the page walk the sort index instead.
      expect(compiled.searched || holdsUnservedSearch(where!), JSON.stringify(raw)).toBe(true);
      if (compiled.searched) searched += 1;
      const combined = await rows(pageWithTotalStatement(compiled, { total: sql`(${countStatement(compiled)})`, deferredFrom: 1000 }));
      const page = await rows(pageStatement(compiled));
      const [count] = await rows(countStatement(compiled));
      expect(combined.map((row) => row._id), JSON.stringify(raw)).toEqual(page.map((row) => row._id));
      if (combined.length) expect(combined.every((row) => row.__total === count!.n), JSON.stringify(raw)).toBe(true);
    }
    expect(searched).toBeGreaterThanOrEqual(4);
    const parsed = parseListQuery(level, { search: rare });
    const compiled = compileListQuery(level, { ...parsed, where: await resolveSearchWords(t.database.db, level.table, parsed.where) });
    const once = scans(await plan(pageWithTotalStatement(compiled, { total: sql`(${countStatement(compiled)})`, deferredFrom: 1000 })));
    expect(once.filter((scan) => scan === `Bitmap Index Scan ${index('title', 'w')}`), once.join('\n')).toHaveLength(1);
    const twice = scans(await plan(sql`select ${compiled.select}, (${countStatement(compiled)}) from ${compiled.table} where ${compiled.where} order by ${compiled.orderBy} limit 50`));
    expect(twice.filter((scan) => scan === `Bitmap Index Scan ${index('title', 'w')}`), twice.join('\n')).toHaveLength(2);
  });

  it('regex filters on text use the trigram index', async () => {
    expectIndexed((await plans({ query: 'title:regex:c0ffee' })).count, /Bitmap Index Scan .*_t1$/);
    expectIndexed((await plans({ find: JSON.stringify({ body: { $regex: 'dead.?beef', $options: 'i' } }) })).count, /Bitmap Index Scan .*_t0$/);
  });

  it('equality, ranges, ItemRef containment and sorts use btree and GIN indexes', async () => {
    expectIndexed((await plans({ query: `title:=:title ${'c'.repeat(32)}` })).page, /Index.* Scan .*_b0$/);
    expectIndexed((await plans({ query: 'price:>:99990' })).page, /Index.* Scan .*_b0$/);
    expectIndexed((await plans({ query: 'when:>:2026-01-01T00:00:00Z', sort: 'when', order: 'desc' })).page, /Index.* Scan .*_b0$/);
    expectIndexed((await plans({ query: `authors.itemRefID:=:${authorId},x3000` })).count, /Bitmap Index Scan .*_g0$/);
    expectIndexed((await plans({ sort: 'price', order: 'DESC', pageNumber: 3 })).page, /Index Scan.* .*_b0$/);
    expectIndexed((await plans({ sort: 'title' })).page, /Index Scan.* .*_b0$/);
    expectIndexed((await plans({})).page, /Index Scan.* .*_rank$/);
  });

  it('GeoPoint within (boxes, circles, across the antimeridian) uses the GiST index over the point', async () => {
    const gist = new RegExp(`Index Scan ${index('place', 'g0')}$`);
    for (const within of ['10,20,12,25', '-10,170,10,-170', '48.85,2.35,50000', '-20.5,179.9,100000', '89.5,0,20000']) {
      const { page, count } = await plans({ query: `place:within:${within}` });
      expectIndexed(page, gist);
      expectIndexed(count, gist);
    }
  });

  it('an Option filter is counted from its index alone (index-only scan)', async () => {
    const { count } = await plans({ query: 'status:=:o1' });
    expectIndexed(count, new RegExp(`Index Only Scan ${index('status', 'b0')}$`));
    expectIndexed((await plans({ find: JSON.stringify({ 'status._id': { $in: ['o1', 'o2'] } }) })).count, new RegExp(`Index Only Scan ${index('status', 'b0')}$`));
  });
});
