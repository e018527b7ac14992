/** Small pure helpers the field types share. */
import type { Check, CsvCodec, StorageDescriptor } from './types.ts';
import { valueRefusalText, type RefusalParams, type ValueRefusalCode } from './value-refusal.ts';

export const ok = <T>(value: T): Check<T> => ({ ok: true, value });
export const fail = (code: ValueRefusalCode, params?: RefusalParams): Check<never> => ({ ok: false, code, ...(params ? { params } : {}) });

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string cannot be stored, or undefined. PostgreSQL refuses NUL in text and jsonb, and a
 * lone surrogate is not Unicode text (it would be silently replaced or refused by jsonb).
 */
export function unstorableText(text: string): string | undefined {
  const code = unstorableTextCode(text);
  return code && valueRefusalText({ code });
}

/** Why a string cannot be stored, as a refusal code, or undefined (the rule of `unstorableText`). */
export function unstorableTextCode(text: string): 'nulCharacter' | 'notUnicode' | undefined {
  if (text.includes('\u0000')) return 'nulCharacter';
  if (loneSurrogate.test(text)) return 'notUnicode';
  return undefined;
}

/** Characters as people count them (code points, not UTF-16 units). */
export const characterCount = (text: string) => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

/** Not set: null, undefined, an empty string or an empty list. */
export const isBlank = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** Why a JSON value cannot be stored (every string checked, keys included), as a refusal code, or undefined. */
export function unstorableJsonCode(value: unknown, depth = 0): 'jsonTooDeep' | 'notFinite' | 'nulCharacter' | 'notUnicode' | undefined {
  if (depth > 64) return 'jsonTooDeep';
  if (typeof value === 'string') return unstorableTextCode(value);
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'notFinite';
  if (Array.isArray(value)) {
    for (const entry of value) {
      const problem = unstorableJsonCode(entry, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const [key, entry] of Object.entries(value)) {
      const problem = unstorableTextCode(key) ?? unstorableJsonCode(entry, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Why a JSON value cannot be stored, worded (the rule of `unstorableJsonCode`), or undefined. */
export function unstorableJson(value: unknown): string | undefined {
  const code = unstorableJsonCode(value);
  return code && valueRefusalText({ code });
}

/** A cell holding the text itself. */
export const textCsv: CsvCodec = {
  sqlForm: { of: 'text' },
  toCell: (value) => (typeof value === 'string' ? value : ''),
  fromCell: (cell) => ok(cell === '' ? null : cell),
};

/** A cell holding the value as JSON text. */
export const jsonCsv: CsvCodec = {
  sqlForm: { of: 'json' },
  toCell: (value) => (value === null || value === undefined ? '' : JSON.stringify(value)),
  fromCell: (cell) => {
    if (cell.trim() === '') return ok(null);
    try {
      return ok(JSON.parse(cell) as unknown);
    } catch {
      return fail('jsonInvalid');
    }
  },
};

/** The keys of an object that are not in `allowed`. */
export const extraKeys = (value: Record<string, unknown>, allowed: readonly string[]) => Object.keys(value).filter((key) => !allowed.includes(key));

/** Short text kept whole in a column: a btree to sort and filter, a trigram index for search. */
export const searchableTextStorage: StorageDescriptor = {
  kind: 'column',
  column: 'text',
  indexes: [
    { kind: 'btree', on: { of: 'value' } },
    { kind: 'trigram', on: { of: 'value' } },
  ],
  sortKey: { of: 'value' },
};
