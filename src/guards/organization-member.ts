import { getApiClient } from '../api/client.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { loadMe } from './load-me.ts';

/**
 * PASS-THROUGH until organizations exist (their issue adds the redirect of a non-member to the
 * user's first organization). Already now it remembers an organization the user belongs to as the
 * last used one, which the home guard returns to.
 */
export const organizationMember: Guard = async ({ url, params }) => {
  const { organizationID } = params;
  if (!organizationID) return undefined;
  const result = await loadMe(url);
  if (!result.ok) return result.redirect;
  const { me } = result;
  if (me.organizations.includes(organizationID)) getApiClient().session.setLastOrganization(organizationID);
  return undefined;
};
