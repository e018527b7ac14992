/** ImageRef (5): an uploaded image or file, referred to by its address and names. */
import { contentLimits } from '../../content.ts';
import { extraKeys, fail, isPlainObject, jsonCsv, ok, unstorableTextCode } from '../support.ts';
import type { SettingRefusal } from '../setting-refusal.ts';
import type { Check, FieldType } from '../types.ts';

/** What an image value may hold (`file` and `selectedImage` live only in the browser). */
/** `fileName` is the name the file was uploaded with (`imageName` is the stored file's unique name). */
export const imageKeys = ['imageURL', 'imageName', 'altText', 'extension', 'fileURL', 'fileName'] as const;

/** The keys of an image value that hold an address the console puts in `src` and `href`. */
const addressKeys: readonly string[] = ['imageURL', 'fileURL'];

/** This server's own file paths, as the file service forms them (`/files/{key}`, keys of letters, digits, `._-/`). */
const ownFilePath = /^\/files\/(?!(?:.*\/)?\.\.?(?:\/|$))[A-Za-z0-9._\-/]+$/;

/**
 * Why an image address cannot be kept (a refusal code), or undefined. An address is read as a browser reads it
 * (the WHATWG URL parser drops leading spaces and control characters and tabs and newlines
 * anywhere, and lowercases the scheme), so ` JaVaScRiPt:` and `java\tscript:` are what they
 * look like to it; control characters are refused outright. What remains must be an http(s)
 * address or one of this server's `/files/…` paths: never `javascript:`, `data:` or `vbscript:`.
 */
export function unsafeAddress(address: string): 'controlCharacters' | 'notWebAddress' | 'notWebOrFilesAddress' | undefined {
  if (address === '') return undefined;
  if (/[\u0000-\u001f\u007f]/.test(address)) return 'controlCharacters';
  let absolute: URL | undefined;
  try {
    absolute = new URL(address);
  } catch {
    absolute = undefined;
  }
  if (absolute) return absolute.protocol === 'http:' || absolute.protocol === 'https:' ? undefined : 'notWebAddress';
  return ownFilePath.test(address) ? undefined : 'notWebOrFilesAddress';
}

/** Checks one image object; `extra` names further keys it may carry (an image set's `_id`). */
export function checkImage(value: unknown, extra: readonly string[] = []): Check<Record<string, string>> {
  if (!isPlainObject(value)) return fail('imageNotObject');
  const unknown = extraKeys(value, [...imageKeys, ...extra]);
  if (unknown.length) return fail('unknownKeys', { keys: unknown.join(', ') });
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null || entry === undefined) continue;
    if (typeof entry !== 'string') return fail('notText', { member: key });
    const problem = unstorableTextCode(entry);
    if (problem) return fail(problem, { member: key });
    if (entry.length > contentLimits.urlMax) return fail('tooLong', { member: key, max: contentLimits.urlMax });
    const unsafe = addressKeys.includes(key) ? unsafeAddress(entry) : undefined;
    if (unsafe) return fail(unsafe, { member: key });
    out[key] = entry;
  }
  return ok(out);
}

export const isEmptyImage = (value: unknown) => !isPlainObject(value) || !(typeof value.imageURL === 'string' && value.imageURL) && !(typeof value.fileURL === 'string' && value.fileURL);

export function checkAccept(accept: unknown): SettingRefusal[] {
  if (accept === undefined) return [];
  return typeof accept === 'string' && accept.length <= 1000 && !accept.includes('\u0000')
    ? []
    : [{ path: 'accept', code: 'acceptInvalid' }];
}

const imageSchema = {
  type: 'object',
  properties: Object.fromEntries(imageKeys.map((key) => [key, { type: 'string', maxLength: contentLimits.urlMax }])),
  additionalProperties: false,
};

export const imageRef: FieldType<'ImageRef'> = {
  code: 5,
  name: 'ImageRef',
  labelKey: 'fieldType.imageRef',
  icon: 'image',
  valueSchema: { anyOf: [imageSchema, { type: 'null' }] },
  capabilities: { creatable: true, primary: false, required: true, unique: false, sortable: false },
  settings: ['accept'],
  filterOperators: [],
  storage: { kind: 'column', column: 'jsonb', indexes: [] },
  valueKind: 'json',
  files: 'one',
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
