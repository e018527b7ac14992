/** Asks for a password-reset mail (the answer is the same for known and unknown addresses). */
import { Link } from 'react-router';
import forgotPasswordForm from '../../definitions/forms/forgot-password.ts';
import validateForgotPassword from '../../definitions/forms/forgot-password.ts?validator';
import { routePath } from '../../definitions/route-path.ts';
import { FormRenderer } from '../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useRequestResetMail } from '../api/queries.ts';
import { useProblemMessage } from '../hooks/use-problem-message.ts';

export default function ForgotPasswordScreen() {
  const format = useFormat();
  const request = useRequestResetMail();
  const problemMessage = useProblemMessage();
  return (
    <FormRenderer
      definition={forgotPasswordForm}
      validate={validateForgotPassword}
      busy={request.isPending}
      error={request.error ? problemMessage(request.error) : null}
      onSubmit={(values) => request.mutateAsync(String(values.email ?? '')).catch(() => undefined)}
      intro={
        request.isSuccess ? (
          <p role="status" className="form-success">
            {format('resetMail.sent')}
          </p>
        ) : (
          <p className="form-intro">{format('forgotPassword.intro')}</p>
        )
      }
    >
      <p className="form-switch">
        <Link to={routePath('login')}>{format('nav.backToSignIn')}</Link>
      </p>
    </FormRenderer>
  );
}
