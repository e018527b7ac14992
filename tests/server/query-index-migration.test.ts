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
    // Indexes made with their fields (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager' });
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

describe.each(databaseKinds)('migration 0013 on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;

  beforeAll(async () => {
    // Indexes made with their fields (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager' });
    f = await contentFixture(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every GiST index of the item tables, by name, with its definition. */
  const gists = async () =>
    Object.fromEntries(
      ((await t.database.db.execute(sql`select indexname, indexdef from pg_indexes where indexname like 'content\\_%' and indexdef like '%USING gist%'`)) as unknown as { rows: { indexname: string; indexdef: string }[] }).rows.map(
        (r) => [r.indexname, r.indexdef],
      ),
    );
  const ids = async (path: string, query: string) => {
    const response = await f.call('GET', `${path}${path.includes('?') ? '&' : '?'}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return (JSON.parse(response.body) as { _id: string }[]).map((item) => item._id).sort();
  };

  it('adds the GeoPoint GiST index to tables made before it, as new fields get it; removing a field drops it', async () => {
    await createCollection(f, {
      id: 'maps',
      name: 'Maps',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText') },
        { name: 'Place', slug: 'place', type: code('GeoPoint') },
        { name: 'Stops', slug: 'stops', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'At', slug: 'at', type: code('GeoPoint') }] },
      ],
    });
    const paris = await createItem(f, 'maps', { title: 'Paris', place: { lat: 48.8566, lng: 2.3522 } });
    const fiji = await createItem(f, 'maps', { title: 'Fiji', place: { lat: -17.7134, lng: 178.065 } });
    await createItem(f, 'maps', { title: 'Nowhere' });
    const stop = await createItem(f, 'maps', { at: { lat: -16.5, lng: -179.9 } }, { item: paris._id, nestedID: 'stops' });
    const made = await gists();
    // The top-level and the nested GeoPoint, over the point the `within` filters compare.
    expect(Object.keys(made)).toHaveLength(2);
    for (const def of Object.values(made)) expect(def).toMatch(/USING gist \(point\(\(\(f_\w+ ->> 'lng'::text\)\)::double precision, \(\(f_\w+ ->> 'lat'::text\)\)::double precision\)\)/);
    const answers = async () => [
      await ids('collection/maps/item', 'query=place:within:40,-10,60,10'),
      await ids('collection/maps/item', `query=${encodeURIComponent('place:within:-20,170,-10,-170')}`),
      await ids('collection/maps/item', 'query=place:within:48.85,2.35,10000'),
      await ids(`collection/maps/item/${paris._id}?nestedID=stops`, 'query=at:within:-17,180,200000'),
    ];
    const before = await answers();
    expect(before).toEqual([[paris._id], [fiji._id], [paris._id], [stop._id]]);

    // As tables made before the migration were: no GiST index.
    for (const name of Object.keys(made)) await t.database.db.execute(sql.raw(`drop index "${name}"`));
    expect(await gists()).toEqual({});
    expect(await answers()).toEqual(before);
    const migration = readFileSync('drizzle/0013_geo_point_index.sql', 'utf8');
    await t.database.db.execute(sql.raw(migration));
    expect(await gists()).toEqual(made);
    await t.database.db.execute(sql.raw(migration));
    expect(await gists()).toEqual(made);
    expect(await answers()).toEqual(before);

    // Removing the field drops its column and, with it, the index.
    const schema = (
      (await t.database.db.execute(sql`select schema from content_collections where slug = 'maps'`)) as unknown as { rows: { schema: { id: string; slug: string }[] }[] }
    ).rows[0]!.schema;
    const place = schema.find((x) => x.slug === 'place')!;
    expect((await f.call('DELETE', `collection/maps/field/${place.id}`)).statusCode).toBe(204);
    const left = await gists();
    expect(Object.keys(left)).toHaveLength(1);
    expect(Object.keys(left).some((name) => name.includes(place.id))).toBe(false);
  });
});
