/**
 * Puts an organization on the soft-launch whitelist or takes it off. The server's call replaces
 * the whole list (`PUT softLaunch/whitelistOrgs`), so the change is made to the list as last
 * read, then a toast names the organization; a failure is a toast with the problem's text.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import { adminKeys, useAdminApi, useSetWhitelist } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';

export function useWhitelistChange() {
  const format = useFormat();
  const api = useAdminApi();
  const queryClient = useQueryClient();
  const save = useSetWhitelist();
  const problemMessage = useProblemMessage();

  const change = async (organizationID: string, name: string, on: boolean): Promise<boolean> => {
    try {
      // The newest list, not a cached one: another admin may have changed it meanwhile.
      const current = await queryClient.fetchQuery({ queryKey: adminKeys.whitelist, queryFn: () => api.whitelist(), staleTime: 0 });
      const ids = current.organizationIDs.filter((id) => id !== organizationID);
      await save.mutateAsync(on ? [...ids, organizationID] : ids);
      void notify({ kind: 'success', title: format(on ? 'admin.softLaunch.added' : 'admin.softLaunch.removed', { name }) });
      return true;
    } catch (error) {
      void notify({ kind: 'error', title: problemMessage(error) });
      return false;
    }
  };
  return { change, pending: save.isPending };
}
