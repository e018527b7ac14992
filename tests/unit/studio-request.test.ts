/**
 * Studio's request model (definitions/studio-request.ts): the generated client and fetch code,
 * run against a recording adapter, send exactly the call Studio itself sends.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  codeFor,
  conditionFromFilter,
  emptyStudioRequest,
  findOf,
  queryTerms,
  requestProblems,
  searchFields,
  toBagelClient,
  toCurl,
  toFetch,
  toHttp,
  tokenPlaceholder,
  type StudioRequest,
} from '../../definitions/studio-request.ts';
import { fieldTypes, type SchemaField } from '../../definitions/field-types/index.ts';

const require = createRequire(import.meta.url);
const { BagelDB } = require('@bageldb/bagel-db/dist/serverSpread.cjs') as { BagelDB: new (token: string, options: object) => { axiosInstance: { defaults: { adapter: unknown } } } };

const origin = 'http://larder.test';
const code = (name: string) => fieldTypes.find((type) => type.name === name)!.code;
const fields: SchemaField[] = [
  { id: 'f1', name: 'Title', slug: 'title', type: code('PlainText') },
  { id: 'f2', name: 'Price', slug: 'price', type: code('Number') },
  { id: 'f3', name: 'Due', slug: 'due', type: code('Date') },
  { id: 'f4', name: 'Author', slug: 'author', type: code('ItemRef'), referenceCollectionID: 'people' },
];

const request = (overrides: Partial<StudioRequest>): StudioRequest => ({ ...emptyStudioRequest, collection: 'things', ...overrides });

interface Captured {
  method: string;
  url: string;
  data: unknown;
  headers: Record<string, string>;
}

/** Runs generated client code with the official client, its HTTP replaced by a recorder. */
async function runClientCode(text: string): Promise<Captured> {
  const captured: Captured[] = [];
  class RecordingBagel extends BagelDB {
    constructor(token: string, options: object) {
      super(token, options);
      this.axiosInstance.defaults.adapter = async (config: { method: string; url: string; data: unknown; headers: Record<string, string> }) => {
        captured.push({ method: config.method.toUpperCase(), url: config.url, data: config.data, headers: config.headers });
        return { data: {}, status: 200, statusText: 'OK', headers: {}, config };
      };
    }
  }
  const body = text.replace(/^import Bagel from '@bageldb\/bagel-db';$/m, '');
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
  await new AsyncFunction('Bagel', 'console', 'file', body)(RecordingBagel, { log: () => undefined }, new Blob(['x']));
  expect(captured).toHaveLength(1);
  return captured[0]!;
}

/** Runs generated fetch code against a recording fetch. */
async function runFetchCode(text: string): Promise<{ url: string; init: RequestInit }> {
  const calls: { url: string; init: RequestInit }[] = [];
  const fakeFetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
  await new AsyncFunction('fetch', 'console', 'file', text)(fakeFetch, { log: () => undefined }, new Blob(['x']));
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

const cases: [string, StudioRequest][] = [
  ['a plain list', request({})],
  [
    'a filtered, sorted, searched page',
    request({
      conditions: [
        { key: 'price', operator: '>', value: '10' },
        { key: 'author.itemRefID', operator: '=', value: 'aaaaaaaaaaaaaaaaaaaaaaaa,bbbbbbbbbbbbbbbbbbbbbbbb' },
        { key: 'title', operator: 'regex', value: 'C\\+\\+' },
      ],
      search: { text: 'a.b', fields: ['title'] },
      sort: { key: 'price', order: 'desc' },
      pageNumber: 3,
      perPage: 7,
    }),
  ],
  ['a nested list two levels down', request({ levels: [{ parentID: 'p1', slug: 'chapters' }, { parentID: 'p2', slug: 'paragraphs' }], conditions: [{ key: 'n', operator: '<', value: '4' }] })],
  ['one item', request({ method: 'get', itemID: 'i1' })],
  ['one nested item', request({ method: 'get', itemID: 'i2', levels: [{ parentID: 'p1', slug: 'chapters' }] })],
  ['a create', request({ method: 'create', body: '{"title": "It\'s new", "price": 3}' })],
  ['a nested create', request({ method: 'create', body: '{"n": 1}', levels: [{ parentID: 'p1', slug: 'chapters' }] })],
  ['an update', request({ method: 'update', itemID: 'i1', body: '{"price": 4}' })],
  ['a nested update', request({ method: 'update', itemID: 'i3', body: '{"n": 2}', levels: [{ parentID: 'p1', slug: 'chapters' }] })],
  ['a delete', request({ method: 'delete', itemID: 'i1' })],
  ['a nested delete', request({ method: 'delete', itemID: 'i3', levels: [{ parentID: 'p1', slug: 'chapters' }] })],
  ['an upload', request({ method: 'upload', itemID: 'i1', upload: { imageSlug: 'photo', fileName: 'cat.png', altText: 'A cat' } })],
];

describe('the BagelDB client code sends the call Studio sends', () => {
  it.each(cases)('%s', async (_, studio) => {
    expect(requestProblems(studio)).toEqual([]);
    const http = toHttp(studio);
    const sent = await runClientCode(toBagelClient(studio, { origin, token: 'secret-1' }));
    expect(sent.headers.Authorization).toBe('Bearer secret-1');
    expect(sent.headers['Accept-Version']).toBe('v1');
    expect(sent.method).toBe(http.method);
    if (studio.method === 'get') {
      // The client always sends paging, which one item ignores.
      expect(sent.url.replace(/pageNumber=1&perPage=100&?/, '').replace(/\?$/, '')).toBe(origin + http.path);
    } else {
      expect(sent.url).toBe(origin + http.path);
    }
    if (http.body?.kind === 'json') expect(JSON.parse(typeof sent.data === 'string' ? sent.data : JSON.stringify(sent.data))).toEqual(JSON.parse(http.body.text));
    if (http.body === null) expect(sent.data).toBeUndefined();
  });
});

describe('the fetch code sends the call Studio sends', () => {
  it.each(cases)('%s', async (_, studio) => {
    const http = toHttp(studio);
    const sent = await runFetchCode(toFetch(studio, { origin, token: 'secret-2' }));
    expect(sent.url).toBe(origin + http.path);
    expect(sent.init.method).toBe(http.method);
    expect((sent.init.headers as Record<string, string>).Authorization).toBe('Bearer secret-2');
    if (http.body?.kind === 'json') expect(JSON.parse(sent.init.body as string)).toEqual(JSON.parse(http.body.text));
    if (http.body?.kind === 'multipart') {
      const form = sent.init.body as FormData;
      expect(form.get('altText')).toBe(http.body.altText);
      expect((form.get('imageFile') as File).name).toBe(http.body.fileName);
    }
  });
});

describe('the list URL', () => {
  it('puts parameters in the client order and keeps + out of query', () => {
    const studio = cases[1]![1];
    const url = new URL(origin + toHttp(studio).path);
    expect([...url.searchParams.keys()]).toEqual(['pageNumber', 'sort', 'order', 'perPage', 'find', 'query']);
    // The regex holding "+" went to find, with the search.
    expect(queryTerms(studio)).toEqual(['price:>:10', 'author.itemRefID:=:aaaaaaaaaaaaaaaaaaaaaaaa,bbbbbbbbbbbbbbbbbbbbbbbb']);
    expect(findOf(studio)).toEqual({ $and: [{ title: { $regex: 'C\\+\\+', $options: 'i' } }, { title: { $regex: 'a\\.b', $options: 'i' } }] });
    // The server splits query on + after decoding: the raw parameter holds exactly the terms.
    expect(url.searchParams.get('query')!.split('+')).toEqual(queryTerms(studio));
  });

  it('searches text fields only', () => {
    expect(searchFields(fields)).toEqual(['title']);
    expect(findOf(request({ search: { text: 'x', fields: ['title', 'body'] } }))).toEqual({ $or: [{ title: { $regex: 'x', $options: 'i' } }, { body: { $regex: 'x', $options: 'i' } }] });
    expect(findOf(request({ search: { text: '  ', fields: ['title'] } }))).toBeUndefined();
  });
});

describe('conditions from the item list filter', () => {
  it('reads the filter parameter of each kind of field', () => {
    expect(conditionFromFilter(JSON.stringify({ fieldName: 'Price', key: 'price', operator: '>', filterValue: '10' }), fields)).toEqual({ key: 'price', operator: '>', value: '10' });
    expect(conditionFromFilter(JSON.stringify({ key: 'due', operator: '<', filterValue: 1_700_000_000 }), fields)).toEqual({ key: 'due', operator: '<', value: '2023-11-14T22:13:20.000Z' });
    expect(conditionFromFilter(JSON.stringify({ key: 'author', operator: '!=', refFilterVal: [{ itemRefID: 'a1', value: 'Ann' }, { itemRefID: 'b2', value: 'Bo' }] }), fields)).toEqual({
      key: 'author.itemRefID',
      operator: '!=',
      value: 'a1,b2',
    });
    expect(conditionFromFilter(JSON.stringify({ key: 'done', operator: '=', filterValue: false }), fields)).toEqual({ key: 'done', operator: '=', value: 'false' });
    expect(conditionFromFilter(undefined, fields)).toBeUndefined();
    expect(conditionFromFilter('not json', fields)).toBeUndefined();
  });
});

describe('problems', () => {
  it('names what is missing', () => {
    expect(requestProblems(request({ collection: '' }))).toEqual(['collection']);
    expect(requestProblems(request({ method: 'get' }))).toEqual(['itemID']);
    expect(requestProblems(request({ method: 'update', itemID: 'a/b' }))).toEqual(['itemID']);
    expect(requestProblems(request({ method: 'create', body: '{' }))).toEqual(['bodyJson']);
    expect(requestProblems(request({ method: 'create', body: '[1]' }))).toEqual(['bodyObject']);
    expect(requestProblems(request({ levels: [{ parentID: '', slug: 'chapters' }] }))).toEqual(['parent']);
    expect(requestProblems(request({ method: 'upload', itemID: 'i', upload: { imageSlug: '', fileName: '', altText: '' } }))).toEqual(['imageSlug', 'file']);
    expect(requestProblems(request({ method: 'upload', itemID: 'i', upload: { imageSlug: 's', fileName: 'a.png', altText: '' } }), { hasFile: false })).toEqual(['file']);
    expect(requestProblems(request({ perPage: -1, pageNumber: 0 }))).toEqual(['perPage', 'pageNumber']);
  });
});

describe('code text', () => {
  it('uses the placeholder without a token and quotes for the shell', () => {
    const studio = request({ method: 'create', body: '{"title": "It\'s"}' });
    const curl = toCurl(studio, { origin });
    expect(curl).toContain(`Authorization: Bearer ${tokenPlaceholder}`);
    expect(curl).toContain(`--data '{\n  "title": "It'\\''s"\n}'`);
    expect(codeFor('client', studio, { origin })).toContain(`new Bagel("${tokenPlaceholder}"`);
    expect(codeFor('fetch', studio, { origin })).toContain(`"Authorization": "Bearer ${tokenPlaceholder}"`);
  });
});
