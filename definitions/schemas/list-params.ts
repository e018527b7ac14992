/**
 * The list parameters of the content API's item lists (docs/content-storage.md "Listing and
 * searching items"). Property bags, so a route spreads them into its own querystring.
 */
import { Type, type Static } from '@sinclair/typebox';
import { paging } from '../constants.ts';

export const Page = {
  pageNumber: Type.Optional(Type.Integer({ minimum: paging.firstPage, maximum: paging.pageNumberMax, default: paging.firstPage })),
  perPage: Type.Optional(Type.Integer({ minimum: 0, maximum: paging.perPageMax })),
};

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
  search: Type.Optional(Type.String({ maxLength: paging.searchMaxChars, description: 'search terms separated by |' })),
  total: Type.Optional(Type.String({ maxLength: 5, description: 'false: the caller needs no total; item-count is left out and nothing is counted (default true)' })),
  download: Type.Optional(Type.Literal('csv', { description: 'csv: the whole list as CSV (paging ignored), as GET …/csv' })),
  pagination: Type.Optional(Type.Literal('none', { description: 'sent with download=csv' })),
};

const ListParamsSchema = Type.Object(ListParams);
/** The list parameters as sent. */
export type ListParams = Static<typeof ListParamsSchema>;
