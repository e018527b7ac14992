/**
 * Runs the billing-status machine (machines/billing-status.ts) for the organization the page
 * shows and draws its "Billing Account Status" dialog. The organization is the one of the route
 * guarded by organization membership (organization, its settings, a project); elsewhere there is
 * none and the status is OK. The machine starts with the first such route and lives on, so a
 * GRACE dialog closed a moment ago does not return on the next page. With billing switched off
 * (`/api/config` `billing: false`) nothing runs. While the status is not OK, every successful change
 * (a mutation) reads the organization again, so paying closes the dialog at once.
 * docs/console.md "Billing status in the console".
 * The runner and its machine load on their own, only once an organization shows, so the
 * sign-in page does not carry them.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useMatches, type UIMatch } from 'react-router';
import type { RouteHandle } from '../../renderers/router/types.ts';
import { useConfig } from '../api/queries.ts';

const BillingStatusRunner = lazy(() => import('./BillingStatusRunner.tsx').then((module) => ({ default: module.BillingStatusRunner })));

/** The organization of the innermost route that checked membership, if any. */
export function currentOrganizationOf(matches: readonly UIMatch[]): string | null {
  for (const match of [...matches].reverse()) {
    const handle = match.handle as RouteHandle | undefined;
    if (handle?.guards.includes('organizationMember') && match.params.organizationID) return match.params.organizationID;
  }
  return null;
}

export function BillingStatus() {
  const matches = useMatches();
  const organizationID = currentOrganizationOf(matches);
  const { data: config } = useConfig();
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (organizationID) setStarted(true);
  }, [organizationID]);
  if (!config || config.billing === false || !(started || organizationID)) return null;
  return (
    <Suspense fallback={null}>
      <BillingStatusRunner organizationID={organizationID} />
    </Suspense>
  );
}

