/**
 * Data migrations over the item tables: 0007 gives tables made before it the indexes that sorting
 * by Last Updated and by _order use, top-level and nested alike, and can run again harmlessly.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';
import { contentFixture, contentTables, createCollection } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('migration 0007 on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // The indexes checked are made with their fields (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const indexes = async () =>
    ((await t.database.db.execute(sql`select indexname from pg_indexes where indexname like 'content\\_%' and (indexname like '%\\_updated' or indexname like '%\\_order')`)) as unknown as {
      rows: { indexname: string }[];
    }).rows
      .map((r) => r.indexname)
      .sort();

  it('adds the Last Updated and _order indexes to item tables that lack them', async () => {
    const f = await contentFixture(t);
    await createCollection(f, {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText') },
        { name: 'Chapters', slug: 'chapters', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: code('PlainText') }] },
      ],
    });
    const tables = await contentTables(t);
    expect(tables).toHaveLength(2);
    const made = await indexes();
    expect(made).toHaveLength(4);
    // As a table made before the migration would be.
    for (const name of made) await t.database.db.execute(sql.raw(`drop index "${name}"`));
    expect(await indexes()).toEqual([]);
    const migration = readFileSync('drizzle/0007_system_key_indexes.sql', 'utf8');
    await t.database.db.execute(sql.raw(migration));
    expect(await indexes()).toEqual(made);
    await t.database.db.execute(sql.raw(migration));
    expect(await indexes()).toEqual(made);
  });
});
