/**
 * Sets a new password with the token of the reset link. The server ends every session of the user,
 * so this browser's tokens are dropped too before going to the login page.
 */
import { Link, useNavigate, useParams } from 'react-router';
import resetPasswordForm from '../../definitions/forms/reset-password.ts';
import validateResetPassword from '../../definitions/forms/reset-password.ts?validator';
import { routePath } from '../../definitions/route-path.ts';
import { FormRenderer } from '../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { useAuthApi, useResetPassword } from '../api/queries.ts';
import { problemFieldErrors } from '../shell/problem-field-errors.ts';
import { useProblemMessage } from '../hooks/use-problem-message.ts';

export default function ResetPasswordScreen() {
  const format = useFormat();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const auth = useAuthApi();
  const reset = useResetPassword();
  const problemMessage = useProblemMessage();

  const submit = async (password: string) => {
    try {
      await reset.mutateAsync({ token, password });
    } catch {
      return; // shown by the form
    }
    await auth.logout();
    void notify({ kind: 'success', title: format('resetPassword.done') });
    navigate(routePath('login'), { replace: true });
  };

  return (
    <FormRenderer
      definition={resetPasswordForm}
      validate={validateResetPassword}
      busy={reset.isPending}
      error={reset.error ? problemMessage(reset.error) : null}
      fieldErrors={problemFieldErrors(reset.error, resetPasswordForm)}
      onSubmit={(values) => submit(String(values.password ?? ''))}
      intro={<p className="form-intro">{format('resetPassword.intro')}</p>}
    >
      <p className="form-switch">
        <Link to={routePath('login')}>{format('nav.backToSignIn')}</Link>
      </p>
    </FormRenderer>
  );
}
