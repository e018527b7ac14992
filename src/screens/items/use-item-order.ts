/**
 * The list's order: "Make collection sortable" ranks every item batch by batch (counting down
 * what remains), and the drag handle moves one item next to another. A failure says so in a toast.
 */
import { useState } from 'react';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { ProjectScope } from '../../api/content.ts';
import { useInitListRank, useMoveItem } from '../../api/content-queries.ts';
import { itemInList } from '../../api/item-address.ts';
import type { NestedList } from './use-item-list.ts';

export interface ItemOrderOptions {
  scope: ProjectScope;
  collectionID: string;
  nested: NestedList | undefined;
  /** Items were ranked: forget the cached pages and read the page again. */
  onRanked: () => void;
  /** A move ended: read the page again. */
  onMoved: () => void;
}

export function useItemOrder({ scope, collectionID, nested, onRanked, onMoved }: ItemOrderOptions) {
  const format = useFormat();
  const [rankRemaining, setRankRemaining] = useState<number | null>(null);
  const initRank = useInitListRank(scope, collectionID, nested, setRankRemaining);
  const moveItem = useMoveItem(scope, collectionID);
  const orderFailed = () => void notify({ kind: 'error', title: format('order.failedTitle'), description: format('order.failed') });

  const makeSortable = () =>
    initRank.mutate(undefined, {
      onSuccess: (ranked) => {
        // Nothing ranked: every item already had its place, so nothing was made sortable.
        if (ranked === 0) void notify({ kind: 'info', title: format('itemList.alreadySortable') });
        else void notify({ kind: 'success', title: format('itemList.madeSortable') });
        onRanked();
      },
      onError: orderFailed,
      onSettled: () => setRankRemaining(null),
    });

  // A nested item moves through its top-level item, nestedID ending in its own id (docs/content-storage.md).
  const move = (itemID: string, target: { afterID?: string; beforeID?: string; order?: number }) =>
    moveItem.mutate({ ...itemInList(nested, itemID), ...target }, {
      onError: orderFailed,
      onSettled: onMoved,
    });

  return { ranking: initRank.isPending, rankRemaining, makeSortable, move };
}
