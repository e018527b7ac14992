/**
 * The list query engine through the API on both databases: filters of every form, sorting,
 * paging with the item-count header, projections, aggregation, nested lists, search, and bad
 * input answered 400 problem+json naming the bad part.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guarded } from '../../server/content/query/index.ts';
import { query } from '../../server/content/storage.ts';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
/** The client's `query` encoding: each term URL-encoded, joined by %2B. */
const terms = (...list: string[]) => `query=${list.map(encodeURIComponent).join('%2B')}`;

describe.each(databaseKinds)('list queries on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const ids: Record<string, string> = {};
  let ada: string;
  let grace: string;

  async function list(path: string) {
    const response = await f.call('GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return { items: json(response) as Record<string, any>[], count: response.headers['item-count'] };
  }
  const titles = async (params: string, collection = 'books') => (await list(`collection/${collection}/item?${params}`)).items.map((i) => i.title);

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'authors', name: 'Authors', schema: [{ name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true }] });
    ada = (await createItem(f, 'authors', { name: 'Ada Lovelace' }))._id;
    grace = (await createItem(f, 'authors', { name: 'Grace Hopper' }))._id;
    await createCollection(f, {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Body', slug: 'body', type: code('RichText') },
        { name: 'Price', slug: 'price', type: code('Number') },
        { name: 'Phone', slug: 'phone', type: code('Phone') },
        { name: 'Live', slug: 'live', type: code('Bool') },
        { name: 'Site', slug: 'site', type: code('Link') },
        { name: 'When', slug: 'when', type: code('Date') },
        { name: 'Size', slug: 'size', type: code('Option'), options: [{ _id: 's', value: 'Small' }, { _id: 'l', value: 'Large' }] },
        { name: 'Authors', slug: 'authors', type: code('ItemRef'), referenceCollectionID: 'authors' },
        { name: 'Place', slug: 'place', type: code('GeoPoint') },
        {
          name: 'Chapters',
          slug: 'chapters',
          type: code('NestedCollection'),
          nestedCollectionSchema: [
            { name: 'Heading', slug: 'heading', type: code('PlainText') },
            { name: 'Pages', slug: 'pages', type: code('Number') },
          ],
        },
      ],
    });
    const rows = [
      { title: 'Alpha', body: '<p>The first book</p>', price: 10, phone: '555 0101', live: true, site: 'https://alpha.example', when: '2024-01-01T00:00:00Z', size: { _id: 's' }, authors: [{ itemRefID: ada }], place: { lat: 48.8584, lng: 2.2945 } },
      { title: 'Beta', body: '<p>Second: a sequel</p>', price: 20, phone: '555 0202', live: false, site: 'https://beta.example', when: '2024-02-01T00:00:00Z', size: { _id: 'l' }, authors: [{ itemRefID: grace }], place: { lat: 51.5007, lng: -0.1246 } },
      { title: 'Gamma', price: 30, live: true, when: '2024-03-01T00:00:00Z', authors: [{ itemRefID: ada }, { itemRefID: grace }], place: { lat: 48.8606, lng: 2.3376 } },
      { title: 'delta 50% off', price: 40, site: 'https://delta.example/a_b' },
      { title: 'Epsilon', price: 2.5, live: false },
    ];
    for (const row of rows) ids[row.title] = (await createItem(f, 'books', row))._id;
    await createItem(f, 'books', { heading: 'One', pages: 10 }, { item: ids.Alpha!, nestedID: 'chapters' });
    await createItem(f, 'books', { heading: 'Two', pages: 25 }, { item: ids.Alpha!, nestedID: 'chapters' });
    await createItem(f, 'books', { heading: 'Uno', pages: 5 }, { item: ids.Beta!, nestedID: 'chapters' });
  });
  afterAll(() => t.close());

  it('pages in rank order with the total in item-count (count only with perPage=0; past the end is empty)', async () => {
    const all = await list('collection/books/item');
    expect(all.items.map((i) => i.title)).toEqual(['Alpha', 'Beta', 'Gamma', 'delta 50% off', 'Epsilon']);
    expect(all.count).toBe('5');
    const page2 = await list('collection/books/item?pageNumber=2&perPage=2');
    expect(page2.items.map((i) => i.title)).toEqual(['Gamma', 'delta 50% off']);
    expect(page2.count).toBe('5');
    const countOnly = await list(`collection/books/item?perPage=0&${terms('price:>:15')}`);
    expect(countOnly).toEqual({ items: [], count: '3' });
    expect(await list('collection/books/item?pageNumber=9&perPage=2')).toEqual({ items: [], count: '5' });
  });

  it('filters with query terms of every operator (the client encoding), counting the matches', async () => {
    const filtered = await list(`collection/books/item?${terms('price:>:15', 'price:<:35')}`);
    expect(filtered.items.map((i) => i.title)).toEqual(['Beta', 'Gamma']);
    expect(filtered.count).toBe('2');
    expect(await titles(terms('title:=:Beta'))).toEqual(['Beta']);
    expect(await titles(terms('title:!=:Beta'))).toEqual(['Alpha', 'Gamma', 'delta 50% off', 'Epsilon']);
    expect(await titles(terms('title:regex:^(al|ga)'))).toEqual(['Alpha', 'Gamma']);
    expect(await titles(terms('body:regex:sequel'))).toEqual(['Beta']);
    expect(await titles(terms('live:=:true'))).toEqual(['Alpha', 'Gamma']);
    expect(await titles(terms('live:!=:true'))).toEqual(['Beta', 'delta 50% off', 'Epsilon']);
    expect(await titles(terms('size:=:l'))).toEqual(['Beta']);
    expect(await titles(terms('size:!=:l'))).toEqual(['Alpha', 'Gamma', 'delta 50% off', 'Epsilon']);
    expect(await titles(terms('site:regex:a_b'))).toEqual(['delta 50% off']);
    expect(await titles(terms('when:>:2024-01-15T00:00:00Z'))).toEqual(['Beta', 'Gamma']);
    expect(await titles(terms(`when:<:${Date.parse('2024-02-15T00:00:00Z') / 1000}`))).toEqual(['Alpha', 'Beta']);
    expect(await titles(terms(`authors.itemRefID:=:${grace}`))).toEqual(['Beta', 'Gamma']);
    expect(await titles(terms(`authors.itemRefID:=:${ada},${grace}`))).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await titles(terms(`authors.itemRefID:!=:${ada}`))).toEqual(['Beta', 'delta 50% off', 'Epsilon']);
    // 1 km around the Eiffel Tower; then a box around Paris.
    expect(await titles(terms('place:within:48.8584,2.2945,1000'))).toEqual(['Alpha']);
    expect(await titles(terms('place:within:48.8584,2.2945,5000'))).toEqual(['Alpha', 'Gamma']);
    expect(await titles(terms('place:within:48.8,2.2,48.9,2.4'))).toEqual(['Alpha', 'Gamma']);
    expect(await titles(terms(`_id:=:${ids.Gamma}`))).toEqual(['Gamma']);
    // A value holding ':' is kept whole.
    expect(await titles(terms('site:=:https://beta.example'))).toEqual(['Beta']);
  });

  it('sorts by any sortable field or system key, either way, in any case', async () => {
    expect(await titles('sort=price&order=DESC')).toEqual(['delta 50% off', 'Gamma', 'Beta', 'Alpha', 'Epsilon']);
    expect(await titles('sort=price&order=asc&perPage=2&pageNumber=2')).toEqual(['Beta', 'Gamma']);
    expect(await titles('sort=title')).toEqual(['Alpha', 'Beta', 'Epsilon', 'Gamma', 'delta 50% off']);
    // Unset values come first in descending order (last ascending); ties go by _id the same way.
    const unset = ['Epsilon', 'delta 50% off'].sort((a, b) => (ids[a]! < ids[b]! ? 1 : -1));
    expect(await titles('sort=when&order=desc')).toEqual([...unset, 'Gamma', 'Beta', 'Alpha']);
    expect(await titles('sort=when')).toEqual(['Alpha', 'Beta', 'Gamma', ...unset.reverse()]);
    expect(await titles('sort=_createdDate&order=desc')).toEqual(['Epsilon', 'delta 50% off', 'Gamma', 'Beta', 'Alpha']);
    expect(await titles('order=desc')).toEqual(['Epsilon', 'delta 50% off', 'Gamma', 'Beta', 'Alpha']);
  });

  it('a deep page read by its ids first (deferred join) is the same page, with the same total', async () => {
    const cases = [
      'perPage=2&pageNumber=2',
      'sort=price&order=desc&perPage=2&pageNumber=2',
      'sort=title&perPage=1&pageNumber=3',
      'sort=when&order=desc&perPage=2&pageNumber=2',
      `perPage=2&pageNumber=1&query=${encodeURIComponent('price:>:1')}`,
      'perPage=2&pageNumber=9',
    ];
    const direct = [];
    for (const params of cases) direct.push(await list(`collection/books/item?${params}`));
    const listTuning = t.app.ctx.config.listQueries.list;
    const saved = listTuning.deferredJoinOffset;
    listTuning.deferredJoinOffset = 0;
    try {
      for (const [i, params] of cases.entries()) expect(await list(`collection/books/item?${params}`), params).toEqual(direct[i]);
    } finally {
      listTuning.deferredJoinOffset = saved;
    }
    expect(direct.some((page) => page.items.length > 0)).toBe(true);
  });

  it('filters with the console filter state and with find', async () => {
    const filter = JSON.stringify([
      { fieldName: 'Price', key: 'price', operator: '>', filterValue: '5' },
      { fieldName: 'Live', key: 'live', operator: '=', filterValue: true },
    ]);
    expect(await titles(q({ filter }))).toEqual(['Alpha', 'Gamma']);
    expect(await titles(q({ filter: JSON.stringify([{ key: 'authors', operator: '=', refFilterVal: [{ itemRefID: grace, value: 'Grace Hopper' }] }]) }))).toEqual(['Beta', 'Gamma']);
    const find = JSON.stringify({ $or: [{ price: { $gte: 30 } }, { title: { $regex: '^al', $options: 'i' } }], when: { $lt: 'Date(2024-12-31)' } });
    expect(await titles(q({ find }))).toEqual(['Alpha', 'Gamma']);
    expect(await titles(q({ find: '{"site": null}' }))).toEqual(['Gamma', 'Epsilon']);
    expect(await titles(q({ find: '{"size": {"$nin": ["s"]}}' }))).toEqual(['Beta', 'Gamma', 'delta 50% off', 'Epsilon']);
    expect(await titles(q({ find: JSON.stringify({ chapters: { $elemMatch: { pages: { $gt: 20 } } } }) }))).toEqual(['Alpha']);
    expect(await titles(q({ find: JSON.stringify({ chapters: { $elemMatch: { heading: { $regex: '^U' } } } }) }))).toEqual(['Beta']);
    // Every form together: all must hold.
    expect(await titles(`${terms('price:>:5')}&${q({ find: '{"live": true}', search: 'gam' })}`)).toEqual(['Gamma']);
  });

  it('projects on and off, and includes nested lists only when projected on', async () => {
    const on = await list(`collection/books/item?${q({ projectOn: 'title,chapters', perPage: '2' })}`);
    expect(on.items).toEqual([
      { _id: ids.Alpha, title: 'Alpha', chapters: [expect.objectContaining({ heading: 'One', pages: 10 }), expect.objectContaining({ heading: 'Two', pages: 25 })] },
      { _id: ids.Beta, title: 'Beta', chapters: [expect.objectContaining({ heading: 'Uno' })] },
    ]);
    const off = await list(`collection/books/item?${q({ projectOff: 'body,place,_rank', perPage: '1' })}`);
    expect(Object.keys(off.items[0]!).sort()).toEqual(['_createdDate', '_id', '_lastUpdatedDate', '_order', 'authors', 'live', 'phone', 'price', 'site', 'size', 'title', 'when']);
  });

  it('runs aggregation pipelines', async () => {
    const grouped = await list(
      `collection/books/item?${q({
        aggregationPipeline: JSON.stringify([
          { $match: { price: { $gt: 5 } } },
          { $group: { _id: '$live', total: { $sum: '$price' }, n: { $sum: 1 }, avg: { $avg: '$price' }, lo: { $min: '$price' }, hi: { $max: '$title' } } },
          { $sort: { total: -1 } },
        ]),
      })}`,
    );
    expect(grouped.items).toEqual([
      { _id: null, total: 40, n: 1, avg: 40, lo: 40, hi: 'delta 50% off' },
      { _id: true, total: 40, n: 2, avg: 20, lo: 10, hi: 'Gamma' },
      { _id: false, total: 20, n: 1, avg: 20, lo: 20, hi: 'Beta' },
    ]);
    expect(grouped.count).toBe('3');
    const counted = await list(`collection/books/item?${q({ aggregationPipeline: JSON.stringify([{ $match: { live: true } }, { $count: 'n' }]) })}`);
    expect(counted.items).toEqual([{ n: 2 }]);
    const shaped = await list(
      `collection/books/item?${q({ aggregationPipeline: JSON.stringify([{ $sort: { price: -1 } }, { $skip: 1 }, { $limit: 3 }, { $match: { price: { $lt: 25 } } }, { $project: { title: 1, _id: 0 } }]) })}`,
    );
    expect(shaped.items).toEqual([{ title: 'Beta' }, { title: 'Alpha' }]);
    const unsupported = await f.call('GET', `collection/books/item?${q({ aggregationPipeline: '[{"$lookup": {"from": "users"}}]' })}`);
    expect(expectProblem(unsupported, 400, 'unsupported_stage').detail).toContain('$lookup');
  });

  it('lists nested collections through nestedID with the same parameters', async () => {
    const base = `collection/books/item/${ids.Alpha}?nestedID=chapters`;
    const all = await list(base);
    expect(all.items.map((i) => i.heading)).toEqual(['One', 'Two']);
    expect(all.count).toBe('2');
    const filtered = await list(`${base}&${terms('pages:>:15')}`);
    expect(filtered.items.map((i) => i.heading)).toEqual(['Two']);
    expect(filtered.count).toBe('1');
    expect((await list(`${base}&sort=pages&order=desc`)).items.map((i) => i.heading)).toEqual(['Two', 'One']);
    expect((await list(`${base}&search=tw`)).items.map((i) => i.heading)).toEqual(['Two']);
    expect((await list(`collection/books/item/${ids.Beta}?nestedID=chapters&perPage=0`)).count).toBe('1');
    expectProblem(await f.call('GET', `${base}&${terms('title:=:x')}`), 400, 'unknown_field');
    expectProblem(await f.call('GET', `collection/books/item/${ids.Gamma}?nestedID=nope`), 404);
    // A nestedID ending in an item still returns that item.
    const one = await f.call('GET', `collection/books/item/${ids.Alpha}?nestedID=chapters.${all.items[0]!._id}`);
    expect(json(one)).toMatchObject({ heading: 'One' });
  });

  it('searches _id, text fields case-insensitively, numbers and linked items, with | between terms', async () => {
    const search = async (text: string, extra = '') => {
      const response = await f.call('GET', `collection/books/search?${q({ query: text })}${extra}`);
      expect(response.statusCode, response.body).toBe(200);
      return { titles: (json(response) as { title: string }[]).map((i) => i.title), count: response.headers['item-count'] };
    };
    expect(await search('ALP')).toEqual({ titles: ['Alpha'], count: '1' });
    expect(await search('sequel')).toEqual({ titles: ['Beta'], count: '1' });
    expect((await search('0202')).titles).toEqual(['Beta']);
    expect((await search('delta.example')).titles).toEqual(['delta 50% off']);
    expect((await search('50%')).titles).toEqual(['delta 50% off']);
    expect((await search('a_b')).titles).toEqual(['delta 50% off']);
    expect((await search('2.5')).titles).toEqual(['Epsilon']);
    expect((await search('Grace Hopper')).titles).toEqual(['Beta', 'Gamma']);
    // Linked items' display values match as text fields do: a case-insensitive part of one value.
    expect(await search('e hOP')).toEqual({ titles: ['Beta', 'Gamma'], count: '2' });
    expect((await search('lovelace, grace')).titles).toEqual([]);
    expect((await search(ids.Gamma!)).titles).toEqual(['Gamma']);
    expect((await search('alpha|beta | 30')).titles).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await search('alpha|beta', '&sort=price&order=desc&perPage=1')).toEqual({ titles: ['Beta'], count: '2' });
    expect((await search('')).count).toBe('5');
    expect((await search('.*')).titles).toEqual([]);
    expect(await titles(q({ search: 'ga|EPS' }))).toEqual(['Gamma', 'Epsilon']);
    expectProblem(await f.call('GET', `collection/books/search?${q({ query: 'x'.repeat(300) })}`), 400);
  });

  it('answers bad input with 400 problem+json naming the bad part, never 500', async () => {
    const bad = async (params: string, errorCode: string, path?: string) => {
      const response = await f.call('GET', `collection/books/item?${params}`);
      const body = expectProblem(response, 400, errorCode) as unknown as { errors?: { path: string }[] };
      if (path) expect(body.errors?.map((e) => e.path), response.body).toContain(path);
    };
    await bad('perPage=-1', 'validation_failed', 'querystring.perPage');
    await bad('perPage=1001', 'validation_failed', 'querystring.perPage');
    await bad('perPage=ten', 'validation_failed', 'querystring.perPage');
    await bad('pageNumber=0', 'validation_failed', 'querystring.pageNumber');
    await bad(terms('nope:=:1'), 'unknown_field', 'querystring.query.0');
    await bad(terms('title:=:a', 'price:regex:1'), 'operator_not_allowed', 'querystring.query.1');
    await bad(terms('title:regex:(a)\\1'), 'invalid_regex', 'querystring.query.0');
    await bad(terms(`title:regex:${'(a|b)*'.repeat(60)}`), 'invalid_regex', 'querystring.query.0');
    await bad(q({ find: '{"title": ' }), 'malformed_json', 'querystring.find');
    await bad(q({ find: '{"nope": 1}' }), 'unknown_field', 'querystring.find.nope');
    await bad(q({ find: '{"$where": "1"}' }), 'invalid_query', 'querystring.find.$where');
    await bad(q({ aggregationPipeline: '[{"$match":' }), 'malformed_json', 'querystring.aggregationPipeline');
    await bad(q({ filter: '[{"filterValue": "x"}]' }), 'invalid_query', 'querystring.filter.0');
    await bad('sort=nope', 'unknown_field', 'querystring.sort');
    await bad('sort=body', 'invalid_query', 'querystring.sort');
    await bad('order=sideways', 'invalid_query', 'querystring.order');
    await bad('query=a&query=b', 'validation_failed');
  });

  it('refuses regexes that would be costly to build (nested counted repetition) before they reach the database', async () => {
    const heavy = '(a{1,255}){1,255}(a{1,255}){1,255}';
    expectProblem(await f.call('GET', `collection/books/item?${terms(`title:regex:${heavy}`)}`), 400, 'invalid_regex');
    expectProblem(await f.call('GET', `collection/books/item?${q({ find: JSON.stringify({ title: { $regex: heavy } }) })}`), 400, 'invalid_regex');
    // Patterns that backtrack exponentially elsewhere are cheap here (no back-references are accepted).
    // (`query` values cannot hold "+": it separates terms; find can.)
    const response = await f.call('GET', `collection/books/item?${q({ find: JSON.stringify({ title: { $regex: `${'(a+)+'.repeat(20)}b` } }) })}`);
    expect(response.statusCode, response.body).toBe(200);
    expect((await list('collection/books/item?perPage=0')).count).toBe('5');
  });

  // PGlite runs in-process with no timer signals: statement_timeout is PostgreSQL's guard only.
  it.runIf(kind === 'postgres')('turns the statement timeout into a 400 and leaves the connection usable', async () => {
    await expect(guarded(t.database.db, (executor) => query(executor, sql`select pg_sleep(3)`), 100)).rejects.toMatchObject({ status: 400, code: 'query_timeout' });
    expect((await list('collection/books/item?perPage=0')).count).toBe('5');
  });
});
