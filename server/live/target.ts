/**
 * Which writes a live stream follows: the top-level list of a collection, or one nested list
 * (contract §7: `itemID` the top-level item, `nestedID` the chain to the list).
 */
import { notFound } from '../lib/errors.ts';
import type { Db } from '../db/index.ts';
import { parseNestedId } from '../../definitions/content.ts';
import { invalid, levelOf, type CollectionRow } from '../content/collections.ts';
import { levelAt } from '../content/schema-tree.ts';
import { readItem } from '../content/storage.ts';

export interface LiveTarget {
  rootItemId: string | null;
  nestedPath: string;
}

/** The BagelDB client sends the literal `undefined` for a collection-level listen. */
const absent = (value: string | undefined) => value === undefined || value === '' || value === 'undefined' || value === 'null';

export async function liveTarget(db: Db, row: CollectionRow, itemID: string | undefined, nestedID: string | undefined): Promise<LiveTarget> {
  if (absent(itemID)) {
    if (!absent(nestedID)) throw invalid([{ path: 'itemID', message: 'is needed with nestedID: the top-level item whose nested list to follow' }]);
    return { rootItemId: null, nestedPath: '' };
  }
  const steps = absent(nestedID) ? undefined : parseNestedId(nestedID!);
  if (!steps || steps[steps.length - 1]?.kind !== 'collection') {
    throw invalid([{ path: 'nestedID', message: 'must name a nested list: nested collection slugs and item ids joined by dots, ending in a slug' }]);
  }
  const top = levelOf(row);
  if (!levelAt(top, steps.flatMap((step) => (step.kind === 'collection' ? [step.slug] : [])))) {
    throw notFound('nested_collection_not_found', 'There is no such nested collection here.');
  }
  if (!(await readItem(db, top, itemID!))) throw notFound('item_not_found', 'Could not find item');
  return { rootItemId: itemID!, nestedPath: nestedID! };
}
