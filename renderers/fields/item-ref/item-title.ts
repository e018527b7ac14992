import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';

/**
 * How a linked item is named: its primary field's display text, else its id. The same rule as
 * the server's stored `value` of a link, so a chip reads the same before and after saving.
 */
export function itemTitle(schema: readonly SchemaField[] | undefined, item: Record<string, unknown>): string {
  const primary = schema?.find((field) => field.primaryField);
  const text = primary ? (fieldType(primary.type)?.display(item[primary.slug], primary) ?? '') : '';
  return text || String(item._id ?? '');
}
