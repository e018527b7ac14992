import { routePath } from '../../definitions/route-path.ts';
import { getApiClient } from '../api/client.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { loadMe } from './load-me.ts';

/** `/` opens the last used organization (kept locally) or else the first; with none it stays. */
export const home: Guard = async ({ url }) => {
  const result = await loadMe(url);
  if (!result.ok) return result.redirect;
  const { me } = result;
  const last = getApiClient().session.getLastOrganization();
  const organizationID = last && me.organizations.includes(last) ? last : me.organizations[0];
  return organizationID ? routePath('organization', { organizationID }) : undefined;
};
