/**
 * Content events: one row per item write, inserted in the write's own transaction, so an event
 * exists exactly when its write committed. `pg_notify` in the same transaction tells every
 * server process at commit (PostgreSQL delivers notifications of a transaction only when, and
 * only if, it commits). Live streams (and webhooks) read the rows.
 */
import { sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../content/storage.ts';

export const contentEventChannel = 'larder_item_events';

/**
 * `import`: one event per batch of a bulk import (server/content/import.ts), not per item: its
 * `itemId` is '' and its `item` is `{importID, batch, count, firstID, lastID}`. Consumers that
 * act per item skip it (webhooks, function and integration runs, file sweeps); the console's
 * live stream passes it on so the console reloads, the public one does not (docs/content-storage.md "Importing items").
 */
export type ContentTrigger = 'create' | 'update' | 'delete' | 'import';

export interface ContentEvent {
  id: number;
  projectId: string;
  /** The collection row's id (storage id), not its slug. */
  collectionId: string;
  trigger: ContentTrigger;
  itemId: string;
  /** The top-level item a nested item lives under; null at the top. */
  rootItemId: string | null;
  /** The nestedID of the list the item is in ('' at the top). */
  nestedPath: string;
  /** The item after the write (for a delete, as it was). */
  item: Record<string, unknown>;
  createdAt: string;
}

export type NewContentEvent = Omit<ContentEvent, 'id' | 'createdAt'>;

/** The list path of an item addressed by a nestedID that ends in its id (`a.1.b.2` → `a.1.b`). */
export const listPathOfItem = (nestedID: string): string => nestedID.split('.').slice(0, -1).join('.');

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: an event whose notification would
 * be larger is announced by id and collection only, and each listening process reads it.
 */
export const maxNotifiedEventBytes = 7900;

/**
 * Records the event and notifies the listening processes at commit. Call inside the write's
 * transaction. The notification carries the event as stored (the item as jsonb gives it back),
 * so a process need not read it again; when that would not fit, only its id and collection.
 */
export async function recordContentEvent(tx: Executor, event: NewContentEvent): Promise<void> {
  await recordContentEvents(tx, [event]);
}

/**
 * Several events of one transaction (a batch of creates) in one statement, in the order given.
 * `alongside`: a data-modifying statement of the same write (a counter's update) run in the same
 * statement, as a CTE (which runs once whether or not it is read): one round trip less.
 */
export async function recordContentEvents(tx: Executor, events: readonly NewContentEvent[], alongside?: SQL): Promise<void> {
  if (!events.length) {
    if (alongside) await tx.execute(alongside);
    return;
  }
  const rows = sql.join(
    events.map(
      (event) => sql`(${event.projectId}, ${event.collectionId}, ${event.trigger}, ${event.itemId}, ${event.rootItemId},
              ${event.nestedPath}, ${JSON.stringify(event.item)}::jsonb)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    with ${alongside ? sql`alongside as (${alongside}), ` : sql``}inserted as (
      insert into item_events (project_id, collection_id, trigger, item_id, root_item_id, nested_path, item)
      values ${rows}
      returning id, project_id, collection_id, trigger, item_id, root_item_id, nested_path, item, created_at
    ), note as (
      select id, collection_id,
             json_build_object('id', id, 'c', collection_id, 'e', json_build_object(
               'p', project_id, 't', trigger, 'i', item_id, 'r', root_item_id, 'n', nested_path, 'item', item, 'at', created_at))::text as whole
      from inserted
    )
    select pg_notify(${contentEventChannel},
                     case when octet_length(whole) <= ${maxNotifiedEventBytes} then whole else json_build_object('id', id, 'c', collection_id)::text end)
    from note order by id`);
}

/** A notification of the content-event channel: the event's id and collection, and the event when it fitted. */
export interface EventNote {
  id: number;
  collectionId: string;
  event?: ContentEvent;
}

const triggers: readonly string[] = ['create', 'update', 'delete', 'import'];

/** Reads a notification's payload; undefined when it is not one of ours. */
export function parseEventNote(payload: string): EventNote | undefined {
  let note: { id?: unknown; c?: unknown; e?: { p?: unknown; t?: unknown; i?: unknown; r?: unknown; n?: unknown; item?: unknown; at?: unknown } };
  try {
    note = JSON.parse(payload) as typeof note;
  } catch {
    return undefined;
  }
  if (typeof note.id !== 'number' || typeof note.c !== 'string') return undefined;
  const e = note.e;
  if (
    !e ||
    typeof e.p !== 'string' ||
    typeof e.t !== 'string' ||
    !triggers.includes(e.t) ||
    typeof e.i !== 'string' ||
    !(e.r === null || typeof e.r === 'string') ||
    typeof e.n !== 'string' ||
    typeof e.item !== 'object' ||
    e.item === null ||
    typeof e.at !== 'string'
  ) {
    return { id: note.id, collectionId: note.c };
  }
  return {
    id: note.id,
    collectionId: note.c,
    event: {
      id: note.id,
      projectId: e.p,
      collectionId: note.c,
      trigger: e.t as ContentTrigger,
      itemId: e.i,
      rootItemId: e.r,
      nestedPath: e.n,
      item: e.item as Record<string, unknown>,
      createdAt: new Date(e.at).toISOString(),
    },
  };
}

const selectEvent = sql`select id, project_id, collection_id, trigger, item_id, root_item_id, nested_path, item, created_at from item_events`;

function toEvent(row: Record<string, unknown>): ContentEvent {
  const item = typeof row.item === 'string' ? (JSON.parse(row.item) as Record<string, unknown>) : (row.item as Record<string, unknown>);
  return {
    id: Number(row.id),
    projectId: String(row.project_id),
    collectionId: String(row.collection_id),
    trigger: row.trigger as ContentTrigger,
    itemId: String(row.item_id),
    rootItemId: row.root_item_id == null ? null : String(row.root_item_id),
    nestedPath: String(row.nested_path),
    item,
    createdAt: new Date(row.created_at as string).toISOString(),
  };
}


/** Events by id, in id order. */
export async function eventsByIds(db: Executor, ids: readonly number[]): Promise<ContentEvent[]> {
  if (!ids.length) return [];
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  return (await query(db, sql`${selectEvent} where id in (${list}) order by id`)).map(toEvent);
}

/** Events of a collection after `cursor` (all collections when null), oldest first, at most `limit`. */
export async function eventsAfter(db: Executor, cursor: number, collectionId: string | null, limit: number): Promise<ContentEvent[]> {
  const where = collectionId === null ? sql`id > ${cursor}` : sql`collection_id = ${collectionId} and id > ${cursor}`;
  return (await query(db, sql`${selectEvent} where ${where} order by id limit ${limit}`)).map(toEvent);
}

/** The newest event id (0 when there is none). */
export async function latestEventId(db: Executor): Promise<number> {
  const [row] = await query(db, sql`select coalesce(max(id), 0) as id from item_events`);
  return Number(row?.id ?? 0);
}

/** Forgets events older than `seconds` and stopped streams' positions older than that. */
export async function pruneEvents(db: Executor, seconds: number): Promise<void> {
  await db.execute(sql`delete from item_events where created_at < now() - make_interval(secs => ${seconds})`);
  await db.execute(sql`delete from live_requests where updated_at < now() - make_interval(secs => ${seconds})`);
}

/** A relay's place in the events: the last event it handed on, by transaction and id. */
export interface RelayPlace {
  xid: string;
  eventId: number | string;
}

/** An event as a relay reads it: with its transaction id (text) and its collection's slug. */
export type RelayedEventRow = Record<string, unknown> & { id: unknown; xid: string; project_id: unknown; collection_id: unknown; trigger: unknown; item_id: unknown; root_item_id: unknown; nested_path: unknown; item: unknown; slug: unknown };

/**
 * The events past a relay's place (webhooks, integrations), at most `limit`, in the order their
 * transactions became final: by `(xid, id)`, only those older than every transaction of this
 * database still running, so a write that commits late, with a lower id, is never skipped
 * (docs/webhooks.md, on the outbox).
 *
 * "Of this database": a transaction open in another database of the same server (a long report,
 * a backup, a session left idle in its transaction) cannot write these events, and must not hold
 * them back — `pg_snapshot_xmin` alone counts every database's. So the first statement notes the
 * next transaction id and the ids of this database's running transactions; the second's snapshot
 * (taken after) is held back by each transaction in it that was one of those, or began after.
 * Run it inside a transaction: the sessions' list is read once per transaction.
 */
export async function eventsPastPlace(tx: Executor, place: RelayPlace, limit = 500): Promise<RelayedEventRow[]> {
  const [running] = await query(
    tx,
    sql`select pg_snapshot_xmax(pg_current_snapshot())::text as next,
               array(select backend_xid::text from pg_stat_activity
                     where datname = current_database() and backend_xid is not null) as ours`,
  );
  const next = String(running!.next);
  const ours = (running!.ours ?? []) as string[];
  return (await query(
    tx,
    sql`select e.id, e.xid::text as xid, e.project_id, e.collection_id, e.trigger, e.item_id, e.root_item_id, e.nested_path, e.item, c.slug
        from item_events e left join content_collections c on c.id = e.collection_id
        where (e.xid, e.id) > (${place.xid}::xid8, ${place.eventId}::bigint)
          and e.xid < coalesce(
            (select min(x) from pg_snapshot_xip(pg_current_snapshot()) x
             where x >= ${next}::xid8 or xid(x)::text = any(${sql`${`{${ours.join(',')}}`}::text[]`})),
            pg_snapshot_xmax(pg_current_snapshot()))
        order by e.xid, e.id limit ${limit}`,
  )) as RelayedEventRow[];
}
