/** Sign-up, drawn from definitions/forms/signup.ts; the server validates the same schema. */
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import signupForm from '../../definitions/forms/signup.ts';
import validateSignup from '../../definitions/forms/signup.ts?validator';
import { routePath } from '../../definitions/route-path.ts';
import type { SignupPayload } from '../../definitions/schemas/account.ts';
import { FormRenderer } from '../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { usePlatformApi } from '../api/platform-queries.ts';
import { queryKeys, useAuthApi, useConfig, useSignUp } from '../api/queries.ts';
import { problemFieldErrors } from '../shell/problem-field-errors.ts';
import { useProblemMessage } from '../hooks/use-problem-message.ts';
import { GoogleButton } from '../shell/GoogleButton.tsx';

export default function SignupScreen() {
  const format = useFormat();
  const [search] = useSearchParams();
  const inviteID = search.get('inviteID') ?? undefined;
  const signUp = useSignUp();
  const auth = useAuthApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [joinFailed, setJoinFailed] = useState(false);
  const problemMessage = useProblemMessage();
  const { data: config } = useConfig();
  const platform = usePlatformApi();
  // The invited address fills the e-mail field (editable: docs/console.md "Sign-up by invitation").
  // An invitation that cannot be read leaves it empty; the form waits for the answer, since it
  // takes its values once.
  const invite = useQuery({
    queryKey: ['invite', inviteID ?? ''],
    queryFn: () => platform.readInvite(inviteID ?? ''),
    enabled: inviteID !== undefined,
    retry: false,
    staleTime: Infinity,
  });

  /**
   * Signed up through an invitation to this very e-mail address, the account is verified at once
   * (no confirmation mail): sign in and let the join page accept the invitation. Otherwise (another
   * address, or an address that already had an account) the usual "check your e-mail" stands.
   */
  const joinAfterSignup = async (payload: SignupPayload, id: string) => {
    try {
      await auth.passwordGrant(payload.username, payload.password);
      const me = await auth.me();
      if (me.verified) {
        queryClient.setQueryData(queryKeys.me, me);
        navigate(routePath('joinOrganization', { id }), { replace: true });
        return;
      }
      await auth.logout();
    } catch {
      // Not signed in: the message below tells what to do next.
    }
    setJoinFailed(true);
  };

  if (signUp.isSuccess && inviteID && !joinFailed) {
    return (
      <section className="done" aria-labelledby="signup-joining">
        <h1 id="signup-joining" className="form-title">
          {format('join.heading')}
        </h1>
      </section>
    );
  }

  if (signUp.isSuccess) {
    return (
      <section className="done" aria-labelledby="signup-done">
        <h1 id="signup-done" className="form-title">
          {format('signup.doneHeading')}
        </h1>
        <p role="status">{format('signup.done')}</p>
        <p className="form-links">
          {config?.devMailbox ? <Link to={routePath('devMailbox')}>{format('nav.devMailbox')}</Link> : null}
          <Link to={routePath('login', {}, { inviteID })}>{format('nav.backToSignIn')}</Link>
        </p>
      </section>
    );
  }

  if (inviteID !== undefined && invite.isPending) {
    return (
      <p className="muted" role="status">
        {format('signup.readingInvite')}
      </p>
    );
  }

  return (
    <FormRenderer
      definition={signupForm}
      defaultValues={invite.data?.email ? { email: invite.data.email } : undefined}
      validate={validateSignup}
      busy={signUp.isPending}
      error={signUp.error ? problemMessage(signUp.error) : null}
      fieldErrors={problemFieldErrors(signUp.error, signupForm)}
      onSubmit={async (values) => {
        const payload = values as unknown as SignupPayload;
        try {
          await signUp.mutateAsync({ payload, inviteID });
        } catch {
          return; // shown by the form
        }
        if (inviteID) await joinAfterSignup(payload, inviteID);
      }}
    >
      <GoogleButton label="signup.google" intent={{ signup: true, inviteID }} />
      <p className="form-switch">
        {format('signup.haveAccount')} <Link to={routePath('login', {}, { inviteID })}>{format('signup.signIn')}</Link>
      </p>
    </FormRenderer>
  );
}
