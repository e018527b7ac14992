/**
 * A collection's schema is a tree: nested-collection fields hold schemas of their own. These pure
 * helpers walk it and name the storage of each level (its table) and of each field (its column).
 */
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import type { NestedStep } from '../../definitions/content.ts';

/** The table of a collection's top-level items. */
export const collectionTable = (collectionRowId: string) => `content_${collectionRowId}`;
/** The table of a nested-collection field's items. */
export const nestedTable = (fieldId: string) => `content_${fieldId}`;
/** The column of a field's values (by id: slugs are people's names, ids never change). */
export const fieldColumn = (fieldId: string) => `f_${fieldId}`;

/** One list of items: the top level or a nested collection, with its schema and table. */
export interface SchemaLevel {
  fields: SchemaField[];
  table: string;
  /** The table of the items this level's items belong to; absent at the top. */
  parentTable?: string;
  /** The collection's top-level table, for a nested level (at the top it is `table`). */
  rootTable?: string;
  /** Slugs of the nested-collection fields leading here (empty at the top). */
  path: string[];
  depth: number;
}

export const isNestedField = (field: SchemaField) => fieldType(field.type)?.storage.kind === 'table';

export function topLevel(collectionRowId: string, schema: SchemaField[]): SchemaLevel {
  return { fields: schema, table: collectionTable(collectionRowId), path: [], depth: 0 };
}

/** The level inside a nested-collection field of `level`. */
export function childLevel(level: SchemaLevel, field: SchemaField): SchemaLevel {
  return {
    fields: field.nestedCollectionSchema ?? [],
    table: nestedTable(field.id),
    parentTable: level.table,
    rootTable: level.rootTable ?? level.table,
    path: [...level.path, field.slug],
    depth: level.depth + 1,
  };
}

/** The nested-collection field of a level with this slug. */
export const nestedFieldBySlug = (level: SchemaLevel, slug: string) => level.fields.find((f) => f.slug === slug && isNestedField(f));

/** The level reached by following nested-collection slugs, or undefined when one is missing. */
export function levelAt(top: SchemaLevel, slugs: readonly string[]): SchemaLevel | undefined {
  let level = top;
  for (const slug of slugs) {
    const field = nestedFieldBySlug(level, slug);
    if (!field) return undefined;
    level = childLevel(level, field);
  }
  return level;
}

/** Every level of the tree, top first. */
export function allLevels(top: SchemaLevel): SchemaLevel[] {
  const out: SchemaLevel[] = [top];
  for (const field of top.fields) if (isNestedField(field)) out.push(...allLevels(childLevel(top, field)));
  return out;
}

/** The field with this id anywhere in the tree, with the level that holds it. */
export function findField(top: SchemaLevel, fieldId: string): { field: SchemaField; level: SchemaLevel } | undefined {
  for (const level of allLevels(top)) {
    const field = level.fields.find((f) => f.id === fieldId);
    if (field) return { field, level };
  }
  return undefined;
}

/** A copy of the tree with `level`'s field list replaced (levels are addressed by their path). */
export function replaceLevelFields(schema: SchemaField[], path: readonly string[], fields: SchemaField[]): SchemaField[] {
  if (path.length === 0) return fields;
  const [head, ...rest] = path;
  return schema.map((field) =>
    field.slug === head && isNestedField(field) ? { ...field, nestedCollectionSchema: replaceLevelFields(field.nestedCollectionSchema ?? [], rest, fields) } : field,
  );
}

/** The fields of a level whose values live in a column of its table. */
export const columnFields = (level: SchemaLevel) => level.fields.filter((f) => fieldType(f.type)?.storage.kind === 'column');

/** What following a nestedID reached: the level of its last list, and the item that owns that list. */
export interface ChainEnd {
  level: SchemaLevel;
  /** The item owning the last nested list entered (undefined when no list was entered). */
  parentId: string | undefined;
  /** The last item reached: the final step's item, or the list owner when the chain ends in a slug. */
  current: string;
}

/**
 * Follows a nestedID from a top-level item, checking that the top item exists and
 * that every item on the way belongs to the one before it. With `lock`, the item owning the final
 * list (or the final item's list) is read `for update`. A final item step is read only with
 * `readFinalItem` (callers that read it themselves, under their own lock, leave it).
 * `readItem(executor, level, id, parentId?, lock?)` is the storage read, passed in to keep this
 * module free of SQL.
 */
export async function followChain(
  readItem: (level: SchemaLevel, itemId: string, parentId: string | undefined, lock: boolean) => Promise<unknown>,
  top: SchemaLevel,
  topItemId: string,
  steps: readonly NestedStep[],
  options: { lock?: boolean; readFinalItem?: boolean; missingItem: () => Error; missingCollection: (slug: string) => Error },
): Promise<ChainEnd> {
  const lock = options.lock ?? false;
  let level = top;
  let parentId: string | undefined;
  let current = topItemId;
  if (!(await readItem(level, current, undefined, lock && steps.length === 1))) throw options.missingItem();
  for (const [i, step] of steps.entries()) {
    if (step.kind === 'collection') {
      const field = nestedFieldBySlug(level, step.slug);
      if (!field) throw options.missingCollection(step.slug);
      level = childLevel(level, field);
      parentId = current;
      continue;
    }
    const final = i === steps.length - 1;
    if ((!final || options.readFinalItem) && !(await readItem(level, step.id, parentId, lock && i === steps.length - 2))) throw options.missingItem();
    current = step.id;
  }
  return { level, parentId, current };
}
