/** Wraps every route: loading bar, page title and announcer, the API events and the billing status, and their dialogs. */
import { useEffect, useRef } from 'react';
import { Outlet, useRevalidator } from 'react-router';
import { getApiClient } from '../api/client.ts';
import { ApiEvents } from './ApiEvents.tsx';
import { BillingStatus } from './BillingStatus.tsx';
import { LoadingBar } from './LoadingBar.tsx';
import { RouteAnnouncer } from './RouteAnnouncer.tsx';
import { useDocumentTitle } from './use-document-title.ts';

export function RootLayout() {
  const title = useDocumentTitle();
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  // Signing out in another tab re-runs this tab's guards, so a signed-in page goes to login.
  useEffect(
    () =>
      getApiClient().session.subscribe((tokens) => {
        if (!tokens) void revalidate.current();
      }),
    [],
  );

  return (
    <>
      <LoadingBar />
      <Outlet />
      <ApiEvents />
      <BillingStatus />
      <RouteAnnouncer title={title} />
    </>
  );
}
