/**
 * The console's field registry (renderers/fields/index.ts) covers every field type: it is a
 * `Record<FieldTypeName, FieldRenderer>`, so a type without an editor, display or icon fails the
 * type check (`npx tsc`), and at run time every type has each of them.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { fieldTypes, type FieldTypeName } from '../../../definitions/field-types/index.ts';
import { fieldRendererOf, fieldRenderers, type FieldRenderer } from '../../../renderers/fields/index.ts';

describe('the console field registry', () => {
  it('is keyed by exactly the field type names, each with an editor, a display and an icon (compile time)', () => {
    expectTypeOf(fieldRenderers).toEqualTypeOf<Readonly<Record<FieldTypeName, FieldRenderer>>>();
    expectTypeOf<keyof typeof fieldRenderers>().toEqualTypeOf<FieldTypeName>();
    expectTypeOf<FieldRenderer['Editor']>().not.toBeNullable();
    expectTypeOf<FieldRenderer['Display']>().not.toBeNullable();
    expectTypeOf<FieldRenderer['icon']>().not.toBeNullable();
    const { Metadata: _left, ...withoutOne } = fieldRenderers;
    // @ts-expect-error a registry missing a type does not compile
    const incomplete: Record<FieldTypeName, FieldRenderer> = withoutOne;
    expect(Object.keys(incomplete)).toHaveLength(fieldTypes.length - 1);
  });

  it('gives every registered type an editor, a display and an icon (run time)', () => {
    expect(Object.keys(fieldRenderers).sort()).toEqual(fieldTypes.map((type) => type.name).sort());
    for (const type of fieldTypes) {
      const renderer = fieldRendererOf(type.code);
      expect(renderer, type.name).toBe(fieldRenderers[type.name]);
      expect(renderer?.Editor, type.name).toBeTruthy();
      expect(renderer?.Display, type.name).toBeTruthy();
      expect(renderer?.icon, type.name).toBeTruthy();
    }
    expect(fieldRendererOf(999)).toBeUndefined();
  });

  it('gives every type with settings people edit a settings editor, and no other type one', () => {
    // Nested collections' schemas are edited by the nested builder, not a settings editor.
    const editable = (names: readonly string[]) => names.some((setting) => setting !== 'nestedCollectionSchema');
    for (const type of fieldTypes) expect(fieldRenderers[type.name].Settings !== undefined, type.name).toBe(editable(type.settings));
  });
});
