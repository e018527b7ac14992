/**
 * Value refusals are a closed vocabulary: every code a field type (or the item write) refuses a
 * value with has a catalogue message, every code in the table is used, and the words the API and
 * the console show come from that message with the refusal's values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldTypes, type Check, type SchemaField } from '../../definitions/field-types/index.ts';
import { settingRefusalMessageKeys } from '../../definitions/field-types/setting-refusal.ts';
import { refusalTextOf, valueProblem, valueRefusalMessageKeys, valueRefusalText, type ValueRefusalCode } from '../../definitions/field-types/value-refusal.ts';
import { formatMessage, hasMessage } from '../../definitions/messages/format.ts';
import { fieldErrorsOf, itemFormErrorOf } from '../../machines/item-form-rules.ts';
import { parseProblem } from '../../src/api/errors.ts';

const root = join(import.meta.dirname, '../..');
/** The sources under `dir`, the refusal table itself left out. */
const sourcesUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourcesUnder(join(dir, entry.name))
      : entry.name.endsWith('.ts') && entry.name !== 'value-refusal.ts'
        ? [readFileSync(join(root, dir, entry.name), 'utf8')]
        : [],
  );

const codes = Object.keys(valueRefusalMessageKeys) as ValueRefusalCode[];

/** Values of every shape a field type meets, valid or not. */
const id = 'a'.repeat(24);
const samples: unknown[] = [
  5, Number.NaN, true, '', 'abc', 'a\u0000b', 'a\ud800b', 'x'.repeat(100_001), 'javascript:alert(1)', 'http://a b', 'a\u0001b', 'call me', '2023-02-29', '2024-05-01T24:00:00Z',
  '2024-05-01T10:00:00+25:00', '0000-01-01', 'yesterday', {}, [], [1, 2], { lat: 91, lng: 0 }, { lat: 0, lng: 181 }, { lat: 0, lng: 0, alt: 1 }, { _id: 'green' }, { _id: 'red', colour: 1 },
  { imageURL: 'x', onload: 'y' }, { imageURL: 5 }, { imageURL: 'javascript:x' }, { fileURL: 'a\u0000' }, [{ imageURL: '/files/a' }, { imageURL: 'data:x' }],
  Array.from({ length: 101 }, () => ({ imageURL: '/files/a' })), [{ itemRefID: 'no.pe' }], [{ itemRefID: id }, { itemRefID: id }], [{ itemRefID: id, item: {} }],
  [{ itemRefID: id, sub: 5 }], [{ itemRefID: id, sub: [{ itemRefID: 'bad id' }] }], [{ itemRefID: id, sub: [{ itemRefID: id, x: 1 }] }], { n: Number.POSITIVE_INFINITY },
];
const cells = ['x', 'nope', '1,', '{', 'green'];

describe('value refusals', () => {
  it('give every code a catalogue message (and the prefixes placing a refusal inside a value)', () => {
    const missing = [...Object.values(valueRefusalMessageKeys), 'fieldValue.ofMember', 'fieldValue.ofImage'].filter((key) => !hasMessage(key));
    expect(missing).toEqual([]);
  });

  it('word every refusal the field types make, with all the values its message names', () => {
    const seen = new Set<string>();
    for (const type of fieldTypes) {
      const field: SchemaField = { id: 'f', name: 'F', slug: 'f', type: type.code, options: [{ _id: 'red', value: 'Red' }], nestedReferenceCollectionID: ['sub'] };
      const checks: Check[] = [...samples.map((value) => type.validate(value, field)), ...(type.csv ? cells.map((cell) => type.csv!.fromCell(cell, field)) : [])];
      for (const check of checks) {
        if (check.ok) continue;
        seen.add(check.code);
        // A value the message names but the refusal lacks makes the formatter throw.
        const text = valueRefusalText(check);
        expect(text, check.code).not.toMatch(/^(fieldValue|item)\./);
      }
    }
    expect(seen.size).toBeGreaterThan(40);
    expect(() => formatMessage('fieldValue.tooLong')).toThrow();
  });

  it('has no code that nothing refuses with', () => {
    const text = [...sourcesUnder('definitions/field-types'), readFileSync(join(root, 'server/content/items.ts'), 'utf8')].join('\n');
    const unused = codes.filter((code) => !text.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });

  it('words a code shared with the setting refusals the same way', () => {
    const shared = codes.filter((code) => Object.hasOwn(settingRefusalMessageKeys, code));
    expect(shared).toEqual(['nulCharacter', 'notUnicode']);
    for (const code of shared) expect(valueRefusalText({ code })).toBe(formatMessage(settingRefusalMessageKeys[code as keyof typeof settingRefusalMessageKeys]));
  });

  it('places a refusal inside an image and an image list in the words', () => {
    expect(valueRefusalText({ code: 'tooLong', params: { max: 256 } })).toBe('must be at most 256 characters');
    expect(valueRefusalText({ code: 'notText', params: { member: 'imageURL' } })).toBe('imageURL must be text');
    expect(valueRefusalText({ code: 'notWebAddress', params: { member: 'fileURL', image: 2 } })).toBe('image 2 fileURL must be an http or https address');
  });

  it('gives an errors entry its words, code and values, and the console the same words back', () => {
    const entry = valueProblem('title', { code: 'tooShort', params: { min: 3 } });
    expect(entry).toEqual({ path: 'title', message: 'must be at least 3 characters', code: 'tooShort', params: { min: 3 } });
    expect(refusalTextOf(entry)).toBe(entry.message);
    expect(refusalTextOf({ message: 'as the server says', code: 'tooShort', params: { min: 10 } })).toBe('must be at least 10 characters');
    // A code the console does not know (or none) leaves the server's words.
    expect(refusalTextOf({ message: 'as the server says', code: 'somethingNew' })).toBe('as the server says');
    expect(refusalTextOf({ message: 'as the server says' })).toBe('as the server says');
  });

  it("keeps an errors entry's code and text or number values when the console reads a problem", () => {
    const problem = parseProblem(
      { code: 'validation_failed', detail: 'Some values are not valid.', errors: [{ path: 'title', message: 'm', code: 'tooShort', params: { min: 3, odd: { x: 1 } } }, { path: 'body', message: 'n' }] },
      400,
    );
    expect(problem?.errors).toEqual([{ path: 'title', message: 'm', code: 'tooShort', params: { min: 3 } }, { path: 'body', message: 'n' }]);
  });

  it('shows an item form field error in the catalogue words of its code', () => {
    const schema: SchemaField[] = [{ id: 'f1', name: 'Title', slug: 'title', type: 1 }, { id: 'f2', name: 'Photo', slug: 'photo', type: 5 }];
    const read = itemFormErrorOf({
      status: 400,
      problem: {
        code: 'validation_failed',
        errors: [
          { path: 'title', message: 'worded by the server', code: 'tooShort', params: { min: 3 } },
          { path: 'photo', message: 'worded by the server', code: 'notText', params: { member: 'altText' } },
        ],
      },
    });
    expect(read.errors[0]).toEqual({ path: 'title', message: 'worded by the server', code: 'tooShort', params: { min: 3 } });
    expect(fieldErrorsOf(schema, read)).toEqual({
      title: { key: 'item.fieldRefused', values: { field: 'Title', reason: 'must be at least 3 characters' } },
      photo: { key: 'item.fieldRefused', values: { field: 'Photo', reason: 'altText must be text' } },
    });
  });
});
