/** Link (9): an address of at most 256 characters; script schemes are refused. */
import { contentLimits } from '../../content.ts';
import { characterCount, fail, isBlank, ok, searchableTextStorage, textCsv, unstorableText } from '../support.ts';
import type { FieldType } from '../types.ts';

/** Schemes a link may name; a link without one (`example.com/page`) is taken as written. */
const allowedSchemes = ['http', 'https', 'mailto', 'tel', 'ftp'];

export const link: FieldType<'Link'> = {
  code: 9,
  name: 'Link',
  labelKey: 'fieldType.link',
  icon: 'globe',
  valueSchema: { type: ['string', 'null'], maxLength: contentLimits.linkMax },
  capabilities: { creatable: true, primary: true, required: true, unique: true, sortable: true },
  settings: [],
  filterOperators: ['=', '!=', 'regex'],
  defaultOperator: 'regex',
  search: 'regex',
  storage: searchableTextStorage,
  valueKind: 'text',
  validate(value) {
    if (typeof value !== 'string') return fail('must be text');
    const problem = unstorableText(value);
    if (problem) return fail(problem);
    const text = value.trim();
    if (text === '') return ok(null);
    if (characterCount(text) > contentLimits.linkMax) return fail(`must be at most ${contentLimits.linkMax} characters`);
    if (/\s/.test(text)) return fail('must not contain spaces');
    // A browser drops control characters before reading the scheme (`\u0001javascript:` runs).
    if (/[\u0000-\u001f\u007f]/.test(text)) return fail('must not contain control characters');
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1]?.toLowerCase();
    // Anything before a first colon counts as a scheme (so `localhost:3000` needs `http://`): that
    // keeps `javascript:` and its look-alikes out of links the console will render.
    if (scheme && !allowedSchemes.includes(scheme)) {
      return fail(`must be an ${allowedSchemes.join(', ')} address`);
    }
    return ok(text);
  },
  isEmpty: isBlank,
  csv: textCsv,
  display: (value) => (typeof value === 'string' ? value : ''),
};
