/** Sign-up, drawn from definitions/forms/signup.ts; the server validates the same schema. */
import { Link, useSearchParams } from 'react-router';
import signupForm from '../../definitions/forms/signup.ts';
import validateSignup from '../../definitions/forms/signup.ts?validator';
import { routePath } from '../../definitions/route-path.ts';
import type { SignupPayload } from '../../definitions/schemas/account.ts';
import { FormRenderer } from '../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useConfig, useSignUp } from '../api/queries.ts';
import { problemFieldErrors } from '../shell/problem-field-errors.ts';
import { useProblemMessage } from '../hooks/use-problem-message.ts';
import { GoogleButton } from '../shell/GoogleButton.tsx';

export default function SignupScreen() {
  const format = useFormat();
  const [search] = useSearchParams();
  const inviteID = search.get('inviteID') ?? undefined;
  const signUp = useSignUp();
  const problemMessage = useProblemMessage();
  const { data: config } = useConfig();

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

  return (
    <FormRenderer
      definition={signupForm}
      validate={validateSignup}
      busy={signUp.isPending}
      error={signUp.error ? problemMessage(signUp.error) : null}
      fieldErrors={problemFieldErrors(signUp.error, signupForm)}
      onSubmit={(values) => signUp.mutateAsync({ payload: values as unknown as SignupPayload, inviteID }).catch(() => undefined)}
    >
      <GoogleButton label="signup.google" intent={{ signup: true, inviteID }} />
      <p className="form-switch">
        {format('signup.haveAccount')} <Link to={routePath('login', {}, { inviteID })}>{format('signup.signIn')}</Link>
      </p>
    </FormRenderer>
  );
}
