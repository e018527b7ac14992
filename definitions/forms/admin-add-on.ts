/**
 * Add an add-on (platform admin area, one organization): a title and its price per period in
 * whole major units per currency; the screen multiplies each price by 100 before sending. The
 * title's field is `name`: a field called `title` would take the id of the form's own heading.
 */
import { adminCreditMaxMajor } from './admin-credit.ts';
import type { FormDefinition } from './types.ts';

const price = { type: 'integer', minimum: 0, maximum: adminCreditMaxMajor } as const;
const messages = { type: 'admin.org.credit.invalid', minimum: 'admin.org.credit.invalid', maximum: 'admin.org.credit.tooLarge', required: 'admin.org.credit.invalid' } as const;

const adminAddOnForm: FormDefinition = {
  id: 'adminAddOn',
  title: 'admin.org.addOns.add',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'amount', 'nisAmount'],
    properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, amount: price, nisAmount: price },
  },
  fields: [
    { name: 'name', widget: 'text', label: 'admin.org.addOns.name', trim: true },
    { name: 'amount', widget: 'number', label: 'admin.org.addOns.amount' },
    { name: 'nisAmount', widget: 'number', label: 'admin.org.addOns.nisAmount' },
  ],
  errorMessages: { amount: messages, nisAmount: messages },
  submit: 'admin.org.addOns.submit',
  submitting: 'admin.org.addOns.submitting',
};

export default adminAddOnForm;
