/**
 * Which writes a live stream follows: the top-level list of a collection, one nested list, or
 * one item (`itemID` the top-level item, `nestedID` the chain after it). The client's
 * `item(id).listen()` sends `itemID=<id>&nestedID=` (one top-level item); a chain that ends in an
 * item id (`chapters.2`) follows that nested item. docs/live.md says why an item that does not
 * exist (yet) may be followed.
 */
import { notFound } from '../lib/errors.ts';
import type { Db } from '../db/index.ts';
import { isItemId, parseNestedId } from '../../definitions/content.ts';
import { invalid, levelOf, type CollectionRow } from '../content/collections.ts';
import { levelAt } from '../content/schema-tree.ts';
import { listPathOfItem } from './events.ts';
import { readItem } from '../content/storage.ts';
import type { LiveTarget } from '../../definitions/schemas/live.ts';

/** A live target as the server follows it: the list the writes are in, and one item of it or all. */
export interface FollowedWrites {
  /** The top-level item of a nested list or nested item followed; null at the top. */
  rootItemId: string | null;
  /** The list the writes are in ('' at the top). */
  nestedPath: string;
  /** One item of that list, or null for the whole list. */
  itemId: string | null;
}

const badItemId = (path: string) => invalid([{ path, message: 'must be an item id' }]);

/** The BagelDB client sends the literal `undefined` for a collection-level listen. */
const absent = (value: string | undefined) => value === undefined || value === '' || value === 'undefined' || value === 'null';

export async function liveTarget(db: Db, row: CollectionRow, { itemID, nestedID }: LiveTarget): Promise<FollowedWrites> {
  if (absent(itemID)) {
    if (!absent(nestedID)) throw invalid([{ path: 'itemID', message: 'is needed with nestedID: the top-level item whose nested list to follow' }]);
    return { rootItemId: null, nestedPath: '', itemId: null };
  }
  if (!isItemId(itemID)) throw badItemId('itemID');
  // An empty nestedID names no nested list: the top-level item itself is followed.
  if (absent(nestedID)) return { rootItemId: null, nestedPath: '', itemId: itemID! };
  const steps = parseNestedId(nestedID!);
  if (!steps?.length) {
    throw invalid([{ path: 'nestedID', message: 'must name a nested list or item: nested collection slugs and item ids joined by dots' }]);
  }
  const top = levelOf(row);
  if (!levelAt(top, steps.flatMap((step) => (step.kind === 'collection' ? [step.slug] : [])))) {
    throw notFound('nested_collection_not_found', 'There is no such nested collection here.');
  }
  if (!(await readItem(db, top, itemID!))) throw notFound('item_not_found', 'Could not find item');
  const last = steps[steps.length - 1]!;
  if (last.kind === 'item') {
    if (!isItemId(last.id)) throw badItemId('nestedID');
    return { rootItemId: itemID!, nestedPath: listPathOfItem(nestedID!), itemId: last.id };
  }
  return { rootItemId: itemID!, nestedPath: nestedID!, itemId: null };
}
