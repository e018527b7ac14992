/**
 * Nested lists: a nestedID alternates nested collection slugs and item ids,
 * joined by dots (`chapters.<itemId>.sections`). The breadcrumbs of the fold come from the
 * nested-navigation machine (machines/nested-navigation-rules.ts).
 */
import type { SchemaField } from '../../../definitions/field-types/index.ts';

/** The nested collection slugs of a nestedID, without the item ids: the path column layouts are kept under. */
export const slugPath = (nestedID: string) =>
  nestedID
    .split('.')
    .filter((_, i) => i % 2 === 0)
    .join('.');

/** The nested-collection fields a nestedID walks through, outermost first; undefined when a slug is unknown. */
export function nestedFields(schema: readonly SchemaField[], nestedID: string): SchemaField[] | undefined {
  const fields: SchemaField[] = [];
  let level: readonly SchemaField[] = schema;
  for (const slug of slugPath(nestedID).split('.')) {
    const field = level.find((candidate) => candidate.slug === slug);
    if (!field) return undefined;
    fields.push(field);
    level = field.nestedCollectionSchema ?? [];
  }
  return fields;
}
