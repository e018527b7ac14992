/**
 * The shell's answer to what the HTTP client reports:
 * - 403 on a page load (GET) goes home; on a write, "Insufficient permissions" / "Cannot complete requested actions";
 * - 429 (or a `warning` header) opens "API Limit Reached", at most once per 30 seconds, never while snoozed;
 * - the end of the session (refresh refused) goes to login with returnUrl.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { throttles } from '../../definitions/constants.ts';
import { apiLimitDialog } from '../../definitions/dialogs/api-limit.ts';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { getApiClient, type ApiEvent } from '../api/client.ts';
import type { Me } from '../api/auth.ts';
import { queryKeys } from '../api/queries.ts';
import { loginRedirect } from './login-redirect.ts';

/** The dialog's code loads the first time it opens: most sessions never see it. */
const DialogRenderer = lazy(() => import('../../renderers/dialogs/DialogRenderer.tsx').then((module) => ({ default: module.DialogRenderer })));

export function ApiEvents() {
  const format = useFormat();
  const navigate = useNavigate();
  const location = useLocation();
  const matches = useMatches();
  const queryClient = useQueryClient();
  const [limitOpen, setLimitOpen] = useState(false);
  const [limitUsed, setLimitUsed] = useState(false);
  const lastShown = useRef(Number.NEGATIVE_INFINITY);
  const snoozedUntil = useRef(0);

  // The listener reads the latest route through a ref, so it subscribes once.
  const here = useRef({ location, matches });
  here.current = { location, matches };

  useEffect(() => {
    const client = getApiClient();
    return client.subscribe((event: ApiEvent) => {
      const { location: current } = here.current;
      switch (event.type) {
        case 'forbidden':
          if (event.method === 'GET') navigate(routePath('home'), { replace: true });
          else void notify({ kind: 'error', title: format('permission.denied.title'), description: format('permission.denied.detail') });
          break;
        case 'rateLimited': {
          const now = Date.now();
          if (now < snoozedUntil.current || now - lastShown.current < throttles.apiLimitDialogMs) break;
          lastShown.current = now;
          setLimitUsed(true);
          setLimitOpen(true);
          break;
        }
        case 'sessionEnded':
          queryClient.clear();
          navigate(loginRedirect(current.pathname + current.search), { replace: true });
          break;
      }
    });
  }, [navigate, format, queryClient]);

  const organizationForPlans = (): string | undefined => {
    const fromRoute = [...here.current.matches].reverse().find((match) => match.params.organizationID)?.params.organizationID;
    const session = getApiClient().session;
    const me = queryClient.getQueryData<Me>(queryKeys.me);
    return fromRoute ?? session.getLastOrganization() ?? me?.organizations[0];
  };

  if (!limitUsed) return null;
  return (
    <Suspense fallback={null}>
      <DialogRenderer
      definition={apiLimitDialog}
      open={limitOpen}
      onOpenChange={setLimitOpen}
      onAction={(action) => {
        setLimitOpen(false);
        if (action === 'remindLater') {
          snoozedUntil.current = Date.now() + throttles.apiLimitRemindMs;
          return;
        }
        const organizationID = organizationForPlans();
        navigate(organizationID ? routePath('organizationSettings', { organizationID }, { view: 'plans' }) : routePath('home'));
      }}
      />
    </Suspense>
  );
}
