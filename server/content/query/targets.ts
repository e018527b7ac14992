/**
 * What a key of a list query names: a system key or a field of the level, with how its values
 * are compared, which operators its type allows (from the field-type registry) and which index
 * expression serves its sort. The kind of value is the type's own `valueKind`, never read from a
 * type code.
 */
import { systemKeys, type SystemKey } from '../../../definitions/content.ts';
import { fieldType, type FilterOperator, type IndexTarget, type SchemaField, type ValueKind } from '../../../definitions/field-types/index.ts';
import { columnFields, fieldColumn, isNestedField, type SchemaLevel } from '../schema-tree.ts';

export type { ValueKind } from '../../../definitions/field-types/index.ts';

export interface Target {
  /** The key as written (slug or system key). */
  key: string;
  kind: ValueKind;
  /** The SQL column holding the value. */
  column: string;
  field?: SchemaField;
  operators: readonly FilterOperator[];
  /** The expression equality must also test to meet a prefix btree (PlainText). */
  equalityPrefix?: number;
  /** The member of a JSON value compared (Option: `_id`). */
  member?: string;
  /** The member of a list's elements the search reads, when a trigram index covers it (ItemRef: `value`). */
  searchMembers?: string;
  /** The index expression a sort by this key uses; absent when the key cannot be sorted. */
  sortKey?: IndexTarget;
  /** How the text search matches this key. */
  search?: 'regex' | 'equals';
}

const value: IndexTarget = { of: 'value' };

const systemTargets: Record<SystemKey, Target> = {
  _id: { key: '_id', kind: 'text', column: '_id', operators: ['=', '!=', '>', '<', 'regex'], sortKey: value },
  _createdDate: { key: '_createdDate', kind: 'date', column: '_created_date', operators: ['=', '!=', '>', '<'], sortKey: value },
  _lastUpdatedDate: { key: '_lastUpdatedDate', kind: 'date', column: '_last_updated_date', operators: ['=', '!=', '>', '<'], sortKey: value },
  _order: { key: '_order', kind: 'number', column: '_order', operators: ['=', '!=', '>', '<'], sortKey: value },
  _rank: { key: '_rank', kind: 'text', column: '_rank', operators: ['=', '!=', '>', '<'], sortKey: value },
};

export const isSystemKey = (key: string): key is SystemKey => (systemKeys as readonly string[]).includes(key);

export function fieldTarget(field: SchemaField): Target | undefined {
  const type = fieldType(field.type);
  const kind = type?.valueKind;
  if (!type || !kind || type.storage.kind !== 'column') return undefined;
  const storage = type.storage;
  const prefix = storage.indexes.find((index) => index.kind === 'btree' && index.on.of === 'prefix')?.on;
  const member = storage.indexes.find((index) => index.on.of === 'member')?.on;
  const members = storage.indexes.find((index) => index.kind === 'trigram' && index.on.of === 'members')?.on;
  return {
    key: field.slug,
    kind,
    column: fieldColumn(field.id),
    field,
    operators: type.filterOperators,
    ...(prefix?.of === 'prefix' ? { equalityPrefix: prefix.length } : {}),
    ...(member?.of === 'member' ? { member: member.member } : {}),
    ...(members?.of === 'members' ? { searchMembers: members.member } : {}),
    ...(type.capabilities.sortable && storage.sortKey ? { sortKey: storage.sortKey } : {}),
    ...(type.search ? { search: type.search } : {}),
  };
}

/** The target a key names on a level, or undefined. `slug.itemRefID` names an ItemRef field too. */
export function targetOf(level: SchemaLevel, key: string): Target | undefined {
  if (isSystemKey(key)) return systemTargets[key];
  const direct = columnFields(level).find((f) => f.slug === key);
  if (direct) return fieldTarget(direct);
  const dot = key.indexOf('.');
  if (dot < 0) return undefined;
  const [slug, rest] = [key.slice(0, dot), key.slice(dot + 1)];
  const field = columnFields(level).find((f) => f.slug === slug);
  const target = field && fieldTarget(field);
  if (target?.kind === 'refs' && rest === 'itemRefID') return target;
  if (target?.kind === 'option' && rest === target.member) return target;
  return undefined;
}

/** The nested-collection field of a level with this slug. */
export const nestedField = (level: SchemaLevel, slug: string) => level.fields.find((f) => f.slug === slug && isNestedField(f));

/** Every key people may name in projections: system keys, column fields and nested collections. */
export const projectableKeys = (level: SchemaLevel) => [...systemKeys, ...level.fields.filter((f) => fieldType(f.type)?.storage.kind !== 'none').map((f) => f.slug)];

/** The targets the text search looks in (types that declare how they are searched). */
export const searchTargets = (level: SchemaLevel): Target[] =>
  columnFields(level)
    .map(fieldTarget)
    .filter((t): t is Target => t?.search !== undefined);
