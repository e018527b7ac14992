import { routePath } from '../../definitions/route-path.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { getApiClient } from '../api/client.ts';
import { loadMe, type MeOrRedirect } from './load-me.ts';

export interface HomeDeps {
  loadMe(url: URL): Promise<MeOrRedirect>;
  lastOrganization(): string | null;
}

/** `/` opens the last used organization (kept locally) or else the first; with none it stays. */
export function createHomeGuard(deps: HomeDeps): Guard {
  return async ({ url }) => {
    const result = await deps.loadMe(url);
    if (!result.ok) return result.redirect;
    const { me } = result;
    const last = deps.lastOrganization();
    const organizationID = last && me.organizations.includes(last) ? last : me.organizations[0];
    return organizationID ? routePath('organization', { organizationID }) : undefined;
  };
}

export const home: Guard = createHomeGuard({ loadMe, lastOrganization: () => getApiClient().session.getLastOrganization() });
