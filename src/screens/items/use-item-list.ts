/**
 * Runs the item list machine (machines/item-list.ts) for one list: deleting the selection, the CSV
 * download and forgetting cached pages go through the content API; announcements are toasts.
 * Gives the machine's context, its open dialog, its `send`, and the list's parameters as the API
 * takes them. Only what the screen draws is selected, so a change of the search's wait alone draws nothing.
 */
import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQueryClient } from '@tanstack/react-query';
import { fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import { itemListMachine, listQuery, type CsvInput } from '../../../machines/item-list.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { ListParams, ProjectScope } from '../../api/content.ts';
import { contentKeys } from '../../api/content-keys.ts';
import { useContentApi, useDeleteItems } from '../../api/content-queries.ts';
import type { NestedListAddress } from '../../api/item-address.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { saveCsv } from './save-csv.ts';

/** A nested list: the top-level item it hangs under and the nestedID naming it. */
export type NestedList = NestedListAddress;

export function useItemList(scope: ProjectScope, collectionID: string, nested: NestedList | undefined, perPage: number) {
  const format = useFormat();
  const api = useContentApi();
  const queryClient = useQueryClient();
  const problemMessage = useProblemMessage();
  const deleteItems = useDeleteItems(scope, collectionID, nested ? { itemID: nested.itemID, nestedID: nested.nestedID } : undefined);
  const nestedParams = useMemo(() => (nested ? { parentItemID: nested.itemID, nestedID: nested.nestedID } : {}), [nested?.itemID, nested?.nestedID]);

  const machine = itemListMachine.provide({
    actors: {
      deleteItems: fromPromise<string[], { ids: string[] }>(({ input }) => deleteItems.mutateAsync(input.ids)),
      downloadCsv: fromCallback<AnyEventObject, CsvInput>(({ sendBack, input }) => {
        api
          .itemsCsv(scope, collectionID, { ...input.query, ...nestedParams }, (rows, total) => sendBack({ type: 'CSV.PROGRESS', rows, total }))
          .then((blob) => {
            saveCsv(blob, collectionID);
            sendBack({ type: 'CSV.DONE' });
          })
          .catch((error: unknown) => sendBack({ type: 'CSV.FAILED', error }));
      }),
    },
    actions: {
      invalidateItems: () => void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collectionID) }),
      announceDeleted: (_, { deleted, failed }) => {
        if (deleted > 0) void notify({ kind: 'success', title: format('itemList.deleted', { count: deleted }) });
        if (failed > 0) void notify({ kind: 'error', title: format('item.deleteError') });
      },
      announceCsvFailed: (_, { error }) => void notify({ kind: 'error', title: format('itemList.downloadFailed'), description: problemMessage(error) }),
    },
  });
  const actor = useActorRef(machine, { input: { perPage } });
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const dialog = useSelector(actor, (snapshot) => snapshot.value.dialog);
  const deleting = useSelector(actor, (snapshot) => snapshot.hasTag('deleting'));
  const { page, perPage: shown, sort, search, filter } = context;

  const params: ListParams = useMemo(
    () => ({ pageNumber: page, perPage: shown, ...listQuery({ sort, search, filter }), ...nestedParams }),
    [page, shown, sort, search, filter, nestedParams],
  );
  return { context, dialog, deleting, send: actor.send, params };
}
