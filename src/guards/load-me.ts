/**
 * The signed-in user for guards, from the query cache when fresh. A refused session sends the user
 * to login; a throttled call (the API-limit dialog answers it) leaves the user where they are; any
 * other failure is "An error occurred loading user, please log back in": sign out,
 * then login.
 */
import { notify } from '../../renderers/toasts/notify.ts';
import { formatMessage } from '../../definitions/messages/format.ts';
import { getAuthApi, type Me } from '../api/auth.ts';
import { isApiError } from '../api/errors.ts';
import { queryKeys } from '../api/queries.ts';
import { loginRedirect } from '../shell/login-redirect.ts';
import { queryClient } from '../shell/query-client.ts';

export type MeOrRedirect = { ok: true; me: Me } | { ok: false; redirect: string | undefined };

export async function loadMe(url: URL): Promise<MeOrRedirect> {
  const auth = getAuthApi();
  try {
    const me = await queryClient.fetchQuery({ queryKey: queryKeys.me, queryFn: () => auth.me(), staleTime: 30_000 });
    return { ok: true, me };
  } catch (error) {
    if (isApiError(error) && error.status === 401) return { ok: false, redirect: loginRedirect(url) };
    if (isApiError(error) && error.status === 429) return { ok: false, redirect: undefined };
    void notify({ kind: 'error', title: formatMessage('user.loadFailed') });
    await auth.logout();
    queryClient.clear();
    return { ok: false, redirect: loginRedirect(url) };
  }
}
