/** The sign-up form; the server validates the same schema. */
import { signupSchema } from '../schemas/account.ts';
import type { FormDefinition } from './types.ts';

const signupForm: FormDefinition = {
  id: 'signup',
  title: 'signup.title',
  schema: signupSchema,
  fields: [
    { name: 'username', widget: 'text', inputType: 'text', label: 'form.signup.username', help: 'form.signup.usernameHelp', autoComplete: 'username' },
    { name: 'email', widget: 'text', inputType: 'email', label: 'form.signup.email', autoComplete: 'email' },
    { name: 'password', widget: 'text', inputType: 'password', label: 'form.signup.password', help: 'form.signup.passwordHelp', autoComplete: 'new-password' },
  ],
  errorMessages: {
    username: { pattern: 'form.error.usernamePattern' },
    email: { format: 'validation.invalidEmail' },
  },
  submit: 'signup.submit',
  submitting: 'signup.submitting',
};

export default signupForm;
