/** Phone (4): a phone number kept as its digits only. */
import { contentLimits } from '../../content.ts';
import { fail, isBlank, ok, searchableTextStorage, textCsv } from '../support.ts';
import type { FieldType } from '../types.ts';

export const phone: FieldType<'Phone'> = {
  code: 4,
  name: 'Phone',
  labelKey: 'fieldType.phone',
  icon: 'phone',
  valueSchema: { type: ['string', 'null'], pattern: '^[0-9]+$', maxLength: contentLimits.phoneDigitsMax },
  capabilities: { creatable: true, primary: true, required: true, unique: true, sortable: true },
  settings: [],
  filterOperators: [],
  search: 'regex',
  storage: searchableTextStorage,
  valueKind: 'text',
  validate(value) {
    if (typeof value !== 'string') return fail('notText');
    if (value.length > 4 * contentLimits.phoneDigitsMax) return fail('phoneTooLong', { max: contentLimits.phoneDigitsMax });
    const digits = value.replace(/\D/g, '');
    if (value.trim() === '') return ok(null);
    if (digits === '') return fail('phoneNoDigits');
    if (digits.length > contentLimits.phoneDigitsMax) return fail('phoneTooLong', { max: contentLimits.phoneDigitsMax });
    return ok(digits);
  },
  isEmpty: isBlank,
  csv: { ...textCsv, formulaSafe: true },
  display: (value) => (typeof value === 'string' ? value : ''),
};
