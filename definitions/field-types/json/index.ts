/**
 * JSON (14): any JSON value from the JSON editor. The type (JSONType) has no code in the official
 * client; 14 is the first free one after the client's 1–13.
 */
import { contentLimits } from '../../content.ts';
import { fail, jsonCsv, ok, unstorableJsonCode } from '../support.ts';
import type { FieldType } from '../types.ts';

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

export const json: FieldType<'JSON'> = {
  code: 14,
  name: 'JSON',
  labelKey: 'fieldType.json',
  icon: 'braces',
  valueSchema: {},
  capabilities: { creatable: true, primary: true, required: true, unique: false, sortable: false },
  settings: [],
  filterOperators: [],
  // `json`, not `jsonb`: the value keeps the author's key order (docs/console.md "JSON fields keep
  // their key order"). The type has no filters, sort or index, which are what jsonb would give.
  storage: { kind: 'column', column: 'json', indexes: [] },
  valueKind: 'json',
  validate(value) {
    const problem = unstorableJsonCode(value);
    if (problem) return fail(problem);
    const text = JSON.stringify(value);
    if (text === undefined) return fail('jsonNotValue');
    if (utf8Length(text) > contentLimits.jsonBytesMax) return fail('jsonTooLarge', { max: contentLimits.jsonBytesMax });
    return ok(JSON.parse(text) as unknown);
  },
  isEmpty: (value) => value === null || value === undefined || value === '',
  csv: { ...jsonCsv, sqlForm: { of: 'jsonText' } },
  display: (value) => (value === null || value === undefined ? '' : JSON.stringify(value)),
};
