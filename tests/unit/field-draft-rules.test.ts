import { describe, expect, it } from 'vitest';
import {
  applyDraftChanges,
  changeDraftType,
  draftOfField,
  fieldDraftMessageKeys,
  fieldDraftProblems,
  fieldInputOf,
  isFieldDraftValid,
  newFieldDraft,
  nonEmptyOptions,
  slugFromName,
  type FieldDraft,
  type FieldDraftRulesContext,
} from '../../definitions/field-draft-rules.ts';
import { creatableFieldTypes, fieldTypes } from '../../definitions/field-types/index.ts';
import { systemKeys } from '../../definitions/content.ts';
import en from '../../definitions/messages/en.json' with { type: 'json' };

const codeOf = (name: string) => {
  const type = fieldTypes.find((candidate) => candidate.name === name);
  if (!type) throw new Error(`no type ${name}`);
  return type.code;
};

const rules = { siblingSlugs: ['title', 'body'], collectionID: 'posts', collectionIDs: ['posts', 'authors'] };
const draftOf = (name: string, extra: Partial<FieldDraft> = {}): FieldDraft => ({ ...newFieldDraft(codeOf(name)), name: 'Summary', slug: 'summary', ...extra });
const codes = (draft: FieldDraft, context: FieldDraftRulesContext = rules) => fieldDraftProblems(draft, context).map((problem) => `${problem.path}:${problem.code}`);

describe('field draft rules', () => {
  it('accepts a plain text draft with a name and a free slug', () => {
    expect(codes(draftOf('PlainText'))).toEqual([]);
    expect(isFieldDraftValid(draftOf('PlainText'), rules)).toBe(true);
  });

  it('needs a name and a slug', () => {
    expect(codes(draftOf('PlainText', { name: '   ', slug: '' }))).toEqual(['name:nameMissing', 'slug:slugMissing']);
    expect(isFieldDraftValid(draftOf('PlainText', { name: '' }), rules)).toBe(false);
  });

  it('refuses a name longer than the limit', () => {
    expect(codes(draftOf('PlainText', { name: 'x'.repeat(101) }))).toEqual(['name:nameTooLong']);
  });

  it.each([...systemKeys, '_metadata'])('refuses the reserved slug %s', (slug) => {
    expect(codes(draftOf('PlainText', { slug }))).toEqual(['slug:slugReserved']);
  });

  it('refuses a slug a sibling has, and malformed slugs', () => {
    expect(codes(draftOf('PlainText', { slug: 'title' }))).toEqual(['slug:slugTaken']);
    expect(codes(draftOf('PlainText', { slug: '1st' }))).toEqual(['slug:slugInvalid']);
    expect(codes(draftOf('PlainText', { slug: 'a b' }))).toEqual(['slug:slugInvalid']);
    expect(codes(draftOf('PlainText', { slug: 'a'.repeat(65) }))).toEqual(['slug:slugInvalid']);
  });

  it('refuses an unknown type', () => {
    expect(codes({ ...draftOf('PlainText'), type: 9999 })).toEqual(['type:typeUnknown']);
  });

  it('needs at least one non-empty option for an option field', () => {
    expect(codes(draftOf('Option'))).toEqual(['options:optionsMissing']);
    expect(codes(draftOf('Option', { options: [{ _id: '', value: '  ' }] }))).toEqual(['options:optionsMissing']);
    expect(codes(draftOf('Option', { options: [{ _id: '', value: 'Red' }] }))).toEqual([]);
  });

  it('needs an item reference to name another, existing collection', () => {
    expect(codes(draftOf('ItemRef'))).toEqual(['referenceCollectionID:referenceMissing']);
    expect(codes(draftOf('ItemRef', { referenceCollectionID: 'posts' }))).toEqual(['referenceCollectionID:referenceSelf']);
    expect(codes(draftOf('ItemRef', { referenceCollectionID: 'ghosts' }))).toEqual(['referenceCollectionID:referenceUnknown']);
    expect(codes(draftOf('ItemRef', { referenceCollectionID: 'authors' }))).toEqual([]);
    // Without the project's collection list only presence and self are checked.
    expect(codes(draftOf('ItemRef', { referenceCollectionID: 'ghosts' }), { siblingSlugs: [] })).toEqual([]);
  });

  it('checks plain text min and max counts', () => {
    expect(codes(draftOf('PlainText', { min: 5, max: 2 }))).toEqual(['min:minMaxInvalid']);
    expect(codes(draftOf('PlainText', { min: -1 }))).toEqual(['min:minMaxInvalid']);
    expect(codes(draftOf('PlainText', { max: 1.5 }))).toEqual(['min:minMaxInvalid']);
    expect(codes(draftOf('PlainText', { min: 1, max: 10 }))).toEqual([]);
  });

  it('refuses primary, required and unique where the registry says the type cannot have them', () => {
    const cannotBePrimary = creatableFieldTypes.filter((type) => !type.capabilities.primary);
    expect(cannotBePrimary.length).toBeGreaterThan(0);
    for (const type of cannotBePrimary) {
      const problems = codes({ ...draftOf('PlainText'), type: type.code, primaryField: true, required: true, referenceCollectionID: 'authors' });
      expect(problems).toContain('primaryField:primaryNotAllowed');
    }
    expect(codes(draftOf('NestedCollection', { required: true }))).toEqual(['required:requiredNotAllowed']);
    expect(codes(draftOf('Option', { unique: true, options: [{ _id: 'a', value: 'A' }] }))).toEqual(['unique:uniqueNotAllowed']);
  });

  it('says primary needs required', () => {
    expect(codes(draftOf('PlainText', { primaryField: true, required: false }))).toEqual(['required:primaryNeedsRequired']);
    expect(codes(draftOf('PlainText', { primaryField: true, required: true }))).toEqual([]);
  });
});

describe('field draft helpers', () => {
  it('derives the slug from the name in camelCase', () => {
    expect(slugFromName('Blog post title!')).toBe('blogPostTitle');
  });

  it('forces required when primary is switched on and keeps it while primary', () => {
    const primary = applyDraftChanges(draftOf('PlainText'), { primaryField: true });
    expect(primary).toMatchObject({ primaryField: true, required: true });
    expect(applyDraftChanges(primary, { required: false }).required).toBe(true);
  });

  it('switches off what the type cannot take', () => {
    expect(applyDraftChanges(draftOf('NestedCollection'), { required: true, primaryField: true, unique: true })).toMatchObject({
      required: false,
      primaryField: false,
      unique: false,
    });
  });

  it('drops settings the new type does not take when the type changes', () => {
    const option = draftOf('Option', { options: [{ _id: '', value: 'A' }], primaryField: true, required: true });
    const changed = changeDraftType(option, codeOf('GeoPoint'));
    expect(changed.options).toBeUndefined();
    expect(changed.primaryField).toBe(false);
    expect(changed.type).toBe(codeOf('GeoPoint'));
  });

  it('trims options and leaves out empty ones', () => {
    expect(nonEmptyOptions([{ _id: '', value: ' A ' }, { _id: 'x', value: ' ' }])).toEqual([{ _id: '', value: 'A' }]);
    expect(nonEmptyOptions(undefined)).toEqual([]);
  });

  it('builds the request body with only the type’s settings, without type and slug for updates', () => {
    const draft = { ...draftOf('Option', { name: ' Colour ', options: [{ _id: '', value: 'Red' }, { _id: '', value: '' }] }), referenceCollectionID: 'authors' };
    const body = fieldInputOf(draft);
    expect(body).toMatchObject({ name: 'Colour', slug: 'summary', type: codeOf('Option'), options: [{ _id: '', value: 'Red' }] });
    expect(body).not.toHaveProperty('referenceCollectionID');
    const update = fieldInputOf(draft, { forUpdate: true });
    expect(update).not.toHaveProperty('type');
    expect(update).not.toHaveProperty('slug');
  });

  it('makes the draft of a saved field with defaults for missing flags', () => {
    expect(draftOfField({ id: 'f1', name: 'A', slug: 'a', type: codeOf('PlainText') })).toEqual({ name: 'A', slug: 'a', type: codeOf('PlainText'), required: false, primaryField: false });
  });
});

describe('field draft messages', () => {
  it('has a catalogue text for every problem and every field type label', () => {
    const catalogue = en as Record<string, string>;
    for (const key of Object.values(fieldDraftMessageKeys)) expect(catalogue[key], key).toEqual(expect.any(String));
    for (const type of fieldTypes) expect(catalogue[type.labelKey], type.labelKey).toEqual(expect.any(String));
    expect(catalogue['fieldType.plainText']).toBe('Plain text');
  });
});
