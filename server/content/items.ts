/**
 * Items of collections and of nested collections.
 * Every value is checked by its field type from the registry; `_id`, the dates, `_order` and
 * `_rank` are the server's. A write may name the version it was based on and is refused (409,
 * with the current item) when the item changed since; without one, the last writer wins.
 */
import { listPathOfItem, recordContentEvent, recordContentEvents } from '../live/events.ts';
import { sql, type SQL } from 'drizzle-orm';
import { generateKeyBetween } from 'fractional-indexing';
import { contentLimits, metadataField, parseNestedId, systemKeys } from '../../definitions/content.ts';
import { fieldType, type NestedItemFound, type ResolveContext, type SchemaField } from '../../definitions/field-types/index.ts';
import { valueProblem, type ValueProblem } from '../../definitions/field-types/value-refusal.ts';
import { parseDate } from '../../definitions/field-types/date/index.ts';
import type { Db } from '../db/index.ts';
import { contentCollections } from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { sanitizeRichText } from './sanitize.ts';
import { attachClaimed, claimFiles, mayNameFiles, release as releaseClaimed } from '../files/claims.ts';
import { CollectionService, invalid, levelOf, type CollectionRow, type Tx } from './collections.ts';
import { childLevel, columnFields, fieldColumn, followChain, nestedFieldBySlug, type SchemaLevel } from './schema-tree.ts';
import {
  columnTypeOf,
  countChildren,
  decodeValue,
  deleteItem,
  insertItem,
  insertItems,
  lastRank,
  listItems,
  query,
  readItem,
  uniqueIndexName,
  updateItem,
  type Item,
} from './storage.ts';

/** A write based on an old version: the caller gets the item as it is now. */
export class StaleItemError extends AppError {
  constructor(readonly current: Item) {
    super(409, 'stale_item', 'The item was changed since you loaded it. The current item is attached; apply your change to it and save again.');
  }
}

/** What a path plus nestedID addresses: a list of items (of one parent, when nested) or one item. */
type Address = { kind: 'list'; level: SchemaLevel; parentId?: string } | { kind: 'item'; level: SchemaLevel; itemId: string; parentId?: string };

export interface Page {
  pageNumber: number;
  perPage: number;
}

const itemNotFound = () => notFound('item_not_found', 'Could not find item');

/** The version a write names: an If-Match value (an ETag or the bare date) or the body's `_lastUpdatedDate`. */
export function parseVersion(raw: unknown, path: string): string | undefined {
  if (raw === undefined || raw === null || raw === '*') return undefined;
  const text = typeof raw === 'string' ? raw.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1') : undefined;
  const parsed = text ? parseDate(text) : undefined;
  if (!parsed?.ok) throw invalid([{ path, message: 'must be the _lastUpdatedDate of the item the change is based on' }]);
  return parsed.value;
}

/** The constraint a unique violation names, from node-postgres or PGlite (possibly wrapped by drizzle). */
function uniqueViolation(error: unknown): string | undefined {
  for (let e = error as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint ?? /unique constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
  }
  return undefined;
}

/** Where an event happened: the collection, and for a nested item the top-level item and the list's nestedID. */
const eventPlace = (projectId: string, row: CollectionRow, nested?: { rootItemId: string; nestedPath: string }) => ({
  projectId,
  collectionId: row.id,
  rootItemId: nested?.rootItemId ?? null,
  nestedPath: nested?.nestedPath ?? '',
});

/** A top-level create waiting for its collection's next batch. */
interface PendingCreate {
  body: Record<string, unknown>;
  id: string | undefined;
  resolve(item: Item): void;
  reject(error: unknown): void;
}

interface CreateQueue {
  waiting: PendingCreate[];
  running: boolean;
}

/** The most creates one batch writes. */
const createBatchMax = 100;

/** The create queues of each database, by project and collection: shared by every ItemService of the process. */
const createQueues = new WeakMap<object, Map<string, CreateQueue>>();

export class ItemService {
  /** `collections`: the process's collection service (server/app.ts builds one for everything). */
  constructor(
    private readonly db: Db,
    private readonly collections: CollectionService = new CollectionService(db),
  ) {}

  /** Top-level items in rank order, and their total (the kept count: no scan). */
  async list(projectId: string, slug: string, page: Page): Promise<{ items: Item[]; total: number }> {
    const row = await this.collections.row(projectId, slug);
    const items = page.perPage === 0 ? [] : await listItems(this.db, levelOf(row), { offset: (page.pageNumber - 1) * page.perPage, limit: page.perPage });
    return { items, total: row.itemCount };
  }

  /** One item, or (nestedID ending in a slug) a page of a nested list with its total. */
  async get(projectId: string, slug: string, itemId: string, nestedID: string | undefined, page: Page): Promise<{ item: Item } | { items: Item[]; total: number }> {
    const row = await this.collections.row(projectId, slug);
    const target = await this.address(this.db, row, itemId, nestedID);
    if (target.kind === 'item') {
      const item = await readItem(this.db, target.level, target.itemId, target.parentId);
      if (!item) throw itemNotFound();
      return { item };
    }
    const parentId = target.parentId!;
    const items = page.perPage === 0 ? [] : await listItems(this.db, target.level, { offset: (page.pageNumber - 1) * page.perPage, limit: page.perPage, parentId });
    return { items, total: await countChildren(this.db, target.level, parentId) };
  }

  /**
   * Creates a top-level item, or (with the parent item and a nestedID ending in a slug) a nested
   * one; `id` is a caller's id (the public API's upsert).
   *
   * Top-level creations of one collection queue on its row (the counter, the single-item rule and
   * the rank need it), so they are written in batches: a create that arrives while a batch of its
   * collection is being written waits for the next one, which writes every create waiting then in
   * one transaction (docs/content-storage.md: batched creates). Alone, a create is a batch of one.
   */
  async create(projectId: string, slug: string, body: Record<string, unknown>, nested?: { itemId: string; nestedID: string }, id?: string): Promise<Item> {
    // Values naming files another item holds get copies of their own (server/files/claims.ts).
    if (mayNameFiles(this.db, body)) {
      const itemId = id ?? newId();
      const row = await this.collections.row(projectId, slug);
      const target = nested ? await this.address(this.db, row, nested.itemId, nested.nestedID) : ({ kind: 'list', level: levelOf(row) } as Address);
      if (target.kind === 'list') {
        return this.claiming(projectId, row, target.level, nested?.itemId ?? itemId, itemId, body, (claimed) => this.createUnclaimed(projectId, slug, claimed, nested, itemId));
      }
    }
    return this.createUnclaimed(projectId, slug, body, nested, id);
  }

  /** Copies the files a write names that other items hold, writes, then attaches the copies (or lets them go if the write fails). */
  private async claiming<T>(
    projectId: string,
    row: CollectionRow,
    level: SchemaLevel,
    rootItemId: string,
    itemId: string,
    body: Record<string, unknown>,
    write: (body: Record<string, unknown>) => Promise<T>,
  ): Promise<T> {
    const target = { projectId, collectionId: row.id, rootItemId, itemTable: level.table, itemId };
    const claimed = await claimFiles(this.db, target, level.fields, (field) => fieldColumn(field.id), body);
    let result: T;
    try {
      result = await write(claimed.body);
    } catch (error) {
      await releaseClaimed(this.db, claimed.keys);
      throw error;
    }
    await attachClaimed(this.db, claimed.keys);
    return result;
  }

  private async createUnclaimed(projectId: string, slug: string, body: Record<string, unknown>, nested?: { itemId: string; nestedID: string }, id?: string): Promise<Item> {
    if (nested) return this.createOne(projectId, slug, body, nested, id);
    let queues = createQueues.get(this.db);
    if (!queues) createQueues.set(this.db, (queues = new Map()));
    const key = `${projectId}\u0000${slug}`;
    let queue = queues.get(key);
    if (!queue) queues.set(key, (queue = { waiting: [], running: false }));
    const pending = new Promise<Item>((resolve, reject) => queue.waiting.push({ body, id, resolve, reject }));
    if (!queue.running) void this.drain(queues, key, queue);
    return pending;
  }

  /** Writes the queue's waiting creates, batch after batch, until none waits. */
  private async drain(queues: Map<string, CreateQueue>, key: string, queue: CreateQueue): Promise<void> {
    queue.running = true;
    try {
      while (queue.waiting.length) {
        const [projectId, slug] = key.split('\u0000') as [string, string];
        // The batch is taken once the transaction holds the collection's row: the creates that
        // arrived while it waited for the row (or, on PGlite, for the one connection) join it.
        let batch: PendingCreate[] | undefined;
        const take = () => (batch = queue.waiting.splice(0, createBatchMax));
        try {
          const outcomes = await this.createBatch(projectId, slug, take);
          outcomes.forEach((outcome, i) => (outcome.ok ? batch![i]!.resolve(outcome.item) : batch![i]!.reject(outcome.error)));
        } catch (error) {
          const failed: PendingCreate[] = batch ?? take();
          if (failed.length === 1) {
            failed[0]!.reject(error);
            continue;
          }
          // A database error (a unique value, a caller's id taken twice) undid the whole batch: each create runs on its own.
          for (const one of failed) await this.createOne(projectId, slug, one.body, undefined, one.id).then(one.resolve, one.reject);
        }
      }
    } finally {
      queue.running = false;
      if (queues.get(key) === queue && !queue.waiting.length) queues.delete(key);
    }
  }

  /**
   * Top-level creates of one collection in one transaction. A create the rules refuse (a bad value,
   * the single item taken) is refused alone; any other error undoes the batch and is thrown.
   */
  private async createBatch(
    projectId: string,
    slug: string,
    take: () => readonly PendingCreate[],
  ): Promise<({ ok: true; item: Item } | { ok: false; error: unknown })[]> {
    return this.db.transaction(async (tx) => {
      const row = await this.collections.row(projectId, slug, tx, 'update');
      const batch = take();
      const level = levelOf(row);
      let rank = await lastRank(tx, level);
      const outcomes: ({ ok: true; item: Item } | { ok: false; error: unknown } | { ok: 'pending'; index: number })[] = [];
      const accepted: { id: string; rank: string; values: Map<SchemaField, unknown> }[] = [];
      for (const one of batch) {
        try {
          if (row.singleItem && row.itemCount + accepted.length >= 1) {
            throw conflict('single_item_exists', 'This is a single item collection and it already has its item.');
          }
          const values = await this.prepareValues(tx, projectId, row, level, one.body, 'create');
          rank = generateKeyBetween(rank, null);
          outcomes.push({ ok: 'pending', index: accepted.length });
          accepted.push({ id: one.id ?? newId(), rank, values });
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      // With a unique field, a value taken aborts the statement: each insert gets a savepoint so it
      // fails alone. Otherwise one statement writes them all (a caller's id taken undoes the batch).
      const inserted: (Item | AppError)[] = [];
      if (columnFields(level).some((field) => field.unique)) {
        for (const item of accepted) {
          try {
            inserted.push(await this.guardUnique(level, () => tx.transaction((savepoint) => insertItem(savepoint, level, item))));
          } catch (error) {
            if (!(error instanceof AppError) || error.status >= 500) throw error;
            inserted.push(error);
          }
        }
      } else {
        inserted.push(...(await this.guardUnique(level, () => insertItems(tx, level, accepted))));
      }
      const created = inserted.filter((entry): entry is Item => !(entry instanceof AppError));
      if (created.length) {
        await recordContentEvents(
          tx,
          created.map((item) => ({ ...eventPlace(projectId, row), trigger: 'create' as const, itemId: item._id, item })),
          sql`update content_collections set item_count = item_count + ${created.length} where id = ${row.id}`,
        );
      }
      return outcomes.map((outcome) => {
        if (outcome.ok !== 'pending') return outcome;
        const entry = inserted[outcome.index]!;
        return entry instanceof AppError ? { ok: false as const, error: entry } : { ok: true as const, item: entry };
      });
    });
  }

  /** One create in its own transaction: nested items, and the creates of a batch that failed as a whole. */
  private async createOne(projectId: string, slug: string, body: Record<string, unknown>, nested?: { itemId: string; nestedID: string }, id?: string): Promise<Item> {
    return this.db.transaction(async (tx) => {
      // Top-level creations queue on the collection row: the counter, the single-item rule and the rank need it.
      const row = await this.collections.row(projectId, slug, tx, nested ? 'share' : 'update');
      const target = nested ? await this.address(tx, row, nested.itemId, nested.nestedID, true) : ({ kind: 'list', level: levelOf(row) } as Address);
      if (target.kind !== 'list') throw invalid([{ path: 'nestedID', message: 'must end with a nested collection slug to create an item in it' }]);
      if (!target.parentId && row.singleItem && row.itemCount >= 1) {
        throw conflict('single_item_exists', 'This is a single item collection and it already has its item.');
      }
      const values = await this.prepareValues(tx, projectId, row, target.level, body, 'create');
      const rank = generateKeyBetween(await lastRank(tx, target.level, target.parentId), null);
      const item = await this.guardUnique(target.level, () =>
        insertItem(tx, target.level, { id: id ?? newId(), rank, values, ...(target.parentId ? { parentId: target.parentId } : {}) }),
      );
      if (!target.parentId) await tx.execute(sql`update content_collections set item_count = item_count + 1 where id = ${row.id}`);
      await recordContentEvent(tx, { ...eventPlace(projectId, row, nested ? { rootItemId: nested.itemId, nestedPath: nested.nestedID } : undefined), trigger: 'create', itemId: item._id, item });
      return item;
    });
  }

  /** Changes the given fields of an item (partial update). */
  async update(projectId: string, slug: string, itemId: string, body: Record<string, unknown>, options: { nestedID?: string | undefined; version?: string | undefined }): Promise<Item> {
    if (mayNameFiles(this.db, body)) {
      const row = await this.collections.row(projectId, slug);
      const target = await this.address(this.db, row, itemId, options.nestedID);
      if (target.kind === 'item') {
        return this.claiming(projectId, row, target.level, itemId, target.itemId, body, (claimed) => this.updateUnclaimed(projectId, slug, itemId, claimed, options));
      }
    }
    return this.updateUnclaimed(projectId, slug, itemId, body, options);
  }

  private async updateUnclaimed(projectId: string, slug: string, itemId: string, body: Record<string, unknown>, options: { nestedID?: string | undefined; version?: string | undefined }): Promise<Item> {
    return this.db.transaction(async (tx) => {
      const row = await this.collections.row(projectId, slug, tx, 'share');
      const target = await this.address(tx, row, itemId, options.nestedID);
      if (target.kind !== 'item') throw invalid([{ path: 'nestedID', message: 'must end with an item id to change that item' }]);
      const current = await readItem(tx, target.level, target.itemId, target.parentId, true);
      if (!current) throw itemNotFound();
      const version = options.version ?? parseVersion(body._lastUpdatedDate, '_lastUpdatedDate');
      if (version !== undefined && version !== current._lastUpdatedDate) throw new StaleItemError(current);
      const values = await this.prepareValues(tx, projectId, row, target.level, body, 'update');
      if (values.size === 0) return current;
      const updated = await this.guardUnique(target.level, () => updateItem(tx, target.level, target.itemId, values));
      const place = options.nestedID ? { rootItemId: itemId, nestedPath: listPathOfItem(options.nestedID) } : undefined;
      await recordContentEvent(tx, { ...eventPlace(projectId, row, place), trigger: 'update', itemId: target.itemId, item: updated ?? current });
      return updated ?? current;
    });
  }

  /** Deletes an item and, through the child tables' cascades, every item nested in it. */
  async delete(projectId: string, slug: string, itemId: string, options: { nestedID?: string | undefined; version?: string | undefined }): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.collections.row(projectId, slug, tx, 'update');
      const target = await this.address(tx, row, itemId, options.nestedID);
      if (target.kind !== 'item') throw invalid([{ path: 'nestedID', message: 'must end with an item id to delete that item' }]);
      const current = await readItem(tx, target.level, target.itemId, target.parentId, true);
      if (!current) throw itemNotFound();
      if (options.version !== undefined && options.version !== current._lastUpdatedDate) throw new StaleItemError(current);
      await deleteItem(tx, target.level, target.itemId);
      if (!target.parentId) await tx.execute(sql`update content_collections set item_count = item_count - 1 where id = ${row.id}`);
      const place = options.nestedID ? { rootItemId: itemId, nestedPath: listPathOfItem(options.nestedID) } : undefined;
      await recordContentEvent(tx, { ...eventPlace(projectId, row, place), trigger: 'delete', itemId: target.itemId, item: current });
    });
  }

  /**
   * Follows a nestedID from a top-level item, checking every item on the way belongs
   * to the one before it. `lockParent` takes the row of the item a new nested item goes into.
   */
  private async address(executor: Db | Tx, row: CollectionRow, itemId: string, nestedID: string | undefined, lockParent = false): Promise<Address> {
    const top = levelOf(row);
    if (!nestedID) return { kind: 'item', level: top, itemId };
    const steps = parseNestedId(nestedID);
    if (!steps) throw invalid([{ path: 'nestedID', message: 'must alternate nested collection slugs and item ids, joined by dots' }]);
    // The final item is read (and locked) by the caller; the ones on the way must exist under their parent.
    const end = await followChain((level, id, parent, lock) => readItem(executor, level, id, parent, lock), top, itemId, steps, {
      lock: lockParent,
      missingItem: itemNotFound,
      missingCollection: (slug) => notFound('nested_collection_not_found', `There is no nested collection "${slug}" here.`),
    });
    const last = steps[steps.length - 1]!;
    return last.kind === 'collection'
      ? { kind: 'list', level: end.level, parentId: end.current }
      : { kind: 'item', level: end.level, itemId: last.id, ...(end.parentId ? { parentId: end.parentId } : {}) };
  }

  /** Checks a write's values against the level's schema and returns them keyed by field. */
  private async prepareValues(
    tx: Tx,
    projectId: string,
    row: CollectionRow,
    level: SchemaLevel,
    body: Record<string, unknown>,
    mode: 'create' | 'update',
  ): Promise<Map<SchemaField, unknown>> {
    const problems: ValueProblem[] = [];
    const values = new Map<SchemaField, unknown>();
    for (const [key, value] of Object.entries(body)) {
      // The server's keys come back in items people edit and send again: they are not theirs to set.
      if ((systemKeys as readonly string[]).includes(key)) continue;
      const field = level.fields.find((f) => f.slug === key && f.id !== metadataField.id);
      const type = field ? fieldType(field.type) : undefined;
      if (!field || !type) {
        problems.push(valueProblem(key, level.path.length ? { code: 'notANestedField', params: { collection: level.path.join('.') } } : { code: 'notAField', params: { collection: row.slug } }));
        continue;
      }
      if (type.storage.kind !== 'column') {
        const refused = type.validate(value, field);
        problems.push(valueProblem(key, refused.ok ? { code: 'notWritable' } : refused));
        continue;
      }
      if (value === null || value === undefined) {
        values.set(field, null);
        continue;
      }
      const checked = type.validate(value, field);
      if (!checked.ok) problems.push(valueProblem(key, checked));
      else if (type.markup === 'html' && typeof checked.value === 'string') values.set(field, sanitizeRichText(checked.value) || null);
      else values.set(field, checked.value);
    }
    const columns = columnFields(level);
    if (mode === 'create') {
      for (const field of columns) {
        const initial = values.has(field) ? undefined : fieldType(field.type)?.defaultFor?.(field);
        if (initial !== undefined) values.set(field, initial);
      }
    }
    for (const field of columns) {
      const type = fieldType(field.type)!;
      if (!field.required || !type.capabilities.required || problems.some((p) => p.path === field.slug)) continue;
      if (mode === 'update' && !values.has(field)) continue;
      // A new item is created first and its files uploaded into it after, so a
      // required image field may be empty in the create (docs/console.md "Item page": image uploads).
      if (mode === 'create' && type.files !== undefined) continue;
      if (type.isEmpty(values.get(field) ?? null)) problems.push(valueProblem(field.slug, { code: 'required', params: { field: field.name } }));
    }
    if (problems.length) throw invalid(problems);

    const context = this.resolveContext(tx, projectId);
    for (const [field, value] of values) {
      const type = fieldType(field.type)!;
      if (value === null || !type.resolve) continue;
      const resolved = await type.resolve(value, field, context);
      if (resolved.ok) values.set(field, resolved.value);
      else problems.push(valueProblem(field.slug, resolved));
    }
    if (problems.length) throw invalid(problems);

    const sizes = [...values].map(([field, value]) => [field.slug, value === null ? 0 : Buffer.byteLength(JSON.stringify(value))] as const);
    if (sizes.reduce((sum, [, size]) => sum + size, 0) > contentLimits.itemBytesMax) {
      const largest = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
      throw invalid([valueProblem(largest[0], { code: 'itemTooLarge', params: { max: contentLimits.itemBytesMax } })]);
    }
    return values;
  }

  /**
   * Looks up linked items for ItemRef values: their display text is their level's primary field.
   * The referenced collections' rows are read once per write, whatever the number of fields.
   */
  private resolveContext(tx: Tx, projectId: string): ResolveContext {
    const rows = new Map<string, Promise<CollectionRow | undefined>>();
    const collection = (collectionID: string) => {
      let row = rows.get(collectionID);
      if (!row) {
        row = tx
          .select()
          .from(contentCollections)
          .where(sql`${contentCollections.projectId} = ${projectId} and ${contentCollections.slug} = ${collectionID}`)
          .then(([found]) => found);
        rows.set(collectionID, row);
      }
      return row;
    };
    // The display text of a level's items, as JSON whatever the column (so levels can share one query).
    const displayOf = (level: SchemaLevel) => {
      const primary = columnFields(level).find((f) => f.primaryField);
      return { primary, select: primary ? sql`to_jsonb(${sql.identifier(fieldColumn(primary.id))})` : sql`null::jsonb` };
    };
    const textOf = (primary: SchemaField | undefined, raw: unknown, id: string) =>
      (primary ? fieldType(primary.type)!.display(decodeValue(columnTypeOf(primary)!, raw), primary) : '') || id;
    const idList = (ids: readonly string[]) =>
      sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      );
    return {
      referencedItems: async (collectionID, ids) => {
        const found = new Map<string, string>();
        if (ids.length === 0) return found;
        const target = await collection(collectionID);
        if (!target) return found;
        const level = levelOf(target);
        const { primary, select } = displayOf(level);
        const rows = await query<{ _id: string; display: unknown }>(
          tx,
          sql`select ${sql.identifier('_id')}, ${select} as display from ${sql.identifier(level.table)} where ${sql.identifier('_id')} in (${idList(ids)})`,
        );
        for (const r of rows) found.set(r._id, textOf(primary, r.display, r._id));
        return found;
      },
      // One query for every nested pick of the write: a union over the nested collections' tables.
      referencedNestedItems: async (collectionID, picks) => {
        const found = new Map<string, Map<string, NestedItemFound>>();
        const target = await collection(collectionID);
        if (!target) return found;
        const top = levelOf(target);
        const parts: SQL[] = [];
        const primaries = new Map<string, SchemaField | undefined>();
        for (const { slug, ids } of picks) {
          const field = nestedFieldBySlug(top, slug);
          if (!field) continue;
          found.set(slug, new Map());
          if (ids.length === 0) continue;
          const level = childLevel(top, field);
          const { primary, select } = displayOf(level);
          primaries.set(slug, primary);
          parts.push(
            sql`select ${slug}::text as slug, ${sql.identifier('_id')}, ${sql.identifier('_parent_id')} as parent, ${select} as display from ${sql.identifier(level.table)} where ${sql.identifier('_id')} in (${idList(ids)})`,
          );
        }
        if (parts.length === 0) return found;
        const rows = await query<{ slug: string; _id: string; parent: string; display: unknown }>(tx, sql.join(parts, sql` union all `));
        for (const r of rows) found.get(r.slug)?.set(r._id, { parentID: r.parent, value: textOf(primaries.get(r.slug), r.display, r._id) });
        return found;
      },
    };
  }

  /** Runs a write and turns a unique-index violation into a 400 naming the field. */
  private async guardUnique<T>(level: SchemaLevel, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === undefined) throw error;
      const field = columnFields(level).find((f) => uniqueIndexName(level.table, f.id) === constraint);
      if (field) throw invalid([valueProblem(field.slug, { code: 'notUnique' })]);
      // Not a unique field's index: the primary key, an item id a caller chose is taken (in a nested
      // collection, possibly under another item: docs/public-api.md "Item ids").
      throw conflict('item_id_taken', 'Another item of this collection already has this id.');
    }
  }
}
