/**
 * Bulk item import (server/content/import.ts, docs/content-storage.md "Importing items"): our own
 * CSV export and the JSON formats read back to the same items; a bad row refuses everything with
 * its line (quoted line breaks counted) and leaves no trace (items, counter, option counts,
 * events, vocabulary); skipBadRows; unknown, nested and duplicate keys; permissions of both APIs;
 * exact kept totals; a failure in a later batch and an upload cut off write nothing; one event per
 * batch, which no webhook or function on create takes for an item.
 */
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importItems, ImportRefusedError } from '../../server/content/import.ts';
import { importLimits } from '../../server/content/import-request.ts';
import { memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { code, everyFieldTypeProject, everyFieldTypeSchema } from './support/every-field-type.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { mintToken } from './support/end-users.ts';
import { sleep, waitFor } from './support/assertions.ts';
import { Sse } from './support/sse.ts';

const types: Record<string, string> = { csv: 'text/csv', json: 'application/json', ndjson: 'application/x-ndjson' };

describe.each(databaseKinds)('item import on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let n = 0;

  const rows = async <T,>(statement: ReturnType<typeof sql>) => ((await t.database.db.execute(statement)) as unknown as { rows: T[] }).rows;
  const importCall = (collection: string, body: string, format: 'csv' | 'json' | 'ndjson', query: Record<string, string> = {}, access?: string) =>
    f.call('POST', `collection/${collection}/import?${new URLSearchParams(query)}`, body, { headers: { 'content-type': types[format]! }, ...(access ? { access } : {}) });
  const list = async (collection: string, params = '') => {
    const response = await f.call('GET', `collection/${collection}/item?perPage=1000${params}`);
    expect(response.statusCode, response.body).toBe(200);
    return { items: json(response) as Record<string, unknown>[], total: Number(response.headers['item-count']) };
  };
  const csvOf = async (collection: string) => {
    const response = await f.call('GET', `collection/${collection}/csv`);
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };
  const without = (item: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(item).filter(([key]) => !keys.includes(key)));

  /** What an import must leave as it was when it writes nothing. */
  async function traces(collection: string) {
    const [row] = await rows<{ id: string; item_count: number }>(sql`select id, item_count from content_collections where project_id = ${f.project} and slug = ${collection}`);
    const table = `content_${row!.id}`;
    const [count] = await rows<{ n: number }>(sql`select count(*)::integer as n from ${sql.identifier(table)}`);
    const [events] = await rows<{ n: number }>(sql`select count(*)::integer as n from item_events where collection_id = ${row!.id}`);
    const options = await rows<{ option_id: string; n: number }>(
      sql`select option_id, sum(n)::integer as n from item_option_counts where collection_id = ${row!.id} group by option_id order by option_id`,
    );
    const [words] = await rows<{ n: number }>(sql`select count(*)::integer as n from item_search_words where field_column like 'f\\_%'`);
    return { itemCount: Number(row!.item_count), rows: count!.n, events: events!.n, options, words: words!.n };
  }

  /** A collection `notes{n}`: a text, a number, an option, a unique code. */
  async function notes(extra: Record<string, unknown>[] = []) {
    const slug = `notes${++n}`;
    await createCollection(f, {
      id: slug,
      name: 'Notes',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'N', slug: 'n', type: code('Number') },
        { name: 'Size', slug: 'size', type: code('Option'), options: [{ _id: 'a', value: 'Alpha' }, { _id: 'b', value: 'Beta' }] },
        { name: 'Code', slug: 'code', type: code('PlainText'), unique: true },
        ...extra,
      ],
    });
    return slug;
  }

  beforeAll(async () => {
    // The vocabularies checked are kept from a field's creation (FIELD_INDEXES=eager).
    t = await createTestApp(kind, { FIELD_INDEXES: 'eager' });
    f = await contentFixture(t);
    await everyFieldTypeProject(f);
  });
  afterAll(() => t?.close());
  afterEach(() => {
    importLimits.batchSize = 5000;
  });

  it('re-imports our own CSV export of every field type byte for byte, and the JSON array and NDJSON of the list', async () => {
    const exported = await csvOf('things');
    const source = await list('things');
    for (const [i, format] of (['csv', 'json', 'ndjson'] as const).entries()) {
      const copy = `copy${i}`;
      await createCollection(f, { id: copy, name: 'Copy', schema: everyFieldTypeSchema('people') });
      const items = source.items.map((item) => without(item, format === 'ndjson' ? ['_id', '_order', '_rank', '_createdDate', '_lastUpdatedDate'] : ['_order', '_rank']));
      const body = format === 'csv' ? exported : format === 'json' ? JSON.stringify(items, null, 1) : items.map((item) => JSON.stringify(item)).join('\r\n');
      const response = await importCall(copy, body, format);
      expect(response.statusCode, response.body).toBe(200);
      expect(json(response)).toMatchObject({ imported: 5, skipped: 0, errors: [] });
      const copied = await list(copy);
      expect(copied.total).toBe(5);
      const ignored = format === 'ndjson' ? ['_id', '_order', '_rank', '_createdDate', '_lastUpdatedDate'] : ['_order', '_rank'];
      expect(copied.items.map((item) => without(item, ignored))).toEqual(source.items.map((item) => without(item, ignored)));
      if (format === 'csv') expect(await csvOf(copy)).toBe(exported);
    }
  });

  it('refuses a file with a bad row: its line counted past a quoted line break, every problem listed, nothing written', async () => {
    const slug = await notes();
    await createItem(f, slug, { title: 'kept', size: { _id: 'a' } });
    const before = await traces(slug);
    const file = ['title,n,size', '"two\r\nlines, quoted",1,Alpha', 'fine words,2,Beta', 'bad,twelve,Alpha', 'also bad,3,Gamma', 'fresh vocabulary,4,'].join('\n');
    const response = await importCall(slug, file, 'csv');
    expect(response.statusCode, response.body).toBe(422);
    const body = json(response);
    expect(body.code).toBe('import_refused');
    expect(body.errors).toEqual([
      expect.objectContaining({ line: 5, path: 'n', code: 'notNumber' }),
      expect.objectContaining({ line: 6, path: 'size', code: 'optionCellUnknown' }),
    ]);
    expect(await traces(slug)).toEqual(before);

    const skipped = await importCall(slug, file, 'csv', { skipBadRows: 'true' });
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(json(skipped)).toMatchObject({ imported: 3, skipped: 2, errors: [expect.objectContaining({ line: 5 }), expect.objectContaining({ line: 6 })] });
    const after = await traces(slug);
    expect(after.itemCount).toBe(4);
    expect(after.rows).toBe(4);
    expect(after.words).toBeGreaterThan(before.words);
    expect((await list(slug)).items.map((item) => item.title)).toEqual(['kept', 'two\r\nlines, quoted', 'fine words', 'fresh vocabulary']);
  });

  it('refuses unknown keys by default and drops them with ignoreUnknown; refuses nested collection keys; names JSON records', async () => {
    const slug = await notes([{ name: 'Parts', slug: 'parts', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'X', slug: 'x', type: code('PlainText') }] }]);
    const csv = 'id,title,user_created\n7,Seven,someone\n';
    const refused = await importCall(slug, csv, 'csv');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(json(refused).errors.map((e: { line: number; path: string }) => [e.line, e.path])).toEqual([
      [1, 'id'],
      [1, 'user_created'],
    ]);
    const ignored = await importCall(slug, csv, 'csv', { ignoreUnknown: 'true' });
    expect(json(ignored)).toMatchObject({ imported: 1 });
    const array = JSON.stringify([{ title: 'fine' }, { title: 'x', extra: 1 }, { title: 'y', parts: [] }, 'not an object', { title: 'nul \u0000 inside' }]);
    const records = await importCall(slug, array, 'json', { ignoreUnknown: 'true' });
    expect(records.statusCode, records.body).toBe(422);
    expect(json(records).errors).toEqual([
      expect.objectContaining({ record: 3, path: 'parts', message: expect.stringMatching(/nested collection/) }),
      expect.objectContaining({ record: 4, path: '' }),
      // Text no column can hold is refused as a create refuses it (docs/errors.md "Text").
      expect.objectContaining({ record: 5, path: 'title', code: 'nulCharacter' }),
    ]);
    expect((await traces(slug)).rows).toBe(1);
  });

  it('refuses unique values repeated in the file or taken, and caller ids taken or repeated', async () => {
    const slug = await notes();
    const held = await createItem(f, slug, { title: 'held', code: 'X1' });
    const file = [{ code: 'A' }, { code: 'B' }, { code: 'A' }, { code: 'X1' }, { _id: held._id }, { _id: 'mine-1' }, { _id: 'mine-1' }, { _id: 'not an id!' }]
      .map((r, i) => JSON.stringify({ title: `row ${i + 1}`, ...r }))
      .join('\n');
    const response = await importCall(slug, file, 'ndjson');
    expect(response.statusCode, response.body).toBe(422);
    expect(json(response).errors.map((e: { line: number; path: string; code?: string }) => [e.line, e.path, e.code])).toEqual([
      [3, 'code', undefined],
      [4, 'code', 'notUnique'],
      [5, '_id', undefined],
      [7, '_id', undefined],
      [8, '_id', undefined],
    ]);
    expect((await traces(slug)).rows).toBe(1);
    const ok = await importCall(slug, JSON.stringify({ _id: 'mine-1', title: 'mine', code: 'A' }), 'ndjson');
    expect(json(ok)).toMatchObject({ imported: 1 });
    expect(json(await f.call('GET', `collection/${slug}/item/mine-1`))).toMatchObject({ _id: 'mine-1', code: 'A' });
  });

  it('needs the create right: a read-only member and a token without create get 403; a token with it imports, metered', async () => {
    const slug = await notes();
    const reader = await verifiedUser(t.app, 'reader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(reader.tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    expect((await importCall(slug, 'title\nx\n', 'csv', {}, reader.tokens.access_token)).statusCode).toBe(403);
    const readOnly = await mintToken(t, f, { roles: [{ collection: slug, read: true, create: false, update: false, delete: false }] });
    const publicCall = (token: string) =>
      t.app.inject({ method: 'POST', url: `/api/public/collection/${slug}/import`, headers: { ...bearer(token), 'content-type': 'text/csv' }, payload: 'title\nfrom the public API\n' });
    expect((await publicCall(readOnly)).statusCode).toBe(403);
    const creator = await mintToken(t, f, { roles: [{ collection: slug, read: true, create: true, update: false, delete: false }] });
    const made = await publicCall(creator);
    expect(made.statusCode, made.body).toBe(200);
    expect(json(made)).toMatchObject({ imported: 1, skipped: 0 });
    expect((await traces(slug)).rows).toBe(0 + 1);
  });

  it('keeps the counter, the option counts and a kept search total exact', async () => {
    const slug = await notes();
    Object.assign(t.app.ctx.config.listQueries.searchWords, { tokens: -1 });
    t.app.ctx.config.listQueries.keptSearch.registerSpacingMs = 0;
    await createItem(f, slug, { title: 'kabuki', size: { _id: 'a' } });
    const search = async () => {
      const { items, total } = await list(slug, '&search=ka');
      return { found: items.length, total };
    };
    expect(await search()).toEqual({ found: 1, total: 1 });
    const [term] = await rows<{ n: number }>(sql`select count(*)::integer as n from item_search_terms`);
    expect(term!.n).toBeGreaterThan(0);
    importLimits.batchSize = 3;
    const file = ['title,size', ...Array.from({ length: 10 }, (_, i) => `${i % 2 ? 'kayak' : 'zebra'} ${i},${i % 3 ? 'Alpha' : 'Beta'}`)].join('\n');
    expect(json(await importCall(slug, file, 'csv'))).toMatchObject({ imported: 10 });
    expect(await search()).toEqual({ found: 6, total: 6 });
    const byOption = async (option: string) => {
      const { items, total } = await list(slug, `&query=size:=:${option}`);
      return [items.length, total];
    };
    expect(await byOption('a')).toEqual([7, 7]);
    expect(await byOption('b')).toEqual([4, 4]);
    const after = await traces(slug);
    expect([after.itemCount, after.rows]).toEqual([11, 11]);
    expect(after.options).toEqual([
      { option_id: 'a', n: 7 },
      { option_id: 'b', n: 4 },
    ]);
    // Four batches: four events, each naming its rows.
    const events = await rows<{ trigger: string; item_id: string; item: Record<string, unknown> | string }>(
      sql`select trigger, item_id, item from item_events where collection_id = (select id from content_collections where project_id = ${f.project} and slug = ${slug}) and trigger = 'import' order by id`,
    );
    expect(events.map((e) => [e.item_id, (typeof e.item === 'string' ? JSON.parse(e.item) : e.item).count])).toEqual([
      ['', 3],
      ['', 3],
      ['', 3],
      ['', 1],
    ]);
  });

  it('writes nothing when a row of the third batch is bad (batches before it were written in the transaction)', async () => {
    const slug = await notes();
    const before = await traces(slug);
    const lines = Array.from({ length: 8 }, (_, i) => JSON.stringify(i === 6 ? { title: 'bad', n: 'seven' } : { title: `row ${i}`, n: i, size: { _id: 'a' } }));
    const refused = importItems(t.database.db, { projectId: f.project, collection: slug }, Readable.from([lines.join('\n')]), { format: 'ndjson', batchSize: 3 });
    await expect(refused).rejects.toBeInstanceOf(ImportRefusedError);
    await expect(refused).rejects.toMatchObject({ status: 422, rowErrors: [expect.objectContaining({ line: 7, path: 'n' })] });
    expect(await traces(slug)).toEqual(before);
  });

  it('writes nothing when the upload is cut off, and frees the collection', async () => {
    const slug = await notes();
    importLimits.batchSize = 10;
    const address = t.app.server.listening ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}` : await t.app.listen({ port: 0, host: '127.0.0.1' });
    const upload = httpRequest(`${address}/api/organization/${f.org}/project/${f.project}/collection/${slug}/import`, {
      method: 'POST',
      headers: { ...bearer(f.access), 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' },
    });
    upload.on('error', () => undefined);
    upload.write(Array.from({ length: 35 }, (_, i) => JSON.stringify({ title: `row ${i}` })).join('\n'));
    // Three batches are written inside the import's transaction meanwhile.
    await sleep(1000);
    upload.destroy();
    const made = await waitFor(async () => {
      const response = await f.call('POST', `collection/${slug}/item`, { title: 'after' });
      return response.statusCode === 201 ? response : undefined;
    }, 10_000);
    expect(made.statusCode).toBe(201);
    const after = await traces(slug);
    expect([after.itemCount, after.rows]).toEqual([1, 1]);
  });

  it('sends one event per batch to the console stream, none to the public one, and no webhook or function on create runs per row', { timeout: 90_000 }, async () => {
    const slug = await notes();
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhook',
      headers: bearer(f.access),
      payload: { organizationID: f.org, projectID: f.project, method: 'POST', trigger: 'create', name: 'hook', webhookURI: 'https://hooks.example/in', collections: [slug] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const token = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'fn', projectID: f.project, organizationID: f.org, powerRead: true } });
    const fn = await f.call('POST', 'functions', { name: `onnote${n}`, language: 'js', apiTokenID: json(token).id, events: ['create'], collections: [slug] });
    expect(fn.statusCode, fn.body).toBe(201);
    const functionId = json(fn).id as string;
    const saved = await f.call('PUT', `functions/onnote${n}/source`, { source: 'export default async () => ({ ok: true });' });
    expect(saved.statusCode, saved.body).toBe(201);
    const deployed = await f.call('POST', `functions/onnote${n}/deploy`, { versionID: json(saved).id });
    expect(deployed.statusCode, deployed.body).toBe(200);

    const address = t.app.server.listening ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}` : await t.app.listen({ port: 0, host: '127.0.0.1' });
    const consoleStream = await Sse.open(`${address}/api/organization/${f.org}/project/${f.project}/collection/${slug}/live?authorization=${f.access}`);
    const publicToken = await mintToken(t, f, { powerRead: true });
    const publicStream = await Sse.open(`${address}/api/public/collection/${slug}/live?authorization=${publicToken}`);
    await waitFor(() => consoleStream.events.some((e) => e.event === 'start') && publicStream.events.some((e) => e.event === 'start'));

    importLimits.batchSize = 2;
    const imported = await importCall(slug, ['title', 'a', 'b', 'c', 'd', 'e'].join('\n'), 'csv');
    expect(json(imported)).toMatchObject({ imported: 5 });
    const messages = await waitFor(() => {
      const got = consoleStream.events.filter((e) => e.event === 'message');
      return got.length >= 3 ? got : undefined;
    });
    const data = messages.map((m) => JSON.parse(m.data) as { trigger: string; itemID: string; item: Record<string, unknown> });
    expect(data.map((d) => [d.trigger, d.itemID, d.item.batch, d.item.count])).toEqual([
      ['import', '', 1, 2],
      ['import', '', 2, 2],
      ['import', '', 3, 1],
    ]);
    expect(data[0]!.item.importID).toBe(json(imported).importID);

    // A create afterwards reaches both streams, the webhook and the function: the import reached none of them per row.
    await createItem(f, slug, { title: 'one by one' });
    await waitFor(() => publicStream.events.some((e) => e.event === 'message'));
    expect(publicStream.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data).trigger)).toEqual(['create']);
    const deliveries = await waitFor(async () => {
      const found = await rows<{ n: number }>(sql`select count(*)::integer as n from webhook_deliveries where webhook_id = ${json(hook).id}`);
      return found[0]!.n > 0 ? found[0]!.n : undefined;
      // On PostgreSQL the relays wait for every older transaction of the server to end (docs/webhooks.md).
    }, 30_000);
    expect(deliveries).toBe(1);
    const runs = await waitFor(async () => {
      const found = await rows<{ n: number }>(sql`select count(*)::integer as n from function_runs where function_id = ${functionId}`);
      return found[0]!.n > 0 ? found[0]!.n : undefined;
    }, 30_000);
    expect(runs).toBe(1);
    consoleStream.close();
    publicStream.close();
  });
});
