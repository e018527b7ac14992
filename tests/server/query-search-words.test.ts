/**
 * The search's word index (migration 0012, docs/content-storage.md "Listing and searching items"): a term without
 * whitespace is found through each searched field's vocabulary and a GIN index over each row's
 * words. Property-based (fast-check): over random values of random characters (punctuation,
 * Unicode, tabs and newlines, runs of spaces, tokens longer than the 512-character chunks) and
 * random terms (1 and 2 characters, any slice of a stored value), the search gives exactly what the
 * reference evaluator gives — top level and nested, text fields and linked items' display values,
 * after updates. Field add and remove keep the index, triggers and vocabulary right, and the
 * migration brings tables made without them up to date.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { matchSearch, type Doc } from './support/query-reference.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const runs = Number(process.env.QUERY_PROPERTY_RUNS ?? 60);

/**
 * Characters of the values and terms: letters in both cases (ASCII, accented, Greek, ß), symbols
 * LIKE and JSON treat specially, other scripts, an emoji (two UTF-16 units) and ASCII whitespace.
 * JavaScript's toLowerCase and PostgreSQL's lower agree on all of these (not on a capital sigma,
 * which JavaScript lowers to a final sigma at the end of a word).
 */
const alphabet = ['a', 'b', 'A', 'B', 'é', 'É', 'σ', 'Ω', 'ß', 'ç', '中', '😀', '.', '%', '_', '\\', '"', ',', '-', '/', ':', '1', ' ', ' ', '\t', '\n', '\u00a0'];
const valueArb = fc.oneof(
  { arbitrary: fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }).map((chars) => chars.join('')), weight: 6 },
  // Tokens longer than the word index's 512-character chunks.
  { arbitrary: fc.tuple(fc.constantFrom('ab', 'Ba', 'é%', 'xy'), fc.integer({ min: 300, max: 700 }), fc.constantFrom('', ' tail', 'Z')).map(([unit, n, end]) => `${unit.repeat(n)}${end}`), weight: 1 },
);
const people = ['Ann Lee', 'bob', 'ÉMILE "Q" \\', 'Ωμέγα', 'a%b_c'];

describe.each(databaseKinds)('search through the word index on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let peopleIds: string[];
  let docs: Doc[];
  let parent: string;
  let parts: Doc[];

  const rows = async (statement: ReturnType<typeof sql>) => ((await t.database.db.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows;
  async function listIds(path: string, params: Record<string, string>) {
    const response = await f.call('GET', `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ perPage: '1000', ...params })}`);
    expect(response.statusCode, `${path} ${JSON.stringify(params)}\n${response.body}`).toBe(200);
    return { ids: (json(response) as Doc[]).map((d) => d._id as string), count: Number(response.headers['item-count']) };
  }
  const all = async (path: string) => json(await f.call('GET', `${path}${path.includes('?') ? '&' : '?'}perPage=1000`)) as Doc[];
  const searchFields = { text: ['title', 'body', 'site', 'phone'], numbers: [], refs: ['who'] };

  beforeAll(async () => {
    // Vocabularies and word indexes made with their fields (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager' });
    f = await contentFixture(t);
    await createCollection(f, { id: 'people', name: 'People', schema: [{ name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true }] });
    peopleIds = [];
    for (const name of people) peopleIds.push((await createItem(f, 'people', { name }))._id);
    await createCollection(f, {
      id: 'notes',
      name: 'Notes',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText') },
        { name: 'Body', slug: 'body', type: code('RichText') },
        { name: 'Site', slug: 'site', type: code('Link') },
        { name: 'Phone', slug: 'phone', type: code('Phone') },
        { name: 'Who', slug: 'who', type: code('ItemRef'), referenceCollectionID: 'people' },
        {
          name: 'Parts',
          slug: 'parts',
          type: code('NestedCollection'),
          nestedCollectionSchema: [
            { name: 'Label', slug: 'label', type: code('PlainText') },
            { name: 'By', slug: 'by', type: code('ItemRef'), referenceCollectionID: 'people' },
          ],
        },
      ],
    });
    const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 4 });
    const items = fc.sample(
      fc.record({
        title: optional(valueArb.map((v) => v.slice(0, 120))),
        body: optional(valueArb),
        site: optional(valueArb.map((v) => v.slice(0, 200))),
        phone: optional(fc.array(fc.constantFrom('5', '0', '1', '-', '+', ' ', '(', ')'), { minLength: 1, maxLength: 10 }).map((c) => c.join(''))),
        who: optional(fc.subarray(peopleIds, { minLength: 1, maxLength: 2 })),
      }),
      { numRuns: 36, seed: 20261124 },
    );
    for (const item of items) {
      const body: Record<string, unknown> = Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined && (typeof v !== 'string' || v.trim() !== '')));
      if (body.who) body.who = (body.who as string[]).map((itemRefID) => ({ itemRefID }));
      const response = await f.call('POST', 'collection/notes/item', body);
      // A value the field type refuses (a Link or Phone that is not one) is left out.
      if (response.statusCode !== 201) {
        for (const key of ['site', 'phone']) delete body[key];
        await createItem(f, 'notes', body);
      }
    }
    docs = await all('collection/notes/item');
    expect(docs.length).toBe(36);
    parent = docs[0]!._id as string;
    for (const [i, label] of fc.sample(valueArb, { numRuns: 24, seed: 5 }).entries()) {
      const value: Record<string, unknown> = label.trim() ? { label } : {};
      if (i % 3 === 0) value.by = [{ itemRefID: peopleIds[i % peopleIds.length] }];
      await createItem(f, 'notes', value, { item: parent, nestedID: 'parts' });
    }
    parts = await all(`collection/notes/item/${parent}?nestedID=parts`);
    expect(parts.length).toBe(24);
  }, 120_000);
  afterAll(() => t?.close());

  /** Terms: any slice of a stored value (trimmed as the search trims), 1 or 2 random characters, or anything. */
  const termArb = (values: () => string[]) =>
    fc.oneof(
      fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 40 })).map(([which, start, length]) => {
        const pool = values();
        const value = pool[which % pool.length] ?? 'a';
        const chars = [...value];
        const from = start % Math.max(chars.length, 1);
        return chars.slice(from, from + length).join('').replace(/\|/g, '');
      }),
      fc.array(fc.constantFrom(...alphabet.filter((c) => c.trim())), { minLength: 1, maxLength: 2 }).map((c) => c.join('')),
      fc.string({ minLength: 1, maxLength: 4 }),
    );
  const texts = (list: Doc[], keys: string[]) => list.flatMap((d) => keys.flatMap((k) => (typeof d[k] === 'string' ? [d[k] as string] : Array.isArray(d[k]) ? (d[k] as { value: string }[]).map((r) => r.value) : [])));
  const inOrder = (list: Doc[], matching: (d: Doc) => boolean) => list.filter(matching).map((d) => d._id as string);

  it('top-level search equals the reference for every kind of term', async () => {
    let telling = 0;
    // Every text through the word index, however many rows the statistics say its tokens are in.
    const searchWordLimits = t.app.ctx.config.listQueries.searchWords;
    const saved = searchWordLimits.rowShare;
    searchWordLimits.rowShare = Infinity;
    onTestFinished(() => {
      searchWordLimits.rowShare = saved;
    });
    const terms = termArb(() => texts(docs, ['title', 'body', 'site', 'phone', 'who']));
    await fc.assert(
      fc.asyncProperty(fc.array(terms, { minLength: 1, maxLength: 3 }), async (termList) => {
        const search = termList.join('|');
        fc.pre(search.trim() !== '' && search.length <= 256 && !/[\u0000\ud800-\udfff]/.test(search.replace(/\ud83d\ude00/g, '')));
        const expected = inOrder(docs, (d) => matchSearch(d, search, searchFields));
        if (expected.length > 0 && expected.length < docs.length) telling++;
        for (const result of [await listIds('collection/notes/search', { query: search }), await listIds('collection/notes/item', { search })]) {
          expect(result.ids, JSON.stringify(search)).toEqual(expected);
          expect(result.count, JSON.stringify(search)).toBe(expected.length);
        }
      }),
      { numRuns: 2 * runs, seed: 29 },
    );
    expect(telling).toBeGreaterThan(runs / 2);
  });

  it('texts too many tokens hold (no word index) and tokens split over several tests give the same results', async () => {
    const searchWordLimits = t.app.ctx.config.listQueries.searchWords;
    const saved = { ...searchWordLimits };
    Object.assign(searchWordLimits, { tokens: 6, perTest: 2, rowShare: 0.3 });
    try {
      let many = 0;
      await fc.assert(
        fc.asyncProperty(termArb(() => texts(docs, ['title', 'body', 'site', 'who'])), async (term) => {
          fc.pre(term.trim() !== '' && !/[\u0000\ud800-\udfff]/.test(term.replace(/\ud83d\ude00/g, '')));
          const expected = inOrder(docs, (d) => matchSearch(d, term, searchFields));
          if (expected.length > 6) many++;
          const result = await listIds('collection/notes/search', { query: term });
          expect(result.ids, JSON.stringify(term)).toEqual(expected);
          expect(result.count).toBe(expected.length);
        }),
        { numRuns: runs, seed: 37 },
      );
      expect(many).toBeGreaterThan(0);
    } finally {
      Object.assign(searchWordLimits, saved);
    }
  });

  it('a short common text (no word index) matches every spelling ILIKE would, read as LIKE of each spelling, and escapes LIKE characters', async () => {
    await createCollection(f, { id: 'shorts', name: 'Shorts', schema: [{ name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true }] });
    const titles = ['KA one', 'xkAy', '\u212aa kelvin', 'Ka', 'k a', 'K', 'nothing', 'İi dotted', 'ii', '50%', '5_0', 'a\\b', 'ω'];
    const ids = new Map<string, string>();
    for (const title of titles) ids.set(title, (await createItem(f, 'shorts', { title }))._id);
    const searchWordLimits = t.app.ctx.config.listQueries.searchWords;
    const saved = { ...searchWordLimits };
    // No text through the word index: every one takes the short scan (or ILIKE when not ASCII).
    Object.assign(searchWordLimits, { tokens: -1 });
    try {
      const expect_ = async (term: string, matching: string[]) => {
        for (const result of [await listIds('collection/shorts/search', { query: term }), await listIds('collection/shorts/item', { search: term })]) {
          expect(new Set(result.ids), JSON.stringify(term)).toEqual(new Set(matching.map((title) => ids.get(title))));
          expect(result.count, JSON.stringify(term)).toBe(matching.length);
        }
      };
      await expect_('ka', ['KA one', 'xkAy', '\u212aa kelvin', 'Ka']);
      await expect_('KA', ['KA one', 'xkAy', '\u212aa kelvin', 'Ka']);
      await expect_('k', ['KA one', 'xkAy', '\u212aa kelvin', 'Ka', 'k a', 'K']);
      await expect_('ii', ['İi dotted', 'ii']);
      await expect_('%', ['50%']);
      await expect_('_', ['5_0']);
      await expect_('\\', ['a\\b']);
      await expect_('Ω', ['ω']);
    } finally {
      Object.assign(searchWordLimits, saved);
    }
  });

  it('nested-list search equals the reference (text and linked items)', async () => {
    const terms = termArb(() => texts(parts, ['label', 'by']));
    await fc.assert(
      fc.asyncProperty(terms, async (term) => {
        fc.pre(term.trim() !== '' && !/[\u0000\ud800-\udfff]/.test(term.replace(/\ud83d\ude00/g, '')));
        const expected = inOrder(parts, (d) => matchSearch(d, term, { text: ['label'], numbers: [], refs: ['by'] }));
        const result = await listIds(`collection/notes/item/${parent}?nestedID=parts`, { search: term });
        expect(result.ids, JSON.stringify(term)).toEqual(expected);
        expect(result.count).toBe(expected.length);
      }),
      { numRuns: runs, seed: 31 },
    );
  });

  it('finds words written by updates, and a linked item renamed', async () => {
    const target = docs[5]!;
    const response = await f.call('PUT', `collection/notes/item/${target._id}`, { title: 'Quixotic ZEBRA\tyak' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await listIds('collection/notes/search', { query: 'xoTIC' })).ids).toEqual([target._id]);
    expect((await listIds('collection/notes/search', { query: 'bra' })).ids).toContain(target._id);
    expect((await listIds('collection/notes/search', { query: 'ak' })).ids).toContain(target._id);
    // Its earlier words are no longer its own (the vocabulary keeps them, the row's words do not).
    const before = typeof target.title === 'string' ? (target.title as string).trim().split(/[ \t\n\r\f\v]+/)[0] : undefined;
    if (before && before.length > 2) {
      const expected = inOrder(docs.map((d) => (d._id === target._id ? { ...d, title: 'Quixotic ZEBRA\tyak' } : d)), (d) => matchSearch(d, before, searchFields));
      expect((await listIds('collection/notes/search', { query: before })).ids).toEqual(expected);
    }
    const renamed = await f.call('PUT', `collection/people/item/${peopleIds[1]}`, { name: 'Robert Wombat' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const holders = (await all('collection/notes/item')).filter((d) => Array.isArray(d.who) && (d.who as { itemRefID: string }[]).some((r) => r.itemRefID === peopleIds[1]));
    const wombats = await listIds('collection/notes/search', { query: 'WOMB' });
    if (holders.some((d) => (d.who as { value: string }[]).some((r) => r.value === 'Robert Wombat'))) expect(wombats.ids.length).toBeGreaterThan(0);
    expect(wombats.ids).toEqual(inOrder(await all('collection/notes/item'), (d) => matchSearch(d, 'WOMB', searchFields)));
  });

  const wordObjects = async (table: string) => {
    const indexes = await rows(sql`select indexname, indexdef from pg_indexes where tablename = ${table} and indexname like '%\\_w'`);
    const triggers = await rows(sql`select tgname from pg_trigger where tgrelid = ${table}::regclass and tgname like '%\\_w_' order by 1`);
    return { indexes: indexes.map((r) => `${r.indexname as string} ${r.indexdef as string}`).sort(), triggers: triggers.map((r) => r.tgname as string) };
  };
  const vocabulary = async (column: string) => (await rows(sql`select word from item_search_words where field_column = ${column} order by word collate "C"`)).map((r) => r.word as string);

  it('a field added gets its word index, triggers and vocabulary; one removed takes them away', async () => {
    await createCollection(f, {
      id: 'scratch',
      name: 'Scratch',
      schema: [
        { name: 'Name', slug: 'name', type: code('PlainText') },
        { name: 'Box', slug: 'box', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Inner', slug: 'inner', type: code('PlainText') }] },
      ],
    });
    const collection = (await rows(sql`select id, schema from content_collections where slug = 'scratch'`))[0] as { id: string; schema: { id: string; slug: string; nestedCollectionSchema?: { id: string }[] }[] };
    const table = `content_${collection.id}`;
    const first = await createItem(f, 'scratch', { name: 'Alpha beta' });
    const extra = await addField(f, 'scratch', { name: 'Note', slug: 'note', type: code('RichText') });
    const column = `f_${extra.id as string}`;
    const made = await wordObjects(table);
    expect(made.indexes.filter((i) => i.includes(extra.id as string))).toHaveLength(1);
    expect(made.triggers.filter((name) => name.includes(extra.id as string))).toEqual([`${table}_${extra.id as string}_wi`, `${table}_${extra.id as string}_wu`]);
    const second = await createItem(f, 'scratch', { name: 'gamma', note: '<p>Delta   EPSILON</p>' });
    expect(await vocabulary(column)).toEqual(['<p>delta', 'epsilon</p>']);
    expect((await listIds('collection/scratch/search', { query: 'psi' })).ids).toEqual([second._id]);
    expect((await listIds('collection/scratch/search', { query: 'a' })).ids).toEqual([first._id, second._id]);

    // A nested item's words, then the nested collection removed: its fields' vocabularies go.
    const box = collection.schema.find((x) => x.slug === 'box')!;
    const inner = `f_${box.nestedCollectionSchema![0]!.id}`;
    await createItem(f, 'scratch', { inner: 'Nested words' }, { item: first._id, nestedID: 'box' });
    expect(await vocabulary(inner)).toEqual(['nested', 'words']);
    expect((await f.call('DELETE', `collection/scratch/field/${box.id}`)).statusCode).toBe(204);
    expect(await vocabulary(inner)).toEqual([]);

    expect((await f.call('DELETE', `collection/scratch/field/${extra.id as string}`)).statusCode).toBe(204);
    const left = await wordObjects(table);
    expect(left.indexes.some((i) => i.includes(extra.id as string))).toBe(false);
    expect(left.triggers.some((name) => name.includes(extra.id as string))).toBe(false);
    expect(await vocabulary(column)).toEqual([]);
    // Writes still work (no trigger names the dropped column) and the other field is still searched.
    const third = await createItem(f, 'scratch', { name: 'zeta' });
    expect((await listIds('collection/scratch/search', { query: 'ZET' })).ids).toEqual([third._id]);

    // Deleting the collection forgets every vocabulary of its fields.
    const name = `f_${collection.schema.find((x) => x.slug === 'name')!.id}`;
    expect((await vocabulary(name)).length).toBeGreaterThan(0);
    expect((await f.call('DELETE', 'collection/scratch')).statusCode).toBe(204);
    expect(await vocabulary(name)).toEqual([]);
  });

  it('migration 0012 brings tables made without the word index up to date, and can run again', async () => {
    const tables = (await rows(sql`select tablename from pg_tables where tablename like 'content\\_%' and tablename <> 'content_collections'`)).map((r) => r.tablename as string);
    const before = Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await wordObjects(table)] as const)));
    const words = await rows(sql`select field_column, word from item_search_words order by 1, 2`);
    expect(Object.values(before).some((o) => o.indexes.length > 0)).toBe(true);
    // As before the migration: no word indexes, no triggers, no vocabulary.
    for (const [table, objects] of Object.entries(before)) {
      for (const index of objects.indexes) await t.database.db.execute(sql`drop index ${sql.identifier(index.split(' ')[0]!)}`);
      for (const trigger of objects.triggers) await t.database.db.execute(sql`drop trigger ${sql.identifier(trigger)} on ${sql.identifier(table)}`);
    }
    await t.database.db.execute(sql`delete from item_search_words`);
    // The vocabulary is rewritten by hand here, as a migration does before a server starts: this
    // process forgets the pages and tokens it remembers (item writes are what it listens for).
    t.app.ctx.caches.clearAll();
    expect((await listIds('collection/notes/search', { query: 'a' })).count).toBe(0);

    const migration = readFileSync('drizzle/0012_search_words.sql', 'utf8');
    for (let pass = 0; pass < 2; pass += 1) {
      for (const statement of migration.split('--> statement-breakpoint')) await t.database.db.execute(sql.raw(statement));
      t.app.ctx.caches.clearAll();
      for (const table of tables) expect(await wordObjects(table), table).toEqual(before[table]);
      // Words the updates and the rename made obsolete are not read back: the vocabulary is at most what it was.
      const now = await rows(sql`select field_column, word from item_search_words order by 1, 2`);
      const had = new Set(words.map((r) => `${r.field_column as string}\u0000${r.word as string}`));
      expect(now.every((r) => had.has(`${r.field_column as string}\u0000${r.word as string}`))).toBe(true);
    }
    const current = await all('collection/notes/item');
    for (const term of ['a', 'É', 'é%', 'ab', 'bob', '"q"', '\\', 'b_']) {
      expect((await listIds('collection/notes/search', { query: term })).ids, term).toEqual(inOrder(current, (d) => matchSearch(d, term, searchFields)));
    }
  });
});
