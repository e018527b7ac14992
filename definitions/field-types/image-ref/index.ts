/** ImageRef (5): an uploaded image or file, referred to by its address and names. */
import { contentLimits } from '../../content.ts';
import { extraKeys, fail, isPlainObject, jsonCsv, ok, unstorableText } from '../support.ts';
import type { Check, FieldType, SettingProblem } from '../types.ts';

/** What an image value may hold (content spec §3; `file` and `selectedImage` live only in the browser). */
export const imageKeys = ['imageURL', 'imageName', 'altText', 'extension', 'fileURL'] as const;

/** Checks one image object; `extra` names further keys it may carry (an image set's `_id`). */
export function checkImage(value: unknown, extra: readonly string[] = []): Check<Record<string, string>> {
  if (!isPlainObject(value)) return fail('must be an object with imageURL, imageName, altText, extension or fileURL');
  const unknown = extraKeys(value, [...imageKeys, ...extra]);
  if (unknown.length) return fail(`has unknown keys: ${unknown.join(', ')}`);
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null || entry === undefined) continue;
    if (typeof entry !== 'string') return fail(`${key} must be text`);
    const problem = unstorableText(entry);
    if (problem) return fail(`${key} ${problem}`);
    if (entry.length > contentLimits.urlMax) return fail(`${key} must be at most ${contentLimits.urlMax} characters`);
    out[key] = entry;
  }
  return ok(out);
}

export const isEmptyImage = (value: unknown) => !isPlainObject(value) || !(typeof value.imageURL === 'string' && value.imageURL) && !(typeof value.fileURL === 'string' && value.fileURL);

export function checkAccept(accept: unknown): SettingProblem[] {
  if (accept === undefined) return [];
  return typeof accept === 'string' && accept.length <= 1000 && !accept.includes('\u0000')
    ? []
    : [{ path: 'accept', message: 'must be a list of file types such as "image/*,application/pdf"' }];
}

const imageSchema = {
  type: 'object',
  properties: Object.fromEntries(imageKeys.map((key) => [key, { type: 'string', maxLength: contentLimits.urlMax }])),
  additionalProperties: false,
};

export const imageRef: FieldType = {
  code: 5,
  name: 'ImageRef',
  labelKey: 'fieldType.imageRef',
  icon: 'image',
  valueSchema: { anyOf: [imageSchema, { type: 'null' }] },
  capabilities: { creatable: true, primary: false, required: true, unique: false, sortable: false },
  settings: ['accept'],
  filterOperators: [],
  storage: { kind: 'column', column: 'jsonb', indexes: [] },
  validate(value) {
    const image = checkImage(value);
    if (!image.ok) return image;
    return ok(Object.keys(image.value).length ? image.value : null);
  },
  isEmpty: (value) => value === null || value === undefined || isEmptyImage(value),
  checkSettings: (field) => ({ field, problems: checkAccept(field.accept) }),
  csv: jsonCsv,
  display: (value) => (isPlainObject(value) && typeof value.imageURL === 'string' ? value.imageURL : ''),
};
