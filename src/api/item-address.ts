/**
 * Where an item is, as the content API takes it: a top-level item by its id; a nested item through
 * its top-level item, with `nestedID` the chain of nested collection slugs and item ids down to it
 * (`chapters.<id>.sections.<id>`, docs/content-storage.md). A nested list is the same chain ending
 * in a slug, under its top-level item.
 */
export interface ItemAddress {
  itemID: string;
  nestedID?: string;
}

/** A nested list: the top-level item it hangs under and the chain ending in its collection's slug. */
export interface NestedListAddress {
  itemID: string;
  nestedID: string;
}

/** The address of the item `itemID` shown in a list: top-level without `list`, else inside it. */
export function itemInList(list: NestedListAddress | undefined, itemID: string): ItemAddress {
  return list ? { itemID: list.itemID, nestedID: `${list.nestedID}.${itemID}` } : { itemID };
}
