/**
 * The request and response schemas the content routes share (the content API, ranks and CSV):
 * ids, the nestedID chain, items, and the list parameters of the query engine.
 */
export { CollectionId, Id, Item as ItemSchema, ItemId, NestedId } from '../../definitions/schemas/item.ts';
export { ListParams, Page } from '../../definitions/schemas/list-params.ts';
