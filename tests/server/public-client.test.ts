/**
 * The official BagelDB client (`@bageldb/bagel-db` 0.4.39, its `dist/serverSpread.cjs` entry, with
 * `form-data` and `eventsource` as Node needs) driven against a listening Larder through its
 * content methods, with only its base URLs changed (and the live host rewritten).
 */
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const require = createRequire(import.meta.url);

type Client = any;

interface LiveMessage {
  collectionID: string;
  itemID: string;
  nestedID: string;
  trigger: string;
  item: Record<string, unknown>;
}

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe.each(databaseKinds)('the official BagelDB client against Larder on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let base: string;
  let db: Client;
  let readOnly: Client;
  let BagelDB: any;
  let png: Buffer;
  let imageServer: Server;
  let imageUrl: string;
  const liveUrls: string[] = [];
  const saved = { FormData: globalThis.FormData, EventSource: (globalThis as any).EventSource };
  let authorA: string;
  let authorB: string;

  const mint = async (rights: Record<string, unknown>) => {
    const minted = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'client', projectID: f.project, organizationID: f.org, ...rights } });
    expect(minted.statusCode, minted.body).toBe(201);
    return json(minted).jwtToken as string;
  };
  /** A file URL the server answered, fetched from the listening server (PUBLIC_URL is not this host). */
  const download = (url: string) => fetch(url.replace('http://larder.test', base));

  beforeAll(async () => {
    // The server build, with form-data as FormData and eventsource v2 as EventSource.
    (globalThis as any).FormData = require('form-data');
    const RealEventSource = require('eventsource');
    (globalThis as any).EventSource = class extends RealEventSource {
      constructor(url: string, init?: unknown) {
        liveUrls.push(url);
        super(url.replace('https://live.bageldb.com/api/public', `${base}/api/public`), init);
      }
    };
    BagelDB = require('@bageldb/bagel-db/dist/serverSpread.cjs').BagelDB;
    expect(typeof BagelDB).toBe('function');

    png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c00' } }).png().toBuffer();
    imageServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      response.end(png);
    });
    await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}/pictures/remote.png`;

    t = await createTestApp(kind, { OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8', LIVE_STREAM_MAX_S: '2' });
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    f = await contentFixture(t);
    await createCollection(f, { id: 'authors', name: 'Authors', schema: [{ name: 'Name', slug: 'name', type: 1, primaryField: true }] });
    await createCollection(f, {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Views', slug: 'views', type: 3 },
        { name: 'Author', slug: 'author', type: 6, referenceCollectionID: 'authors' },
        { name: 'Photo', slug: 'photo', type: 5 },
        { name: 'Gallery', slug: 'gallery', type: 11 },
        {
          name: 'Chapters',
          slug: 'chapters',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Heading', slug: 'heading', type: 1 },
            { name: 'Cover', slug: 'cover', type: 5 },
            { name: 'Paragraphs', slug: 'paragraphs', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
          ],
        },
      ],
    });
    authorA = (await createItem(f, 'authors', { name: 'Ada' }))._id;
    authorB = (await createItem(f, 'authors', { name: 'Brian' }))._id;
    const options = { baseEndpoint: `${base}/api/public`, authEndpoint: `${base}/auth/public`, customReqHeaders: { 'X-Custom': '1' } };
    db = new BagelDB(await mint({ powerRead: true, powerWrite: true }), options);
    readOnly = new BagelDB(await mint({ roles: [{ collection: 'articles', create: false, read: true, update: false, delete: false }] }), options);
  });

  afterAll(async () => {
    (globalThis as any).FormData = saved.FormData;
    (globalThis as any).EventSource = saved.EventSource;
    await t?.close();
    await new Promise((resolve) => imageServer?.close(resolve));
  });

  it('posts, gets, puts, sets and deletes items', async () => {
    const created = await db.collection('articles').post({ title: 'Hello', views: 3, author: [{ itemRefID: authorA }] });
    const id = created.data.id as string;
    expect(created.status).toBe(201);
    const got = await db.collection('articles').item(id).get();
    expect(got.data).toMatchObject({ _id: id, title: 'Hello', views: 3, author: [{ itemRefID: authorA, value: 'Ada' }] });
    expect((await db.collection('articles').item(id).put({ views: 4 })).data).toEqual({ id });
    expect((await db.collection('articles').item(id).get()).data).toMatchObject({ title: 'Hello', views: 4 });
    const custom = 'a1b2c3d4e5f6a1b2c3d4e5f6';
    await db.collection('articles').item(custom).set({ title: 'Custom', views: 1 });
    await db.collection('articles').item(custom).set({ views: 2 });
    expect((await db.collection('articles').item(custom).get()).data).toMatchObject({ _id: custom, title: 'Custom', views: 2 });
    await db.collection('articles').item(custom).delete();
    const missing = await db.collection('articles').item(custom).get().catch((error: any) => error);
    expect(missing.response.status).toBe(404);
  });

  it('lists with sort, paging, projections, everything, find, pipelines, queries and getCount', async () => {
    for (const [title, views, author] of [['q one', 10, authorA], ['q two', 30, authorB], ['q three', 20, authorA]] as const) {
      await db.collection('articles').post({ title, views, author: [{ itemRefID: author }] });
    }
    const q = () => db.collection('articles').query('title', 'regex', '^q ');
    expect(await q().getCount()).toBe('3');
    const page = await q().sort('views', BagelDB.DESC).perPage(1).pageNumber(2).get();
    expect(page.data.map((a: any) => a.title)).toEqual(['q three']);
    expect(page.headers['item-count']).toBe('3');
    const asc = await q().sort('views', 'asc').get();
    expect(asc.data.map((a: any) => a.views)).toEqual([10, 20, 30]);
    const on = await q().projectOn('title,views').perPage(1).get();
    expect(Object.keys(on.data[0]).sort()).toEqual(['_id', 'title', 'views']);
    const off = await q().projectOff('author,views').perPage(1).get();
    expect(off.data[0].author).toBeUndefined();
    expect(off.data[0].title).toBeDefined();
    const everything = await q().sort('views', 'ASC').everything().get();
    expect(everything.data.map((a: any) => a.author[0].item.name)).toEqual(['Ada', 'Ada', 'Brian']);
    const found = await db.collection('articles').find({ title: { $regex: 'Q T', $options: 'i' } }).get();
    expect(found.data.map((a: any) => a.title).sort()).toEqual(['q three', 'q two']);
    const pipeline = await db.collection('articles').aggregationPipeline([{ $match: { views: { $gt: 15 } } }, { $count: 'n' }]).get();
    expect(pipeline.data).toEqual([{ n: 2 }]);
    const anded = await db.collection('articles').query('views', '>', 15).query('views', '<', 25).get();
    expect(anded.data.map((a: any) => a.title)).toEqual(['q three']);
    const byRef = await db.collection('articles').query('author.itemRefID', '=', [authorB]).get();
    expect(byRef.data.map((a: any) => a.title)).toEqual(['q two']);
    const notRef = await q().query('author.itemRefID', '!=', [authorB]).get();
    expect(notRef.data.map((a: any) => a.title).sort()).toEqual(['q one', 'q three']);
  });

  it('appends, unsets, sets values, increments and decrements', async () => {
    const id = (await db.collection('articles').post({ title: 'Ops', views: 1 })).data.id as string;
    const item = () => db.collection('articles').item(id);
    await item().append('author', authorA);
    await item().append('author', authorB);
    expect((await item().get()).data.author.map((l: any) => l.itemRefID)).toEqual([authorA, authorB]);
    await item().unset('author', authorA);
    expect((await item().get()).data.author.map((l: any) => l.itemRefID)).toEqual([authorB]);
    await item().field('views').increment(5);
    await item().field('views').increment('1.5');
    await item().field('views').decrement(2);
    expect((await item().get()).data.views).toBe(5.5);
    await item().value('views', 5.5);
    expect((await item().get()).data.views).toBeUndefined();
  });

  it('works with nested collections at any depth', async () => {
    const id = (await db.collection('articles').post({ title: 'Book' })).data.id as string;
    const chapter = (await db.collection('articles').item(id).collection('chapters').post({ heading: 'One' })).data.id as string;
    const chapterRef = () => db.collection('articles').item(id).collection('chapters').item(chapter);
    const paragraph = (await chapterRef().collection('paragraphs').post({ text: 'First' })).data.id as string;
    const list = await db.collection('articles').item(id).collection('chapters').get();
    expect(list.data.map((c: any) => c.heading)).toEqual(['One']);
    expect(list.headers['item-count']).toBe('1');
    expect((await chapterRef().get()).data).toMatchObject({ _id: chapter, heading: 'One' });
    await chapterRef().put({ heading: 'Uno' });
    const paragraphRef = () => chapterRef().collection('paragraphs').item(paragraph);
    await paragraphRef().put({ text: 'Primero' });
    expect((await paragraphRef().get()).data).toMatchObject({ _id: paragraph, text: 'Primero' });
    const setId = 'f0f0f0f0f0f0f0f0f0f0f0f0';
    await chapterRef().collection('paragraphs').item(setId).set({ text: 'Set' });
    const paragraphs = await chapterRef().collection('paragraphs').get();
    expect(paragraphs.data.map((p: any) => p.text)).toEqual(['Primero', 'Set']);
    expect(await chapterRef().collection('paragraphs').getCount()).toBe('2');
    await paragraphRef().value('text', 'Primero');
    expect((await paragraphRef().get()).data.text).toBeUndefined();
    expect(() => paragraphRef().unset('text', 'x')).toThrow(/nested/);
    await chapterRef().collection('paragraphs').item(setId).delete();
    await chapterRef().uploadImage('cover', { selectedImage: png, fileName: 'cover.png', altText: 'Cover' });
    const cover = (await chapterRef().get()).data.cover;
    expect(cover).toMatchObject({ altText: 'Cover', extension: 'png' });
    expect((await download(cover.imageURL)).status).toBe(200);
    await chapterRef().delete();
    expect(await db.collection('articles').item(id).collection('chapters').getCount()).toBe('0');
  });

  it('uploads images (file and link, fetched through the URL guard) and assets', async () => {
    const id = (await db.collection('articles').post({ title: 'Pictures' })).data.id as string;
    await db.collection('articles').item(id).uploadImage('photo', { selectedImage: png, fileName: 'local.png', altText: 'Local' });
    let item = (await db.collection('articles').item(id).get()).data;
    expect(item.photo).toMatchObject({ altText: 'Local', extension: 'png' });
    const first = await download(item.photo.imageURL);
    expect(Buffer.from(await first.arrayBuffer()).equals(png)).toBe(true);
    await db.collection('articles').item(id).uploadImage('gallery', { imageLink: imageUrl });
    await db.collection('articles').item(id).uploadImage('gallery', { selectedImage: png, fileName: 'second.png' });
    item = (await db.collection('articles').item(id).get()).data;
    expect(item.gallery).toHaveLength(2);
    expect(item.gallery[0].imageURL.startsWith('http://larder.test/files/')).toBe(true);
    expect(Buffer.from(await (await download(item.gallery[0].imageURL)).arrayBuffer()).equals(png)).toBe(true);
    // A link the URL guard refuses (the server's own loopback port is allowed here, a metadata address is not).
    const refused = await db.collection('articles').item(id).uploadImage('photo', { imageLink: 'http://169.254.169.254/latest/meta-data' }).catch((error: any) => error);
    expect(refused.response.status).toBe(400);

    const assets = await db.uploadAssets([{ selectedAsset: png, fileName: 'a.png' }, { assetLink: imageUrl }]);
    expect(assets.status).toBe(201);
    expect(assets.data).toHaveLength(2);
    for (const asset of assets.data) {
      expect(asset).toMatchObject({ extension: 'png', altText: '' });
      expect((await download(asset.imageUrl)).status).toBe(200);
    }
    const collectionAssets = await db.collection('articles').uploadAssets([{ selectedImage: png, fileName: 'b.png' }]);
    expect(collectionAssets.data).toHaveLength(1);
    const denied = await readOnly.uploadAssets([{ selectedAsset: png, fileName: 'c.png' }]).catch((error: any) => error);
    expect(denied.response.status).toBe(403);
  });

  it('links project users to items (User Admin token)', async () => {
    const options = { baseEndpoint: `${base}/api/public`, authEndpoint: `${base}/auth/public` };
    const admin = new BagelDB(await mint({ powerRead: true, powerWrite: true, userAdmin: true }), { ...options, isServer: true });
    const userId = (await admin.users().create(' Reader@Example.com ', 'a long enough password')) as string;
    expect(typeof userId).toBe('string');
    const id = (await db.collection('articles').post({ title: 'Shared' })).data.id as string;
    await admin.collection('articles').item(id).addUser(userId);
    expect((await admin.collection('articles').item(id).users()).data).toEqual([{ userID: userId }]);
    const plain = await db.collection('articles').item(id).addUser(userId).catch((error: any) => error);
    expect(plain.response.status).toBe(403);
    await admin.collection('articles').item(id).removeUser(userId);
    expect((await admin.collection('articles').item(id).users()).data).toEqual([]);
  });

  it('reads the schema and the project', async () => {
    const schema = await db.schema('articles').get();
    expect(schema.data.map((f: any) => f.slug)).toEqual(['title', 'views', 'author', 'photo', 'gallery', 'chapters', '_metadata']);
    expect(schema.data.at(-1)).toEqual(expect.objectContaining({ name: 'Metadata', id: '_metadata', type: 100 }));
    const project = await db.getProject();
    expect(project.data.collections.map((c: any) => c.id).sort()).toEqual(['articles', 'authors']);
    expect(project.data.collections[0].schema).toBeUndefined();
    const withSchemas = await db.getProject(true);
    expect(withSchemas.data.collections.find((c: any) => c.id === 'articles').schema.map((f: any) => f.slug)).toContain('chapters');
  });

  it('gets 403 for what the token may not do, and 401 for a bad token', async () => {
    const id = (await db.collection('articles').post({ title: 'Guarded' })).data.id as string;
    expect((await readOnly.collection('articles').item(id).get()).data.title).toBe('Guarded');
    for (const attempt of [
      () => readOnly.collection('articles').post({ title: 'x' }),
      () => readOnly.collection('articles').item(id).put({ title: 'x' }),
      () => readOnly.collection('articles').item(id).delete(),
      () => readOnly.collection('authors').get(),
      () => readOnly.collection('articles').item(id).field('views').increment(1),
    ]) {
      expect((await attempt().catch((error: any) => error)).response.status).toBe(403);
    }
    expect((await readOnly.collection('articles').item(id).get()).data.title).toBe('Guarded');
    const bad = new BagelDB('not-a-token', { baseEndpoint: `${base}/api/public`, authEndpoint: `${base}/auth/public` });
    expect((await bad.collection('articles').get().catch((error: any) => error)).response.status).toBe(401);
  });

  it('listens to a nested list of one item', async () => {
    const id = (await db.collection('articles').post({ title: 'Live book' })).data.id as string;
    const messages: LiveMessage[] = [];
    const request = db.collection('articles').item(id).collection('chapters');
    const source = await request.listen((event: { data: string }) => messages.push(JSON.parse(event.data)));
    try {
      await until(() => source.readyState === 1);
      expect(liveUrls.at(-1)).toContain(`/collection/articles/live?authorization=`);
      expect(liveUrls.at(-1)).toContain(`&nestedID=chapters&itemID=${id}`);
      await db.collection('articles').post({ title: 'Elsewhere' });
      const chapter = (await db.collection('articles').item(id).collection('chapters').post({ heading: 'Live chapter' })).data.id as string;
      await until(() => messages.length > 0);
      expect(messages).toEqual([expect.objectContaining({ collectionID: 'articles', itemID: chapter, nestedID: 'chapters', trigger: 'create', item: expect.objectContaining({ heading: 'Live chapter' }) })]);
    } finally {
      source.close();
      request.client.close();
    }
  });

  it('listens to live writes, and resumes after the server says stop', async () => {
    const messages: LiveMessage[] = [];
    const errors: unknown[] = [];
    const request = db.collection('articles');
    const first = liveUrls.length;
    const source = await request.listen(
      (event: { data: string }) => messages.push(JSON.parse(event.data)),
      (error: unknown) => errors.push(error),
    );
    try {
      await until(() => source.readyState === 1);
      const { id } = (await db.collection('articles').post({ title: 'Live one' })).data;
      await until(() => messages.some((m) => m.itemID === id));
      expect(messages.find((m) => m.itemID === id)).toMatchObject({ collectionID: 'articles', nestedID: '', trigger: 'create', item: { title: 'Live one' } });
      expect(liveUrls[first]).toMatch(/^https:\/\/live\.bageldb\.com\/api\/public\/collection\/articles\/live\?authorization=[^&]+&nestedID=&itemID=undefined$/);
      // The stream's age limit (2 s here) ends it with `stop`; the client reconnects with its requestID.
      await until(() => liveUrls.slice(first).some((url) => url.includes('requestID=')), 8000);
      const { id: second } = (await db.collection('articles').post({ title: 'Live two' })).data;
      await db.collection('articles').item(second).put({ views: 9 });
      await until(() => messages.some((m) => m.itemID === second && m.trigger === 'update'));
      expect(messages.filter((m) => m.itemID === second).map((m) => m.trigger)).toEqual(['create', 'update']);
      // The stream ends right after `stop`: the old EventSource may report that end (an `error` event) before the client closes it.
      expect(errors.every((error) => (error as { type?: string }).type === 'error')).toBe(true);
    } finally {
      // The client replaces its EventSource on reconnect: close the first and the current one.
      source.close();
      request.client.close();
    }
  });
});
