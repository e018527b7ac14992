/**
 * The billing-status machine at work for one organization, and its dialog; mounted by
 * BillingStatus.tsx once an organization shows. docs/console.md "Billing status in the console".
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { FailedStatus, StatusWindows } from '../../definitions/billing/status.ts';
import { storageKeys } from '../../definitions/constants.ts';
import { billingStatusActions, billingStatusDialog } from '../../definitions/dialogs/billing-status.ts';
import { myActions } from '../../definitions/membership.ts';
import { routePath } from '../../definitions/route-path.ts';
import { billingStatusMachine, billingStatusView, type BillingAlertStore, type BillingStatusView } from '../../machines/billing-status.ts';
import { platformKeys, usePlatformApi } from '../api/platform-queries.ts';
import { shouldRetry, useMe } from '../api/queries.ts';
import { failedDateOf, fetchStatusWindows } from './billing-status-reads.ts';

const DialogRenderer = lazy(() => import('../../renderers/dialogs/DialogRenderer.tsx').then((module) => ({ default: module.DialogRenderer })));

/** The clock ticks once a minute (days turn, the hourly reminder comes due). */
const TICK_MS = 60_000;
/** The organization is read again every five minutes, so a charge that fails meanwhile shows. */
const ORGANIZATION_REFRESH_MS = 5 * 60_000;

/** The last alert per organization in local storage; a browser that refuses storage shows it each load. */
export const localAlertStore: BillingAlertStore = {
  read(organizationID) {
    try {
      const value = Number(localStorage.getItem(storageKeys.billingStatusAlert(organizationID)));
      return Number.isFinite(value) && value > 0 ? value : null;
    } catch {
      return null;
    }
  },
  write(organizationID, at) {
    try {
      localStorage.setItem(storageKeys.billingStatusAlert(organizationID), String(at));
    } catch {
      // Private mode or a full storage: the dialog may show again after a reload.
    }
  },
};

const runnableMachine = billingStatusMachine.provide({
  actors: { fetchWindows: fromPromise<StatusWindows>(() => fetchStatusWindows()) },
});

const sameView = (a: BillingStatusView, b: BillingStatusView) => a.status === b.status && a.dialog === b.dialog;

export function BillingStatusRunner({ organizationID }: { organizationID: string | null }) {
  const navigate = useNavigate();
  const platform = usePlatformApi();
  const { data: organization } = useQuery({
    queryKey: platformKeys.organization(organizationID ?? ''),
    queryFn: () => platform.organization(organizationID ?? ''),
    enabled: organizationID !== null,
    refetchInterval: ORGANIZATION_REFRESH_MS,
    retry: shouldRetry,
  });
  const { data: me } = useMe();
  const isAdmin = organization && me ? myActions(organization.users, me).admin : false;
  const admin = useRef(isAdmin);
  admin.current = isAdmin;

  const actorRef = useActorRef(runnableMachine, { input: { enabled: true, now: () => Date.now(), alerts: localAlertStore } });
  const view = useSelector(actorRef, billingStatusView, sameView);

  // While unpaid, any change the user makes (a card saved, a plan bought) may have paid: read the organization again.
  const queryClient = useQueryClient();
  const unpaid = view.status !== 'OK';
  useEffect(() => {
    if (!unpaid || organizationID === null) return undefined;
    return queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success') {
        void queryClient.invalidateQueries({ queryKey: platformKeys.organization(organizationID) });
      }
    });
  }, [queryClient, unpaid, organizationID]);

  const shown = organizationID !== null && organization?.id === organizationID ? organization : undefined;
  useEffect(() => {
    actorRef.send({ type: 'ORGANIZATION', organization: shown ? { id: shown.id, initialBillingFailedDate: failedDateOf(shown) } : null });
  }, [actorRef, shown]);

  useEffect(() => {
    const tick = () => actorRef.send({ type: 'TICK' });
    const timer = setInterval(tick, TICK_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [actorRef]);

  useEffect(() => {
    const subscription = actorRef.on('PAYMENT_UPDATE_REQUESTED', (event) => {
      if (!event.organizationID) return;
      // Admins land on the Setup Credit Card dialog; members, who cannot pay, on the settings they see.
      navigate(routePath('organizationSettings', { organizationID: event.organizationID }, admin.current ? { setupCreditCard: 'true' } : {}));
    });
    return () => subscription.unsubscribe();
  }, [actorRef, navigate]);

  const [used, setUsed] = useState(false);
  const open = view.dialog !== 'none' && view.status !== 'OK';
  useEffect(() => {
    if (open) setUsed(true);
  }, [open]);
  if (!used || view.status === 'OK') return null;

  const definition = billingStatusDialog(view.status as FailedStatus, isAdmin);
  return (
    <Suspense fallback={null}>
      <DialogRenderer
        definition={definition}
        open={open}
        onOpenChange={(next) => {
          if (!next && !definition.persistent) actorRef.send({ type: 'DISMISS' });
        }}
        onAction={(action) => {
          // A member's OK on a GRACE dialog only closes it; everywhere else the button answers the dialog.
          if (action === billingStatusActions.close || (!admin.current && view.status === 'GRACE')) actorRef.send({ type: 'DISMISS' });
          else actorRef.send({ type: 'UPDATE_PAYMENT' });
        }}
      />
    </Suspense>
  );
}
