/**
 * Edit Billing Info: billing e-mail, address, city, country (ISO 3166-1 alpha-2, default US),
 * postcode and billing frequency. The bounds are those of BillingDetailsInput
 * (definitions/schemas/billing.ts), so the form refuses what the server would refuse; the dialog
 * nests the address fields into `billingAddress` before sending.
 */
import { BillingAddress } from '../schemas/billing.ts';
import { emailSchema } from '../schemas/account.ts';
import type { FormDefinition } from './types.ts';

const address = BillingAddress.properties;

export const billingInfoSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['billingEmail', 'country', 'billingFrequency'],
  properties: {
    billingEmail: emailSchema,
    address: { type: 'string', maxLength: address.address.maxLength },
    city: { type: 'string', maxLength: address.city.maxLength },
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
    postcode: { type: 'string', maxLength: address.postcode.maxLength },
    billingFrequency: { type: 'string', enum: ['1', '2'] },
  },
} as const;

const billingInfoForm: FormDefinition = {
  id: 'billingInfo',
  title: 'billing.edit.title',
  schema: billingInfoSchema,
  fields: [
    { name: 'billingEmail', widget: 'text', inputType: 'email', label: 'billing.field.email', autoComplete: 'email', trim: true },
    { name: 'address', widget: 'text', label: 'billing.field.address', autoComplete: 'street-address', trim: true },
    { name: 'city', widget: 'text', label: 'billing.field.city', autoComplete: 'address-level2', trim: true },
    { name: 'country', widget: 'select', label: 'billing.field.country', autoComplete: 'country', dynamicOptions: true },
    { name: 'postcode', widget: 'text', label: 'billing.field.postcode', autoComplete: 'postal-code', trim: true },
    // Choices given by the dialog: the countries' names are data, the frequencies are worded there.
    { name: 'billingFrequency', widget: 'select', label: 'billing.field.frequency', dynamicOptions: true },
  ],
  errorMessages: {
    billingEmail: { format: 'validation.invalidEmail', minLength: 'validation.invalidEmail', maxLength: 'validation.invalidEmail', required: 'validation.invalidEmail' },
  },
  submit: 'billing.edit.save',
  submitting: 'billing.edit.saving',
  submitRequires: ['billingEmail', 'country'],
};

export default billingInfoForm;
