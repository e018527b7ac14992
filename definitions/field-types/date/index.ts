/** Date (10): a date-time, written and read as an RFC 3339 string, kept to the millisecond. */
import { fail, isBlank, ok } from '../support.ts';
import type { Check, FieldType } from '../types.ts';

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-](\d{2}):(\d{2})))?$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The instant a string names, as `toISOString()` gives it; a date alone means its UTC midnight. */
export function parseDate(text: string): Check<string> {
  const m = rfc3339.exec(text);
  if (!m) return fail('dateFormat');
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return fail('dateNotCalendar');
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return fail('dateNotTime');
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return fail('dateBadOffset');
  // Digits past the millisecond are dropped: JavaScript dates (and the wire form) stop there.
  const time = m[4] === undefined ? '00:00:00' : `${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ? `.${m[7].slice(0, 3).padEnd(3, '0')}` : ''}`;
  const zone = m[8] === undefined || m[8].toUpperCase() === 'Z' ? 'Z' : m[8];
  const instant = new Date(`${m[1]}-${m[2]}-${m[3]}T${time}${zone}`);
  if (Number.isNaN(instant.getTime())) return fail('dateInvalid');
  const utcYear = instant.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return fail('dateOutOfRange');
  return ok(instant.toISOString());
}

export const date: FieldType<'Date'> = {
  code: 10,
  name: 'Date',
  labelKey: 'fieldType.date',
  icon: 'calendar',
  valueSchema: { type: ['string', 'null'], format: 'date-time' },
  capabilities: { creatable: true, primary: true, required: true, unique: true, sortable: true },
  settings: [],
  filterOperators: ['=', '!=', '>', '<'],
  defaultOperator: '=',
  storage: { kind: 'column', column: 'timestamptz', indexes: [{ kind: 'btree', on: { of: 'value' } }], sortKey: { of: 'value' } },
  valueKind: 'date',
  layoutUses: ['calendarTime'],
  validate: (value) => (typeof value === 'string' ? (value === '' ? ok(null) : parseDate(value)) : fail('dateNotText')),
  isEmpty: isBlank,
  csv: {
    sqlForm: { of: 'instant' },
    toCell: (value) => (typeof value === 'string' ? value : ''),
    fromCell: (cell) => ok(cell.trim() === '' ? null : cell.trim()),
  },
  display: (value) => (typeof value === 'string' ? value : ''),
};
