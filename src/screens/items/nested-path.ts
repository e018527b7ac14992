/**
 * Nested lists (content §2, §3): a nestedID alternates nested collection slugs and item ids,
 * joined by dots (`chapters.<itemId>.sections`). Breadcrumb labels are cut to 10 characters.
 */
import type { SchemaField } from '../../../definitions/field-types/index.ts';

export const breadcrumbMaxChars = 10;

/** A label cut to 10 characters plus "..." (content §2, §9). */
export const truncateLabel = (label: string, max = breadcrumbMaxChars) => ([...label].length > max ? `${[...label].slice(0, max).join('')}...` : label);

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

export interface Crumb {
  label: string;
  /** Route and params of the crumb's page; absent for the current page. */
  route?: string;
  params?: Record<string, string>;
}

/** Collection › item › nested collection › nested item › … down to the list shown. */
export function nestedCrumbs(collection: { id: string; name: string }, itemID: string, nestedID: string, fields: readonly SchemaField[]): Crumb[] {
  const parts = nestedID.split('.');
  const crumbs: Crumb[] = [
    { label: collection.name, route: 'viewCollection', params: { collectionID: collection.id } },
    { label: itemID, route: 'viewItem', params: { collectionID: collection.id, itemID } },
  ];
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (i % 2 === 0) {
      const label = fields[i / 2]?.name ?? part;
      crumbs.push(last ? { label } : { label, route: 'viewNestedCollection', params: { collectionID: collection.id, itemID, nestedID: parts.slice(0, i + 1).join('.') } });
    } else {
      crumbs.push({ label: part, route: 'nestedItem', params: { collectionID: collection.id, itemID, nestedID: parts.slice(0, i).join('.'), collectionNestedID: part } });
    }
  });
  return crumbs;
}
