/**
 * Contact Us (organization settings › Plan & Usage): name, e-mail and phone number, checked as the
 * server checks a contact request (definitions/schemas/billing.ts ContactRequestInput).
 */
import { ContactRequestInput } from '../schemas/billing.ts';
import type { FormDefinition } from './types.ts';

const contactUsForm: FormDefinition = {
  id: 'contactUs',
  title: 'contact.title',
  // The same properties the server validates; the form's own object keeps the JSON Schema plain.
  schema: { type: 'object', additionalProperties: false, required: ContactRequestInput.required ?? [], properties: ContactRequestInput.properties },
  fields: [
    { name: 'name', widget: 'text', inputType: 'text', label: 'form.contact.name', autoComplete: 'name', trim: true },
    { name: 'email', widget: 'text', inputType: 'email', label: 'form.contact.email', autoComplete: 'email', trim: true },
    { name: 'number', widget: 'text', inputType: 'tel', label: 'form.contact.number', autoComplete: 'tel', trim: true },
  ],
  errorMessages: {
    email: { format: 'validation.invalidEmail', maxLength: 'validation.invalidEmail', required: 'validation.invalidEmail' },
    number: { pattern: 'contact.numberInvalid', minLength: 'contact.numberInvalid', maxLength: 'contact.numberInvalid', required: 'contact.numberInvalid' },
  },
  submit: 'contact.submit',
  submitting: 'contact.submitting',
  submitRequires: ['name', 'email', 'number'],
};

export default contactUsForm;
