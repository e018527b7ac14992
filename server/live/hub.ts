/**
 * The live hub of one server process: it listens for content-event notifications (one LISTEN per
 * process, whatever the number of streams), takes each event from its notification (or reads it
 * once, when it was too large to carry) and hands it to the streams of its collection. Events
 * cross processes through PostgreSQL (PGlite: in-process); the hub keeps no state that another
 * process would need.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/index.ts';
import { contentEventChannel, eventsAfter, eventsByIds, latestEventId, parseEventNote, pruneEvents, type ContentEvent, type EventNote } from './events.ts';

export interface LiveSubscriber {
  /** The collection row id the stream follows. */
  collectionId: string;
  deliver(event: ContentEvent): void;
  /** The hub is closing (server shutdown): the stream says stop so the client reconnects elsewhere. */
  stop(): Promise<void>;
}

export interface LiveHubOptions {
  /** How long events and stopped streams' positions are kept, in seconds. */
  retentionSeconds: number;
  log?: FastifyBaseLogger;
}

const catchUpBatch = 500;

/** Takes every content event of every collection (the file sweeper: server/files/files.ts). */
export type ContentEventWatcher = (event: ContentEvent) => void;

export class LiveHub {
  private readonly subscribers = new Map<string, Set<LiveSubscriber>>();
  private readonly watchers = new Set<ContentEventWatcher>();
  private unlisten: (() => Promise<void>) | undefined;
  private pending: EventNote[] = [];
  private flushing: Promise<void> | undefined;
  /** The highest event id handed out, so a lost LISTEN connection can be caught up. */
  private lastSeen = 0;
  private pruneTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly options: LiveHubOptions,
  ) {}

  async start(): Promise<void> {
    this.lastSeen = await latestEventId(this.database.db);
    this.unlisten = await this.database.listen(
      contentEventChannel,
      (payload) => this.onNotify(payload),
      () => void this.catchUp(),
    );
    const prune = () => pruneEvents(this.database.db, this.options.retentionSeconds).catch((error) => this.options.log?.warn({ err: error }, 'pruning content events failed'));
    this.pruneTimer = setInterval(prune, Math.min(this.options.retentionSeconds, 600) * 1000);
    this.pruneTimer.unref();
  }

  /** Starts handing the collection's events to `subscriber`; the returned function stops it. */
  subscribe(subscriber: LiveSubscriber): () => void {
    let set = this.subscribers.get(subscriber.collectionId);
    if (!set) this.subscribers.set(subscriber.collectionId, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(subscriber.collectionId) === set) this.subscribers.delete(subscriber.collectionId);
    };
  }

  /** Starts handing every event, whatever its collection, to `watcher`; the returned function stops it. */
  watch(watcher: ContentEventWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /**
   * Resolves once every event committed before the call has been handed out. A notification
   * that does not come within `timeoutMs` is read from the table instead.
   */
  async caughtUp(timeoutMs = 2000): Promise<void> {
    const latest = await latestEventId(this.database.db);
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && (this.lastSeen < latest || this.flushing)) {
      if (Date.now() > deadline) return this.catchUp();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** Streams open in this process (for tests and metrics). */
  get streamCount(): number {
    let count = 0;
    for (const set of this.subscribers.values()) count += set.size;
    return count;
  }

  /** Tells every stream to stop (each records where it was), then stops listening. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    const all = [...this.subscribers.values()].flatMap((set) => [...set]);
    await Promise.allSettled(all.map((subscriber) => subscriber.stop()));
    this.subscribers.clear();
    await this.flushing;
    await this.unlisten?.();
  }

  private onNotify(payload: string) {
    const note = parseEventNote(payload);
    if (!note) return;
    this.pending.push(note);
    this.flushing ??= this.flush();
  }

  /**
   * Delivers notified events of followed collections in commit order. Most notifications carry
   * their event; the others (too large for a notification) are read in one query per burst.
   */
  private async flush(): Promise<void> {
    // Yield first: `flushing` must be set before this can finish (and clear it).
    await Promise.resolve();
    try {
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        for (const note of batch) this.lastSeen = Math.max(this.lastSeen, note.id);
        const wanted = this.watchers.size ? batch : batch.filter((note) => this.subscribers.has(note.collectionId));
        if (!wanted.length) continue;
        const unread = wanted.filter((note) => !note.event).map((note) => note.id);
        const read = unread.length ? new Map((await eventsByIds(this.database.db, unread)).map((event) => [event.id, event])) : undefined;
        for (const note of wanted) {
          const event = note.event ?? read?.get(note.id);
          if (event) this.dispatch(event);
        }
      }
    } catch (error) {
      this.options.log?.error({ err: error }, 'reading content events failed');
    } finally {
      this.flushing = undefined;
      if (this.pending.length && !this.closed) this.flushing = this.flush();
    }
  }

  /** After the LISTEN connection was lost: deliver what was committed meanwhile. */
  private async catchUp(): Promise<void> {
    try {
      for (;;) {
        const events = await eventsAfter(this.database.db, this.lastSeen, null, catchUpBatch);
        for (const event of events) {
          this.lastSeen = Math.max(this.lastSeen, event.id);
          this.dispatch(event);
        }
        if (events.length < catchUpBatch) return;
      }
    } catch (error) {
      this.options.log?.error({ err: error }, 'catching up content events failed');
    }
  }

  private dispatch(event: ContentEvent) {
    for (const watcher of this.watchers) {
      try {
        watcher(event);
      } catch (error) {
        this.options.log?.warn({ err: error }, 'a content event watcher failed');
      }
    }
    const set = this.subscribers.get(event.collectionId);
    if (!set) return;
    for (const subscriber of set) {
      try {
        subscriber.deliver(event);
      } catch (error) {
        this.options.log?.warn({ err: error }, 'a live stream failed to take an event');
      }
    }
  }
}
