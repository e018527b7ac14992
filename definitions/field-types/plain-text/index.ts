/** PlainText (1): a line or paragraph of text, optionally bounded by min and max characters. */
import { contentLimits } from '../../content.ts';
import { characterCount, fail, isBlank, ok, textCsv, unstorableTextCode } from '../support.ts';
import type { SettingRefusal } from '../setting-refusal.ts';
import type { FieldType, SchemaField } from '../types.ts';

/** Sorting and equality index the first characters only: a btree entry must stay under ~2.7 kB. */
export const textSortPrefix = 128;

const bounds = (field: SchemaField) => ({
  min: typeof field.min === 'number' ? field.min : 0,
  max: typeof field.max === 'number' ? Math.min(field.max, contentLimits.plainTextMax) : contentLimits.plainTextMax,
});

export const plainText: FieldType<'PlainText'> = {
  code: 1,
  name: 'PlainText',
  labelKey: 'fieldType.plainText',
  icon: 'type',
  valueSchema: { type: ['string', 'null'], maxLength: contentLimits.plainTextMax },
  capabilities: { creatable: true, primary: true, required: true, unique: true, sortable: true, followsDirection: true, titleCandidate: true },
  settings: ['min', 'max'],
  filterOperators: ['=', '!=', 'regex'],
  defaultOperator: 'regex',
  search: 'regex',
  storage: {
    kind: 'column',
    column: 'text',
    indexes: [
      { kind: 'btree', on: { of: 'prefix', length: textSortPrefix } },
      { kind: 'trigram', on: { of: 'value' } },
    ],
    sortKey: { of: 'prefix', length: textSortPrefix },
  },
  valueKind: 'text',
  validate(value, field) {
    if (typeof value !== 'string') return fail('notText');
    const problem = unstorableTextCode(value);
    if (problem) return fail(problem);
    if (value === '') return ok(null);
    const { min, max } = bounds(field);
    const length = characterCount(value);
    if (length < min) return fail('tooShort', { min });
    if (length > max) return fail('tooLong', { max });
    return ok(value);
  },
  isEmpty: isBlank,
  checkSettings(field) {
    const problems: SettingRefusal[] = [];
    for (const key of ['min', 'max'] as const) {
      const bound = field[key];
      if (bound !== undefined && (!Number.isInteger(bound) || bound < 0 || bound > contentLimits.plainTextMax)) {
        problems.push({ path: key, code: 'boundInvalid', params: { max: contentLimits.plainTextMax } });
      }
    }
    if (typeof field.min === 'number' && typeof field.max === 'number' && field.min > field.max) {
      problems.push({ path: 'min', code: 'minAboveMax' });
    }
    return { field, problems };
  },
  csv: textCsv,
  display: (value) => (typeof value === 'string' ? value : ''),
};
