/** Small pure helpers the field types share. */
import type { Check, CsvCodec, StorageDescriptor } from './types.ts';

export const ok = <T>(value: T): Check<T> => ({ ok: true, value });
export const fail = (message: string): Check<never> => ({ ok: false, message });

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string cannot be stored, or undefined. PostgreSQL refuses NUL in text and jsonb, and a
 * lone surrogate is not Unicode text (it would be silently replaced or refused by jsonb).
 */
export function unstorableText(text: string): string | undefined {
  const code = unstorableTextCode(text);
  if (code === 'nulCharacter') return 'must not contain the NUL character';
  if (code === 'notUnicode') return 'must be valid Unicode text';
  return undefined;
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

/** Checks every string (keys included) inside a JSON value. */
export function unstorableJson(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return 'is nested too deeply';
  if (typeof value === 'string') return unstorableText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a finite number';
  if (Array.isArray(value)) {
    for (const entry of value) {
      const problem = unstorableJson(entry, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const [key, entry] of Object.entries(value)) {
      const problem = unstorableText(key) ?? unstorableJson(entry, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
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
      return fail('is not valid JSON');
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
