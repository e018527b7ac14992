/**
 * One live stream (server-sent events) of a collection, as the BagelDB client expects it:
 * `event: start` with the request id, then one message per item write
 * (`{collectionID, itemID, nestedID, trigger, item}`), and `event: stop` when the server ends the
 * stream (shutdown, the stream's age limit, the token's expiry). A client that reconnects with
 * the request id gets every event it missed in between, each once.
 *
 * How nothing is missed. Event ids are handed out in write order, but a transaction may commit
 * after one with a higher id. Assuming a write commits within `settleSeconds` of starting, every
 * event still to commit at a moment T has an id above the newest event that started before
 * T − 2·settle. So at stop the stream records, under its request id, that cursor (never below
 * where the stream itself began) and the ids above it it already sent; the next stream subscribes
 * first, replays the events after the cursor it was not sent, then goes on live, skipping what
 * the replay gave.
 *
 * A resumed stream goes on under the request id it resumed from (its `start` names it again) and
 * keeps that id's position as it delivers (at heartbeats, when the client goes, at stop): the
 * official client keeps the first request id it was given and comes back with it after every
 * later stop (docs/live.md), so a second resume from it must repeat nothing.
 *
 * Access is checked when a stream opens and again whenever something the check read changes
 * (`recheck`, server/lib/shared-cache.ts `track`/`watch`): a stream whose caller may no longer
 * read ends with `stop` at once, on whichever process holds it; the client's reconnect is then
 * checked like any new stream.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { query } from '../content/storage.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { eventsAfter, type ContentEvent } from './events.ts';
import { usageOrganizationOf } from '../usage/routes.ts';
import type { UsageMeter } from '../usage/usage.ts';
import type { LiveHub } from './hub.ts';

export interface LiveStreamOptions {
  hub: LiveHub;
  db: Db;
  /** The collection row id followed, and its public id (slug) for the messages. */
  collectionId: string;
  collectionSlug: string;
  /** Which writes: the top-level list (root null, path '') or one nested list under a top-level item. */
  rootItemId: string | null;
  nestedPath: string;
  /** One item of that list only (server/live/target.ts); null or absent: the whole list. */
  itemId?: string | null | undefined;
  /** The request id of a stream that was told to stop, to resume after. */
  requestID?: string | undefined;
  /** The `Last-Event-ID` an EventSource sends when it reconnects by itself. */
  lastEventID?: number | undefined;
  /** The stream ends with `stop` after this long (and at the token's expiry when given). */
  maxSeconds: number;
  expiresAt?: number | undefined;
  /** A transaction is assumed to commit within this many seconds of writing its event. */
  settleSeconds?: number;
  heartbeatSeconds?: number;
  /**
   * For a caller limited to some items (an end user whose group grants read on associated items
   * only): of the top-level item ids given, those the caller may see now. Events are held back
   * until it answers and go out in order; an event of any other item is dropped.
   */
  visible?: ((itemIds: string[]) => Promise<Set<string>>) | undefined;
  /**
   * The caller's access, checked again: it throws when the caller may no longer follow this
   * stream. It runs once at open (to learn which cached rows it reads) and again whenever one of
   * them changes in any process; a throw ends the stream with `stop`.
   */
  recheck?: (() => Promise<unknown>) | undefined;
  /**
   * Passes on the events of bulk imports (trigger `import`, one per batch: server/live/events.ts),
   * so the console reloads the list. The public stream leaves them out: the official client's
   * live contract knows item triggers only (docs/content-storage.md "Importing items").
   */
  imports?: boolean | undefined;
}

/** Events a slow reader may have queued before the stream is closed (it resumes with Last-Event-ID). */
const maxQueued = 1000;
const replayBatch = 500;

const newRequestId = () => randomBytes(16).toString('hex');
/** The top-level item an event belongs to. */
const itemOf = (event: ContentEvent) => event.rootItemId ?? event.itemId;


/**
 * The SSE message of an event, as bytes, and the same as one HTTP/1.1 chunk. A write goes to every
 * stream of its collection: the hub hands all of them the same event object, so the message is
 * serialized, encoded and framed once per event (per collection slug), not once per subscriber.
 */
interface Message {
  slug: string;
  body: Buffer;
  chunk: Buffer;
}

const messages = new WeakMap<ContentEvent, Message>();
const crlf = Buffer.from('\r\n');

function message(event: ContentEvent, slug: string): Message {
  const known = messages.get(event);
  if (known?.slug === slug) return known;
  const data = {
    collectionID: slug,
    itemID: event.itemId,
    nestedID: event.nestedPath,
    trigger: event.trigger,
    item: event.item,
  };
  const body = Buffer.from(`id: ${event.id}\ndata: ${JSON.stringify(data)}\n\n`);
  const made = { slug, body, chunk: Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, crlf]) };
  messages.set(event, made);
  return made;
}

/**
 * The newest event of a collection that began more than 2·settle ago: every event still to commit
 * has a higher id. Streams of the collection that stop together (a withdrawn token, shutdown, the
 * same age limit) share one read for up to a second; an older answer is only lower, so still true.
 */
const settledCursors = new Map<string, { at: number; cursor: Promise<number> }>();
function settledCursor(db: Db, collectionId: string, settleSeconds: number): Promise<number> {
  const key = `${collectionId}:${settleSeconds}`;
  const known = settledCursors.get(key);
  if (known && Date.now() - known.at < 1000) return known.cursor;
  const cursor = query(
    db,
    sql`select coalesce(max(id), 0) as cursor from item_events
        where collection_id = ${collectionId} and created_at < now() - make_interval(secs => ${2 * settleSeconds})`,
  ).then(([row]) => Number(row?.cursor ?? 0));
  if (settledCursors.size >= 10_000) settledCursors.clear();
  settledCursors.set(key, { at: Date.now(), cursor });
  cursor.catch(() => settledCursors.get(key)?.cursor === cursor && settledCursors.delete(key));
  return cursor;
}

/** Serves one live stream until it ends (the steps are LiveStream's). */
export async function serveLiveStream(request: FastifyRequest, reply: FastifyReply, options: LiveStreamOptions): Promise<void> {
  await new LiveStream(request, reply, options).serve();
}

/** One stream's state, and the steps that open, replay, feed, keep and end it. */
class LiveStream {
  private readonly raw: ServerResponse;
  private readonly db: Db;
  private readonly settleSeconds: number;
  private requestID = newRequestId();
  /** Ids sent (or replayed) recently, for de-duplication and for the position kept at stop. */
  private readonly sent = new Map<number, number>();
  /** Where this stream began: the newest event when it subscribed, or the resumed stream's cursor. */
  private begin = 0;
  private ended = false;
  /** Saying stop: events from now on are neither sent nor counted, so the resume gives them. */
  private stopping = false;
  /** Whether something went out since the position was last kept. */
  private unsaved = false;
  private replaying = true;
  private readonly held: ContentEvent[] = [];
  private queued = 0;
  private started = false;

  // An app's stream (docs/billing.md "Usage metering") counts towards its organization's SimultaneousLive and BandWidth (bytes summed here, reported at each heartbeat and at the end).
  private readonly usage: UsageMeter;
  private readonly organizationId: string | undefined;
  private releaseLive: (() => void) | undefined;
  private unreported = 0;

  /** Events waiting for `visible`, in order, and the drain that asks it (one question per batch). */
  private readonly gated: ContentEvent[] = [];
  private pumping = false;
  private drained: Promise<void> = Promise.resolve();
  /** Top-level items this stream has shown: their deletes go out even when the link went with the item. */
  private readonly shown = new Set<string>();

  private heartbeatTimer: NodeJS.Timeout | undefined;
  private lifetimeTimer: NodeJS.Timeout | undefined;
  private unsubscribe: () => void = () => {};
  private unwatch: () => void = () => {};

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly options: LiveStreamOptions,
  ) {
    this.raw = reply.raw;
    this.db = options.db;
    this.settleSeconds = options.settleSeconds ?? 60;
    this.usage = request.server.ctx.usage;
    this.organizationId = usageOrganizationOf(request) ?? undefined;
  }

  async serve(): Promise<void> {
    this.open();
    await this.replay();
    if (this.ended) return;
    this.startTimers();
    if (this.options.recheck) this.watchAccess(this.options.recheck);
  }

  /** Takes the response over, sends the headers, and subscribes before reading the past, so nothing falls between the replay and the live events. */
  private open() {
    this.reply.hijack();
    // A stream is not a request in flight for the background work that waits for a quiet moment.
    this.request.server.ctx.foreground.release(this.raw);
    this.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.raw.on('close', () => void this.end(false));
    this.unsubscribe = this.options.hub.subscribe({
      collectionId: this.options.collectionId,
      deliver: (event: ContentEvent) => (this.replaying ? this.held.push(event) : this.send(event)),
      stop: () => this.end(true),
    });
    if (this.organizationId) this.releaseLive = this.usage.openLive(this.organizationId);
  }

  private sayStart() {
    if (this.started) return;
    this.started = true;
    this.write(`retry: 2000\nevent: start\ndata: ${this.requestID}\n\n`);
  }

  /** Says start, then sends what the client missed: after the position a resumed id kept, or after its Last-Event-ID; events heard meanwhile follow. */
  private async replay() {
    const { options, db } = this;
    try {
      let cursor: number | undefined;
      let seen = new Set<number>();
      if (options.requestID) {
        const [previous] = await query(db, sql`select cursor, seen from live_requests where request_id = ${options.requestID} and collection_id = ${options.collectionId}`);
        if (previous) {
          cursor = Number(previous.cursor);
          seen = new Set(((previous.seen as (string | number)[] | null) ?? []).map(Number));
          // The stream goes on under the id it resumes, and moves that id's position forward.
          this.requestID = options.requestID;
        }
      }
      this.sayStart();
      if (cursor === undefined && options.lastEventID !== undefined) cursor = options.lastEventID;
      if (cursor === undefined) {
        const [row] = await query(db, sql`select coalesce(max(id), 0) as id from item_events where collection_id = ${options.collectionId}`);
        this.begin = Number(row?.id ?? 0);
      } else {
        this.begin = cursor;
        // What the previous stream sent stays sent: the next stop must not offer it again.
        const now = Date.now();
        for (const id of seen) this.sent.set(id, now);
        for (let after = cursor; !this.ended; ) {
          const events = await eventsAfter(db, after, options.collectionId, replayBatch);
          for (const event of events) if (!seen.has(event.id)) this.send(event);
          if (events.length < replayBatch) break;
          after = events[events.length - 1]!.id;
        }
      }
    } catch (error) {
      this.request.log.error({ err: error }, 'replaying live events failed');
      this.sayStart();
    } finally {
      this.replaying = false;
      for (const event of this.held.splice(0)) this.send(event);
    }
  }

  /** The heartbeat (which also reports the bytes and keeps the position) and the stream's age limit. */
  private startTimers() {
    const { options, settleSeconds } = this;
    const heartbeat = (options.heartbeatSeconds ?? 25) * 1000;
    const beat = () => {
      this.write(': ping\n\n');
      this.reportBytes();
      // What went out since the last beat is kept, so a client that comes back with this id without a stop repeats little.
      if (this.unsaved && !this.stopping) this.keepPosition().catch((error: unknown) => this.request.log.warn({ err: error }, 'could not keep a live stream’s position'));
      // Ids above the cursor kept at stop were all sent within 3·settle; older ones can go.
      const horizon = Date.now() - settleSeconds * 4000;
      for (const [id, at] of this.sent) if (at < horizon) this.sent.delete(id);
      if (!this.ended) this.heartbeatTimer = setTimeout(beat, heartbeat).unref();
    };
    this.heartbeatTimer = setTimeout(beat, heartbeat).unref();
    const lifetime = Math.max(1, Math.min(options.maxSeconds * 1000, options.expiresAt ? options.expiresAt * 1000 - Date.now() : Infinity));
    this.lifetimeTimer = setTimeout(() => void this.end(true), lifetime).unref();
  }

  private reportBytes() {
    if (this.organizationId && this.unreported) this.usage.add(this.organizationId, 'BandWidth', this.unreported);
    this.unreported = 0;
  }

  private write(chunk: string) {
    if (this.ended) return;
    this.unreported += Buffer.byteLength(chunk);
    this.accepted(this.raw.write(chunk));
  }

  private accepted(ok: boolean) {
    if (!ok) {
      this.queued += 1;
      if (this.queued > maxQueued) void this.end(false);
    } else this.queued = 0;
  }

  /**
   * A message goes to the socket as the chunk made once for all streams, when the response is
   * chunked and holds nothing back itself (its headers went out with `start`): the bytes are those
   * `raw.write` would send, without its per-write framing (four socket writes, a cork and an uncork
   * per stream). Otherwise through the response.
   */
  private writeMessage(event: ContentEvent) {
    if (this.ended) return;
    const { raw } = this;
    const made = message(event, this.options.collectionSlug);
    this.unreported += made.body.length;
    const socket = raw.socket;
    if (raw.chunkedEncoding && raw.headersSent && socket && !socket.destroyed && raw.writableLength === socket.writableLength) this.accepted(socket.write(made.chunk));
    else this.accepted(raw.write(made.body));
  }

  private matches(event: ContentEvent) {
    const { options } = this;
    if (event.trigger === 'import' && !options.imports) return false;
    return event.rootItemId === options.rootItemId && event.nestedPath === options.nestedPath && (options.itemId == null || event.itemId === options.itemId);
  }

  private send(event: ContentEvent) {
    if (this.stopping || !this.matches(event) || this.sent.has(event.id)) return;
    this.sent.set(event.id, Date.now());
    this.unsaved = true;
    const visible = this.options.visible;
    if (!visible) return this.writeMessage(event);
    this.gated.push(event);
    if (!this.pumping) {
      this.pumping = true;
      this.drained = this.drain(visible);
    }
  }

  private async drain(visible: NonNullable<LiveStreamOptions['visible']>) {
    const { gated } = this;
    try {
      while (gated.length && !this.ended) {
        const batch = gated.splice(0);
        let allowed: Set<string>;
        try {
          allowed = await visible([...new Set(batch.map(itemOf))]);
        } catch (error) {
          // Never guess: the stream ends and the client comes back with its Last-Event-ID.
          this.request.log.error({ err: error }, 'could not tell which items a live stream may show');
          for (const event of [...batch, ...gated.splice(0)]) this.sent.delete(event.id);
          void this.end(false);
          return;
        }
        for (const event of batch) {
          const item = itemOf(event);
          if (allowed.has(item) || (event.trigger === 'delete' && this.shown.has(item))) {
            this.shown.add(item);
            this.writeMessage(event);
          }
        }
      }
    } finally {
      // In the same turn as the last look at `gated`: a later event starts a new drain.
      this.pumping = false;
    }
  }

  /**
   * Ends the stream; with `stop`, says so to the client and keeps the position for its reconnect.
   * Without (the client went, or it reads too slowly), the position is kept as well, unawaited.
   */
  private async end(stop: boolean) {
    if (this.ended || this.stopping) return;
    if (stop) {
      this.stopping = true;
      // Events waiting for their check go out first, so the position kept counts them truly.
      await this.drained;
      if (this.ended) return;
      try {
        await this.keepPosition();
      } catch (error) {
        this.request.log.warn({ err: error }, 'could not keep a live stream’s position');
      }
      this.write(`event: stop\ndata: ${this.requestID}\n\n`);
    } else if (this.unsaved && !this.replaying) {
      this.keepPosition().catch((error: unknown) => this.request.log.warn({ err: error }, 'could not keep a live stream’s position'));
    }
    this.ended = true;
    this.unsubscribe();
    this.unwatch();
    this.releaseLive?.();
    this.reportBytes();
    clearTimeout(this.heartbeatTimer);
    clearTimeout(this.lifetimeTimer);
    this.raw.end();
  }

  /** Below the cursor everything has settled; above it, `seen` lists what this stream sent. */
  private async keepPosition() {
    const { db, options } = this;
    const cursor = Math.max(this.begin, await settledCursor(db, options.collectionId, this.settleSeconds));
    this.unsaved = false;
    const seen = [...this.sent.keys()].filter((id) => id > cursor);
    const seenList = seen.length ? sql`array[${sql.join(seen.map((id) => sql`${id}`), sql`, `)}]::bigint[]` : sql`'{}'::bigint[]`;
    await db.execute(sql`
      insert into live_requests (request_id, collection_id, cursor, seen) values (${this.requestID}, ${options.collectionId}, ${cursor}, ${seenList})
      on conflict (request_id) do update set cursor = excluded.cursor, seen = excluded.seen, updated_at = now()`);
  }

  /**
   * Asks `recheck` again whenever a cached row it read changes (in any process: the invalidations
   * reach every one), one check at a time; a refusal (or a failure to tell) ends the stream with
   * stop. The first run only learns what to watch: the route has just checked the same.
   */
  private watchAccess(recheck: () => Promise<unknown>) {
    const caches = this.request.server.ctx.caches;
    let running = false;
    let again = false;
    const check = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        for (let round = 0; ; round++) {
          again = false;
          const changes = caches.changeCount;
          const { reads } = await caches.track(recheck);
          if (this.ended || this.stopping) return;
          this.unwatch();
          this.unwatch = caches.watch(reads, () => void check());
          // A change heard while the check ran may have come after it read that row: check again
          // (a few times at once; under a constant stream of changes, again a moment later).
          if (caches.changeCount !== changes) again = true;
          if (!again) break;
          if (round >= 2) {
            setTimeout(() => void check(), 200).unref();
            break;
          }
        }
      } catch (error) {
        this.request.log.info({ err: error }, 'a live stream’s access was withdrawn; it stops');
        void this.end(true);
      } finally {
        running = false;
      }
    };
    void check();
  }
}
