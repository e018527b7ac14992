/**
 * Ranks: the order people give a list by dragging items (the `_rank` sort and
 * initRank; docs/content-storage.md "Ranks and CSV"). A list (the top level of a collection, or a nested list of
 * one parent item) is read in `(_rank, _id)` order; `_rank` is a fractional-indexing key
 * (`collate "C"`, byte order), so a move writes the moved item's rank only, a key between its new
 * neighbours' keys: the rest of the list is never renumbered.
 *
 * Concurrency: a move or an initRank batch locks the list before it reads the neighbours: the
 * collection row `for update` for the top level (as item creations do, which take the last rank
 * under the same lock), the parent item's row `for update` for a nested list (as nested
 * creations do). Locks are always taken collection → parent item → moved item, so moves queue
 * instead of deadlocking, and two moves never compute keys from the same neighbours. Equal ranks
 * (rows written by other means) order by `_id`; a move next to such a tie first spreads the tied
 * items over distinct keys, keeping their order.
 *
 * Unranked items: `_rank` is `not null`; an item without a rank (imported, or from before ranks)
 * has the empty rank ''. They list first (the empty key sorts lowest) until initRank gives them
 * keys after the ranked items, in `_id` order, a batch per call.
 */
import { sql, type SQL } from 'drizzle-orm';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { parseNestedId, type NestedStep } from '../../definitions/content.ts';
import type { Db } from '../db/index.ts';
import { conflict, notFound } from '../lib/errors.ts';
import { listPathOfItem, recordContentEvent } from '../live/events.ts';
import { CollectionService, invalid, levelOf, type CollectionRow, type Tx } from './collections.ts';
import { followChain, type SchemaLevel } from './schema-tree.ts';
import { query, readItem, rowToItem, selectList, writeTime, type Item } from './storage.ts';

const id = (name: string) => sql.identifier(name);

export const rankLimits = {
  initRankDefaultPerPage: 1000,
  initRankMaxPerPage: 10_000,
} as const;

/** Where a move puts the item: a 1-based position, or right after / right before another item of the list. */
export type MoveTarget = { order: number } | { afterID?: string | undefined; beforeID?: string | undefined };

interface Neighbour {
  _id: string;
  _rank: string;
}

/** A list, locked for the transaction, and where its events are filed. */
interface LockedList {
  row: CollectionRow;
  level: SchemaLevel;
  parentId?: string;
  place: { projectId: string; collectionId: string; rootItemId: string | null; nestedPath: string };
}

const itemNotFound = () => notFound('item_not_found', 'Could not find item');
const orderingFailed = (detail: string) => conflict('ordering_failed', `There was an error ordering the items. ${detail}`);

/** Checks `order` as it comes in the query string: a whole number from 1. */
export function parseOrder(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw invalid([{ path: 'order', message: 'must be a whole number from 1 (the position in the list, 1 = first)' }]);
  return Number(text);
}

/** A key that fractional-indexing accepts (unranked items have ''). */
function validKey(key: string): boolean {
  try {
    generateKeyBetween(key, null);
    return true;
  } catch {
    return false;
  }
}

export class RankService {
  constructor(
    private readonly db: Db,
    private readonly collections: CollectionService = new CollectionService(db),
  ) {}

  /**
   * Moves an item within its list. `nestedID` (ending in an item id) addresses a nested item under
   * the top-level item `itemId`, as for item updates. Returns the moved item.
   */
  async move(projectId: string, slug: string, itemId: string, nestedID: string | undefined, target: MoveTarget): Promise<Item> {
    if ('order' in target) {
      if (!Number.isInteger(target.order) || target.order < 1) throw invalid([{ path: 'order', message: 'must be a whole number from 1' }]);
    } else if (!target.afterID && !target.beforeID) {
      throw invalid([{ path: 'order', message: 'is required: give order (the position, from 1), or afterID and/or beforeID' }]);
    }
    return this.db.transaction(async (tx) => {
      const steps = nestedID ? parseNestedId(nestedID) : [];
      if (!steps) throw invalid([{ path: 'nestedID', message: 'must alternate nested collection slugs and item ids, joined by dots' }]);
      if (steps.length && steps[steps.length - 1]!.kind !== 'item') throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item to move' }]);
      const list = await this.lockList(tx, projectId, slug, itemId, steps.slice(0, -1), nestedID ? listPathOfItem(nestedID) : '');
      const movedId = steps.length ? (steps[steps.length - 1] as { id: string }).id : itemId;
      const moved = await readItem(tx, list.level, movedId, list.parentId, true);
      if (!moved) throw itemNotFound();

      let [prev, next] = await this.neighboursFor(tx, list, movedId, target);
      // Already there: nothing to write.
      const [prev0, next0] = await this.around(tx, list, moved, movedId);
      if (prev?._id === prev0?._id && next?._id === next0?._id && validKey(moved._rank)) return moved;

      for (const n of [prev, next]) {
        if (n && !validKey(n._rank)) throw orderingFailed('Some items of this list have no rank yet: initialise the ranks first (initRank).');
      }
      if (prev && next && prev._rank >= next._rank) {
        // A tie (equal ranks, ordered by _id): give the tied items distinct keys, in their order.
        await this.spreadTie(tx, list, prev._rank, movedId);
        [prev, next] = await this.neighboursFor(tx, list, movedId, target);
        if (prev && next && prev._rank >= next._rank) throw orderingFailed('The ranks of this list could not be separated.');
      }
      const rank = generateKeyBetween(prev?._rank ?? null, next?._rank ?? null);
      return this.writeRank(tx, list, movedId, rank);
    });
  }

  /**
   * Gives up to `perPage` unranked items of a list a rank (after the ranked ones, in `_id`
   * order) in one transaction, and says how many remain. Call again until `remaining` is 0; a
   * list whose items all have ranks answers `{ranked: 0, remaining: 0}` and changes nothing.
   */
  async initRank(
    projectId: string,
    slug: string,
    input: { parentItemID?: string | null | undefined; nestedID?: string | null | undefined; perPage?: number | undefined },
  ): Promise<{ ranked: number; remaining: number }> {
    const perPage = input.perPage ?? rankLimits.initRankDefaultPerPage;
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > rankLimits.initRankMaxPerPage) {
      throw invalid([{ path: 'perPage', message: `must be a whole number from 1 to ${rankLimits.initRankMaxPerPage}` }]);
    }
    const nestedID = input.nestedID || undefined;
    const parentItemID = input.parentItemID || undefined;
    if (nestedID && !parentItemID) throw invalid([{ path: 'parentItemID', message: 'is required with nestedID: the top-level item the nested list belongs to' }]);
    if (parentItemID && !nestedID) throw invalid([{ path: 'nestedID', message: 'is required with parentItemID: the nested list to rank' }]);
    const steps = nestedID ? parseNestedId(nestedID) : [];
    if (!steps) throw invalid([{ path: 'nestedID', message: 'must alternate nested collection slugs and item ids, joined by dots' }]);
    if (steps.length && steps[steps.length - 1]!.kind !== 'collection') throw invalid([{ path: 'nestedID', message: 'must end with a nested collection slug (the list to rank)' }]);

    return this.db.transaction(async (tx) => {
      const list = await this.lockList(tx, projectId, slug, parentItemID, steps, nestedID ?? '');
      const t = id(list.level.table);
      const scope = this.scope(list);
      const batch = await query<{ _id: string }>(
        tx,
        sql`select ${id('_id')} from ${t} where ${scope} and ${id('_rank')} = '' order by ${id('_rank')}, ${id('_id')} limit ${perPage} for update`,
      );
      if (batch.length) {
        const [top] = await query<{ rank: string }>(tx, sql`select ${id('_rank')} as rank from ${t} where ${scope} order by ${id('_rank')} desc limit 1`);
        if (top?.rank && !validKey(top.rank)) throw orderingFailed(`The rank "${top.rank}" of this list is not a valid key.`);
        const keys = generateNKeysBetween(top?.rank || null, null, batch.length);
        const values = sql.join(
          batch.map((r, i) => sql`(${r._id}::text, ${keys[i]!}::text)`),
          sql`, `,
        );
        const rows = await query(
          tx,
          sql`update ${t} set ${id('_rank')} = v.rank, ${id('_last_updated_date')} = greatest(${writeTime}, ${t}.${id('_last_updated_date')} + interval '1 millisecond')
              from (values ${values}) as v(id, rank) where ${t}.${id('_id')} = v.id returning ${this.returning(list.level)}`,
        );
        for (const row of rows) {
          const item = rowToItem(list.level, row);
          await recordContentEvent(tx, { ...list.place, trigger: 'update', itemId: item._id, item });
        }
      }
      const [left] = await query<{ n: number }>(tx, sql`select count(*)::integer as n from ${t} where ${scope} and ${id('_rank')} = ''`);
      return { ranked: batch.length, remaining: left?.n ?? 0 };
    });
  }

  /**
   * Finds and locks the list: the collection row (`for update` at the top level; `for share` for
   * a nested list, whose parent item row is then locked `for update`). `steps` lead from the
   * top-level item `topItemId` to the list (they end in a collection slug), or are empty for
   * the top level.
   */
  private async lockList(
    tx: Tx,
    projectId: string,
    slug: string,
    topItemId: string | undefined,
    steps: NestedStep[],
    nestedPath: string,
  ): Promise<LockedList> {
    const nested = steps.length > 0;
    const row = await this.collections.row(projectId, slug, tx, nested ? 'share' : 'update');
    let level = levelOf(row);
    const place = { projectId, collectionId: row.id, rootItemId: nested ? topItemId! : null, nestedPath: nested ? nestedPath : '' };
    if (!nested) {
      // A top-level move still needs its item to exist; the caller reads it under lock.
      return { row, level, place };
    }
    // The item owning the list is locked; the ones on the way must exist under their parent.
    const end = await followChain((at, id, parent, lock) => readItem(tx, at, id, parent, lock), level, topItemId!, steps, {
      lock: true,
      missingItem: itemNotFound,
      missingCollection: (name) => notFound('nested_collection_not_found', `There is no nested collection "${name}" here.`),
    });
    return { row, level: end.level, parentId: end.current, place };
  }

  private scope(list: LockedList): SQL {
    return list.level.parentTable ? sql`${id('_parent_id')} = ${list.parentId!}::text` : sql`true`;
  }

  private returning(level: SchemaLevel): SQL {
    return selectList(level);
  }

  /** The item right before and right after `(rank, id)` in the list, leaving out `exclude`. */
  private async around(tx: Tx, list: LockedList, at: { _rank: string; _id: string }, exclude: string): Promise<[Neighbour | undefined, Neighbour | undefined]> {
    return [await this.before(tx, list, at, exclude), await this.after(tx, list, at, exclude)];
  }

  private async before(tx: Tx, list: LockedList, at: { _rank: string; _id: string }, exclude: string): Promise<Neighbour | undefined> {
    const [row] = await query<Neighbour>(
      tx,
      sql`select ${id('_id')}, ${id('_rank')} from ${id(list.level.table)} where ${this.scope(list)} and ${id('_id')} <> ${exclude}
          and (${id('_rank')}, ${id('_id')}) < (${at._rank}::text collate "C", ${at._id}::text) order by ${id('_rank')} desc, ${id('_id')} desc limit 1`,
    );
    return row;
  }

  private async after(tx: Tx, list: LockedList, at: { _rank: string; _id: string }, exclude: string): Promise<Neighbour | undefined> {
    const [row] = await query<Neighbour>(
      tx,
      sql`select ${id('_id')}, ${id('_rank')} from ${id(list.level.table)} where ${this.scope(list)} and ${id('_id')} <> ${exclude}
          and (${id('_rank')}, ${id('_id')}) > (${at._rank}::text collate "C", ${at._id}::text) order by ${id('_rank')}, ${id('_id')} limit 1`,
    );
    return row;
  }

  /** An item of the list (not the moved one) named by afterID/beforeID; 400 when it is not in the list. */
  private async member(tx: Tx, list: LockedList, itemId: string, movedId: string, path: string): Promise<Neighbour> {
    if (itemId === movedId) throw invalid([{ path, message: 'must name another item than the one moved' }]);
    const [row] = await query<Neighbour>(
      tx,
      sql`select ${id('_id')}, ${id('_rank')} from ${id(list.level.table)} where ${this.scope(list)} and ${id('_id')} = ${itemId}`,
    );
    if (!row) throw invalid([{ path, message: 'must name an item of the same list' }]);
    return row;
  }

  /** The items the moved one goes between, under the list's lock. */
  private async neighboursFor(tx: Tx, list: LockedList, movedId: string, target: MoveTarget): Promise<[Neighbour | undefined, Neighbour | undefined]> {
    const t = id(list.level.table);
    const scope = sql`${this.scope(list)} and ${id('_id')} <> ${movedId}`;
    if ('order' in target) {
      // Position p (1-based) in the list without the moved item: between the (p-1)th and the pth.
      if (target.order === 1) {
        const [first] = await query<Neighbour>(tx, sql`select ${id('_id')}, ${id('_rank')} from ${t} where ${scope} order by ${id('_rank')}, ${id('_id')} limit 1`);
        return [undefined, first];
      }
      const rows = await query<Neighbour>(
        tx,
        sql`select ${id('_id')}, ${id('_rank')} from ${t} where ${scope} order by ${id('_rank')}, ${id('_id')} limit 2 offset ${target.order - 2}`,
      );
      if (rows.length) return [rows[0], rows[1]];
      // Past the end: last.
      const [last] = await query<Neighbour>(tx, sql`select ${id('_id')}, ${id('_rank')} from ${t} where ${scope} order by ${id('_rank')} desc, ${id('_id')} desc limit 1`);
      return [last, undefined];
    }
    const after = target.afterID ? await this.member(tx, list, target.afterID, movedId, 'afterID') : undefined;
    const before = target.beforeID ? await this.member(tx, list, target.beforeID, movedId, 'beforeID') : undefined;
    if (after && before) {
      const next = await this.after(tx, list, after, movedId);
      if (next?._id !== before._id) throw orderingFailed('afterID and beforeID are no longer next to each other: reload the list and try again.');
      return [after, before];
    }
    if (after) return [after, await this.after(tx, list, after, movedId)];
    return [await this.before(tx, list, before!, movedId), before];
  }

  /** Gives the items of the list sharing `rank` distinct keys between the ranks around them, in their (_id) order. */
  private async spreadTie(tx: Tx, list: LockedList, rank: string, movedId: string): Promise<void> {
    const t = id(list.level.table);
    const scope = sql`${this.scope(list)} and ${id('_id')} <> ${movedId}`;
    const tied = await query<{ _id: string }>(tx, sql`select ${id('_id')} from ${t} where ${scope} and ${id('_rank')} = ${rank}::text order by ${id('_id')} for update`);
    const [below] = await query<{ r: string }>(tx, sql`select max(${id('_rank')}) as r from ${t} where ${scope} and ${id('_rank')} < ${rank}::text collate "C"`);
    const [above] = await query<{ r: string }>(tx, sql`select min(${id('_rank')}) as r from ${t} where ${scope} and ${id('_rank')} > ${rank}::text collate "C"`);
    const low = below?.r && validKey(below.r) ? below.r : null;
    const high = above?.r && validKey(above.r) ? above.r : null;
    if (low === null && below?.r) throw orderingFailed('Some items of this list have no rank yet: initialise the ranks first (initRank).');
    const keys = generateNKeysBetween(low, high, tied.length);
    for (const [i, item] of tied.entries()) await this.writeRank(tx, list, item._id, keys[i]!);
  }

  private async writeRank(tx: Tx, list: LockedList, itemId: string, rank: string): Promise<Item> {
    const [row] = await query(
      tx,
      sql`update ${id(list.level.table)} set ${id('_rank')} = ${rank}::text,
            ${id('_last_updated_date')} = greatest(${writeTime}, ${id('_last_updated_date')} + interval '1 millisecond')
          where ${id('_id')} = ${itemId} returning ${selectList(list.level)}`,
    );
    if (!row) throw itemNotFound();
    const item = rowToItem(list.level, row);
    await recordContentEvent(tx, { ...list.place, trigger: 'update', itemId: item._id, item });
    return item;
  }
}
