/**
 * Live fan-out: an item write's notification carries the event exactly as `item_events` stores it
 * (so a process need not read it back), an event too large for a notification is announced by id
 * and read, and every one of many streams gets every write once, in order, with the same bytes —
 * whether the stream's message went straight to its socket or through the response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { contentEventChannel, eventsByIds, maxNotifiedEventBytes, parseEventNote, recordContentEvent } from '../../server/live/events.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

/** Reads an event stream to its messages (raw blocks kept, to compare bytes across streams). */
class Reader {
  readonly blocks: string[] = [];
  private readonly controller = new AbortController();
  private waiters: (() => void)[] = [];
  status = 0;

  static async open(url: string) {
    const reader = new Reader();
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: reader.controller.signal });
    reader.status = response.status;
    if (response.body) void reader.read(response.body);
    return reader;
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const stream = body.getReader();
      for (;;) {
        const { done, value } = await stream.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.blocks.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        for (const wake of this.waiters.splice(0)) wake();
      }
    } catch {
      /* aborted */
    }
  }

  messages() {
    return this.blocks.filter((block) => block.startsWith('id: '));
  }

  async until(predicate: () => boolean, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    while (!predicate() && Date.now() < deadline) await new Promise<void>((resolve) => (this.waiters.push(resolve), setTimeout(resolve, 50)));
  }

  close() {
    this.controller.abort();
  }
}

describe.each(databaseKinds)('live fan-out on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let base: string;
  let collectionId: string;
  const readers: Reader[] = [];

  const liveUrl = () => `${base}/api/organization/${f.org}/project/${f.project}/collection/posts/live?authorization=${encodeURIComponent(f.access)}`;
  const open = async () => {
    const reader = await Reader.open(liveUrl());
    readers.push(reader);
    expect(reader.status).toBe(200);
    await reader.until(() => reader.blocks.some((block) => block.includes('event: start')));
    return reader;
  };

  /** The payloads of the content-event channel while `act` runs (and a moment after). */
  const notifications = async (act: () => Promise<void>) => {
    const payloads: string[] = [];
    const stop = await t.database.listen(contentEventChannel, (payload) => payloads.push(payload));
    try {
      await act();
      const deadline = Date.now() + 2000;
      while (!payloads.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await stop();
    }
    return payloads;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'posts',
      name: 'Posts',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Body', slug: 'body', type: code('RichText') },
        { name: 'Price', slug: 'price', type: code('Number') },
      ],
    });
    const result = (await t.database.db.execute(sql`select id from content_collections where project_id = ${f.project} and slug = 'posts'`)) as unknown as { rows: { id: string }[] };
    collectionId = result.rows[0]!.id;
  });

  afterAll(async () => {
    for (const reader of readers) reader.close();
    await t?.close();
  });

  it('a notification carries the event exactly as the table holds it', async () => {
    const item = { _id: 'note-check', title: 'Ünïcode “quotes” \\ and \n lines', price: 12.5, tags: ['a', 'b'], nested: { z: 1, a: null } };
    const [payload, ...more] = await notifications(() =>
      t.database.db.transaction(async (tx) => {
        await recordContentEvent(tx, { projectId: f.project, collectionId, trigger: 'update', itemId: 'note-check', rootItemId: 'root-1', nestedPath: 'comments', item });
      }),
    );
    expect(more).toEqual([]);
    const note = parseEventNote(payload!);
    expect(note?.event).toBeDefined();
    const [stored] = await eventsByIds(t.database.db, [note!.id]);
    expect(note!.event).toEqual(stored);
    expect(note!.event!.item).toEqual(item);
  });

  it('an event too large for a notification is announced by id, read, and reaches the stream whole', async () => {
    const reader = await open();
    const body = `<p>${'word '.repeat(3000)}</p>`;
    let created!: Record<string, unknown>;
    const [payload] = await notifications(async () => {
      created = await createItem(f, 'posts', { title: 'Large', body });
    });
    expect(payload!.length).toBeLessThan(8000);
    const note = parseEventNote(payload!);
    expect(note).toMatchObject({ collectionId });
    expect(note?.event).toBeUndefined();
    await reader.until(() => reader.messages().length >= 1);
    const data = JSON.parse(/^data: (.*)$/m.exec(reader.messages()[0]!)![1]!) as { itemID: string; item: { body: string } };
    expect(data.itemID).toBe(created._id);
    expect(data.item.body).toBe(body);
    expect(JSON.stringify(data.item).length).toBeGreaterThan(maxNotifiedEventBytes);
  });

  it('every one of many streams gets every write once, in order, with the same bytes', async () => {
    const streams = await Promise.all(Array.from({ length: 40 }, open));
    const first = await createItem(f, 'posts', { title: 'One', price: 1 });
    const second = await createItem(f, 'posts', { title: 'Two', body: `<p>${'long '.repeat(2000)}</p>` });
    expect((await f.call('PUT', `collection/posts/item/${first._id}`, { title: 'One, again' })).statusCode).toBe(200);
    expect((await f.call('DELETE', `collection/posts/item/${second._id}`)).statusCode).toBeLessThan(300);
    await Promise.all(streams.map((stream) => stream.until(() => stream.messages().length >= 4)));
    const expected = streams[0]!.messages();
    expect(expected.map((block) => (JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { trigger: string; itemID: string }).trigger)).toEqual(['create', 'create', 'update', 'delete']);
    const ids = expected.map((block) => Number(/^id: (\d+)$/m.exec(block)![1]));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const stream of streams) expect(stream.messages()).toEqual(expected);
  });
});
