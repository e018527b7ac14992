/**
 * The request and response schemas the content routes share (the content API, ranks and CSV):
 * ids, the nestedID chain, items, and the list parameters of the query engine.
 */
import { Type } from '@sinclair/typebox';
import { itemIdRule } from '../../definitions/content.ts';

export const Id = Type.String({ pattern: '^[0-9a-f]{24}$', description: '24-character hex id' });
/** An item id: generated ones are 24 hex characters, callers may choose others by the rule in definitions/content.ts. */
export const ItemId = Type.String({ minLength: 1, ...itemIdRule, description: 'an item id: 1-64 letters, digits, - and _ (case-sensitive)' });
export const CollectionId = Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$', description: 'the collection ID (letters, digits and hyphens)' });
export const NestedId = Type.String({ maxLength: 2000, pattern: '^[A-Za-z0-9_.-]*$', description: 'dot-joined chain alternating nested collection slugs and item ids' });

export const ItemSchema = Type.Object(
  { _id: Type.String(), _createdDate: Type.String(), _lastUpdatedDate: Type.String(), _order: Type.Number(), _rank: Type.String() },
  { additionalProperties: true, description: 'an item: system keys and one value per set field, keyed by slug' },
);

export const Page = {
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  perPage: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
};

/** The list parameters of the query engine (server/content/query/parse.ts checks them against the schema). */
export const ListParams = {
  ...Page,
  sort: Type.Optional(Type.String({ maxLength: 200, description: 'a sortable field slug or _id, _createdDate, _lastUpdatedDate, _order, _rank (default: rank order)' })),
  order: Type.Optional(Type.String({ maxLength: 10, description: 'asc or desc, any case' })),
  query: Type.Optional(
    Type.String({ maxLength: 20_000, description: 'key:operator:value terms joined by + (operators = != > < regex within; ItemRef: field.itemRefID:=:id1,id2)' }),
  ),
  filter: Type.Optional(Type.String({ maxLength: 20_000, description: 'the console filter state: JSON list of {fieldName, key, operator, filterValue, refFilterVal}' })),
  find: Type.Optional(Type.String({ maxLength: 20_000, description: 'MongoDB filter JSON (safe subset)' })),
  aggregationPipeline: Type.Optional(Type.String({ maxLength: 20_000, description: 'MongoDB pipeline JSON: $match $sort $skip $limit $project $count $group (refused by the CSV export)' })),
  projectOn: Type.Optional(Type.String({ maxLength: 10_000, description: 'comma list of keys to return (with _id); for CSV, the columns' })),
  projectOff: Type.Optional(Type.String({ maxLength: 10_000, description: 'comma list of keys to leave out' })),
  search: Type.Optional(Type.String({ maxLength: 256, description: 'search terms separated by |' })),
  download: Type.Optional(Type.Literal('csv', { description: 'csv: the whole list as CSV (paging ignored), as GET …/csv' })),
  pagination: Type.Optional(Type.Literal('none', { description: 'sent with download=csv' })),
};
