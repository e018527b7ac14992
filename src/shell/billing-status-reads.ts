/**
 * What the billing-status guard and the console's billing-status machine both read, through the
 * page's query cache so they agree and ask once: whether billing is on (`/api/config`), the
 * status windows (GET billing/getBillingStatuses, the defaults when it fails) and an
 * organization's first failed charge (from the Organization the rest of the console reads).
 */
import { defaultStatusWindows, type StatusWindows } from '../../definitions/billing/status.ts';
import { getAuthApi } from '../api/auth.ts';
import { getBillingApi } from '../api/billing.ts';
import { platformKeys } from '../api/platform-queries.ts';
import { getPlatformApi, type Organization } from '../api/platform.ts';
import { queryClient } from './query-client.ts';

export const billingStatusKeys = { windows: ['billing', 'statusWindows'] as const };

/** False only when the server says billing is off (BILLING=0); an unreadable config counts as off. */
export async function billingEnabled(): Promise<boolean> {
  try {
    return (await getAuthApi().config()).billing !== false;
  } catch {
    return false;
  }
}

/** The server's windows, asked once a page load; rejects when the call fails (callers use the defaults). */
export function fetchStatusWindows(): Promise<StatusWindows> {
  return queryClient.fetchQuery({ queryKey: billingStatusKeys.windows, queryFn: () => getBillingApi().statusWindows(), staleTime: Infinity, retry: false });
}

export async function statusWindowsOrDefaults(): Promise<StatusWindows> {
  try {
    return await fetchStatusWindows();
  } catch {
    return defaultStatusWindows;
  }
}

/** The Organization wire shape names the date once the billing account is joined in; absent reads as null. */
export function failedDateOf(organization: Organization): string | null {
  const value = (organization as Organization & { initialBillingFailedDate?: string | null }).initialBillingFailedDate;
  return typeof value === 'string' ? value : null;
}

/** An organization's first failed charge, from the cached Organization when fresh (30 s). */
export async function organizationFailedDate(organizationID: string): Promise<string | null> {
  const organization = await queryClient.fetchQuery({
    queryKey: platformKeys.organization(organizationID),
    queryFn: () => getPlatformApi().organization(organizationID),
    staleTime: 30_000,
  });
  return failedDateOf(organization);
}
