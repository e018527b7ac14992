/**
 * Add credit (platform admin area, one organization): whole amounts of major units per currency,
 * which the screen multiplies by 100 before sending (docs/admin.md "Organizations"). A blank
 * field is 0; at least one must be above 0, which the screen checks (a schema keyword over two
 * fields would have no field to show its message on).
 */
import type { FormDefinition } from './types.ts';

/** The most one call adds, in major units: the server's bound (10,000,000.00) over 100. */
export const adminCreditMaxMajor = 10_000_000;

const amount = { type: 'integer', minimum: 0, maximum: adminCreditMaxMajor } as const;
const messages = { type: 'admin.org.credit.invalid', minimum: 'admin.org.credit.invalid', maximum: 'admin.org.credit.tooLarge' } as const;

const adminCreditForm: FormDefinition = {
  id: 'adminCredit',
  title: 'admin.org.credit.title',
  schema: { type: 'object', additionalProperties: false, properties: { amount, nisAmount: amount } },
  fields: [
    { name: 'amount', widget: 'number', label: 'admin.org.credit.amount' },
    { name: 'nisAmount', widget: 'number', label: 'admin.org.credit.nisAmount' },
  ],
  errorMessages: { amount: messages, nisAmount: messages },
  submit: 'admin.org.credit.submit',
  submitting: 'admin.org.credit.submitting',
};

export default adminCreditForm;
