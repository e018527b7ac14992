/** Link (9): an address of at most 256 characters; script schemes are refused. */
import { contentLimits } from '../../content.ts';
import { characterCount, fail, isBlank, ok, searchableTextStorage, textCsv, unstorableTextCode } from '../support.ts';
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
    if (typeof value !== 'string') return fail('notText');
    const problem = unstorableTextCode(value);
    if (problem) return fail(problem);
    const text = value.trim();
    if (text === '') return ok(null);
    if (characterCount(text) > contentLimits.linkMax) return fail('tooLong', { max: contentLimits.linkMax });
    if (/\s/.test(text)) return fail('spaces');
    // A browser drops control characters before reading the scheme (`\u0001javascript:` runs).
    if (/[\u0000-\u001f\u007f]/.test(text)) return fail('controlCharacters');
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1]?.toLowerCase();
    // Anything before a first colon counts as a scheme (so `localhost:3000` needs `http://`): that
    // keeps `javascript:` and its look-alikes out of links the console will render.
    if (scheme && !allowedSchemes.includes(scheme)) {
      return fail('linkScheme', { schemes: allowedSchemes.join(', ') });
    }
    return ok(text);
  },
  isEmpty: isBlank,
  csv: textCsv,
  display: (value) => (typeof value === 'string' ? value : ''),
};
