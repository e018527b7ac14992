/**
 * The contract every field type implements (one folder per type, registered in `index.ts`).
 * The server validates, stores and indexes values through it and the console draws editors from
 * it; nobody switches on a type code.
 */

/** A choice of an Option field: its id and the text people see. */
export interface OptionChoice {
  _id: string;
  value: string;
}

/** One field of a collection schema. Type-specific settings are optional. */
export interface SchemaField {
  id: string;
  name: string;
  slug: string;
  /** The field type's code (see the registry). */
  type: number;
  helpText?: string;
  required?: boolean;
  primaryField?: boolean;
  unique?: boolean;
  visible?: boolean;
  sort?: number;
  sortedByDefault?: boolean;
  options?: OptionChoice[];
  referenceCollectionID?: string;
  nestedReferenceCollectionID?: string[];
  nestedCollectionSchema?: SchemaField[];
  accept?: string;
  defaultValue?: boolean | null;
  richTextCustomCSS?: string;
  richTextCustomJS?: string;
  min?: number;
  max?: number;
}

/** Settings only some types take; each type lists the ones it accepts. */
export const typeSettings = [
  'options',
  'referenceCollectionID',
  'nestedReferenceCollectionID',
  'nestedCollectionSchema',
  'accept',
  'defaultValue',
  'richTextCustomCSS',
  'richTextCustomJS',
  'min',
  'max',
] as const;
export type TypeSetting = (typeof typeSettings)[number];

import type { SettingRefusal } from './setting-refusal.ts';
import type { ValueRefusal } from './value-refusal.ts';

/** The outcome of checking one value: the normalised value to store, or why it is refused (a code, worded by the caller). */
export type Check<T = unknown> = { ok: true; value: T } | ({ ok: false } & ValueRefusal);

/**
 * A refused input, worded, `path` relative to the field (`options.0.value`) or the body. A refused
 * value also names its refusal's code and values (`ValueProblem`), which the problem's `errors` carry.
 */
export interface SettingProblem {
  path: string;
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}

/** What settings checks may consult besides the field itself. */
export interface SettingsContext {
  /** The id of the collection the field belongs to. */
  collectionID: string;
  /** Ids of every collection in the project (the current one included). */
  collectionIDs: readonly string[];
  /** Makes a fresh id (option ids). */
  newId(): string;
  /** The project lets RichText fields carry a custom script file (its `settings.richText.scriptsEnabled`). */
  scriptsEnabled?: boolean;
  /** The field as it is saved, when this is an update. */
  previous?: SchemaField;
}

/** What resolving a value may consult: the server supplies it, the console a stub. */
export interface ResolveContext {
  /** The display text of each of `ids` that exists in the collection; missing ids are absent. */
  referencedItems(collectionID: string, ids: readonly string[]): Promise<Map<string, string>>;
  /**
   * The items with `ids` in nested collections (by slug) of the collection's items: for each slug
   * the collection has as a nested collection, each found id's owning item and display text.
   * Slugs the collection has no nested collection for are absent. Without it, nested picks of an
   * ItemRef cannot be checked and are refused.
   */
  referencedNestedItems?(collectionID: string, picks: readonly { slug: string; ids: readonly string[] }[]): Promise<Map<string, Map<string, NestedItemFound>>>;
}

/** A nested item found by `referencedNestedItems`: the item it belongs to and its display text. */
export interface NestedItemFound {
  parentID: string;
  value: string;
}

/** Filter operators of the list filter and the public `query`. */
export type FilterOperator = '=' | '!=' | '>' | '<' | 'regex' | 'within';

/** SQL column types a value can be kept in. */
/** `json` keeps the text as written (key order included); `jsonb` is parsed, indexable and re-sorts keys. */
export type ColumnType = 'text' | 'double precision' | 'boolean' | 'timestamptz' | 'jsonb' | 'json';

/**
 * What an index covers: the whole value, its first characters, one member of a JSON value (a
 * btree on it also carries the value, so filters and counts on it are index-only scans), or one
 * member of every element of a JSON list, as the JSON text of the list of them (a trigram index
 * over it serves the case-insensitive search of linked items' display values).
 */
export type IndexTarget =
  | { of: 'value' }
  | { of: 'prefix'; length: number }
  | { of: 'member'; member: string }
  | { of: 'members'; member: string }
  /** A JSON object's two number members as a geometric point `point(x, y)` (x: the longitude). */
  | { of: 'point'; x: string; y: string };

/**
 * An index made when a field is made. btree serves equality, ranges and sorts; trigram serves
 * case-insensitive regex text search; gin serves containment in JSON values; gist (over a point)
 * serves a point lying in a box (`<@`).
 */
export interface IndexSpec {
  kind: 'btree' | 'trigram' | 'gin' | 'gist';
  on: IndexTarget;
}

/**
 * How the storage layer keeps a field: a column of the item's table, a child table of its own
 * (nested items), or nothing (metadata, which is the item's system columns).
 */
export type StorageDescriptor =
  | { kind: 'column'; column: ColumnType; indexes: readonly IndexSpec[]; sortKey?: IndexTarget }
  | { kind: 'table' }
  | { kind: 'none' };

/**
 * What `toCell` computes, as a form the database can compute too, so a CSV export is written by
 * the database instead of decoding every row in JavaScript (server/content/csv.ts turns it into
 * SQL; tests/server/csv-sql.test.ts checks both agree on random values of every type):
 * - `text`: the text itself;
 * - `number`: a double as JavaScript's `String(n)` writes it;
 * - `bool`: `true` or `false`;
 * - `instant`: `toISOString()` text;
 * - `member`: a JSON object's text member (`''` when it has none);
 * - `members`: the text members of a JSON list's objects, joined by `separator` (`''` for an
 *   entry that is not an object);
 * - `numbers`: a JSON object's number members, as `number`, joined by `separator`;
 * - `json`: `JSON.stringify` of the value.
 */
export type CsvSqlForm =
  | { of: 'text' | 'number' | 'bool' | 'instant' | 'json' }
  /** A `json` column's own text (JSON.stringify's, as written): a JSON field's value. */
  | { of: 'jsonText' }
  | { of: 'member'; member: string }
  | { of: 'members'; member: string; separator: string }
  | { of: 'numbers'; members: readonly string[]; separator: string };

/** Conversion of a value to and from one CSV cell. An empty cell is "not set". */
export interface CsvCodec {
  toCell(value: unknown, field: SchemaField): string;
  /** The same conversion as `toCell`, for the database (absent: exports holding the column are written in JavaScript). */
  sqlForm?: CsvSqlForm;
  /** Returns the value as it would be written through the API (then checked by `validate`). */
  fromCell(cell: string, field: SchemaField): Check;
  /**
   * The cells are only ever numbers the type wrote (Number, Phone digits, GeoPoint "lat,lng"):
   * a CSV export leaves them as they are instead of neutralising a leading `-` or `+`.
   */
  formulaSafe?: boolean;
}

/** What a type allows in its field definition. */
export interface FieldCapabilities {
  /** Offered in the create-field picker and accepted by the API. */
  creatable: boolean;
  primary: boolean;
  required: boolean;
  unique: boolean;
  /** The list can be sorted by it. */
  sortable: boolean;
  /**
   * The value is text people write (or labels they chose): its editor and display run in the
   * collection's direction, right to left when the collection's RTL switch is on.
   */
  followsDirection?: boolean;
  /**
   * Without a primary field, the first field of this type stands for the item in titles
   * (`titleField` in title-field.ts).
   */
  titleCandidate?: boolean;
}

/** How values of a field compare in list queries: `option` compares the choice's `_id`; `refs` the linked item ids. */
export type ValueKind = 'text' | 'number' | 'bool' | 'date' | 'option' | 'refs' | 'geo' | 'json';

/**
 * Changes the public API's field route makes to a stored value besides replacing it:
 * `increment` adds a number to it, `append` adds item links to it (and removes named ones).
 */
export type FieldModifier = 'increment' | 'append';

/**
 * What a field can drive in the item list's layouts: the calendar's start and end times, the
 * calendar's duration in minutes, the kanban's columns, the map's places.
 */
export type LayoutUse = 'calendarTime' | 'calendarDuration' | 'kanbanColumns' | 'mapPlaces';

/** A field type; `Name` is its stable name, from which the registry derives the union of names. */
export interface FieldType<Name extends string = string> {
  code: number;
  /** Stable name, as the public API and the console's registry know the type. */
  name: Name;
  /** Message key of the type's label in the console. */
  labelKey: string;
  /** Name of the icon the console draws beside the label (a lucide icon, in kebab-case: `map-pin`). */
  icon?: string;
  /** JSON Schema of the stored value as it is read back (null means not set). */
  valueSchema: Record<string, unknown>;
  /** JSON Schema of the value as written, when it differs from what is stored (Option, ItemRef). */
  writeSchema?: Record<string, unknown>;
  capabilities: FieldCapabilities;
  /** Type-specific settings the field definition may carry. */
  settings: readonly TypeSetting[];
  filterOperators: readonly FilterOperator[];
  defaultOperator?: FilterOperator;
  /** How the list's text search matches this field: by case-insensitive regex or by equality. */
  search?: 'regex' | 'equals';
  storage: StorageDescriptor;
  /** How list queries compare its values (absent: the type keeps no column to compare). */
  valueKind?: ValueKind;
  /** The value holds uploaded files: one file, or a list of them. Such values are written once the item exists. */
  files?: 'one' | 'many';
  /** Changes the public API's field route may make to a value besides replacing it. */
  modifiers?: readonly FieldModifier[];
  /** What a field of this type can drive in the item list's layouts. */
  layoutUses?: readonly LayoutUse[];
  /**
   * The value is HTML: the server passes every written value through its allow-list sanitiser
   * (server/content/sanitize.ts) and stores what comes out.
   */
  markup?: 'html';
  /**
   * Checks a written value (never null or undefined: those mean "not set" and are handled by the
   * caller) and returns the value to store. Pure: no I/O.
   */
  validate(value: unknown, field: SchemaField): Check;
  /** True when the value counts as empty for `required` (Bool never is). */
  isEmpty(value: unknown): boolean;
  /** Checks and normalises the type-specific settings of a field definition. */
  checkSettings?(field: SchemaField, context: SettingsContext): { field: SchemaField; problems: SettingRefusal[] };
  /** Completes a validated value with what only stored data can tell (ItemRef display values). */
  resolve?(value: unknown, field: SchemaField, context: ResolveContext): Promise<Check>;
  /** The value a new item gets when the write leaves the field out. */
  defaultFor?(field: SchemaField): unknown;
  /** Absent when the type has no CSV form (nested collections, metadata). */
  csv?: CsvCodec;
  /** The text standing for a value in references and titles. */
  display(value: unknown, field: SchemaField): string;
}
