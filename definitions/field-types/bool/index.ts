/** Bool (8): true or false. Never "empty" for required, and may declare the value new items get. */
import { fail, ok } from '../support.ts';
import type { FieldType } from '../types.ts';

export const bool: FieldType<'Bool'> = {
  code: 8,
  name: 'Bool',
  labelKey: 'fieldType.bool',
  icon: 'toggle-left',
  valueSchema: { type: ['boolean', 'null'] },
  capabilities: { creatable: true, primary: true, required: true, unique: false, sortable: true },
  settings: ['defaultValue'],
  filterOperators: ['=', '!='],
  defaultOperator: '=',
  storage: { kind: 'column', column: 'boolean', indexes: [{ kind: 'btree', on: { of: 'value' } }], sortKey: { of: 'value' } },
  valueKind: 'bool',
  validate: (value) => (typeof value === 'boolean' ? ok(value) : fail('notBool')),
  // Required fields must be non-empty "except Bool" (an unset switch means false).
  isEmpty: () => false,
  checkSettings(field) {
    const problems =
      field.defaultValue === undefined || field.defaultValue === null || typeof field.defaultValue === 'boolean'
        ? []
        : [{ path: 'defaultValue', code: 'defaultValueInvalid' as const }];
    return { field, problems };
  },
  defaultFor: (field) => (typeof field.defaultValue === 'boolean' ? field.defaultValue : undefined),
  csv: {
    sqlForm: { of: 'bool' },
    toCell: (value) => (typeof value === 'boolean' ? String(value) : ''),
    fromCell(cell) {
      const text = cell.trim().toLowerCase();
      if (text === '') return ok(null);
      if (text === 'true') return ok(true);
      if (text === 'false') return ok(false);
      return fail('notBool');
    },
  },
  display: (value) => (typeof value === 'boolean' ? String(value) : ''),
};
