/**
 * The database writes CSV exports (server/content/csv.ts): each codec's `sqlForm` must give
 * exactly the cell the JavaScript codec (`csv.toCell`, neutralised unless formula-safe, quoted as
 * csv-stringify quotes) gives for the same stored value. Property tests over random values of
 * every field type with a CSV form, on both databases, plus the edge cases of neutralising,
 * quoting and number formatting; then whole exports written both ways must be the same bytes.
 */
import fc from 'fast-check';
import { sql, type SQL } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes, type FieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { unstorableJson, unstorableText } from '../../definitions/field-types/support.ts';
import { unsafeAddress } from '../../definitions/field-types/image-ref/index.ts';
import { csvCellSql, csvCopyCellSql, csvStats, neutralise } from '../../server/content/csv.ts';
import { copyPoolOf, inexactCellCode, inlineStatement } from '../../server/content/csv-copy.ts';
import { to as copyTo } from 'pg-copy-streams';
import { columnTypeOf, decodeValue, encodeValue, query } from '../../server/content/storage.ts';
import { createTestApp, databaseKinds, openTestDatabase, type TestApp } from './support/test-app.ts';
import { contentFixture, createItem, type ContentFixture } from './support/content.ts';
import { everyFieldTypeProject } from './support/every-field-type.ts';

const typeNamed = (name: string) => fieldTypes.find((t) => t.name === name)!;
const fieldOf = (type: FieldType): SchemaField => ({ id: 'f', name: 'F', slug: 'f', type: type.code });

/**
 * The cell the JavaScript export writes for a value as the driver returned it (csvColumns, then
 * csv-stringify). A date's is the written instant's `toISOString()` (PGlite's own parsing of
 * timestamps reads years before 100 as 19xx).
 */
function jsCell(type: FieldType, raw: unknown, written: unknown): string {
  const column = columnTypeOf(fieldOf(type))!;
  const value = column === 'timestamptz' ? (written ?? null) : decodeValue(column, raw);
  const cell = value === null ? '' : type.csv!.toCell(value, fieldOf(type));
  const text = type.csv!.formulaSafe ? cell : neutralise(cell);
  return stringify([[text]]).slice(0, -1);
}

/** Text with everything that matters to neutralising and quoting, and unicode. */
const tricky = fc.constantFrom(
  '',
  ' ',
  '=SUM(A1:A2)',
  '+cmd',
  '-dash',
  '@user',
  '\ttab',
  '\rreturn',
  "'=already",
  "''+twice",
  "'plain",
  "'",
  'a=b',
  'comma, inside',
  'quote " inside',
  '"fully quoted"',
  'line\nbreak',
  'crlf\r\nend',
  'trailing\r',
  '\n',
  '"',
  ',',
  'Ünïcødé — 日本語 ✓ 😀',
  '\u2028\u2029',
  '-1',
  '\\"escaped\\"',
);
const storable = (s: string) => !unstorableText(s);
const text = fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 40 }).filter(storable), fc.string({ unit: 'grapheme', maxLength: 40 }).filter(storable));
/** Doubles, with the values where the notations of PostgreSQL and JavaScript part. */
const double = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -2_000_000, max: 2_000_000 }).map((n) => n / 100),
  fc.constantFrom(0, 1, -1, 0.1 + 0.2, 1e21, 1e-7, 1e-6, 1e-5, 1e-4, 9.999999999999999e-5, 1e14, 1e15, 123456789012345680, 1e20, 9.99e20, 5e-324, -5e-324, 1.7976931348623157e308, 2 ** 53, 2 ** 53 + 2, 0.000001234, 1.5e-7, -1234.5e17, 501523000000000000000, 2 ** 70 + 2 ** 17),
  fc.tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: -30, max: 30 })).map(([m, e]) => Number(`${m}e${e}`)),
);
const hexId = fc.stringMatching(/^[0-9a-f]{24}$/);
/** Image addresses are http(s) (docs/errors.md): the tricky text goes in their paths. */
const address = text.map((s) => `https://example.com/${s}`).filter((s) => !unsafeAddress(s));
const image = fc.record({ imageURL: address, imageName: text, altText: text, extension: text, fileURL: address }, { requiredKeys: [] });
/** JSON values JavaScript would write (no keys it would reorder: see the test of those). */
const jsonValue = fc
  .jsonValue({ maxDepth: 3 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
  // Fastify refuses `__proto__` and `constructor` keys in request bodies.
  .filter((v) => v !== null && !unstorableJson(v) && !/"(0|[1-9][0-9]*|__proto__|constructor)":/.test(JSON.stringify(v)));

/** Stored values (as the server stores them after validation) of each type with a CSV form. */
const stored: Record<string, fc.Arbitrary<unknown>> = {
  PlainText: text,
  RichText: text.map((s) => `<p>${s}</p>`),
  Link: text,
  Phone: fc.oneof(fc.stringMatching(/^[0-9]{1,32}$/), text),
  Number: double,
  Bool: fc.boolean(),
  Date: fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  Option: fc.record({ _id: fc.stringMatching(/^[a-z0-9]{1,8}$/), value: text }),
  ItemRef: fc.array(fc.record({ itemRefID: hexId, value: text }), { maxLength: 5 }),
  GeoPoint: fc.record({ lat: fc.oneof(double.filter((n) => Math.abs(n) <= 90), fc.double({ min: -90, max: 90, noNaN: true })), lng: fc.oneof(double.filter((n) => Math.abs(n) <= 180), fc.double({ min: -180, max: 180, noNaN: true })) }),
  ImageRef: image,
  ImageRefSet: fc.array(fc.tuple(image, fc.stringMatching(/^[a-z0-9]{1,8}$/)).map(([img, _id]) => ({ ...img, _id })), { minLength: 1, maxLength: 4 }),
  JSON: jsonValue,
};

describe.each(databaseKinds)('CSV cells written by the database on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  /** Each value's cell as SQL writes it (null: the SQL form cannot) and as the JavaScript export does. */
  async function cells(type: FieldType, values: unknown[]): Promise<{ sql: (string | null)[]; js: string[] }> {
    const column = columnTypeOf(fieldOf(type))!;
    const expressions: SQL[] = values.flatMap((value, i) => {
      const v = sql`(${encodeValue(column, value)})::${sql.raw(column)}`;
      return [sql`${v} as ${sql.identifier(`raw${i}`)}`, sql`${csvCellSql(type.csv!, v)!} as ${sql.identifier(`cell${i}`)}`];
    });
    const [row] = await database.db.transaction(async (tx) => {
      // As the export does: PostgreSQL would JIT-compile these expressions, for seconds.
      await tx.execute(sql`select set_config('jit', 'off', true)`);
      return query(tx, sql`select ${sql.join(expressions, sql`, `)}`);
    });
    return { sql: values.map((_, i) => row![`cell${i}`] as string | null), js: values.map((value, i) => jsCell(type, row![`raw${i}`], value)) };
  }

  it('every type with a CSV form has an SQL form, and is generated here', () => {
    const withCsv = fieldTypes.filter((t) => t.csv).map((t) => t.name);
    expect(Object.keys(stored).sort()).toEqual(withCsv.sort());
    for (const name of withCsv) expect(typeNamed(name).csv!.sqlForm, name).toBeDefined();
  });

  for (const [name, arbitrary] of Object.entries(stored)) {
    it(`${name}: the SQL cell is the JavaScript cell, for random values and unset`, async () => {
      const type = typeNamed(name);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.option(arbitrary, { freq: 8 }), { minLength: 1, maxLength: 12 }), async (values) => {
          const { sql: bySql, js } = await cells(type, values);
          expect(bySql).toEqual(js);
        }),
        { numRuns: kind === 'pglite' ? 60 : 120 },
      );
    });
  }

  it('neutralises and quotes like the JavaScript export', async () => {
    const values = ['=1', '+1', '-1', '@1', '\t1', '\r1', "'=1", "''-1", "'1", "'", 'a,b', 'a"b', '"a"', 'a\nb', 'a\rb', 'a\r\nb', '', '=a,"b"\n', '日本語', '😀=', ' =x'];
    const { sql: bySql } = await cells(typeNamed('PlainText'), values);
    expect(bySql).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@1",
      "'\t1",
      '"\'\r1"',
      "''=1",
      "'''-1",
      "'1",
      "'",
      '"a,b"',
      '"a""b"',
      '"""a"""',
      '"a\nb"',
      '"a\rb"',
      '"a\r\nb"',
      '',
      '"\'=a,""b""\n"',
      '日本語',
      '😀=',
      ' =x',
    ]);
    // Formula-safe types are not neutralised, but still quoted.
    expect((await cells(typeNamed('Phone'), ['-1', '+44', 'a,b'])).sql).toEqual(['-1', '+44', '"a,b"']);
    expect((await cells(typeNamed('GeoPoint'), [{ lat: -1.5, lng: -2 }])).sql).toEqual(['"-1.5,-2"']);
    expect((await cells(typeNamed('JSON'), [-5, '=x', '-x'])).sql).toEqual(["'-5", '"""=x"""', '"""-x"""']);
  });

  it('writes numbers as JavaScript does where the notations part', async () => {
    const numbers = [501523000000000000000, 1e21, 1e-7, 1e-6, 1e-5, 1e15, 1e20, 123456789012345680, 0.1 + 0.2, -0, 5e-324, 1.7976931348623157e308, -1.5e-7, 1.2345e25];
    const { sql: bySql } = await cells(typeNamed('Number'), numbers);
    expect(bySql).toEqual(numbers.map((n) => String(n)));
    expect(bySql).toEqual(['501523000000000000000', '1e+21', '1e-7', '0.000001', '0.00001', '1000000000000000', '100000000000000000000', '123456789012345680', '0.30000000000000004', '0', '5e-324', '1.7976931348623157e+308', '-1.5e-7', '1.2345e+25']);
    expect((await cells(typeNamed('JSON'), [[1e21, 1e-7, 0.5, -0, { a: 1.5e300 }]])).sql).toEqual(['"[1e+21,1e-7,0.5,0,{""a"":1.5e+300}]"']);
  });

  it('leaves to JavaScript what it cannot write exactly: keys JavaScript reorders, values of another shape', async () => {
    // JavaScript puts array-index keys first; jsonb sorts keys by length.
    const { sql: bySql, js } = await cells(typeNamed('JSON'), [{ b: 1, 10: 2 }]);
    expect(js).toEqual(['"{""10"":2,""b"":1}"']);
    expect(bySql).toEqual([null]);
    expect((await cells(typeNamed('ItemRef'), [[{ itemRefID: 5 }]])).sql).toEqual([null]);
    expect((await cells(typeNamed('GeoPoint'), [{ lat: '1', lng: 2 }])).sql).toEqual([null]);
  });

  /**
   * The line `COPY … TO STDOUT WITH (FORMAT csv)` writes for the values' COPY cells (after a first
   * constant column: exports with one column do not use COPY), and the JavaScript export's line.
   */
  async function copied(type: FieldType, values: unknown[]): Promise<{ line: string; js: string }> {
    const { js } = await cells(type, values);
    const column = columnTypeOf(fieldOf(type))!;
    const expressions = values.map((value) => csvCopyCellSql(type.csv!, sql`(${encodeValue(column, value)})::${sql.raw(column)}`)!);
    const text = inlineStatement(sql`copy (select 'x', ${sql.join(expressions, sql`, `)}) to stdout with (format csv)`)!;
    const client = await copyPoolOf(database.db)!.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('jit', 'off', true)`);
      const chunks: Buffer[] = [];
      for await (const chunk of client.query(copyTo(text))) chunks.push(chunk as Buffer);
      await client.query('commit');
      return { line: Buffer.concat(chunks).toString('utf8'), js: `${['x', ...js].join(',')}\n` };
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  }

  describe.runIf(kind === 'postgres')('written by COPY', () => {
    for (const [name, arbitrary] of Object.entries(stored)) {
      it(`${name}: the COPY line is the JavaScript line, for random values and unset`, async () => {
        const type = typeNamed(name);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.option(arbitrary, { freq: 8 }), { minLength: 1, maxLength: 12 }), async (values) => {
            const { line, js } = await copied(type, values);
            expect(line).toBe(js);
          }),
          { numRuns: 80 },
        );
      });
    }

    it('writes empty cells bare, quotes what needs it, leaves a lone \\. alone, neutralises', async () => {
      const values = ['', '\\.', '\\', '\\N', 'a,b', 'a"b', '"', 'a\nb', 'a\rb', '\r\n', ' ', '=1', "'=1", "'", '-1', '@x', '\tx', '日本語 😀', 'ends,', null];
      const { line, js } = await copied(typeNamed('PlainText'), values);
      expect(line).toBe(js);
      expect(line).toBe(`x,,\\.,\\,\\N,"a,b","a""b","""","a\nb","a\rb","'\r\n", ,'=1,''=1,','-1,'@x,'\tx,日本語 😀,"ends,",\n`);
      // Formula-safe types are not neutralised; numbers as JavaScript writes them.
      expect((await copied(typeNamed('Phone'), ['-1', '+44', '', 'a,b'])).line).toBe('x,-1,+44,,"a,b"\n');
      const numbers = [0, -0, 1e21, 1e-7, 123456789012345680, 501523000000000000000, -1.5e-7, 5e-324, 1.7976931348623157e308, null];
      expect((await copied(typeNamed('Number'), numbers)).line).toBe(`x,${numbers.map((n) => (n === null ? '' : String(n))).join(',')}\n`);
      // Dates before 1970 and before the year 1000, to the millisecond.
      const dates = ['1969-12-31T23:59:59.999Z', '0999-01-02T03:04:05.060Z', '0001-01-01T00:00:00.000Z', '2024-02-29T12:00:00.100Z'];
      expect((await copied(typeNamed('Date'), dates)).line).toBe(`x,${dates.join(',')}\n`);
      expect((await copied(typeNamed('Bool'), [true, false, null])).line).toBe('x,true,false,\n');
      expect((await copied(typeNamed('JSON'), [-5, '=x', '', { a: 'b,"c"' }])).line).toBe(`x,'-5,"""=x""","""""","{""a"":""b,\\""c\\""""}"\n`);
    });

    it('stops with its own error for a value only JavaScript writes exactly', async () => {
      const inexact: [string, unknown][] = [
        ['JSON', { b: 1, 10: 2 }],
        ['ItemRef', [{ itemRefID: 5 }]],
        ['GeoPoint', { lat: '1', lng: 2 }],
      ];
      for (const [name, value] of inexact) await expect(copied(typeNamed(name), [value]), name).rejects.toMatchObject({ code: inexactCellCode });
    });
  });
});

describe.each(databaseKinds)('whole exports written by the database on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    // Random items through the API (so stored exactly as the server stores them).
    const randomItems = (people: string[]) =>
      fc.sample(
        fc.record(
          {
            title: text.filter((s) => s !== ''),
            body: text,
            price: double,
            phone: fc.stringMatching(/^[0-9]{1,12}$/),
            image: fc.record({ imageURL: address, altText: text }),
            people: fc.subarray(people).map((ids) => ids.map((itemRefID) => ({ itemRefID }))),
            size: fc.constantFrom({ _id: 's' }, { _id: 'm' }),
            live: fc.boolean(),
            site: fc.webUrl({ withQueryParameters: true }).filter((url) => url.length <= 256),
            when: stored.Date!,
            gallery: fc.array(fc.record({ imageURL: address }), { maxLength: 3 }),
            place: stored.GeoPoint!,
            data: jsonValue,
          },
          { requiredKeys: ['title'] },
        ),
        { numRuns: 40, seed: 7 },
      );
    await everyFieldTypeProject(f, { people: ['Ada', '=Grace', 'Linus, "the" one'], rows: randomItems });
  });
  afterAll(() => t.close());
  afterEach(() => {
    t.app.ctx.config.csv.sql = true;
    t.app.ctx.config.csv.copy = true;
    t.app.ctx.config.csv.batchSize = 5000;
    t.app.ctx.config.csv.copyBatchSize = 10000;
    t.app.ctx.config.csv.batchBytes = 16 * 1024 * 1024;
  });

  /**
   * The export written by the database (by COPY on PostgreSQL, as text values on PGlite), and
   * written by the JavaScript codecs. On PostgreSQL the text-value path (COPY's fallback) must
   * give the same bytes too.
   */
  const both = async (path: string) => {
    const before = { ...csvStats };
    const bySql = await f.call('GET', path);
    expect(bySql.statusCode, bySql.body).toBe(200);
    const sqlBatches = csvStats.sqlBatches - before.sqlBatches + csvStats.copyBatches - before.copyBatches;
    const copyBatches = csvStats.copyBatches - before.copyBatches;
    const copyElsewhere = csvStats.copyElsewhere - before.copyElsewhere;
    const jsBatchesBySql = csvStats.jsBatches - before.jsBatches;
    if (kind === 'postgres') {
      t.app.ctx.config.csv.copy = false;
      const byText = await f.call('GET', path);
      t.app.ctx.config.csv.copy = true;
      expect(byText.body, `${path} as text values`).toBe(bySql.body);
    }
    t.app.ctx.config.csv.sql = false;
    const byJs = await f.call('GET', path);
    t.app.ctx.config.csv.sql = true;
    expect(byJs.statusCode).toBe(200);
    return { bySql: bySql.body, byJs: byJs.body, sqlBatches, jsBatchesBySql, copyBatches, copyElsewhere };
  };

  it('are the same bytes as the JavaScript codecs write, sorted, filtered, projected and in small batches', async () => {
    t.app.ctx.config.csv.batchSize = 7;
    t.app.ctx.config.csv.copyBatchSize = 6;
    const sorts = [{}, { sort: 'price', order: 'desc' }, { sort: 'title' }, { sort: 'when', order: 'desc' }, { sort: 'live' }];
    // A filter's text is written into the COPY statement as a literal: quotes and backslashes too.
    for (const params of [...sorts, { query: 'price:>:0' }, { search: "'" }, { search: '\\' }, { projectOff: 'body,data' }, { projectOn: 'price,place' }]) {
      const qs = new URLSearchParams(params as Record<string, string>).toString();
      const { bySql, byJs, sqlBatches, jsBatchesBySql, copyBatches, copyElsewhere } = await both(`collection/things/csv?${qs}`);
      expect(bySql, qs).toBe(byJs);
      const filtered = 'search' in params;
      // The random items (a fixed seed) hold a few of each: the searches find some, not all.
      expect(bySql.split('\n').length, qs).toBeGreaterThan(filtered ? 2 : 5);
      // The database wrote them all (by COPY, on PostgreSQL).
      expect(sqlBatches, qs).toBeGreaterThan(0);
      expect(jsBatchesBySql, qs).toBe(0);
      if (kind === 'postgres') {
        expect(copyBatches, qs).toBeGreaterThan(filtered ? 0 : 5);
        expect(copyElsewhere, qs).toBe(0);
      }
    }
  });

  it('a batch reaching the byte budget ends early and the next goes on from there', async () => {
    t.app.ctx.config.csv.batchBytes = 300;
    const { bySql, byJs, sqlBatches } = await both('collection/things/csv?sort=price');
    expect(bySql).toBe(byJs);
    expect(sqlBatches).toBeGreaterThan(10);
  });

  it('a batch with a value SQL cannot write exactly is written by JavaScript, the rest by SQL', async () => {
    const odd = await createItem(f, 'things', { title: 'odd keys', price: 1e-9, data: { b: 1, 10: [2], '=x': '-y' } });
    t.app.ctx.config.csv.batchSize = 3;
    t.app.ctx.config.csv.copyBatchSize = 3;
    const { bySql, byJs, sqlBatches, jsBatchesBySql, copyElsewhere } = await both('collection/things/csv?sort=price');
    expect(bySql).toBe(byJs);
    expect(bySql).toContain('"{""10"":[2],""b"":1,""=x"":""-y""}"');
    expect(jsBatchesBySql).toBe(1);
    if (kind === 'postgres') expect(copyElsewhere).toBe(1);
    expect(sqlBatches).toBeGreaterThan(5);
    expect((await f.call('DELETE', `collection/things/item/${odd._id}`)).statusCode).toBe(204);
  });
});
