/** The sign-in form. */
import { loginSchema } from '../schemas/account.ts';
import type { FormDefinition } from './types.ts';

const loginForm: FormDefinition = {
  id: 'login',
  title: 'login.title',
  schema: loginSchema,
  fields: [
    { name: 'username', widget: 'text', inputType: 'text', label: 'form.login.username', autoComplete: 'username' },
    { name: 'password', widget: 'text', inputType: 'password', label: 'form.login.password', autoComplete: 'current-password' },
  ],
  submit: 'login.submit',
  submitting: 'login.submitting',
};

export default loginForm;
