/**
 * Where a saved item's nested collections are read from:
 * nested lists are addressed through the top-level item, with a nestedID walking down to the
 * item and ending in the nested collection's slug. The item page provides it around its form.
 */
import { createContext, useContext } from 'react';

export interface NestedPlaceOfItem {
  collectionID: string;
  /** The top-level item everything nested hangs under (the item itself at the top). */
  parentItemID: string;
  /** The chain down to the item (`chapters.<id>`); empty for a top-level item. */
  itemChain: string;
}

const NestedPlaceContext = createContext<NestedPlaceOfItem | null>(null);

export const NestedPlaceProvider = NestedPlaceContext.Provider;

export function useNestedPlace(): NestedPlaceOfItem | null {
  return useContext(NestedPlaceContext);
}

/** The nestedID of one of the item's nested collections. */
export const nestedListID = (place: NestedPlaceOfItem, slug: string) => (place.itemChain ? `${place.itemChain}.${slug}` : slug);
