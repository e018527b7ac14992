/**
 * `/organization/{organizationID}` and below: an organization that is not one of the user's sends
 * the user to their first organization (home when they have none). An organization of theirs is
 * remembered as the last used one, which the home guard returns to.
 */
import { routePath } from '../../definitions/route-path.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { getApiClient } from '../api/client.ts';
import { loadMe, type MeOrRedirect } from './load-me.ts';

export interface OrganizationMemberDeps {
  loadMe(url: URL): Promise<MeOrRedirect>;
  rememberOrganization(organizationID: string): void;
}

export function createOrganizationMemberGuard(deps: OrganizationMemberDeps): Guard {
  return async ({ url, params }) => {
    const { organizationID } = params;
    if (!organizationID) return undefined;
    const result = await deps.loadMe(url);
    if (!result.ok) return result.redirect;
    const { organizations } = result.me;
    if (organizations.includes(organizationID)) {
      deps.rememberOrganization(organizationID);
      return undefined;
    }
    const [first] = organizations;
    return first ? routePath('organization', { organizationID: first }) : routePath('home');
  };
}

export const organizationMember: Guard = createOrganizationMemberGuard({
  loadMe,
  rememberOrganization: (organizationID) => getApiClient().session.setLastOrganization(organizationID),
});
