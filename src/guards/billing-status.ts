/**
 * While the billing status of the current organization is GRACE, NO_CLIENT or BLOCK, every route
 * that carries this guard goes to that organization's settings instead (organization and
 * organizationSettings do not carry it, nor does /billingComplete, where a card update lands).
 * The current organization is the one in the URL when it is one of the user's, else the last
 * used one, else the user's first. Nothing is diverted with billing switched off, and a failure to
 * read the organization lets the navigation through (the organization guards answer for it).
 * docs/console.md "Billing status in the console".
 */
import { billingStatusOf, divertingStatuses, type StatusWindows } from '../../definitions/billing/status.ts';
import { routePath } from '../../definitions/route-path.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { getApiClient } from '../api/client.ts';
import { billingEnabled, organizationFailedDate, statusWindowsOrDefaults } from '../shell/billing-status-reads.ts';
import { loadMe, type MeOrRedirect } from './load-me.ts';

export interface BillingStatusGuardDeps {
  billingEnabled(): Promise<boolean>;
  loadMe(url: URL): Promise<MeOrRedirect>;
  lastOrganization(): string | null;
  /** The organization's first failed charge not yet made good (ISO), or null. */
  failedDate(organizationID: string): Promise<string | null>;
  /** The status windows: the server's, or the defaults when it cannot be asked. */
  windows(): Promise<StatusWindows>;
  now(): number;
}

export function createBillingStatusGuard(deps: BillingStatusGuardDeps): Guard {
  return async ({ url, params }) => {
    if (!(await deps.billingEnabled())) return undefined;
    const result = await deps.loadMe(url);
    if (!result.ok) return result.redirect;
    const { organizations } = result.me;
    // A platform admin may open another organization's pages in the admin area: not "current".
    const fromUrl = params.organizationID && organizations.includes(params.organizationID) ? params.organizationID : undefined;
    const last = deps.lastOrganization();
    const organizationID = fromUrl ?? (last && organizations.includes(last) ? last : organizations[0]);
    if (!organizationID) return undefined;
    let failedAt: string | null;
    try {
      failedAt = await deps.failedDate(organizationID);
    } catch {
      return undefined;
    }
    if (failedAt === null) return undefined;
    const status = billingStatusOf(failedAt, deps.now(), await deps.windows());
    return divertingStatuses.includes(status) ? routePath('organizationSettings', { organizationID }) : undefined;
  };
}

export const billingStatus: Guard = createBillingStatusGuard({
  billingEnabled,
  loadMe,
  lastOrganization: () => getApiClient().session.getLastOrganization(),
  failedDate: organizationFailedDate,
  windows: statusWindowsOrDefaults,
  now: () => Date.now(),
});
