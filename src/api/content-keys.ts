/** TanStack Query keys of the content calls; apart from the hooks so the shell's chunk does not carry them. */
import type { ListParams, PageQuery, ProjectScope } from './content.ts';

/**
 * Query keys, nested so that invalidating a prefix reaches everything under it: a collection's
 * key is the prefix of its schema's and its items' keys.
 */
export const contentKeys = {
  project: (scope: ProjectScope) => ['content', scope.organizationID, scope.projectID] as const,
  collections: (scope: ProjectScope) => [...contentKeys.project(scope), 'collections'] as const,
  collection: (scope: ProjectScope, collectionID: string) => [...contentKeys.project(scope), 'collection', collectionID] as const,
  schema: (scope: ProjectScope, collectionID: string, nestedID?: string) => [...contentKeys.collection(scope, collectionID), 'schema', nestedID ?? ''] as const,
  allSchemas: (scope: ProjectScope, collectionID: string) => [...contentKeys.collection(scope, collectionID), 'schema'] as const,
  items: (scope: ProjectScope, collectionID: string) => [...contentKeys.collection(scope, collectionID), 'items'] as const,
  itemPage: (scope: ProjectScope, collectionID: string, page: PageQuery) =>
    [...contentKeys.items(scope, collectionID), 'page', page.pageNumber ?? 1, page.perPage ?? null] as const,
  item: (scope: ProjectScope, collectionID: string, itemID: string, nestedID?: string) =>
    [...contentKeys.items(scope, collectionID), 'item', itemID, nestedID ?? ''] as const,
  itemList: (scope: ProjectScope, collectionID: string, params: ListParams) => [...contentKeys.items(scope, collectionID), 'list', params] as const,
};
