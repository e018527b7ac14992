/**
 * The official BagelDB client's `listen()` against a listening Larder, on Node
 * (the server build, `eventsource` v2 as EventSource, the live host rewritten):
 * `item(id).listen()` follows that one item, and a stream the server stops again and again (a
 * short age limit) delivers every write exactly once, though the client comes back with its first
 * request id every time (docs/live.md).
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { bearer } from './support/flows.ts';
import { sleep, waitFor } from './support/assertions.ts';
import { Sse } from './support/sse.ts';

const require = createRequire(import.meta.url);

interface LiveMessage {
  collectionID: string;
  itemID: string;
  nestedID: string;
  trigger: string;
  item: Record<string, unknown>;
}

describe.each(databaseKinds)('the official client’s listen() on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let base: string;
  let db: any;
  let token: string;
  const liveUrls: string[] = [];
  /** Live requests that reached the server resuming a request id (the EventSource's own reconnections included). */
  const resumedWith: string[] = [];
  const saved = { FormData: globalThis.FormData, EventSource: (globalThis as any).EventSource };

  beforeAll(async () => {
    (globalThis as any).FormData = require('form-data');
    const RealEventSource = require('eventsource');
    (globalThis as any).EventSource = class extends RealEventSource {
      constructor(url: string, init?: unknown) {
        liveUrls.push(url);
        super(url.replace('https://live.bageldb.com/api/public', `${base}/api/public`), init);
      }
    };
    const { BagelDB } = require('@bageldb/bagel-db/dist/serverSpread.cjs');
    // Streams stop after a second: a listen of a few seconds is stopped several times.
    t = await createTestApp(kind, { LIVE_STREAM_MAX_S: '1' });
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    t.app.server.on('request', (incoming: { url?: string }) => {
      const requestID = /[?&]requestID=([0-9a-f]+)/.exec(incoming.url ?? '')?.[1];
      if (requestID) resumedWith.push(requestID);
    });
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'posts',
      name: 'Posts',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Notes', slug: 'notes', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
      ],
    });
    const minted = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'client', projectID: f.project, organizationID: f.org, powerRead: true, powerWrite: true } });
    expect(minted.statusCode, minted.body).toBe(201);
    token = json(minted).jwtToken;
    db = new BagelDB(token, { baseEndpoint: `${base}/api/public`, authEndpoint: `${base}/auth/public` });
  });

  afterAll(async () => {
    (globalThis as any).FormData = saved.FormData;
    (globalThis as any).EventSource = saved.EventSource;
    await t?.close();
  });

  it('item(id).listen() follows that item only: its updates and its delete', async () => {
    const id = (await db.collection('posts').post({ title: 'Watched' })).data.id as string;
    const otherId = (await db.collection('posts').post({ title: 'Not watched' })).data.id as string;
    const messages: LiveMessage[] = [];
    const errors: unknown[] = [];
    const request = db.collection('posts').item(id);
    const first = liveUrls.length;
    const source = await request.listen(
      (event: { data: string }) => messages.push(JSON.parse(event.data)),
      (error: unknown) => errors.push(error),
    );
    try {
      await waitFor(() => source.readyState === 1);
      expect(liveUrls[first]).toMatch(new RegExp(`/collection/posts/live\\?authorization=[^&]+&nestedID=&itemID=${id}$`));
      await db.collection('posts').item(otherId).put({ title: 'Not watched, changed' });
      await db.collection('posts').item(id).put({ title: 'Watched, changed' });
      await db.collection('posts').item(id).collection('notes').post({ text: 'A note under it' });
      await db.collection('posts').post({ title: 'A new one' });
      await db.collection('posts').item(id).delete();
      await waitFor(() => messages.some((m) => m.trigger === 'delete'), 8000);
      await sleep(300);
      expect(messages.map((m) => [m.trigger, m.itemID, m.nestedID])).toEqual([
        ['update', id, ''],
        ['delete', id, ''],
      ]);
      expect(messages[0]!.item).toMatchObject({ title: 'Watched, changed' });
    } finally {
      source.close();
      request.client.close();
    }
  });

  it('a nested item’s listen() follows that nested item; an item id no route accepts is refused', async () => {
    const id = (await db.collection('posts').post({ title: 'Parent' })).data.id as string;
    const note = (await db.collection('posts').item(id).collection('notes').post({ text: 'First' })).data.id as string;
    const otherNote = (await db.collection('posts').item(id).collection('notes').post({ text: 'Second' })).data.id as string;
    const messages: LiveMessage[] = [];
    const request = db.collection('posts').item(id).collection('notes').item(note);
    const first = liveUrls.length;
    const source = await request.listen((event: { data: string }) => messages.push(JSON.parse(event.data)), () => {});
    try {
      await waitFor(() => source.readyState === 1);
      expect(liveUrls[first]).toMatch(new RegExp(`&nestedID=notes\\.${note}&itemID=${id}$`));
      await db.collection('posts').item(id).collection('notes').item(otherNote).put({ text: 'Second, changed' });
      await db.collection('posts').item(id).collection('notes').item(note).put({ text: 'First, changed' });
      await db.collection('posts').item(id).put({ title: 'Parent, changed' });
      await waitFor(() => messages.length >= 1, 8000);
      await sleep(300);
      expect(messages.map((m) => [m.trigger, m.itemID, m.nestedID, m.item.text])).toEqual([['update', note, 'notes', 'First, changed']]);
    } finally {
      source.close();
      request.client.close();
    }
    const bad = await Sse.open(`${base}/api/public/collection/posts/live?${new URLSearchParams({ authorization: token, nestedID: '', itemID: 'not an id!' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/itemID/);
  });

  it('stopped again and again while items are created, it delivers every item exactly once', async () => {
    const messages: LiveMessage[] = [];
    const request = db.collection('posts');
    const first = liveUrls.length;
    const source = await request.listen(
      (event: { data: string }) => messages.push(JSON.parse(event.data)),
      () => {},
    );
    const created: string[] = [];
    const resumedBefore = resumedWith.length;
    try {
      await waitFor(() => source.readyState === 1);
      // About eight seconds of writes: streams of one second, reconnections two seconds apart.
      for (let i = 0; i < 24; i++) {
        created.push((await db.collection('posts').post({ title: `Burst ${i}` })).data.id as string);
        await sleep(330);
      }
      await waitFor(() => created.every((id) => messages.some((m) => m.itemID === id)), 15000);
      // Long enough for one more stop and resume to repeat anything.
      await sleep(3500);
      const creates = messages.filter((m) => m.trigger === 'create').map((m) => m.itemID);
      expect(creates.filter((id) => created.includes(id))).toEqual(created);
      expect(creates.length).toBe(created.length);
      // The server did stop it several times, and the client came back with its first request id each time.
      const resumes = resumedWith.slice(resumedBefore);
      expect(resumes.length).toBeGreaterThanOrEqual(3);
      expect(new Set(resumes).size).toBe(1);
      expect(liveUrls.slice(first).filter((u) => u.includes('requestID='))).toHaveLength(1);
    } finally {
      source.close();
      request.client.close();
    }
  });
});
