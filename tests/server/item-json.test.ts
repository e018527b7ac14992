/**
 * Lists send the JSON text PostgreSQL builds for each row (storage.ts `itemJson`) instead of
 * parsing rows and serialising `rowToItem`'s objects. These properties hold the two equal — the
 * same keys in the same order, the same values — for random items of every field type with a
 * column (random text with quotes, controls and non-ASCII; numbers of every magnitude and -0;
 * every millisecond and the years 1–9999 of dates; random JSON), on both databases.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldType, fieldTypes, type ColumnType, type SchemaField } from '../../definitions/field-types/index.ts';
import { addFieldStorage, columnTypeOf, createLevelTable, insertItem, itemJson, query, rowToItem, selectList } from '../../server/content/storage.ts';
import type { SchemaLevel } from '../../server/content/schema-tree.ts';
import { newId } from '../../server/lib/ids.ts';
import { databaseKinds, openTestDatabase } from './support/test-app.ts';
import { everyFieldTypeSchema } from './support/every-field-type.ts';
import type { Database } from '../../server/db/index.ts';

const runs = Number(process.env.ITEM_JSON_RUNS ?? 40);

/**
 * The shared collection's fields (support/every-field-type.ts) that keep their value in a column:
 * one of every such type. Slugs with characters JSON must escape.
 */
const columnTypes = fieldTypes.filter((t) => t.storage.kind === 'column');
const fields: SchemaField[] = everyFieldTypeSchema()
  .filter((field) => fieldType(field.type)!.storage.kind === 'column')
  .map((field, i) => ({
    id: newId(),
    name: field.name,
    slug: i === 0 ? 'quote"back\\slash' : i === 1 ? 'ünï ✓' : field.slug,
    type: field.type,
  }));

const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\t', '\u0001', '\u001f', '\u2028', '/', '<', 'é', '😀') }));
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789012345680000, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MAX_SAFE_INTEGER),
  fc.integer(),
);
const date = fc.oneof(
  fc.integer({ min: new Date('0001-01-01T00:00:00.000Z').getTime(), max: new Date('9999-12-31T23:59:59.999Z').getTime() }),
  // Years 1–99, which `new Date(text)` once read as 19xx/20xx (storage.ts decodeValue).
  fc.integer({ min: new Date('0001-01-01T00:00:00.000Z').getTime(), max: new Date('0099-12-31T23:59:59.999Z').getTime() }),
  fc.integer({ min: Date.UTC(1999, 0, 1), max: Date.UTC(2001, 0, 1) }),
).map((ms) => new Date(ms).toISOString());
const json = fc.jsonValue().filter((v) => !JSON.stringify(v).includes('\\u0000'));

const valueOf: Record<ColumnType, fc.Arbitrary<unknown>> = {
  text,
  'double precision': number,
  boolean: fc.boolean(),
  timestamptz: date,
  jsonb: json,
  json,
};

const itemArb = fc.tuple(...fields.map((f) => fc.option(valueOf[columnTypeOf(f)!], { nil: undefined, freq: 3 })));

describe.each(databaseKinds)('items as JSON built in SQL on %s', (kind) => {
  let database: Database;
  const level: SchemaLevel = { fields, table: `content_${newId()}`, path: [], depth: 0 };
  let count = 0;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await createLevelTable(database.db, level);
    for (const field of fields) await addFieldStorage(database.db, level, field);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The item as rowToItem gives it and as the SQL text, for every row of the table with these ids. */
  async function both(ids: string[]) {
    const list = sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    );
    const rows = await query<Record<string, unknown> & { __json: string }>(
      database.db,
      sql`select ${selectList(level)}, ${itemJson(level)} as __json from ${sql.identifier(level.table)} where _id in (${list}) order by _order`,
    );
    return rows.map((row) => ({ js: JSON.stringify(rowToItem(level, row)), sqlText: row.__json }));
  }

  it('has a field of every type kept in a column', () => {
    expect(fields.map((field) => fieldType(field.type)!.name).sort()).toEqual(columnTypes.map((type) => type.name).sort());
  });

  it('gives what rowToItem gives, key by key, for random items', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemArb, { minLength: 1, maxLength: 5 }), async (items) => {
        const ids: string[] = [];
        for (const values of items) {
          const id = newId();
          ids.push(id);
          const map = new Map<SchemaField, unknown>();
          values.forEach((v, i) => {
            if (v !== undefined) map.set(fields[i]!, v);
          });
          await insertItem(database.db, level, { id, rank: String(count++).padStart(8, '0'), values: map });
        }
        for (const { js, sqlText } of await both(ids)) {
          const parsed = JSON.parse(sqlText) as Record<string, unknown>;
          expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(js) as object));
          expect(parsed).toEqual(JSON.parse(js));
        }
      }),
      { numRuns: runs },
    );
  });

  it('writes every millisecond, and years at the edges, as toISOString does', async () => {
    const date = fields.find((f) => columnTypeOf(f) === 'timestamptz')!;
    const stamps = [
      ...Array.from({ length: 1000 }, (_, ms) => new Date(Date.UTC(2024, 1, 29, 23, 59, 59, ms)).toISOString()),
      '0100-01-01T00:00:00.000Z',
      '0999-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
    ];
    const ids: string[] = [];
    for (const stamp of stamps) {
      const id = newId();
      ids.push(id);
      await insertItem(database.db, level, { id, rank: 'z', values: new Map([[date, stamp]]) });
    }
    const out = await both(ids);
    expect(out.map((o) => (JSON.parse(o.sqlText) as Record<string, unknown>)[date.slug])).toEqual(stamps);
    for (const { js, sqlText } of out) expect(JSON.parse(sqlText)).toEqual(JSON.parse(js));
    // Years outside 0–9999 (stored by other means than the API, which refuses them) as JavaScript writes them.
    const edges: [string, string][] = [
      ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
      ['0099-12-31 23:59:59.999+00', '0099-12-31T23:59:59.999Z'],
      ['0005-01-01 00:00:00+00', '0005-01-01T00:00:00.000Z'],
      ['0001-01-01 00:00:00+00 BC', '0000-01-01T00:00:00.000Z'],
      ['0002-12-31 23:59:59.999+00 BC', '-000001-12-31T23:59:59.999Z'],
      ['12345-06-07 08:09:10.011+00', '+012345-06-07T08:09:10.011Z'],
    ];
    for (const [stored, expected] of edges) {
      expect(new Date(expected).toISOString()).toBe(expected);
      const id = newId();
      await insertItem(database.db, level, { id, rank: 'z', values: new Map() });
      await database.db.execute(sql`update ${sql.identifier(level.table)} set ${sql.identifier(`f_${date.id}`)} = ${stored}::timestamptz where _id = ${id}`);
      const [row] = await query<{ j: string }>(database.db, sql`select ${itemJson(level)} as j from ${sql.identifier(level.table)} where _id = ${id}`);
      expect((JSON.parse(row!.j) as Record<string, unknown>)[date.slug]).toBe(expected);
      // And rowToItem reads the same date from the driver's text.
      const [stored2] = await query(database.db, sql`select ${selectList(level)} from ${sql.identifier(level.table)} where _id = ${id}`);
      expect(rowToItem(level, stored2!)[date.slug], stored).toBe(expected);
    }
  });
});

