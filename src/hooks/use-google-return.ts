/**
 * Finishes a Google sign-in when the login page opens with Google's answer in its fragment:
 * trade the ID token for a session, load the user and land where a password sign-in would.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { routeAfterLogin } from '../../machines/login.ts';
import { routePath } from '../../definitions/route-path.ts';
import { useAuthApi, queryKeys } from '../api/queries.ts';
import { takeGoogleReturn } from '../shell/google-sign-in.ts';

export function useGoogleReturn(): { busy: boolean; failed: unknown } {
  const auth = useAuthApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [state, setState] = useState<{ busy: boolean; failed: unknown }>({ busy: false, failed: null });

  useEffect(() => {
    const answer = takeGoogleReturn();
    if (!answer) return;
    if ('error' in answer) {
      setState({ busy: false, failed: true });
      return;
    }
    setState({ busy: true, failed: null });
    (async () => {
      try {
        await auth.googleToken(answer.idToken, { signup: answer.signup });
        const user = await auth.me();
        queryClient.setQueryData(queryKeys.me, user);
        const outcome = routeAfterLogin({ returnUrl: answer.returnUrl, inviteID: answer.inviteID }, user);
        navigate(outcome.navigate ?? (answer.inviteID ? routePath('joinOrganization', { id: answer.inviteID }) : routePath('home')), { replace: true });
      } catch (error) {
        setState({ busy: false, failed: error });
      }
    })();
  }, [auth, queryClient, navigate]);

  return state;
}
