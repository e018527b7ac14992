/**
 * One row of the invite dialog: the e-mail address, checked as the server checks it, with the
 * message "Invalid email address". The dialog validates each row with this.
 */
import { inviteEmailSchema } from '../schemas/platform.ts';
import type { FormDefinition } from './types.ts';

const inviteEmailForm: FormDefinition = {
  id: 'inviteEmail',
  title: 'invite.title',
  schema: inviteEmailSchema,
  fields: [{ name: 'email', widget: 'text', inputType: 'email', label: 'form.invite.email', autoComplete: 'off', trim: true }],
  errorMessages: {
    email: { format: 'validation.invalidEmail', minLength: 'validation.invalidEmail', maxLength: 'validation.invalidEmail', required: 'validation.invalidEmail' },
  },
  submit: 'invite.submit',
  submitting: 'invite.submitting',
};

export default inviteEmailForm;
