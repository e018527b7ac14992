/** Number (3): a JSON number (double precision), filtered by range and sorted. */
import { fail, isBlank, ok } from '../support.ts';
import type { FieldType } from '../types.ts';

const numeral = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export const number: FieldType<'Number'> = {
  code: 3,
  name: 'Number',
  labelKey: 'fieldType.number',
  icon: 'hash',
  valueSchema: { type: ['number', 'null'] },
  capabilities: { creatable: true, primary: true, required: true, unique: true, sortable: true },
  settings: [],
  filterOperators: ['=', '!=', '>', '<'],
  defaultOperator: '=',
  search: 'equals',
  storage: { kind: 'column', column: 'double precision', indexes: [{ kind: 'btree', on: { of: 'value' } }], sortKey: { of: 'value' } },
  valueKind: 'number',
  modifiers: ['increment'],
  layoutUses: ['calendarDuration'],
  validate(value) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail('notNumber');
    // -0 and 0 are one number to people; keeping -0 would make equal values look different.
    return ok(value === 0 ? 0 : value);
  },
  isEmpty: isBlank,
  csv: {
    formulaSafe: true,
    sqlForm: { of: 'number' },
    toCell: (value) => (typeof value === 'number' ? String(value) : ''),
    fromCell(cell) {
      const text = cell.trim();
      if (text === '') return ok(null);
      if (!numeral.test(text)) return fail('notNumber');
      const value = Number(text);
      return Number.isFinite(value) ? ok(value) : fail('notNumber');
    },
  },
  display: (value) => (typeof value === 'number' ? String(value) : ''),
};
