/**
 * The browser side of live data: the stream's address (token in the query, resume by request id,
 * nested lists), and how EventSource events become the live-data machine's events.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, type AnyEventObject } from 'xstate';
import type { ApiClient } from '../../src/api/client.ts';
import { liveRefreshActor, liveStreamActor, liveUrl, type LiveTarget } from '../../src/api/live.ts';

const target: LiveTarget = { scope: { organizationID: 'o1', projectID: 'p1' }, collectionID: 'posts' };

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  readyState = 0;
  closed = false;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data: string) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data } as MessageEvent);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

function fakeClient(token: string | null, refreshed: string[] = []): ApiClient {
  return {
    refresher: {
      getAccessToken: () => token,
      refreshAfter401: async (failed: string) => {
        refreshed.push(failed);
        return 'fresh';
      },
    },
  } as unknown as ApiClient;
}

/** Runs the stream actor under a parent that records what it sends back. */
function runStream(client: ApiClient, requestID: string | null) {
  const received: AnyEventObject[] = [];
  const parent = createMachine({
    invoke: { src: liveStreamActor(client, () => target, (url) => new FakeEventSource(url) as unknown as EventSource), input: { requestID } },
    on: { '*': { actions: ({ event }) => received.push(event) } },
  });
  const actor = createActor(parent).start();
  return { received, actor, source: FakeEventSource.opened.at(-1)! };
}

describe('live stream address', () => {
  it('carries the token, and the request id when resuming', () => {
    expect(liveUrl(target, 'tok', null)).toBe('/api/organization/o1/project/p1/collection/posts/live?authorization=tok');
    expect(liveUrl(target, 'tok', 'abc')).toBe('/api/organization/o1/project/p1/collection/posts/live?authorization=tok&requestID=abc');
  });

  it('names a nested list by its top-level item and nestedID', () => {
    const url = new URL(liveUrl({ ...target, itemID: 'i1', nestedID: 'comments' }, 'tok', null), 'http://x');
    expect(url.searchParams.get('itemID')).toBe('i1');
    expect(url.searchParams.get('nestedID')).toBe('comments');
  });
});

describe('live stream actor', () => {
  it('turns start, messages and stop into machine events and closes on stop', () => {
    const { received, source } = runStream(fakeClient('tok'), 'r0');
    expect(source.url).toContain('requestID=r0');
    source.emit('start', 'r1');
    source.emit('message', JSON.stringify({ trigger: 'create', itemID: 'a', item: {} }));
    source.emit('message', 'not json');
    source.emit('stop', 'r1');
    expect(received).toEqual([
      { type: 'STREAM.START', requestID: 'r1' },
      { type: 'STREAM.MESSAGE', trigger: 'create', itemID: 'a' },
      { type: 'STREAM.STOP' },
    ]);
    expect(source.closed).toBe(true);
  });

  it('reports an error only when the EventSource gave up (closed), not while it retries by itself', () => {
    const { received, source } = runStream(fakeClient('tok'), null);
    source.readyState = 0;
    source.onerror?.(new Event('error'));
    expect(received).toEqual([]);
    source.readyState = 2;
    source.onerror?.(new Event('error'));
    expect(received).toEqual([{ type: 'STREAM.ERROR' }]);
  });

  it('closes the EventSource when the machine leaves the state', () => {
    const { actor, source } = runStream(fakeClient('tok'), null);
    actor.stop();
    expect(source.closed).toBe(true);
  });

  it('without a token reports an error at once', () => {
    const before = FakeEventSource.opened.length;
    const { received } = runStream(fakeClient(null), null);
    expect(received).toEqual([{ type: 'STREAM.ERROR' }]);
    expect(FakeEventSource.opened.length).toBe(before);
  });

  it('refreshes the token that failed', async () => {
    const refreshed: string[] = [];
    const actor = createActor(liveRefreshActor(fakeClient('old', refreshed))).start();
    await new Promise((resolve) => actor.subscribe({ complete: () => resolve(undefined) }));
    expect(refreshed).toEqual(['old']);
  });
});
