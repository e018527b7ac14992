/** Asks for a password reset mail. */
import { resetPasswordEmailSchema } from '../schemas/account.ts';
import type { FormDefinition } from './types.ts';

const forgotPasswordForm: FormDefinition = {
  id: 'forgotPassword',
  title: 'forgotPassword.title',
  schema: resetPasswordEmailSchema,
  fields: [{ name: 'email', widget: 'text', inputType: 'email', label: 'form.forgotPassword.email', autoComplete: 'email' }],
  submit: 'forgotPassword.submit',
  submitting: 'forgotPassword.submitting',
};

export default forgotPasswordForm;
