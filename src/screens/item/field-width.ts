/**
 * How wide a field sits on the item page when the page is wide enough for two columns
 * (docs/console-delivery.md): short values (a line of text, a number, a date, a choice) take half
 * the width and pair up in reading order; values that need room (rich text, JSON, a map, images,
 * nested collections) take the whole width.
 */
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { fieldRendererOf } from '../../../renderers/fields/index.ts';

export type FieldWidth = 'half' | 'full';

export function fieldWidth(field: SchemaField): FieldWidth {
  // Which types need room is each type's console renderer's `fullWidth`; an unknown type takes the whole width.
  const renderer = fieldRendererOf(field.type);
  return renderer === undefined || renderer.fullWidth === true ? 'full' : 'half';
}

const cssString = (text: string) => `"${text.replace(/["\\\n]/g, (character) => `\\${character === '\n' ? 'a ' : character}`)}"`;

/**
 * The style rules that set the full-width fields of one form across both columns: the fields are
 * drawn by the generic field renderers, which know nothing of the page's columns, and are found
 * by their `data-field` slug inside the form marked `data-item-form={formKey}`.
 */
export function fullWidthRules(formKey: string, schema: readonly SchemaField[]): string {
  return schema
    .filter((field) => fieldWidth(field) === 'full')
    .map((field) => `[data-item-form=${cssString(formKey)}] .item-fields > [data-field=${cssString(field.slug)}]{grid-column:1/-1}`)
    .join('\n');
}
