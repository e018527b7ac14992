/**
 * CSV export on both databases (docs/content-storage.md "Ranks and CSV"): every field type
 * round-trips through its registry codec, formula-like text is neutralised (numbers, phones and
 * points are not), a filtered and sorted export is exactly the list the list call gives (read in
 * keyset batches, nulls included), nested lists export too, and 20,000 rows stream over real
 * HTTP with bounded memory.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fieldType, fieldTypes, type SchemaField } from '../../definitions/field-types/index.ts';
import { neutralise, unneutralise } from '../../server/content/csv.ts';
import { query } from '../../server/content/storage.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';
import { code, everyFieldTypeProject } from './support/every-field-type.ts';
import { bearer } from './support/flows.ts';

/** RFC 4180: quoted cells may hold commas, quotes (doubled) and line breaks; records end with LF or CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(cell);
      cell = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || record.length) {
    record.push(cell);
    records.push(record);
  }
  return records;
}

describe.each(databaseKinds)('CSV export on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let schema: SchemaField[];
  const written: Record<string, unknown>[] = [];
  const ids: string[] = [];

  const download = async (path: string) => {
    const response = await f.call('GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return { response, records: parseCsv(response.body) };
  };
  const listIds = async (path: string) => {
    const response = await f.call('GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return { ids: (json(response) as { _id: string }[]).map((i) => i._id), count: response.headers['item-count'] };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    const project = await everyFieldTypeProject(f);
    schema = project.things.schema as SchemaField[];
    for (const { id, values } of project.items) {
      ids.push(id);
      written.push(values);
    }
    await project.part(ids[0]!, { name: 'wheel', qty: 4 });
    await project.part(ids[0]!, { name: '=evil()', qty: -1 });
    await project.part(ids[1]!, { name: 'other', qty: 1 });
  });
  afterAll(() => t.close());
  afterEach(() => {
    t.app.ctx.config.csv.batchSize = 5000;
  });

  it('exports every field type by its registry codec and reads back to the written values', async () => {
    const { response, records } = await download('collection/things/csv');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="things-${today}.csv"`);
    expect(response.headers['item-count']).toBe('5');
    const [header, ...body] = records;
    const csvFields = schema.filter((field) => fieldType(field.type)?.csv);
    expect(header).toEqual(['_id', ...csvFields.map((field) => field.slug), '_createdDate', '_lastUpdatedDate']);
    // Every type that has a CSV form is in the collection.
    expect(new Set(csvFields.map((field) => fieldType(field.type)!.name))).toEqual(new Set(fieldTypes.filter((type) => type.csv && type.capabilities.creatable).map((type) => type.name)));
    expect(body.map((r) => r[0])).toEqual(ids);
    for (const [i, record] of body.entries()) {
      const item = json(await f.call('GET', `collection/things/item/${ids[i]}`));
      expect(record.at(-2)).toBe(item._createdDate);
      expect(record.at(-1)).toBe(item._lastUpdatedDate);
      for (const [c, field] of csvFields.entries()) {
        const type = fieldType(field.type)!;
        // A reader undoes the neutralising of text cells ('-Minus is the option -Minus).
        const cell = type.csv!.formulaSafe ? record[c + 1]! : unneutralise(record[c + 1]!);
        const read = type.csv!.fromCell(cell, field);
        expect(read.ok, `${field.slug}: ${record[c + 1]}`).toBe(true);
        const value = read.ok ? read.value : undefined;
        const expected = written[i]![field.slug];
        if (expected === undefined) {
          expect(value, field.slug).toBeNull();
          continue;
        }
        // The written value, normalised as the server stores it, is what the cell reads back to.
        const normal = type.validate(expected, field);
        const back = value === null ? normal : type.validate(value, field);
        expect(back, `${field.slug} of item ${i}`).toEqual(normal);
      }
    }
  });

  it('neutralises formula-like text cells but not numbers, phones or points', async () => {
    const made = [] as string[];
    for (const title of ['=SUM(A1:A2)', '+cmd', '-dash', '@user', '\ttab', '\rreturn']) {
      made.push((await createItem(f, 'things', { title, price: -42, phone: '+44 20', size: { _id: 'm' }, data: -5, place: { lat: -1.5, lng: -2 } }))._id);
    }
    const { records } = await download(`collection/things/csv?${new URLSearchParams({ query: 'price:=:-42', projectOn: 'title,price,phone,size,data,place' })}`);
    // Columns in schema order.
    expect(records[0]).toEqual(['_id', 'title', 'price', 'phone', 'size', 'place', 'data']);
    expect(records.slice(1).map((r) => r[1])).toEqual(["'=SUM(A1:A2)", "'+cmd", "'-dash", "'@user", "'\ttab", "'\rreturn"]);
    for (const record of records.slice(1)) expect(record.slice(2)).toEqual(['-42', '4420', "'-Minus", '-1.5,-2', "'-5"]);
    // A nested list neutralises too.
    const nested = await download(`collection/things/item/${ids[0]}/csv?nestedID=parts`);
    expect(nested.records.map((r) => r.slice(1, 3))).toEqual([
      ['name', 'qty'],
      ['wheel', '4'],
      ["'=evil()", '-1'],
    ]);
    for (const id of made) expect((await f.call('DELETE', `collection/things/item/${id}`)).statusCode).toBe(204);
  });

  it('neutralises reversibly', () => {
    for (const text of ['=1', "'=1", "''+x", "'plain", 'plain', '-', '', "'", '@', '\t', 'a=b']) {
      expect(unneutralise(neutralise(text)), JSON.stringify(text)).toBe(text);
      expect(neutralise(text).startsWith("'") || !/^'*[=+\-@\t\r]/.test(text)).toBe(true);
    }
    expect(neutralise("'=1")).toBe("''=1");
  });

  it('exports exactly the filtered, sorted list, across keyset batches and null sort values', async () => {
    t.app.ctx.config.csv.batchSize = 2;
    const cases = [
      {},
      { sort: 'price', order: 'asc' },
      { sort: 'price', order: 'DESC' },
      { sort: 'title', order: 'desc' },
      { sort: 'when', order: 'asc' },
      { sort: 'live', order: 'desc' },
      { sort: '_createdDate', order: 'desc' },
      { order: 'desc' },
      { query: 'price:>:6', sort: 'price', order: 'desc' },
      { search: 'a', sort: 'title' },
      { find: JSON.stringify({ $or: [{ price: { $gte: 20 } }, { live: true }] }), sort: 'price' },
    ];
    for (const params of cases) {
      const qs = new URLSearchParams(params as Record<string, string>).toString();
      const listed = await listIds(`collection/things/item?perPage=1000&${qs}`);
      const { response, records } = await download(`collection/things/csv?${qs}`);
      expect(records.slice(1).map((r) => r[0]), qs).toEqual(listed.ids);
      expect(response.headers['item-count'], qs).toBe(listed.count);
    }
    // The list route's own form (download=csv&pagination=none) is accepted.
    const { records } = await download('collection/things/csv?download=csv&pagination=none&sort=price');
    expect(records.slice(1).map((r) => r[0])).toEqual((await listIds('collection/things/item?sort=price')).ids);
  });

  it('the list call with download=csv&pagination=none answers the same file as the csv call, nested too', async () => {
    const qs = new URLSearchParams({ sort: 'price', order: 'desc', query: 'price:>:0' }).toString();
    const viaCsv = await download(`collection/things/csv?${qs}`);
    const viaList = await download(`collection/things/item?download=csv&pagination=none&pageNumber=2&perPage=1&${qs}`);
    expect(viaList.response.headers['content-type']).toMatch(/^text\/csv/);
    expect(viaList.records).toEqual(viaCsv.records);
    expect(viaList.records.length).toBeGreaterThan(2);
    const nestedCsv = await download(`collection/things/item/${ids[0]}/csv?nestedID=parts`);
    const nestedList = await download(`collection/things/item/${ids[0]}?nestedID=parts&download=csv&pagination=none`);
    expect(nestedList.records).toEqual(nestedCsv.records);
  });

  it('exports a nested list, filtered and sorted like the nested list call', async () => {
    const { response, records } = await download(`collection/things/item/${ids[0]}/csv?nestedID=parts&sort=qty&order=desc`);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="things-parts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers['item-count']).toBe('2');
    const listed = await listIds(`collection/things/item/${ids[0]}?nestedID=parts&sort=qty&order=desc`);
    expect(records.slice(1).map((r) => r[0])).toEqual(listed.ids);
    expect(records.slice(1).map((r) => r[2])).toEqual(['4', '-1']);
  });

  it('answers bad input with a problem before sending anything', async () => {
    expectProblem(await f.call('GET', 'collection/things/csv?sort=nope'), 400);
    expectProblem(await f.call('GET', `collection/things/csv?query=${encodeURIComponent('title:~:x')}`), 400);
    expectProblem(await f.call('GET', 'collection/things/csv?find=%7Bbad'), 400);
    expectInvalid(await f.call('GET', `collection/things/csv?aggregationPipeline=${encodeURIComponent('[{"$count":"n"}]')}`), ['aggregationPipeline']);
    expectInvalid(await f.call('GET', `collection/things/item/${ids[0]}/csv?nestedID=parts.${ids[1]}`), ['nestedID']);
    expectProblem(await f.call('GET', `collection/things/item/${ids[0]}/csv?nestedID=nope`), 404);
    expectProblem(await f.call('GET', 'collection/nope/csv'), 404);
    expectProblem(await (await f.otherProject()).call('GET', 'collection/things/csv'), 404);
    expect((await f.call('GET', 'collection/things/csv', undefined, { access: 'bad' })).statusCode).toBe(401);
  });

  it('streams 20,000 rows over HTTP with bounded memory', async () => {
    const big = await createCollection(f, {
      id: 'big',
      name: 'Big',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText') },
        { name: 'N', slug: 'n', type: code('Number') },
      ],
    });
    const [row] = await query<{ id: string }>(t.database.db, sql`select id from content_collections where slug = 'big' and project_id = ${f.project}`);
    const table = sql.identifier(`content_${row!.id}`);
    const col = (slug: string) => sql.identifier(`f_${big.schema.find((x: SchemaField) => x.slug === slug).id}`);
    const n = 20_000;
    await t.database.db.execute(sql`insert into ${table} (_id, _rank, _created_date, _last_updated_date, ${col('title')}, ${col('n')})
      select lpad(to_hex(g), 24, '0'), 'a' || lpad(g::text, 8, '0'), now(), now(), 'Row number ' || g || ' with a comma, and "quotes"', g
      from generate_series(1, ${n}) g`);
    await t.database.db.execute(sql`update content_collections set item_count = ${n} where id = ${row!.id}`);

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const response = await fetch(`${address}/api/organization/${f.org}/project/${f.project}/collection/big/csv?sort=n&order=desc`, { headers: bearer(f.access) });
    expect(response.status).toBe(200);
    expect(response.headers.get('item-count')).toBe(String(n));
    let lines = 0;
    let bytes = 0;
    let first = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      const text = decoder.decode(chunk, { stream: true });
      if (lines < 3) first += text.slice(0, 400);
      lines += text.split('\n').length - 1;
    }
    clearInterval(sampler);
    if (process.env.CSV_TEST_VERBOSE) console.log(`csv ${kind}: ${n} rows, ${bytes} bytes, rss growth ${((peak - base) / 1048576).toFixed(1)} MB`);
    expect(lines).toBe(n + 1);
    expect(first).toMatch(/^_id,title,n,_createdDate,_lastUpdatedDate\n[0-9a-f]{24},"Row number 20000 with a comma, and ""quotes""",20000,/);
    expect(bytes).toBeGreaterThan(n * 60);
    // Generous: the whole file is ~2 MB; a buffered export of the rows would be far above the stream's few batches.
    expect((peak - base) / 1024 / 1024).toBeLessThan(100);

    // A client that leaves mid-file stops the export; the server goes on serving.
    t.app.ctx.config.csv.batchSize = 100;
    const controller = new AbortController();
    const partial = await fetch(`${address}/api/organization/${f.org}/project/${f.project}/collection/big/csv`, { headers: bearer(f.access), signal: controller.signal });
    const reader = partial.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    await reader.read().catch(() => undefined);
    const next = await f.call('GET', 'collection/big/csv?query=n%3A%3C%3A3');
    expect(next.statusCode).toBe(200);
    expect(parseCsv(next.body).slice(1).map((r) => r[2])).toEqual(['1', '2']);
  }, 60_000);
});
