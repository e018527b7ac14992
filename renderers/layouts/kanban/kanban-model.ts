/**
 * What the kanban layout reads and shows, as pure functions: its columns (an
 * "Unset" column, then one per option of the chosen Option field, in the field's order), the list
 * parameters that load one column (a choice's `query` term; for Unset a `find` matching items with
 * no option or an option the field no longer has), a card's title, and the value a drop saves.
 */
import { fieldType, titleField, type OptionChoice, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { Item, ListParams } from '../../../src/api/content.ts';

/** The id of the Unset column (option ids are letters, digits, `_` and `-`: never this). */
export const unsetColumn = ':unset';

/** Cards loaded per page of a column. */
export const kanbanPageSize = 20;

export interface KanbanColumn {
  /** `unsetColumn` or the option's `_id`. */
  id: string;
  option: OptionChoice | null;
}

export const columnsOf = (field: SchemaField): KanbanColumn[] => [{ id: unsetColumn, option: null }, ...(field.options ?? []).map((option) => ({ id: option._id, option }))];

/** The list parameters of one column, added to the list's search, filter and nested path. */
export function columnParams(field: SchemaField, column: KanbanColumn): Pick<ListParams, 'query' | 'find'> {
  if (column.option) return { query: `${field.slug}:=:${column.option._id}` };
  // Not set, or set to a choice the field no longer offers.
  const ids = (field.options ?? []).map((option) => option._id);
  return { find: JSON.stringify({ $or: [{ [field.slug]: { $exists: false } }, { [`${field.slug}._id`]: { $nin: ids } }] }) };
}

/** The keys a card needs: the option, the title fields, the version (for If-Match) and the rank. */
export const projectionOf = (field: SchemaField, titleFields: readonly SchemaField[]) =>
  [...new Set([field.slug, ...titleFields.map((title) => title.slug), '_lastUpdatedDate', '_rank'])].join(',');

/**
 * The fields making a card's title: the chosen title fields still in the schema, else the primary
 * field, else the first PlainText field (none: the card shows the item's id).
 */
export function titleFieldsOf(schema: readonly SchemaField[], titleKeys: readonly string[] | undefined): SchemaField[] {
  const chosen = (titleKeys ?? []).map((slug) => schema.find((field) => field.slug === slug)).filter((field): field is SchemaField => field !== undefined);
  if (chosen.length) return chosen;
  const fallback = titleField(schema);
  return fallback ? [fallback] : [];
}

/** A card's title: the title fields' display texts joined, else the item's id. */
export function cardTitle(item: Item, titleFields: readonly SchemaField[]): string {
  const parts = titleFields
    .map((field) => {
      const value = item[field.slug];
      if (value === null || value === undefined) return '';
      return fieldType(field.type)?.display(value, field) ?? '';
    })
    .map((text) => text.trim())
    .filter(Boolean);
  return parts.length ? parts.join(' · ') : item._id;
}

/** The value saved when a card is dropped on a column: the option as the item API takes it, or null (Unset). */
export const dropValue = (column: KanbanColumn) => (column.option ? { _id: column.option._id } : null);

/** The option the item is shown under as stored, for a prefill or an optimistic move. */
export const storedValue = (column: KanbanColumn) => (column.option ? { _id: column.option._id, value: column.option.value } : null);
