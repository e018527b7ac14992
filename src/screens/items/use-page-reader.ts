/**
 * Reads the list's page for the grid through the query cache, and tells the item list machine
 * what came back (its size, how many rows, whether every row has a rank) or that it failed.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ItemListEvent } from '../../../machines/item-list.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Item, ListParams, ProjectScope } from '../../api/content.ts';
import { contentKeys } from '../../api/content-keys.ts';
import { useContentApi } from '../../api/content-queries.ts';

/** An item with fewer keys than this came back incomplete: the page is read again. */
const completeItemKeys = 2;

export function usePageReader(scope: ProjectScope, collectionID: string, params: ListParams, send: (event: ItemListEvent) => void) {
  const format = useFormat();
  const api = useContentApi();
  const queryClient = useQueryClient();
  return useCallback(async (): Promise<Item[]> => {
    const queryKey = contentKeys.itemList(scope, collectionID, params);
    const read = (staleTime: number) => queryClient.fetchQuery({ queryKey, queryFn: () => api.listItems(scope, collectionID, params), staleTime });
    try {
      let result = await read(5_000);
      // Items with fewer than 2 keys are missing: read the page again, once.
      if (result.items.some((item) => Object.keys(item).length < completeItemKeys)) {
        void notify({ kind: 'info', title: format('itemList.missingReload') });
        result = await read(0);
      }
      const items = result.items.filter((item) => Object.keys(item).length >= completeItemKeys);
      // Ranks exist once every item of the page has one (after "Make collection sortable").
      const hasRanks = items.length > 0 && items.every((item) => typeof item._rank === 'string' && item._rank !== '');
      send({ type: 'PAGE_LOADED', total: result.total, rows: items.length, hasRanks });
      return items;
    } catch (error) {
      send({ type: 'PAGE_FAILED' });
      // A failed search says "Unknown Issue".
      if (params.search) void notify({ kind: 'error', title: format('search.failed') });
      throw error;
    }
  }, [api, collectionID, format, params, queryClient, scope, send]);
}
