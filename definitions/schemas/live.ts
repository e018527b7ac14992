/**
 * Which writes a live stream follows, as its address names them (docs/live.md): without `itemID`
 * the collection's top-level list; with `itemID` alone that top-level item; with `itemID` and a
 * `nestedID` chain ending in a nested collection's slug that nested list, ending in an item id
 * that nested item. The console's stream asks for it and the server resolves it.
 */
import { Type, type Static } from '@sinclair/typebox';

export const LiveTarget = Type.Object({
  itemID: Type.Optional(Type.String({ maxLength: 64, description: 'The top-level item followed, or whose nested list is; absent for the top level.' })),
  nestedID: Type.Optional(Type.String({ maxLength: 1024, description: 'A nested list or item under `itemID` (a slug chain, docs/live.md); empty for the item itself.' })),
});
export type LiveTarget = Static<typeof LiveTarget>;
