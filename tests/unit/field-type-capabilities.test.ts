/**
 * Field types own their behaviour: what other code once decided by a type's name is a capability
 * of the type (value kind, files, modifiers, layout uses, title candidate), read through helpers
 * that never name a type.
 */
import { describe, expect, it } from 'vitest';
import { fieldTypes, titleField, type FieldType, type SchemaField, type ValueKind } from '../../definitions/field-types/index.ts';
import { fittingFields, layoutSettingsProblems } from '../../definitions/layout-settings.ts';

const named = (name: string): FieldType => fieldTypes.find((type) => type.name === name)!;
const field = (slug: string, name: string, extra: Partial<SchemaField> = {}): SchemaField => ({ id: slug, name: slug, slug, type: named(name).code, ...extra });

/** The kind of value a type keeps as it was read from its storage descriptor before types declared it. */
function kindFromStorage(type: FieldType): ValueKind | undefined {
  const storage = type.storage;
  if (storage.kind !== 'column') return undefined;
  switch (storage.column) {
    case 'text':
      return 'text';
    case 'double precision':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'timestamptz':
      return 'date';
    case 'jsonb':
      if (type.filterOperators.includes('within')) return 'geo';
      if (storage.indexes.some((index) => index.on.of === 'member')) return 'option';
      if (storage.indexes.some((index) => index.kind === 'gin')) return 'refs';
      return 'json';
    case 'json':
      return 'json';
  }
}

describe('field type capabilities', () => {
  it('declares the value kind its storage implies, and none without a column', () => {
    for (const type of fieldTypes) expect(type.valueKind, type.name).toBe(kindFromStorage(type));
  });

  it('marks the image types as holding one file or a list of them', () => {
    expect(Object.fromEntries(fieldTypes.filter((type) => type.files).map((type) => [type.name, type.files]))).toEqual({ ImageRef: 'one', ImageRefSet: 'many' });
  });

  it('lets Number be incremented and ItemRef be appended to, nothing else', () => {
    expect(Object.fromEntries(fieldTypes.filter((type) => type.modifiers?.length).map((type) => [type.name, type.modifiers]))).toEqual({
      Number: ['increment'],
      ItemRef: ['append'],
    });
  });

  it('titles an item by its primary field, else its first PlainText field, else nothing', () => {
    const schema = [field('n', 'Number'), field('a', 'PlainText'), field('b', 'PlainText')];
    expect(titleField(schema)?.slug).toBe('a');
    expect(titleField([...schema, field('p', 'Phone', { primaryField: true })])?.slug).toBe('p');
    expect(titleField([field('n', 'Number')])).toBeUndefined();
    expect(titleField(undefined)).toBeUndefined();
  });

  it('fits Date to the calendar times, Number to its duration, Option to kanban columns and GeoPoint to map places', () => {
    const schema = fieldTypes.filter((type) => type.capabilities.creatable).map((type) => field(type.name.toLowerCase(), type.name));
    const slugs = (fields: SchemaField[]) => fields.map((f) => f.slug);
    expect(slugs(fittingFields(schema, 'calendar', 'startKey'))).toEqual(['date']);
    expect(slugs(fittingFields(schema, 'calendar', 'endKey'))).toEqual(['date']);
    expect(slugs(fittingFields(schema, 'calendar', 'durationKey'))).toEqual(['number']);
    expect(slugs(fittingFields(schema, 'kanban', 'activeField'))).toEqual(['option']);
    expect(slugs(fittingFields(schema, 'map', 'activeField'))).toEqual(['geopoint']);
    expect(slugs(fittingFields(schema, 'table', 'activeField'))).toEqual([]);
    expect(layoutSettingsProblems(schema, { startKey: 'number', durationKey: 'date', activeField: 'date' }).map((p) => p.message)).toEqual([
      'must name a Date field',
      'must name a Number field',
      'must name an Option or GeoPoint field',
    ]);
  });
});
