/**
 * Live data for an end user whose group grants read on "associated items only": the
 * public live stream opens (it used to answer 403) and carries only the events of items whose
 * Users panel lists the user, checked as the events come (a link added or removed counts at
 * once), in the live path and in the replay after a reconnect. An API token with the read right
 * sees every event of the same writes, so the filtering is the stream's, not the writes'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { addField, contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { mintToken, newEmail, signUpEndUser, type EndUserTokens } from './support/end-users.ts';

interface Message {
  id: number;
  trigger: string;
  itemID: string;
  nestedID: string;
  item: Record<string, unknown>;
}

/** An open SSE response, parsed into its messages and named events. */
class Sse {
  readonly events: { event: string; id?: string; data: string }[] = [];
  status = 0;
  body = '';
  private readonly controller = new AbortController();
  private closed = false;

  static async open(url: string, headers: Record<string, string> = {}) {
    const sse = new Sse();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: sse.controller.signal });
    sse.status = response.status;
    if (response.status === 200 && response.body) void sse.read(response.body);
    else sse.body = await response.text();
    return sse;
  }

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
          const event = { event: 'message', data: '' } as { event: string; id?: string; data: string };
          let comment = true;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            comment = false;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event.event = text;
            else if (field === 'id') event.id = text;
            else if (field === 'data') event.data += text;
          }
          if (!comment) this.events.push(event);
        }
      }
    } catch {
      /* aborted */
    }
    this.closed = true;
  }

  messages(): Message[] {
    return this.events.filter((e) => e.event === 'message').map((e) => ({ id: Number(e.id), ...(JSON.parse(e.data) as Omit<Message, 'id'>) }));
  }

  async until(predicate: () => boolean, timeoutMs = 8000) {
    const deadline = Date.now() + timeoutMs;
    while (!predicate() && !this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(predicate(), JSON.stringify(this.events)).toBe(true);
  }

  started() {
    return this.until(() => this.events.some((e) => e.event === 'start'));
  }

  close() {
    this.controller.abort();
  }
}

describe.each(databaseKinds)('live events of associated items only on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let base: string;
  let carol: EndUserTokens;
  let outsider: EndUserTokens;
  let reader: string;
  const streams: Sse[] = [];

  const liveUrl = (jwt: string, query: Record<string, string> = {}) => `${base}/api/public/collection/posts/live?${new URLSearchParams({ authorization: jwt, ...query })}`;
  const open = async (url: string, headers?: Record<string, string>) => {
    const sse = await Sse.open(url, headers);
    streams.push(sse);
    return sse;
  };
  const link = async (item: string, user: string, add = true) => {
    const response = await f.call(add ? 'PUT' : 'DELETE', `collection/posts/item/${item}/bagelUsers`, { userID: user });
    expect(response.statusCode, response.body).toBe(200);
  };
  const update = async (item: string, title: string) => {
    const response = await f.call('PUT', `collection/posts/item/${item}`, { title });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts' });
    await addField(f, 'posts', { name: 'Title', slug: 'title', type: 1 });
    await addField(f, 'posts', { name: 'Comments', slug: 'comments', type: 12 });
    await addField(f, 'posts', { name: 'Text', slug: 'text', type: 1 }, 'comments');
    const group = await f.call('POST', 'userGroups', { name: 'Own posts', permissions: [{ collection: 'posts', read: true, associatedOnly: true }] });
    expect(group.statusCode, group.body).toBe(201);
    const grouped = await mintToken(t, f, { userGroupID: json(group).groupID });
    carol = await signUpEndUser(t, grouped, newEmail('carol'));
    outsider = await signUpEndUser(t, await mintToken(t, f), newEmail('outsider'));
    reader = await mintToken(t, f, { powerRead: true });
  });

  afterAll(async () => {
    for (const sse of streams) sse.close();
    await t?.close();
  });

  it('streams only the events of the items the user is associated with', async () => {
    const mine = (await createItem(f, 'posts', { title: 'Carol’s' }))._id as string;
    const theirs = (await createItem(f, 'posts', { title: 'Not Carol’s' }))._id as string;
    await link(mine, carol.user_id);

    const own = await open(liveUrl(carol.access_token));
    expect(own.status, own.body).toBe(200);
    const all = await open(liveUrl(reader));
    expect(all.status, all.body).toBe(200);
    await own.started();
    await all.started();

    await update(theirs, 'Not Carol’s, edited');
    await update(mine, 'Carol’s, edited');
    const unlinked = (await createItem(f, 'posts', { title: 'New, nobody’s' }))._id as string;
    await update(theirs, 'Not Carol’s, again');
    // Linked while the stream is open: its next write arrives.
    await link(unlinked, carol.user_id);
    await update(unlinked, 'Now Carol’s');
    // Unlinked while open: its writes stop arriving.
    await link(mine, carol.user_id, false);
    await update(mine, 'No longer Carol’s');
    await update(unlinked, 'Carol’s still');

    await all.until(() => all.messages().length >= 7);
    await own.until(() => own.messages().some((m) => m.item.title === 'Carol’s still'));
    // Give anything wrongly let through the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(all.messages().map((m) => m.itemID)).toEqual([theirs, mine, unlinked, theirs, unlinked, mine, unlinked]);
    expect(own.messages().map((m) => [m.trigger, m.itemID, m.item.title])).toEqual([
      ['update', mine, 'Carol’s, edited'],
      ['update', unlinked, 'Now Carol’s'],
      ['update', unlinked, 'Carol’s still'],
    ]);
    // In write order, as the ids say.
    const ids = own.messages().map((m) => m.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);

    // A reconnect replays from its Last-Event-ID through the same check (links as they are now).
    const replay = await open(liveUrl(carol.access_token), { 'last-event-id': String(all.messages()[0]!.id - 1) });
    expect(replay.status, replay.body).toBe(200);
    await replay.until(() => replay.messages().length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(replay.messages().map((m) => [m.itemID, m.item.title])).toEqual([
      [unlinked, 'New, nobody’s'],
      [unlinked, 'Now Carol’s'],
      [unlinked, 'Carol’s still'],
    ]);
  });

  it('a nested list needs its top-level item to list the user; a user with no right is still refused', async () => {
    const mine = (await createItem(f, 'posts', { title: 'Carol’s parent' }))._id as string;
    const theirs = (await createItem(f, 'posts', { title: 'Someone’s parent' }))._id as string;
    await link(mine, carol.user_id);

    const refused = await open(liveUrl(carol.access_token, { itemID: theirs, nestedID: 'comments' }));
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_associated' });
    // One top-level item (itemID with an empty nestedID) likewise.
    const oneRefused = await open(liveUrl(carol.access_token, { itemID: theirs, nestedID: '' }));
    expect(oneRefused.status).toBe(403);
    expect(JSON.parse(oneRefused.body)).toMatchObject({ code: 'not_associated' });
    const one = await open(liveUrl(carol.access_token, { itemID: mine, nestedID: '' }));
    expect(one.status, one.body).toBe(200);
    const none = await open(liveUrl(outsider.access_token));
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body)).toMatchObject({ code: 'not_permitted' });

    const nested = await open(liveUrl(carol.access_token, { itemID: mine, nestedID: 'comments' }));
    expect(nested.status, nested.body).toBe(200);
    await nested.started();
    await createItem(f, 'posts', { text: 'Elsewhere' }, { item: theirs, nestedID: 'comments' });
    const comment = await createItem(f, 'posts', { text: 'Hello' }, { item: mine, nestedID: 'comments' });
    await nested.until(() => nested.messages().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(nested.messages().map((m) => [m.itemID, m.nestedID, m.item.text])).toEqual([[comment._id, 'comments', 'Hello']]);
  });
});
