/**
 * `/join/{id}`, the link of an invitation mail. Read the invite; signed in: accept
 * it and go to that organization ("Invite has been accepted"); signed out: login when the invited
 * person already has a verified account, else signup, both with inviteID. An invitation that
 * cannot be found says "Invitation can not be found".
 */
import { formatMessage, type MessageKey, type MessageValues } from '../../definitions/messages/format.ts';
import { routePath } from '../../definitions/route-path.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { getApiClient } from '../api/client.ts';
import { isApiError } from '../api/errors.ts';
import { getPlatformApi, type Invite } from '../api/platform.ts';
import { problemText } from '../hooks/problem-text.ts';
import { setMyOrganizations } from '../api/platform-queries.ts';
import { queryClient } from '../shell/query-client.ts';

export interface JoinOrganizationDeps {
  signedIn(): boolean;
  readInvite(inviteID: string): Promise<Invite>;
  acceptInvite(inviteID: string): Promise<{ organizationID: string }>;
  /** The user is now a member: what the console knows of them must say so before the next guard. */
  joined(organizationID: string): void;
  notify(kind: 'success' | 'error', key: MessageKey, values?: MessageValues): void;
}

/** An invite id the server refuses to look up (malformed) is as absent as one it cannot find. */
const isMissing = (error: unknown) => isApiError(error) && (error.status === 404 || error.status === 400);
const detailOf = (error: unknown) => problemText(error, formatMessage);

export function createJoinOrganizationGuard(deps: JoinOrganizationDeps): Guard {
  return async ({ params }) => {
    const inviteID = params.id ?? '';
    const signedIn = deps.signedIn();
    const away = signedIn ? routePath('home') : routePath('login');
    let invite: Invite;
    try {
      invite = await deps.readInvite(inviteID);
    } catch (error) {
      if (isMissing(error)) deps.notify('error', 'invite.notFound');
      else deps.notify('error', 'invite.acceptFailed', { detail: detailOf(error) });
      return away;
    }
    if (!signedIn) return routePath(invite.verified ? 'login' : 'signup', {}, { inviteID });
    try {
      const { organizationID } = await deps.acceptInvite(inviteID);
      deps.joined(organizationID);
      deps.notify('success', 'invite.accepted');
      return routePath('organization', { organizationID });
    } catch (error) {
      // The session ended on the way: sign in again, and the invite is accepted afterwards.
      if (isApiError(error) && error.status === 401) return routePath('login', {}, { inviteID });
      if (isMissing(error)) deps.notify('error', 'invite.notFound');
      else deps.notify('error', 'invite.acceptFailed', { detail: detailOf(error) });
      return routePath('home');
    }
  };
}

export const joinOrganization: Guard = createJoinOrganizationGuard({
  signedIn: () => getApiClient().session.read() !== null,
  readInvite: (inviteID) => getPlatformApi().readInvite(inviteID),
  acceptInvite: (inviteID) => getPlatformApi().acceptInvite(inviteID),
  joined: (organizationID) => {
    setMyOrganizations(queryClient, (ids) => (ids.includes(organizationID) ? ids : [...ids, organizationID]));
    getApiClient().session.setLastOrganization(organizationID);
  },
  notify: (kind, key, values) => void notify({ kind, title: formatMessage(key, values) }),
});
