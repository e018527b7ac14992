/**
 * Add a project user by hand (Auth → Users, docs/console.md "Project users"): e-mail and password
 * as the server checks them, and whether the address counts as verified already.
 */
import { emailSchema, passwordSchema } from '../schemas/account.ts';
import type { FormDefinition } from './types.ts';

export const newProjectUserSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: { email: emailSchema, password: passwordSchema, verified: { type: 'boolean' } },
} as const;

const newProjectUserForm: FormDefinition = {
  id: 'newProjectUser',
  title: 'projectUsers.add.title',
  schema: newProjectUserSchema,
  fields: [
    { name: 'email', widget: 'text', inputType: 'email', label: 'projectUsers.add.email', autoComplete: 'off', trim: true },
    { name: 'password', widget: 'text', inputType: 'password', label: 'projectUsers.add.password', help: 'form.signup.passwordHelp', autoComplete: 'new-password' },
    { name: 'verified', widget: 'switch', label: 'projectUsers.add.verified', help: 'projectUsers.add.verifiedHelp' },
  ],
  errorMessages: {
    email: { format: 'validation.invalidEmail', minLength: 'validation.invalidEmail', maxLength: 'validation.invalidEmail', required: 'validation.invalidEmail' },
  },
  submit: 'projectUsers.add.submit',
  submitting: 'projectUsers.add.submitting',
};

export default newProjectUserForm;
