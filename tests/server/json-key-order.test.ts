/**
 * A JSON field keeps its value as written: keys come back in the author's order (docs/console.md
 * "JSON fields keep their key order"), from the item, the list, the public API, a nested item
 * and the CSV file; and migration 0023 turns the columns of existing JSON fields to `json`.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';
import { query } from '../../server/content/storage.ts';

const written = '{"zeta":1,"alpha":{"y":true,"b":[{"k2":1,"k1":"two"}]},"mid":null,"aa":1.5e-7}';
const value = JSON.parse(written) as unknown;

describe.each(databaseKinds)('JSON field key order on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let fieldID: string;
  let itemID: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'notes', name: 'Notes' });
    await addField(f, 'notes', { name: 'Title', slug: 'title', type: 1 });
    fieldID = (await addField(f, 'notes', { name: 'Data', slug: 'data', type: 14 })).id ?? '';
    await addField(f, 'notes', { name: 'Parts', slug: 'parts', type: 12 });
    await addField(f, 'notes', { name: 'Extra', slug: 'extra', type: 14 }, 'parts');
    itemID = (await createItem(f, 'notes', { title: 'One', data: value }))._id;
  });
  afterAll(() => t.close());

  it('the item, the list and the public API give the keys in the order they were written', async () => {
    const one = await f.call('GET', `collection/notes/item/${itemID}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.body).toContain(`"data":${written}`);
    const list = await f.call('GET', 'collection/notes/item');
    expect(list.body).toContain(`"data":${written}`);
    const token = await mintToken(t, f, { powerRead: true });
    const pub = await t.app.inject({ method: 'GET', url: `/api/public/collection/notes/items/${itemID}`, headers: { ...bearer(token), 'accept-version': 'v1' } });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.body).toContain(`"data":${written}`);
    const pubList = await t.app.inject({ method: 'GET', url: `/api/public/collection/notes/items`, headers: { ...bearer(token), 'accept-version': 'v1' } });
    expect(pubList.body).toContain(`"data":${written}`);
  });

  it('an update keeps the new order; a nested item keeps its own', async () => {
    const next = '{"second":2,"first":1}';
    const put = await f.call('PUT', `collection/notes/item/${itemID}`, { data: JSON.parse(next) });
    expect(put.statusCode, put.body).toBe(200);
    expect((await f.call('GET', `collection/notes/item/${itemID}`)).body).toContain(`"data":${next}`);
    const nested = await createItem(f, 'notes', { extra: { z: 1, a: 2 } }, { item: itemID, nestedID: 'parts' });
    const read = await f.call('GET', `collection/notes/item/${itemID}?nestedID=parts.${nested._id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.body).toContain('"extra":{"z":1,"a":2}');
    await f.call('PUT', `collection/notes/item/${itemID}`, { data: value });
  });

  it('the CSV file writes the value as it was written', async () => {
    const csv = await f.call('GET', 'collection/notes/csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(`"${written.replace(/"/g, '""')}"`);
  });

  it('migration 0023 turns an existing jsonb column of a JSON field into json, keeping its values', async () => {
    const [collection] = await query<{ id: string }>(t.database.db, sql`select id from content_collections where slug = 'notes' and project_id = ${f.project}`);
    const table = `content_${collection!.id}`;
    const column = `f_${fieldID}`;
    // As an older version made it: jsonb.
    await t.database.db.execute(sql`alter table ${sql.identifier(table)} alter column ${sql.identifier(column)} type jsonb using ${sql.identifier(column)}::jsonb`);
    const typeOf = async () =>
      (await query<{ t: string }>(t.database.db, sql`select data_type as t from information_schema.columns where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`))[0]?.t;
    expect(await typeOf()).toBe('jsonb');
    const migration = readFileSync(new URL('../../drizzle/0023_json_fields_keep_order.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) if (statement.trim()) await t.database.db.execute(sql.raw(statement));
    expect(await typeOf()).toBe('json');
    const one = json(await f.call('GET', `collection/notes/item/${itemID}`));
    expect(one.data).toEqual(value);
    // Written again, it keeps its order.
    await f.call('PUT', `collection/notes/item/${itemID}`, { data: value });
    expect((await f.call('GET', `collection/notes/item/${itemID}`)).body).toContain(`"data":${written}`);
  });
});
