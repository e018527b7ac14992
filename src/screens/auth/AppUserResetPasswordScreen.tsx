/**
 * bagel-auth-reset-password/{resetID}: the public page an app user's
 * reset mail links to. No console sign-in: it sets the new password of that app user (not of a
 * console account), so the console's own session is left alone; on success the page says so and
 * the user returns to their app.
 */
import { useState } from 'react';
import { useParams } from 'react-router';
import resetPasswordForm from '../../../definitions/forms/reset-password.ts';
import validateResetPassword from '../../../definitions/forms/reset-password.ts?validator';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useResetAppUserPassword } from '../../api/project-users-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFieldErrors } from '../../shell/problem-field-errors.ts';

export default function AppUserResetPasswordScreen() {
  const format = useFormat();
  const { resetID = '' } = useParams();
  const reset = useResetAppUserPassword();
  const problemMessage = useProblemMessage();
  const [done, setDone] = useState(false);

  if (done) {
    return (
      <div className="form" role="status">
        <h1 className="form-title">{format('resetPassword.title')}</h1>
        <p className="callout-success">{format('appUserReset.done')}</p>
      </div>
    );
  }

  return (
    <FormRenderer
      definition={resetPasswordForm}
      validate={validateResetPassword}
      busy={reset.isPending}
      error={reset.error ? problemMessage(reset.error) : null}
      fieldErrors={problemFieldErrors(reset.error, resetPasswordForm)}
      onSubmit={async (values) => {
        try {
          await reset.mutateAsync({ resetID, password: String(values.password ?? '') });
          setDone(true);
        } catch {
          // shown by the form
        }
      }}
      intro={<p className="form-intro">{format('appUserReset.intro')}</p>}
    />
  );
}
