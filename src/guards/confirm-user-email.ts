/**
 * `/confirm/{id}`, the link of the confirmation mail. Signed in: confirm, then home with "Email
 * address has been verified". Otherwise: login with confirmID, where the login page shows "Login
 * to verify email address" and the login flow confirms after signing in.
 */
import { notify } from '../../renderers/toasts/notify.ts';
import { formatMessage } from '../../definitions/messages/format.ts';
import { routePath } from '../../definitions/route-path.ts';
import { getApiClient } from '../api/client.ts';
import { getAuthApi } from '../api/auth.ts';
import { isApiError } from '../api/errors.ts';
import { problemText } from '../hooks/problem-text.ts';
import { queryKeys } from '../api/queries.ts';
import { queryClient } from '../shell/query-client.ts';
import type { Guard } from '../../renderers/router/types.ts';

export const confirmUserEmail: Guard = async ({ params }) => {
  const confirmID = params.id ?? '';
  if (!getApiClient().session.read()) return routePath('login', {}, { confirmID });
  try {
    await getAuthApi().confirmEmail(confirmID);
    await queryClient.invalidateQueries({ queryKey: queryKeys.me });
    void notify({ kind: 'success', title: formatMessage('confirm.done') });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return routePath('login', {}, { confirmID });
    void notify({ kind: 'error', title: formatMessage('confirm.failed', { detail: problemText(error, formatMessage) }) });
  }
  return routePath('home');
};
