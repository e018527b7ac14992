/**
 * Migration 0008 gives item tables made before it the indexes the query engine now relies on: an
 * Option's btree carrying the value (index-only filters and counts) and an ItemRef's trigram index
 * over its links' display values (the case-insensitive search), top-level and nested alike. The
 * indexes it makes are the ones a new field gets, it can run again harmlessly, and the lists read
 * the same before and after it.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('migration 0008 on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every index of the item tables on an Option's or ItemRef's column, by name, with its definition. */
  const indexes = async () =>
    Object.fromEntries(
      (
        (await t.database.db.execute(
          sql`select indexname, indexdef from pg_indexes where indexname like 'content\\_%' and (indexdef like '%''\\_id''%' or indexdef like '%jsonb\\_path\\_query\\_array%')`,
        )) as unknown as { rows: { indexname: string; indexdef: string }[] }
      ).rows.map((r) => [r.indexname, r.indexdef]),
    );
  const ids = async (query: string) => {
    const response = await f.call('GET', `collection/posts/item?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return (JSON.parse(response.body) as { _id: string }[]).map((item) => item._id).sort();
  };

  it('replaces Option indexes with covering ones and adds ItemRef search indexes, as new fields get them', async () => {
    await createCollection(f, { id: 'people', name: 'People', schema: [{ name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true }] });
    const ada = await createItem(f, 'people', { name: 'Ada Lovelace' });
    const options = [{ _id: 'draft', value: 'Draft' }, { _id: 'live', value: 'Live' }];
    await createCollection(f, {
      id: 'posts',
      name: 'Posts',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText') },
        { name: 'State', slug: 'state', type: code('Option'), options },
        { name: 'By', slug: 'by', type: code('ItemRef'), referenceCollectionID: 'people' },
        {
          name: 'Notes',
          slug: 'notes',
          type: code('NestedCollection'),
          nestedCollectionSchema: [
            { name: 'Kind', slug: 'kind', type: code('Option'), options },
            { name: 'Who', slug: 'who', type: code('ItemRef'), referenceCollectionID: 'people' },
          ],
        },
      ],
    });
    const live = await createItem(f, 'posts', { title: 'one', state: { _id: 'live' }, by: [{ itemRefID: ada._id }] });
    await createItem(f, 'posts', { title: 'two', state: { _id: 'draft' } });
    const made = await indexes();
    // Two Option btrees (top level and nested) and two ItemRef trigram indexes.
    expect(Object.keys(made)).toHaveLength(4);
    expect(Object.values(made).filter((def) => def.includes('INCLUDE'))).toHaveLength(2);
    expect(Object.values(made).filter((def) => def.includes('jsonb_path_query_array') && def.includes('gin_trgm_ops'))).toHaveLength(2);
    expect(await ids('query=state:=:live')).toEqual([live._id]);

    // As tables made before the migration were: the Option btree on the choice id alone, no ItemRef trigram index.
    for (const [name, def] of Object.entries(made)) {
      await t.database.db.execute(sql.raw(`drop index "${name}"`));
      if (def.includes('INCLUDE')) await t.database.db.execute(sql.raw(def.replace(/ INCLUDE \([^)]*\)/, '')));
    }
    const old = await indexes();
    expect(Object.keys(old)).toHaveLength(2);
    expect(Object.values(old).some((def) => def.includes('INCLUDE'))).toBe(false);

    const migration = readFileSync('drizzle/0008_option_and_ref_search_indexes.sql', 'utf8');
    await t.database.db.execute(sql.raw(migration));
    expect(await indexes()).toEqual(made);
    await t.database.db.execute(sql.raw(migration));
    expect(await indexes()).toEqual(made);
    expect(await ids('query=state:=:live')).toEqual([live._id]);
    expect(await ids('search=lovelace')).toEqual([live._id]);
  });
});
