/**
 * The live stream of a collection in the browser: an EventSource on
 * `…/collection/{id}/live?authorization&requestID` whose events become the live-data machine's
 * STREAM.* events, and the token refresh the machine asks for before a retry.
 */
import { fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import type { LiveDataEvent, LiveStreamInput, LiveTrigger } from '../../machines/live-data.ts';
import type { LiveTarget as WireLiveTarget } from '../../definitions/schemas/live.ts';
import type { ApiClient } from './client.ts';
import { contentPath, type ProjectScope } from './content.ts';

/** The stream of a project's collection, following the writes `itemID` and `nestedID` name (the console follows a list). */
export type LiveTarget = WireLiveTarget & { scope: ProjectScope; collectionID: string };

type EventSourceLike = Pick<EventSource, 'addEventListener' | 'close' | 'readyState'> & { onerror: ((event: Event) => void) | null };
export type EventSourceFactory = (url: string) => EventSourceLike;

const CLOSED = 2;

/** The stream's address, with the token the EventSource cannot send as a header. */
export function liveUrl(target: LiveTarget, token: string, requestID: string | null, base = '/'): string {
  const params = new URLSearchParams({ authorization: token });
  if (requestID) params.set('requestID', requestID);
  if (target.itemID && target.nestedID) {
    params.set('itemID', target.itemID);
    params.set('nestedID', target.nestedID);
  }
  return `${base}${contentPath(target.scope, 'collection', target.collectionID, 'live')}?${params}`;
}

/**
 * The machine's `stream` actor: one EventSource per connection, closed when the machine leaves it.
 * `target` is read as each connection opens.
 */
export function liveStreamActor(client: ApiClient, target: () => LiveTarget, open: EventSourceFactory = (url) => new EventSource(url)) {
  return fromCallback<AnyEventObject, LiveStreamInput>(({ sendBack, input }) => {
    const send = (event: LiveDataEvent) => sendBack(event);
    const token = client.refresher.getAccessToken();
    if (!token) {
      send({ type: 'STREAM.ERROR' });
      return () => {};
    }
    const source = open(liveUrl(target(), token, input.requestID));
    let closed = false;
    source.addEventListener('start', (event) => send({ type: 'STREAM.START', requestID: String((event as MessageEvent).data) }));
    source.addEventListener('message', (event) => {
      try {
        const data = JSON.parse(String((event as MessageEvent).data)) as { trigger?: LiveTrigger; itemID?: string };
        if (data.trigger) send({ type: 'STREAM.MESSAGE', trigger: data.trigger, itemID: String(data.itemID ?? '') });
      } catch {
        /* not ours */
      }
    });
    source.addEventListener('stop', () => {
      closed = true;
      source.close();
      send({ type: 'STREAM.STOP' });
    });
    // An EventSource retries by itself after a dropped connection (and resumes by Last-Event-ID);
    // only a refused one (401, 403, 404) ends closed.
    source.onerror = () => {
      if (!closed && source.readyState === CLOSED) {
        closed = true;
        send({ type: 'STREAM.ERROR' });
      }
    };
    return () => {
      closed = true;
      source.close();
    };
  });
}

/** The machine's `refreshToken` actor: a fresh access token before the stream is opened again. */
export function liveRefreshActor(client: ApiClient) {
  return fromPromise<void>(async () => {
    const token = client.refresher.getAccessToken();
    if (token) await client.refresher.refreshAfter401(token);
  });
}
