/** Sets a new password; the token comes from the link, so the form holds the password only. */
import { resetPasswordSchema } from '../schemas/account.ts';
import { pickProperties } from './pick-properties.ts';
import type { FormDefinition } from './types.ts';

const resetPasswordForm: FormDefinition = {
  id: 'resetPassword',
  title: 'resetPassword.title',
  schema: pickProperties(resetPasswordSchema, ['password']),
  fields: [
    { name: 'password', widget: 'text', inputType: 'password', label: 'form.resetPassword.password', help: 'form.signup.passwordHelp', autoComplete: 'new-password' },
  ],
  submit: 'resetPassword.submit',
  submitting: 'resetPassword.submitting',
};

export default resetPasswordForm;
