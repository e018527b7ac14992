/**
 * The lists a subscriber may name (integrations' and functions' triggers; docs/integrations.md
 * "Instances", docs/functions.md "Event and schedule triggers"): the top-level collections and,
 * under each, its nested lists at any depth, as the server takes them (`posts.comments`).
 */
import { nestedCollection } from '../../../definitions/field-types/nested-collection/index.ts';
import type { SchemaField } from '../../../definitions/field-types/types.ts';

/** A collection as the project lists it, with its schema when known (nested lists come from it). */
export interface CollectionChoiceSource {
  id: string;
  name: string;
  schema?: readonly SchemaField[] | undefined;
}

export interface CollectionChoice {
  /** As the server takes and answers it: the slug, nested lists after dots (`posts.comments`). */
  value: string;
  label: string;
  depth: number;
}

/** The top-level collections and, when `nested`, their nested lists too. */
export function collectionChoices(collections: readonly CollectionChoiceSource[], nested: boolean): CollectionChoice[] {
  const out: CollectionChoice[] = [];
  const walk = (fields: readonly SchemaField[], value: string, label: string, depth: number) => {
    for (const field of fields) {
      if (field.type !== nestedCollection.code) continue;
      const childValue = `${value}.${field.slug}`;
      const childLabel = `${label} › ${field.name}`;
      out.push({ value: childValue, label: childLabel, depth });
      walk(field.nestedCollectionSchema ?? [], childValue, childLabel, depth + 1);
    }
  };
  for (const collection of collections) {
    out.push({ value: collection.id, label: collection.name, depth: 0 });
    if (nested) walk(collection.schema ?? [], collection.id, collection.name, 1);
  }
  return out;
}
