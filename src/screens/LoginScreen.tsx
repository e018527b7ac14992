/**
 * Sign-in: the login machine (machines/login.ts) drives the flow with the real account calls; the
 * form is drawn from definitions/forms/login.ts.
 */
import { useEffect, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMachine } from '@xstate/react';
import { useQueryClient } from '@tanstack/react-query';
import loginForm from '../../definitions/forms/login.ts';
import validateLogin from '../../definitions/forms/login.ts?validator';
import { routePath } from '../../definitions/route-path.ts';
import { loginMachine, type LoginInput } from '../../machines/login.ts';
import { FormRenderer } from '../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { createLoginActors } from '../api/login-actors.ts';
import { queryKeys, useAuthApi } from '../api/queries.ts';
import { useGoogleReturn } from '../hooks/use-google-return.ts';
import { useProblemMessage } from '../hooks/use-problem-message.ts';
import { GoogleButton } from '../shell/GoogleButton.tsx';

function LoginFlow({ input }: { input: LoginInput }) {
  const format = useFormat();
  const navigate = useNavigate();
  const auth = useAuthApi();
  const queryClient = useQueryClient();
  const problemMessage = useProblemMessage();
  const google = useGoogleReturn();
  const logic = useMemo(
    () => loginMachine.provide({ actors: createLoginActors(auth, { onUser: (user) => queryClient.setQueryData(queryKeys.me, user) }) }),
    [auth, queryClient],
  );
  const [state, send] = useMachine(logic, { input });

  useEffect(() => {
    if (state.status !== 'done' || !state.output) return;
    const { navigate: target, toast: message } = state.output;
    if (message) void notify({ kind: 'success', title: format(message) });
    // An invite in progress: its page accepts it now that the user is signed in.
    navigate(target ?? (input.inviteID ? routePath('joinOrganization', { id: input.inviteID }) : routePath('home')), { replace: true });
  }, [state.status, state.output, navigate, format, input.inviteID]);

  const error = state.context.error
    ? format(state.context.error.key, state.context.error.values)
    : google.failed
      ? google.failed === true
        ? format('login.googleFailed')
        : problemMessage(google.failed)
      : null;

  const notice = input.confirmID ? 'confirm.needsLogin' : input.inviteID ? 'login.inviteNotice' : null;

  return (
    <FormRenderer
      definition={loginForm}
      validate={validateLogin}
      busy={state.hasTag('busy') || google.busy}
      error={error}
      onSubmit={(values) => send({ type: 'SUBMIT', username: String(values.username ?? ''), password: String(values.password ?? '') })}
      intro={
        notice ? (
          <p role="alert" className="form-notice">
            {format(notice)}
          </p>
        ) : null
      }
    >
      <p className="form-links">
        <Link to={routePath('forgotPassword')}>{format('login.forgotPassword')}</Link>
      </p>
      <GoogleButton label="login.google" intent={{ signup: false, returnUrl: input.returnUrl, inviteID: input.inviteID }} />
      <p className="form-switch">
        {format('login.noAccount')} <Link to={routePath('signup', {}, { inviteID: input.inviteID })}>{format('login.createAccount')}</Link>
      </p>
    </FormRenderer>
  );
}

export default function LoginScreen() {
  const [search] = useSearchParams();
  const input: LoginInput = {
    returnUrl: search.get('returnUrl') ?? undefined,
    confirmID: search.get('confirmID') ?? undefined,
    inviteID: search.get('inviteID') ?? undefined,
  };
  // A new query (another confirmation link, say) starts a new flow.
  return <LoginFlow key={search.toString()} input={input} />;
}
