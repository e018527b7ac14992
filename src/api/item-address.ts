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

/** The nested list `slug` of the item at `at` (a top-level item's list is its slug alone). */
export function listOfItem(at: ItemAddress, slug: string): NestedListAddress {
  return { itemID: at.itemID, nestedID: at.nestedID ? `${at.nestedID}.${slug}` : slug };
}

/**
 * An item as a form holds it (the item-form machine's context): its own `itemID`, null while new,
 * and, when nested, the top-level `parentItemID` with `nestedID`, the chain ending in the item's
 * id once it exists and in its list's slug before.
 */
export interface FormItemPlace {
  itemID: string | null;
  nestedID?: string | undefined;
  parentItemID?: string | undefined;
}

/** The nested list a new form item is created in, or undefined for a top-level one. */
export function listOfNewItem(place: FormItemPlace): NestedListAddress | undefined {
  return place.nestedID && place.parentItemID ? { itemID: place.parentItemID, nestedID: place.nestedID } : undefined;
}

/** The address of a form's saved item `itemID`. */
export function addressOfSaved(place: FormItemPlace, itemID: string): ItemAddress {
  return place.nestedID && place.parentItemID ? { itemID: place.parentItemID, nestedID: place.nestedID } : { itemID };
}

/** The address of the item `itemID` just created in the form's list (a nested one's chain gains its id). */
export function addressOfCreated(place: FormItemPlace, itemID: string): ItemAddress {
  return itemInList(listOfNewItem(place), itemID);
}
