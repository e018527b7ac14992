/**
 * Deep pages start from kept anchors (server/content/query/engine.ts ListAnchors): every page of
 * every system-key sort, either way, filtered or not, equals the same slice of the whole list
 * read at once; and a write through the API between two deep reads shows in the second — in the
 * same process, and (PostgreSQL) from another server process on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { buildApp, type App } from '../../server/app.ts';
import { deepPageStats } from '../../server/content/query/engine.ts';
import { openDatabase } from '../../server/db/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('deep pages from anchors on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const perPage = 7;

  const ids = async (params: string, call = f.call) => {
    const response = await call('GET', `collection/notes/item?${params}`);
    expect(response.statusCode, response.body).toBe(200);
    return { ids: (json(response) as { _id: string }[]).map((i) => i._id), total: Number(response.headers['item-count']) };
  };
  /** Every page of a list read one by one, and the whole list read at once (offset 0: no anchors). */
  async function pagesAndWhole(params: string, call = f.call) {
    const whole = await ids(`${params}&perPage=1000`, call);
    const pages: string[] = [];
    for (let page = 1; (page - 1) * perPage <= whole.ids.length; page += 1) {
      const got = await ids(`${params}&perPage=${perPage}&pageNumber=${page}`, call);
      expect(got.total).toBe(whole.total);
      pages.push(...got.ids);
    }
    return { pages, whole: whole.ids };
  }

  beforeAll(async () => {
    // Anchors every 4 entries from offset 8 on, even right after a write (the quiet time is not a setting: set on this app).
    t = await createTestApp(kind, { LIST_ANCHOR_OFFSET: '8', LIST_ANCHOR_STEP: '4' });
    t.app.ctx.config.listQueries.list.anchorQuietMs = 0;
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'notes',
      name: 'Notes',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'N', slug: 'n', type: code('Number') },
      ],
    });
    for (let i = 0; i < 60; i += 1) await createItem(f, 'notes', { title: `note ${i}`, n: i % 3 });
  }, 120_000);
  afterAll(() => t?.close());

  it('gives every page of every system-key sort, filtered or not, as the whole list has it', async () => {
    const before = deepPageStats.anchored;
    for (const sort of ['', 'sort=_id', 'sort=_createdDate', 'sort=_lastUpdatedDate', 'sort=_order', 'sort=_rank']) {
      for (const order of ['asc', 'desc']) {
        for (const filter of ['', `query=${encodeURIComponent('n:!=:1')}`]) {
          const params = [sort, sort ? `order=${order}` : '', filter].filter(Boolean).join('&');
          const { pages, whole } = await pagesAndWhole(params);
          expect(pages, params).toEqual(whole);
          // Twice: the second time every deep page starts from anchors already kept.
          expect((await pagesAndWhole(params)).pages, params).toEqual(whole);
        }
      }
    }
    expect(deepPageStats.anchored - before).toBeGreaterThan(100);
  });

  it('shows a write made between two deep reads in the second', async () => {
    const deep = `perPage=${perPage}&pageNumber=3`;
    const whole = async () => (await ids('perPage=1000')).ids;
    const slice = (list: string[]) => list.slice(2 * perPage, 3 * perPage);
    expect((await ids(deep)).ids).toEqual(slice(await whole()));
    const walks = deepPageStats.walks;
    // An item created at the end, then moved first: every entry after it shifts by one.
    const created = await createItem(f, 'notes', { title: 'new', n: 0 });
    const moved = await f.call('PUT', `collection/notes/item/${created._id}/sort?order=1`);
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await ids(deep)).ids).toEqual(slice(await whole()));
    expect(deepPageStats.walks).toBeGreaterThan(walks);
    // A deletion before the page.
    const first = (await whole())[0]!;
    expect((await f.call('DELETE', `collection/notes/item/${first}`)).statusCode).toBe(204);
    expect((await ids(deep)).ids).toEqual(slice(await whole()));
    // An update that moves an item in a date sort.
    const fifth = (await ids('sort=_lastUpdatedDate&perPage=1000')).ids[4]!;
    expect((await ids(`sort=_lastUpdatedDate&${deep}`)).ids).toEqual(slice((await ids('sort=_lastUpdatedDate&perPage=1000')).ids));
    expect((await f.call('PUT', `collection/notes/item/${fifth}`, { title: 'touched' })).statusCode).toBe(200);
    expect((await ids(`sort=_lastUpdatedDate&${deep}`)).ids).toEqual(slice((await ids('sort=_lastUpdatedDate&perPage=1000')).ids));
  });

  it.runIf(kind === 'postgres')('shows a write another server process made, at once', async () => {
    const other: App = await buildApp({ config: t.config, database: await openDatabase({ databaseUrl: t.database.url!, skipMigrations: true, poolSize: 2 }), logger: false });
    await other.ready();
    try {
      const base = `/api/organization/${f.org}/project/${f.project}/`;
      const callOther: typeof f.call = (method, path, payload) =>
        other.inject({ method, url: base + path, headers: { authorization: `Bearer ${f.access}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
      const deep = `perPage=${perPage}&pageNumber=4`;
      const slice = (list: string[]) => list.slice(3 * perPage, 4 * perPage);
      for (let round = 0; round < 10; round += 1) {
        // This process keeps anchors; the other one writes; this one's next read must show the write.
        expect((await ids(deep)).ids).toEqual(slice((await ids('perPage=1000')).ids));
        const created = json(await callOther('POST', 'collection/notes/item', { title: `other ${round}`, n: 0 })) as { _id: string };
        const moved = await callOther('PUT', `collection/notes/item/${created._id}/sort?order=${1 + round}`);
        expect(moved.statusCode, moved.body).toBe(200);
        expect((await ids(deep)).ids).toEqual(slice((await ids('perPage=1000')).ids));
      }
    } finally {
      await other.close();
      await other.ctx.database.close();
    }
  });
});
