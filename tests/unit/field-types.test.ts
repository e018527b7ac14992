/**
 * The field-type registry: codes and capabilities as the console and the official client expect them,
 * storage descriptors the storage layer can use, and each type's validation on chosen examples.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectionIdProblem, fieldSlugProblem, parseNestedId, slugify } from '../../definitions/content.ts';
import { creatableFieldTypes, fieldType, fieldTypes, type FieldType, type SchemaField, type SettingsContext } from '../../definitions/field-types/index.ts';
import { fieldRefusalMessageKeys, settingProblem, settingRefusalMessageKeys, type FieldRefusalCode, type SettingRefusal } from '../../definitions/field-types/setting-refusal.ts';
import { valueRefusalText } from '../../definitions/field-types/value-refusal.ts';
import { formatMessage, hasMessage } from '../../definitions/messages/format.ts';

/** A type's setting refusals as the API words them (the catalogue's text). */
const worded = (refusals: readonly SettingRefusal[]) => refusals.map(({ path, code, params }) => ({ path, message: formatMessage(settingRefusalMessageKeys[code], params) }));

const byName = (name: string): FieldType => {
  const type = fieldTypes.find((t) => t.name === name);
  if (!type) throw new Error(`no type ${name}`);
  return type;
};
const field = (type: FieldType, extra: Partial<SchemaField> = {}): SchemaField => ({ id: 'f1', name: 'F', slug: 'f', type: type.code, ...extra });
const check = (name: string, value: unknown, extra: Partial<SchemaField> = {}) => {
  const type = byName(name);
  return type.validate(value, field(type, extra));
};
const valid = (name: string, value: unknown, extra?: Partial<SchemaField>) => {
  const result = check(name, value, extra);
  if (!result.ok) throw new Error(`${name} refused ${JSON.stringify(value)}: ${valueRefusalText(result)}`);
  return result.value;
};
const refused = (name: string, value: unknown, extra?: Partial<SchemaField>) => {
  const result = check(name, value, extra);
  expect(result.ok, `${name} accepted ${JSON.stringify(value)}`).toBe(false);
  // The refusal as the API words it (the catalogue's text of its code).
  return result.ok ? '' : valueRefusalText(result);
};
let ids = 0;
const context: SettingsContext = { collectionID: 'posts', collectionIDs: ['posts', 'authors'], newId: () => `gen${++ids}` };

describe('the registry', () => {
  it('holds the wire codes (1–13, 100) and JSON as 14, each once', () => {
    expect(fieldTypes.map((t) => [t.code, t.name])).toEqual([
      [1, 'PlainText'],
      [2, 'RichText'],
      [3, 'Number'],
      [4, 'Phone'],
      [5, 'ImageRef'],
      [6, 'ItemRef'],
      [7, 'Option'],
      [8, 'Bool'],
      [9, 'Link'],
      [10, 'Date'],
      [11, 'ImageRefSet'],
      [12, 'NestedCollection'],
      [13, 'GeoPoint'],
      [14, 'JSON'],
      [100, 'Metadata'],
    ]);
    expect(new Set(fieldTypes.map((t) => t.code)).size).toBe(fieldTypes.length);
    expect(fieldType(7)).toBe(byName('Option'));
    expect(fieldType(15)).toBeUndefined();
    expect(fieldType(0)).toBeUndefined();
  });

  it('offers every type but Metadata for new fields', () => {
    expect(creatableFieldTypes.map((t) => t.name)).not.toContain('Metadata');
    expect(creatableFieldTypes).toHaveLength(fieldTypes.length - 1);
  });

  it('refuses primary for NestedCollection, ItemRef, GeoPoint, ImageRef, ImageRefSet and required for NestedCollection', () => {
    const noPrimary = fieldTypes.filter((t) => t.capabilities.creatable && !t.capabilities.primary).map((t) => t.name);
    expect(noPrimary.sort()).toEqual(['GeoPoint', 'ImageRef', 'ImageRefSet', 'ItemRef', 'NestedCollection'].sort());
    const noRequired = fieldTypes.filter((t) => t.capabilities.creatable && !t.capabilities.required).map((t) => t.name);
    expect(noRequired).toEqual(['NestedCollection']);
  });

  it('declares the filter operators of each type', () => {
    const operators = Object.fromEntries(fieldTypes.map((t) => [t.name, t.filterOperators]));
    for (const name of ['Option', 'PlainText', 'Number', 'Bool', 'RichText', 'Date', 'ItemRef', 'Link']) expect(operators[name], name).toContain('=');
    for (const name of ['Phone', 'ImageRef', 'ImageRefSet', 'NestedCollection', 'JSON', 'Metadata']) expect(operators[name], name).not.toContain('=');
    for (const t of fieldTypes) expect(t.filterOperators.includes('>'), t.name).toBe(t.name === 'Number' || t.name === 'Date');
    for (const t of fieldTypes) expect(t.filterOperators.includes('regex'), t.name).toBe(['PlainText', 'RichText', 'Link'].includes(t.name));
    expect(byName('PlainText').defaultOperator).toBe('regex');
    expect(byName('Bool').defaultOperator).toBe('=');
  });

  it('searches text fields by regex and numbers by equality', () => {
    const search = Object.fromEntries(fieldTypes.filter((t) => t.search).map((t) => [t.name, t.search]));
    expect(search).toEqual({ PlainText: 'regex', RichText: 'regex', Phone: 'regex', Link: 'regex', ItemRef: 'regex', Number: 'equals' });
  });

  it('gives every sortable type a column and a btree index on what it sorts by', () => {
    for (const t of fieldTypes) {
      if (!t.capabilities.sortable) continue;
      expect(t.storage.kind, t.name).toBe('column');
      if (t.storage.kind !== 'column') continue;
      expect(t.storage.sortKey, t.name).toBeDefined();
      expect(t.storage.indexes.some((index) => index.kind === 'btree' && JSON.stringify(index.on) === JSON.stringify(t.storage.kind === 'column' && t.storage.sortKey)), t.name).toBe(true);
    }
    for (const t of fieldTypes.filter((t) => t.search === 'regex' && t.storage.kind === 'column' && t.name !== 'ItemRef')) {
      expect(t.storage.kind === 'column' && t.storage.indexes.some((index) => index.kind === 'trigram'), t.name).toBe(true);
    }
    expect(byName('NestedCollection').storage.kind).toBe('table');
    expect(byName('Metadata').storage.kind).toBe('none');
  });

  it('has a CSV form for every type that is a column, and none for nested collections and metadata', () => {
    for (const t of fieldTypes) expect(Boolean(t.csv), t.name).toBe(t.storage.kind === 'column');
  });

  it('never throws on any input and refuses the wrong JSON types', () => {
    const samples: unknown[] = [0, 1.5, -1, true, false, 'text', '', [], [1], {}, { a: 1 }];
    for (const t of fieldTypes) for (const sample of samples) expect(() => t.validate(sample, field(t))).not.toThrow();
    refused('PlainText', 5);
    refused('PlainText', true);
    refused('RichText', {});
    refused('Number', '5');
    refused('Number', Number.NaN);
    refused('Number', Number.POSITIVE_INFINITY);
    refused('Phone', 5551234);
    refused('Bool', 'true');
    refused('Bool', 0);
    refused('Date', 1714550400);
    refused('Link', ['http://x']);
    refused('ImageRef', 'http://x/a.png');
    refused('ImageRefSet', {});
    refused('GeoPoint', [1, 2]);
    refused('ItemRef', { itemRefID: 'a'.repeat(24) });
    refused('Option', 'red');
  });
});

describe('PlainText', () => {
  it('keeps text, treats the empty string as not set and refuses what PostgreSQL cannot store', () => {
    expect(valid('PlainText', 'Hello')).toBe('Hello');
    expect(valid('PlainText', '')).toBeNull();
    expect(refused('PlainText', 'a\u0000b')).toMatch(/NUL/);
    expect(refused('PlainText', 'a\ud800b')).toMatch(/Unicode/);
    expect(valid('PlainText', '😀')).toBe('😀');
  });

  it('counts characters (not UTF-16 units) against min and max', () => {
    expect(valid('PlainText', '😀😀', { max: 2 })).toBe('😀😀');
    expect(refused('PlainText', 'abc', { max: 2 })).toMatch(/at most 2/);
    expect(refused('PlainText', 'a', { min: 2 })).toMatch(/at least 2/);
    expect(refused('PlainText', 'x'.repeat(10_001))).toMatch(/at most 10000/);
  });

  it('checks its min and max settings', () => {
    const t = byName('PlainText');
    expect(worded(t.checkSettings!(field(t, { min: 3, max: 2 }), context).problems)).toEqual([{ path: 'min', message: 'must not be more than max' }]);
    expect(t.checkSettings!(field(t, { min: -1 }), context).problems[0]!.path).toBe('min');
    expect(t.checkSettings!(field(t, { max: 1.5 }), context).problems[0]!.path).toBe('max');
    expect(t.checkSettings!(field(t, { min: 1, max: 5 }), context).problems).toEqual([]);
  });
});

describe('Number, Phone, Bool', () => {
  it('takes finite numbers only and folds -0 into 0', () => {
    expect(valid('Number', 3.25)).toBe(3.25);
    expect(Object.is(valid('Number', -0), 0)).toBe(true);
    expect(valid('Number', -1e300)).toBe(-1e300);
  });

  it('reduces a phone number to its digits', () => {
    expect(valid('Phone', '+1 (555) 010-2030')).toBe('15550102030');
    expect(valid('Phone', '  ')).toBeNull();
    expect(refused('Phone', 'call me')).toMatch(/digits/);
    expect(refused('Phone', '1'.repeat(33))).toMatch(/at most 32/);
  });

  it('is never empty for required and gives new items its default', () => {
    const t = byName('Bool');
    expect(valid('Bool', false)).toBe(false);
    expect(t.isEmpty(null)).toBe(false);
    expect(t.defaultFor!(field(t, { defaultValue: true }))).toBe(true);
    expect(t.defaultFor!(field(t, { defaultValue: null }))).toBeUndefined();
    expect(t.checkSettings!(field(t, { defaultValue: 'yes' as unknown as boolean }), context).problems[0]!.path).toBe('defaultValue');
  });
});

describe('Link', () => {
  it('takes up to 256 characters of a web, mail or phone address and refuses script schemes', () => {
    expect(valid('Link', ' https://example.com/a?b=c ')).toBe('https://example.com/a?b=c');
    expect(valid('Link', 'example.com/page')).toBe('example.com/page');
    expect(valid('Link', 'mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(refused('Link', 'javascript:alert(1)')).toMatch(/must be an/);
    expect(refused('Link', 'JavaScript:1')).toMatch(/must be an/);
    expect(refused('Link', 'data:text/html,x')).toMatch(/must be an/);
    expect(refused('Link', 'http://a b')).toMatch(/spaces/);
    expect(refused('Link', `https://example.com/${'a'.repeat(240)}`)).toMatch(/256/);
  });
});

describe('Date', () => {
  it('normalises RFC 3339 date-times to UTC milliseconds and a bare date to its UTC midnight', () => {
    expect(valid('Date', '2024-05-01T09:30:00Z')).toBe('2024-05-01T09:30:00.000Z');
    expect(valid('Date', '2024-05-01T11:30:00.123456+02:00')).toBe('2024-05-01T09:30:00.123Z');
    expect(valid('Date', '2024-05-01t09:30z')).toBe('2024-05-01T09:30:00.000Z');
    expect(valid('Date', '2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
  });

  it('refuses impossible dates, times and years', () => {
    refused('Date', '2023-02-29');
    refused('Date', '2024-13-01');
    refused('Date', '2024-05-01T24:00:00Z');
    refused('Date', '2024-05-01T10:00:00');
    refused('Date', '0000-01-01');
    refused('Date', '9999-12-31T23:00:00-02:00');
    refused('Date', 'yesterday');
  });
});

describe('Option', () => {
  const options = [
    { _id: 'red', value: 'Red' },
    { _id: 'blue', value: 'Blue' },
  ];

  it('is written as {_id} and stored as {_id, value} with the option’s text', () => {
    expect(valid('Option', { _id: 'red' }, { options })).toEqual({ _id: 'red', value: 'Red' });
    expect(valid('Option', { _id: 'blue', value: 'stale text' }, { options })).toEqual({ _id: 'blue', value: 'Blue' });
    expect(refused('Option', { _id: 'green' }, { options })).toMatch(/no option/);
    refused('Option', { _id: 'red', colour: 1 }, { options });
  });

  it('needs at least one option with text, gives options ids and refuses duplicates', () => {
    const t = byName('Option');
    expect(worded(t.checkSettings!(field(t, { options: [] }), context).problems)).toEqual([{ path: 'options', message: 'needs at least one option' }]);
    expect(t.checkSettings!(field(t), context).problems[0]!.path).toBe('options');
    expect(worded(t.checkSettings!(field(t, { options: [{ value: '  ' } as never] }), context).problems)).toEqual([{ path: 'options.0.value', message: 'must not be empty' }]);
    const made = t.checkSettings!(field(t, { options: [{ value: ' Small ' } as never, { _id: 'l', value: 'Large' }] }), context);
    expect(made.problems).toEqual([]);
    expect(made.field.options).toEqual([{ _id: expect.stringMatching(/^gen/), value: 'Small' }, { _id: 'l', value: 'Large' }]);
    const twice = t.checkSettings!(field(t, { options: [{ _id: 'a', value: 'A' }, { _id: 'a', value: 'B' }] }), context);
    expect(worded(twice.problems)).toEqual([{ path: 'options.1._id', message: 'is used by another option' }]);
  });
});

describe('ItemRef', () => {
  const a = 'a'.repeat(24);
  const b = 'b'.repeat(24);

  it('is written as [{itemRefID}] and resolved to [{itemRefID, value}] from the linked items', async () => {
    const t = byName('ItemRef');
    const f = field(t, { referenceCollectionID: 'authors' });
    expect(valid('ItemRef', [{ itemRefID: a }, { itemRefID: b, value: 'ignored' }])).toEqual([{ itemRefID: a }, { itemRefID: b }]);
    const lookups: string[] = [];
    const resolved = await t.resolve!([{ itemRefID: a }, { itemRefID: b }], f, {
      referencedItems: async (collection, ids) => {
        lookups.push(collection);
        return new Map(ids.filter((id) => id === a || id === b).map((id) => [id, id === a ? 'Ada' : 'Bob']));
      },
    });
    expect(resolved).toEqual({ ok: true, value: [{ itemRefID: a, value: 'Ada' }, { itemRefID: b, value: 'Bob' }] });
    expect(lookups).toEqual(['authors']);
    const missing = await t.resolve!([{ itemRefID: 'c'.repeat(24) }], f, { referencedItems: async () => new Map() });
    expect(missing.ok).toBe(false);
  });

  it('refuses ids that are not item ids, duplicates and extra keys', () => {
    refused('ItemRef', [{ itemRefID: 'no.pe' }]);
    refused('ItemRef', [{ itemRefID: 'x'.repeat(65) }]);
    refused('ItemRef', [{ itemRefID: a }, { itemRefID: a }]);
    refused('ItemRef', [{ itemRefID: a, item: {} }]);
    expect(valid('ItemRef', [])).toBeNull();
  });

  it('needs a reference to another existing collection of the project', () => {
    const t = byName('ItemRef');
    const problems = (extra: Partial<SchemaField>) => t.checkSettings!(field(t, extra), context).problems.map((p) => p.path);
    expect(problems({})).toEqual(['referenceCollectionID']);
    expect(problems({ referenceCollectionID: 'posts' })).toEqual(['referenceCollectionID']);
    expect(problems({ referenceCollectionID: 'missing' })).toEqual(['referenceCollectionID']);
    expect(problems({ referenceCollectionID: 'authors' })).toEqual([]);
    expect(problems({ referenceCollectionID: 'authors', nestedReferenceCollectionID: ['bad slug'] })).toEqual(['nestedReferenceCollectionID']);
  });
});

describe('images, geo points, JSON, nested collections and metadata', () => {
  it('keeps only the known image keys', () => {
    expect(valid('ImageRef', { imageURL: 'https://x/a.png', altText: 'A' })).toEqual({ imageURL: 'https://x/a.png', altText: 'A' });
    expect(valid('ImageRef', {})).toBeNull();
    expect(refused('ImageRef', { imageURL: 'x', onload: 'y' })).toMatch(/unknown keys: onload/);
    expect(valid('ImageRefSet', [{ _id: '1', imageURL: '/files/a' }, { imageURL: 'https://x/b.png' }])).toEqual([{ _id: '1', imageURL: '/files/a' }, { imageURL: 'https://x/b.png' }]);
    refused('ImageRefSet', Array.from({ length: 101 }, () => ({ imageURL: '/files/a' })));
  });

  it('takes {lat, lng} within range', () => {
    expect(valid('GeoPoint', { lat: 48.8584, lng: 2.2945 })).toEqual({ lat: 48.8584, lng: 2.2945 });
    refused('GeoPoint', { lat: 91, lng: 0 });
    refused('GeoPoint', { lat: 0, lng: -180.5 });
    refused('GeoPoint', { lat: 0 });
    refused('GeoPoint', { lat: 0, lng: 0, alt: 1 });
    refused('GeoPoint', { lat: '1', lng: 2 });
  });

  it('takes any JSON value PostgreSQL can store, within its size', () => {
    expect(valid('JSON', { a: [1, 'two', null, { b: false }] })).toEqual({ a: [1, 'two', null, { b: false }] });
    expect(valid('JSON', 'just text')).toBe('just text');
    expect(refused('JSON', { 'a\u0000': 1 })).toMatch(/NUL/);
    expect(refused('JSON', { a: 'x'.repeat(100_001) })).toMatch(/bytes/);
  });

  it('refuses values written to a nested collection or the metadata', () => {
    expect(refused('NestedCollection', [])).toMatch(/nestedID/);
    refused('Metadata', {});
  });
});

describe('refusals of a field definition', () => {
  const root = join(import.meta.dirname, '../..');
  const sourcesUnder = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sourcesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') && entry.name !== 'setting-refusal.ts' ? [readFileSync(join(root, dir, entry.name), 'utf8')] : [],
    );
  const codes = Object.keys(fieldRefusalMessageKeys) as FieldRefusalCode[];

  it('have a catalogue text for every code', () => {
    expect(codes.filter((code) => !hasMessage(fieldRefusalMessageKeys[code]))).toEqual([]);
    expect(Object.keys(settingRefusalMessageKeys).every((code) => Object.hasOwn(fieldRefusalMessageKeys, code))).toBe(true);
  });

  it('have no code that nothing refuses with', () => {
    const text = [...sourcesUnder('definitions/field-types'), ...['definitions/content.ts', 'server/content/field-input.ts'].map((file) => readFileSync(join(root, file), 'utf8'))].join('\n');
    expect(codes.filter((code) => !text.includes(`'${code}'`))).toEqual([]);
  });

  it('travel as a code with its values beside the catalogue words', () => {
    expect(settingProblem('schema.0.helpText', { code: 'helpTextInvalid', params: { max: 1000 } })).toEqual({
      path: 'schema.0.helpText',
      code: 'helpTextInvalid',
      params: { max: 1000 },
      message: 'must be text of at most 1000 characters',
    });
    expect(settingProblem('schema', { code: 'schemaNotList' })).toEqual({ path: 'schema', code: 'schemaNotList', message: 'must be a list of fields' });
  });
});

describe('content constants', () => {
  it('slugifies collection ids', () => {
    expect(slugify('My blog  posts')).toBe('myBlogPosts');
    expect(slugify('Price list (2024)!')).toBe('priceList2024');
    expect(slugify('  Über-cool items ')).toBe('ber-coolItems');
    expect(slugify('Articles')).toBe('articles');
  });

  it('refuses ids with other characters, reserved ids and empty ids', () => {
    expect(collectionIdProblem('articles')).toBeUndefined();
    expect(collectionIdProblem('blog-posts2')).toBeUndefined();
    expect(collectionIdProblem('new')).toMatch(/reserved/);
    expect(collectionIdProblem('my posts')).toMatch(/letters, digits and hyphens/);
    expect(collectionIdProblem('Posts')).toMatch(/posts/);
    expect(collectionIdProblem('')).toMatch(/empty/);
    expect(collectionIdProblem('a'.repeat(65))).toMatch(/64/);
  });

  it('refuses reserved and malformed field slugs', () => {
    for (const slug of ['_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank', '_metadata']) expect(fieldSlugProblem(slug), slug).toMatch(/reserved/);
    expect(fieldSlugProblem('title')).toBeUndefined();
    expect(fieldSlugProblem('first_name-2')).toBeUndefined();
    expect(fieldSlugProblem('2fast')).toBeDefined();
    expect(fieldSlugProblem('a.b')).toBeDefined();
  });

  it('parses nested-id chains that alternate slugs and item ids', () => {
    expect(parseNestedId('')).toEqual([]);
    expect(parseNestedId('chapters')).toEqual([{ kind: 'collection', slug: 'chapters' }]);
    expect(parseNestedId('chapters.2.paragraphs')).toEqual([
      { kind: 'collection', slug: 'chapters' },
      { kind: 'item', id: '2' },
      { kind: 'collection', slug: 'paragraphs' },
    ]);
    expect(parseNestedId('chapters..x')).toBeUndefined();
  });
});
