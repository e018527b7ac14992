/**
 * Live data over real HTTP: a stream per collection announces
 * each item write, nested lists have streams of their own, a stream told to stop resumes with its
 * request id and misses nothing (each event once), shutdown says stop, and on PostgreSQL a write
 * made through another server process reaches the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createTestApp, databaseKinds, json, testEnv, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { sql } from 'drizzle-orm';
import { recordContentEvent } from '../../server/live/events.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

interface SseEvent {
  event: string;
  id?: string;
  data: string;
}

/** An open event stream read as a person's EventSource would, with a way to wait for events. */
class Stream {
  readonly events: SseEvent[] = [];
  closed = false;
  private waiters: (() => void)[] = [];
  private readonly controller = new AbortController();

  static async open(url: string, headers: Record<string, string> = {}): Promise<Stream> {
    const stream = new Stream();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: stream.controller.signal });
    stream.status = response.status;
    stream.contentType = response.headers.get('content-type') ?? '';
    if (response.status === 200 && response.body) void stream.read(response.body);
    else {
      stream.body = await response.text();
      stream.closed = true;
    }
    return stream;
  }

  status = 0;
  contentType = '';
  body = '';

  private async read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', data: '' };
          let isComment = true;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            isComment = false;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event.event = value;
            else if (field === 'id') event.id = value;
            else if (field === 'data') event.data += (event.data ? '\n' : '') + value;
          }
          if (!isComment) this.events.push(event);
          this.wake();
        }
      }
    } catch {
      /* aborted */
    }
    this.closed = true;
    this.wake();
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits until `predicate` holds over the events so far (or the stream closes / times out). */
  async until(predicate: (events: SseEvent[]) => boolean, timeoutMs = 5000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.events)) {
      if (this.closed) break;
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events;
  }

  messages() {
    return this.events.filter((e) => e.event === 'message').map((e) => ({ id: Number(e.id), ...(JSON.parse(e.data) as { trigger: string; itemID: string; nestedID: string; collectionID: string; item: Record<string, unknown> }) }));
  }

  close() {
    this.controller.abort();
  }
}

async function listening(app: App): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

describe.each(databaseKinds)('live data on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let base: string;
  const streams: Stream[] = [];

  const liveUrl = (collection: string, query: Record<string, string> = {}) => {
    const params = new URLSearchParams({ authorization: f.access, ...query });
    return `${base}/api/organization/${f.org}/project/${f.project}/collection/${collection}/live?${params}`;
  };
  const open = async (url: string, headers?: Record<string, string>) => {
    const stream = await Stream.open(url, headers);
    streams.push(stream);
    return stream;
  };
  const started = async (stream: Stream) => (await stream.until((events) => events.some((e) => e.event === 'start'))).find((e) => e.event === 'start')!.data;

  beforeAll(async () => {
    // Streams stop after 2 s here, so the stop-and-resume path runs in every test that waits.
    t = await createTestApp(kind, { LIVE_STREAM_MAX_S: '2' });
    base = await listening(t.app);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'news',
      name: 'News',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        {
          name: 'Comments',
          slug: 'comments',
          type: code('NestedCollection'),
          nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: code('PlainText') }],
        },
      ],
    });
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  it('announces creates, updates and deletes of the collection with the item, in order', async () => {
    const stream = await open(liveUrl('news', { itemID: 'undefined', nestedID: '' }));
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const requestID = await started(stream);
    expect(requestID).toMatch(/^[0-9a-f]{32}$/);

    const item = await createItem(f, 'news', { title: 'First' });
    const updated = await f.call('PUT', `collection/news/item/${item._id}`, { title: 'First, again' });
    expect(updated.statusCode, updated.body).toBe(200);
    const deleted = await f.call('DELETE', `collection/news/item/${item._id}`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);

    await stream.until(() => stream.messages().length >= 3);
    const messages = stream.messages();
    expect(messages.map((m) => m.trigger)).toEqual(['create', 'update', 'delete']);
    expect(messages.every((m) => m.itemID === item._id && m.collectionID === 'news' && m.nestedID === '')).toBe(true);
    expect(messages[0]!.item.title).toBe('First');
    expect(messages[1]!.item.title).toBe('First, again');
    expect(new Set(messages.map((m) => m.id)).size).toBe(3);
  });

  it('a refused write announces nothing', async () => {
    const stream = await open(liveUrl('news'));
    await started(stream);
    const refused = await f.call('POST', 'collection/news/item', { title: 42 });
    expect(refused.statusCode).toBe(400);
    const item = await createItem(f, 'news', { title: 'Accepted' });
    await stream.until(() => stream.messages().length >= 1);
    expect(stream.messages().map((m) => m.itemID)).toEqual([item._id]);
  });

  it('a nested list has its own stream; the top-level stream does not see nested writes', async () => {
    const parent = await createItem(f, 'news', { title: 'Parent' });
    const top = await open(liveUrl('news'));
    const nested = await open(liveUrl('news', { itemID: parent._id as string, nestedID: 'comments' }));
    await started(top);
    await started(nested);
    const comment = await createItem(f, 'news', { text: 'Nice' }, { item: parent._id as string, nestedID: 'comments' });
    const sibling = await createItem(f, 'news', { title: 'Sibling' });
    await nested.until(() => nested.messages().length >= 1);
    await top.until(() => top.messages().length >= 1);
    expect(nested.messages().map((m) => [m.trigger, m.itemID, m.nestedID])).toEqual([['create', comment._id, 'comments']]);
    expect(top.messages().map((m) => m.itemID)).toEqual([sibling._id]);
  });

  it('after stop the client resumes with the request id and gets every missed event exactly once', async () => {
    const first = await open(liveUrl('news'));
    const requestID = await started(first);
    const before = await createItem(f, 'news', { title: 'Before stop' });
    // The stream's age limit (2 s) ends it with `stop` carrying the request id.
    await first.until((events) => events.some((e) => e.event === 'stop'), 6000);
    const stop = first.events.find((e) => e.event === 'stop');
    expect(stop?.data).toBe(requestID);
    expect(first.messages().map((m) => m.itemID)).toEqual([before._id]);

    // Written while no stream is open.
    const missed = [await createItem(f, 'news', { title: 'Gap 1' }), await createItem(f, 'news', { title: 'Gap 2' })];
    const second = await open(liveUrl('news', { requestID }));
    await started(second);
    const after = await createItem(f, 'news', { title: 'After' });
    await second.until(() => second.messages().length >= 3);
    expect(second.messages().map((m) => m.itemID)).toEqual([...missed.map((m) => m._id), after._id]);
  });

  it('a stream resumed from a request id goes on under it and moves its position: a second resume from it repeats nothing', async () => {
    const first = await open(liveUrl('news'));
    const requestID = await started(first);
    await first.until((events) => events.some((e) => e.event === 'stop'), 6000);
    const seen = await createItem(f, 'news', { title: 'Seen by the resumed stream' });
    const second = await open(liveUrl('news', { requestID }));
    expect(await started(second)).toBe(requestID);
    await second.until(() => second.messages().length >= 1);
    // Gone without a stop (a dropped connection), before its age limit.
    second.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await createItem(f, 'news', { title: 'After the drop' });
    const third = await open(liveUrl('news', { requestID }));
    await started(third);
    await third.until(() => third.messages().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.messages().map((m) => m.itemID)).toEqual([seen._id]);
    expect(third.messages().map((m) => m.itemID)).toEqual([after._id]);
  });

  it('refuses without a token, with a bad token, outside the organization, and for unknown collections', async () => {
    const path = `${base}/api/organization/${f.org}/project/${f.project}/collection/news/live`;
    expect((await open(path)).status).toBe(401);
    expect((await open(`${path}?authorization=not-a-token`)).status).toBe(401);
    const stranger = await verifiedUser(t.app, 'stranger');
    expect((await open(`${path}?authorization=${stranger.tokens.access_token}`)).status).toBe(403);
    expect((await open(liveUrl('nothing-here'))).status).toBe(404);
    expect((await open(liveUrl('news', { itemID: 'ffffffffffffffffffffffff', nestedID: 'comments' }))).status).toBe(404);
    expect((await open(liveUrl('news', { itemID: 'ffffffffffffffffffffffff', nestedID: 'nope' }))).status).toBe(404);
    const bad = await open(liveUrl('news', { nestedID: 'comments' }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/itemID/);
  });

  it.runIf(kind === 'postgres')('a write that commits after the stop with a lower event id is delivered once after resume', async () => {
    const result = (await t.database.db.execute(sql`select id from content_collections where project_id = ${f.project} and slug = 'news'`)) as unknown as {
      rows: { id: string }[];
    };
    const collection = result.rows[0]!;
    const quick = await createItem(f, 'news', { title: 'Quick' });
    const first = await open(liveUrl('news'));
    const requestID = await started(first);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const hasInserted = new Promise<void>((resolve) => (inserted = resolve));
    // A slow write: its event id is taken now, its commit comes after the stream stopped.
    const slow = t.database.db.transaction(async (tx) => {
      await recordContentEvent(tx, { projectId: f.project, collectionId: collection.id, trigger: 'update', itemId: 'slow-write', rootItemId: null, nestedPath: '', item: { _id: 'slow-write' } });
      inserted();
      await gate;
    });
    await hasInserted;
    // An update (it shares the collection row with the slow write; a create would queue behind it).
    const changed = await f.call('PUT', `collection/news/item/${quick._id}`, { title: 'Quick, changed' });
    expect(changed.statusCode, changed.body).toBe(200);
    await first.until(() => first.messages().length >= 1);
    await first.until((events) => events.some((e) => e.event === 'stop'), 6000);
    expect(first.messages().map((m) => m.itemID)).toEqual([quick._id]);
    release();
    await slow;
    const second = await open(liveUrl('news', { requestID }));
    await started(second);
    await second.until(() => second.messages().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.messages().map((m) => m.itemID)).toEqual(['slow-write']);
  });

  it.runIf(kind === 'postgres')('a write made through another server process reaches the stream', async () => {
    const other = await buildApp({ config: loadConfig({ ...testEnv }), database: await reopen(t), logger: false });
    try {
      await other.ready();
      const stream = await open(liveUrl('news'));
      await started(stream);
      const created = await other.inject({
        method: 'POST',
        url: `/api/organization/${f.org}/project/${f.project}/collection/news/item`,
        headers: bearer(f.access),
        payload: { title: 'From the other process' },
      });
      expect(created.statusCode, created.body).toBe(201);
      await stream.until(() => stream.messages().length >= 1);
      expect(stream.messages().map((m) => m.itemID)).toEqual([json(created)._id]);
    } finally {
      await other.close();
    }
  });
});

describe('live data at shutdown', () => {
  it('open streams are told to stop when the server closes', async () => {
    const t = await createTestApp('pglite');
    const base = await listening(t.app);
    const f = await contentFixture(t);
    await createCollection(f, { id: 'notes', name: 'Notes', schema: [{ name: 'Text', slug: 'text', type: code('PlainText') }] });
    const stream = await Stream.open(`${base}/api/organization/${f.org}/project/${f.project}/collection/notes/live?authorization=${f.access}`);
    await stream.until((events) => events.some((e) => e.event === 'start'));
    expect(t.app.ctx.live.streamCount).toBe(1);
    await t.close();
    await stream.until((events) => events.some((e) => e.event === 'stop'));
    expect(stream.events.map((e) => e.event)).toEqual(['start', 'stop']);
  });
});

/** A second connection pool to the same PostgreSQL database, as another server process would have. */
async function reopen(t: TestApp) {
  const { openDatabase } = await import('../../server/db/index.ts');
  const url = t.database.url;
  if (!url) throw new Error('the PostgreSQL test database does not expose its url');
  return openDatabase({ databaseUrl: url, skipMigrations: true, poolSize: 2 });
}
