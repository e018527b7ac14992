/**
 * Physical storage of items (docs/content-storage.md): one table per collection and one per
 * nested-collection field, a typed column per field as its type's storage descriptor says, and
 * the indexes the descriptor lists, made when the field is made. Every identifier here is built
 * from server-made hex ids, never from what people typed.
 */
import { sql, StringChunk, type SQL, type SQLChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { fieldType, type ColumnType, type IndexTarget, type SchemaField } from '../../definitions/field-types/index.ts';
import type { Db } from '../db/index.ts';
import { childLevel, columnFields, fieldColumn, isNestedField, type SchemaLevel } from './schema-tree.ts';
import type { Item } from '../../definitions/schemas/item.ts';

/** Anything that runs SQL: the database or a transaction. */
export type Executor = { execute: Db['execute'] };

export async function query<T = Record<string, unknown>>(executor: Executor, statement: SQL): Promise<T[]> {
  const result = (await executor.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}

const id = (name: string) => sql.identifier(name);

/** The SQL expression an index target covers (and a sort or filter must use to meet the index). */
export function targetExpression(column: string, target: IndexTarget): SQL {
  switch (target.of) {
    case 'value':
      return sql`${id(column)}`;
    case 'prefix':
      return sql`left(${id(column)}, ${sql.raw(String(target.length))})`;
    case 'member':
      return sql`(${id(column)} ->> ${sql.raw(`'${target.member.replace(/'/g, "''")}'`)})`;
    case 'members':
      // jsonb_path_query_array is immutable (indexable); the text is the JSON list of the members.
      if (!/^\w+$/.test(target.member)) throw new Error(`not a member name of ours: ${target.member}`);
      return sql`(jsonb_path_query_array(${id(column)}, ${sql.raw(`'$[*]."${target.member}"'`)})::text)`;
    case 'point': {
      // The same text in the index and in the queries (compile.ts 'within'), so the planner matches them.
      const number = (member: string) => sql`((${id(column)} ->> ${sql.raw(`'${member.replace(/'/g, "''")}'`)})::double precision)`;
      return sql`point(${number(target.x)}, ${number(target.y)})`;
    }
  }
}

const indexName = (table: string, fieldId: string, suffix: string) => `${table}_${fieldId}_${suffix}`;

/**
 * An index a field (or a system column) may have besides its unique one: made with the field when
 * indexes are eager, or when a list first needs it when they are lazy (FIELD_INDEXES,
 * server/content/field-indexes.ts; docs/content-storage.md "Indexes made when needed").
 */
export interface FieldIndex {
  name: string;
  table: string;
  /** The column it covers (a field's `f_…`, or a system column). */
  column: string;
  /** What it serves: sorts and comparisons, text searches, places, JSON containment. */
  use: 'order' | 'text' | 'geo' | 'json';
  /**
   * The statement making it (`concurrently`: without blocking writes, outside any transaction;
   * `ifMissing`: nothing when it exists, as a concurrent build always does).
   */
  create(concurrently: boolean, ifMissing?: boolean): SQL;
  /** A word index: its field's vocabulary is kept by triggers, and filled when it is made later. */
  words?: { fn: 'content_words' | 'content_ref_words' };
}

const how = (concurrently: boolean, ifMissing: boolean) => sql.raw(`${concurrently ? 'concurrently ' : ''}${ifMissing ? 'if not exists ' : ''}`);

/** The rank, created, updated and order indexes of a level (rank first: every default list reads it). */
export function systemIndexes(level: SchemaLevel): FieldIndex[] {
  const t = level.table;
  const scope = level.parentTable ? sql`${id('_parent_id')}, ` : sql``;
  return (
    [
      ['_rank', '_rank'],
      ['_created_date', '_created'],
      ['_last_updated_date', '_updated'],
      ['_order', '_order'],
    ] as const
  ).map(([column, suffix]) => ({
    name: `${t}${suffix}`,
    table: t,
    column,
    use: 'order' as const,
    create: (concurrently: boolean, ifMissing = concurrently) =>
      sql`create index ${how(concurrently, ifMissing)}${id(`${t}${suffix}`)} on ${id(t)} (${scope}${id(column)}, ${id('_id')})`,
  }));
}

/** The indexes a field's type lists for it, and its word index when it is searched as text. */
export function fieldIndexes(level: SchemaLevel, field: SchemaField): FieldIndex[] {
  const type = fieldType(field.type);
  if (type?.storage.kind !== 'column') return [];
  const t = level.table;
  const column = fieldColumn(field.id);
  const scope = level.parentTable ? sql`${id('_parent_id')}, ` : sql``;
  const out: FieldIndex[] = type.storage.indexes.map((index, i) => {
    const name = indexName(t, field.id, `${index.kind[0]}${i}`);
    const expression = targetExpression(column, index.on);
    const at = (concurrently: boolean, ifMissing = concurrently) => sql`${how(concurrently, ifMissing)}${id(name)} on ${id(t)}`;
    if (index.kind === 'btree') {
      // A btree over a member of a JSON value also carries the value: a query reading only that
      // member (a filter, a count) can then be answered by an index-only scan, without the table.
      const include = index.on.of === 'member' ? sql` include (${id(column)})` : sql``;
      return { name, table: t, column, use: 'order', create: (c: boolean, m?: boolean) => sql`create index ${at(c, m)} (${scope}${expression}, ${id('_id')})${include}` };
    }
    // A list element's members (ItemRef display values) are searched through it as text.
    if (index.kind === 'trigram') return { name, table: t, column, use: 'text', create: (c: boolean, m?: boolean) => sql`create index ${at(c, m)} using gin (${expression} gin_trgm_ops)` };
    // No parent scope: a nested list's rows are narrowed by their parent's btree, a box by this.
    if (index.kind === 'gist') return { name, table: t, column, use: 'geo', create: (c: boolean, m?: boolean) => sql`create index ${at(c, m)} using gist (${expression})` };
    return { name, table: t, column, use: 'json', create: (c: boolean, m?: boolean) => sql`create index ${at(c, m)} using gin (${expression} jsonb_path_ops)` };
  });
  const words = wordsFunction(field);
  if (words) {
    const name = wordIndexName(t, field.id);
    out.push({ name, table: t, column, use: 'text', words: { fn: words }, create: (c: boolean, m = c) => sql`create index ${how(c, m)}${id(name)} on ${id(t)} using gin (${id(words)}(${id(column)}))` });
  }
  return out;
}

/**
 * Creates the table of a level's items (system columns only). Nested items point at their parent.
 * `lazy`: only the rank index, which every default list reads; the others when first needed.
 */
export async function createLevelTable(executor: Executor, level: SchemaLevel, lazy = false): Promise<void> {
  const t = level.table;
  const parent = level.parentTable
    ? sql`${id('_parent_id')} text not null references ${id(level.parentTable)} (${id('_id')}) on delete cascade,`
    : sql``;
  await executor.execute(sql`create table ${id(t)} (
    ${id('_id')} text primary key,
    ${parent}
    ${id('_order')} bigint generated always as identity,
    ${id('_rank')} text collate "C" not null,
    ${id('_created_date')} timestamptz not null,
    ${id('_last_updated_date')} timestamptz not null
  )`);
  // Lists are read in rank order (per parent for nested items), and sorted by any system key.
  for (const index of lazy ? systemIndexes(level).slice(0, 1) : systemIndexes(level)) await executor.execute(index.create(false));
  // Every statement writing the table tells each process at commit, whatever wrote it (the API, an
  // import, SQL by hand): what a process remembers of the collection's lists is then dropped.
  const collection = sql.raw(`'${rootCollectionIdOf(level).replace(/'/g, "''")}'`);
  await executor.execute(
    sql`create trigger ${id(`${t}_written`)} after insert or update or delete or truncate on ${id(t)} for each statement execute function content_items_written(${collection})`,
  );
}

/**
 * Adds a field's storage to a level: its column and indexes, or (nested collection) its tables.
 * `lazy`: its unique index and kept counts only; the others when a list first needs them.
 */
export async function addFieldStorage(executor: Executor, level: SchemaLevel, field: SchemaField, lazy = false): Promise<void> {
  const type = fieldType(field.type);
  if (!type) throw new Error(`unknown field type ${field.type}`);
  if (type.storage.kind === 'table') {
    const child = childLevel(level, field);
    await createLevelTable(executor, child, lazy);
    for (const inner of child.fields) await addFieldStorage(executor, child, inner, lazy);
    return;
  }
  if (type.storage.kind !== 'column') return;
  await executor.execute(sql`alter table ${id(level.table)} add column ${id(fieldColumn(field.id))} ${sql.raw(type.storage.column)}`);
  if (!lazy) {
    for (const index of fieldIndexes(level, field)) await executor.execute(index.create(false));
    // The column is new, so its vocabulary starts empty.
    if (wordsFunction(field)) await keepSearchWords(executor, level, field);
  }
  if (field.unique) await setUnique(executor, level, field, true);
  const counted = countedMember(level, field);
  if (counted) await addOptionCounts(executor, level, field, counted);
}

/**
 * The SQL function giving a searched field's words (migration 0012): `content_words` for text
 * searched as a substring (PlainText, RichText, Phone, Link), `content_ref_words` for an ItemRef's
 * display values; undefined for fields the search does not read as text.
 */
export function wordsFunction(field: SchemaField): 'content_words' | 'content_ref_words' | undefined {
  const type = fieldType(field.type);
  if (type?.search !== 'regex' || type.storage.kind !== 'column') return undefined;
  if (type.storage.column === 'text') return 'content_words';
  if (type.storage.column === 'jsonb' && type.storage.indexes.some((index) => index.kind === 'trigram' && index.on.of === 'members')) return 'content_ref_words';
  return undefined;
}

/** The GIN index over a searched field's words (what `&&` with the matching tokens reads). */
export const wordIndexName = (table: string, fieldId: string) => indexName(table, fieldId, 'w');

const wordTriggers = (table: string, fieldId: string) =>
  [
    ['wi', 'insert', sql`referencing new table as new_rows`],
    ['wu', 'update', sql`referencing old table as old_rows new table as new_rows`],
  ].map(([suffix, event, transition]) => ({ name: id(indexName(table, fieldId, suffix as string)), event: sql.raw(event as string), transition: transition as SQL }));

/**
 * The statement triggers keeping a searched field's vocabulary in item_search_words (migration
 * 0012) from now on (made again when they exist). What the column already holds is not read.
 */
export async function keepSearchWords(executor: Executor, level: SchemaLevel, field: SchemaField): Promise<void> {
  const words = wordsFunction(field);
  if (!words) return;
  const args = sql.raw([fieldColumn(field.id), words].map((a) => `'${a}'`).join(', '));
  for (const trigger of wordTriggers(level.table, field.id)) {
    await executor.execute(
      sql`create or replace trigger ${trigger.name} after ${trigger.event} on ${id(level.table)} ${trigger.transition} for each statement execute function content_keep_words(${args})`,
    );
  }
}

/** Stops keeping a searched field's vocabulary (the triggers go; the words kept stay until `dropSearchWords`). */
export async function stopSearchWords(executor: Executor, level: SchemaLevel, field: SchemaField): Promise<void> {
  if (wordsFunction(field)) await dropWordTriggers(executor, level.table, field.id);
}

async function dropWordTriggers(executor: Executor, table: string, fieldId: string): Promise<void> {
  for (const trigger of wordTriggers(table, fieldId)) await executor.execute(sql`drop trigger if exists ${trigger.name} on ${id(table)}`);
}

/**
 * Forgets a searched field's vocabulary, named by its table and field id (a word index made when
 * needed, dropped: server/content/field-indexes.ts): its triggers go, then its words.
 */
export async function forgetSearchWords(executor: Executor, table: string, fieldId: string): Promise<void> {
  await dropWordTriggers(executor, table, fieldId);
  await executor.execute(sql`delete from item_search_words where field_column = ${fieldColumn(fieldId)}`);
}

/** Forgets the vocabularies of the searched fields a field's storage holds (itself, or a nested collection's fields at every depth). */
async function dropSearchWords(executor: Executor, level: SchemaLevel, field: SchemaField) {
  const columns: string[] = [];
  const walk = (at: SchemaLevel, f: SchemaField) => {
    if (isNestedField(f)) {
      const child = childLevel(at, f);
      for (const inner of child.fields) walk(child, inner);
    } else if (wordsFunction(f)) columns.push(fieldColumn(f.id));
  };
  walk(level, field);
  if (columns.length === 0) return;
  await executor.execute(sql`delete from item_search_words where field_column in (${sql.join(
    columns.map((c) => sql`${c}::text`),
    sql`, `,
  )})`);
}

/**
 * The member of a top-level field's JSON value whose counts are kept per value (Option: the
 * choice's `_id`, the member its btree covers), so a list filtered by one value reads its total
 * from item_option_counts (migration 0010); undefined for other fields and nested levels.
 */
export function countedMember(level: SchemaLevel, field: SchemaField): string | undefined {
  if (level.parentTable) return undefined;
  const storage = fieldType(field.type)?.storage;
  if (storage?.kind !== 'column' || storage.column !== 'jsonb') return undefined;
  const on = storage.indexes.find((index) => index.kind === 'btree' && index.on.of === 'member')?.on;
  return on?.of === 'member' ? on.member : undefined;
}

/** The collection id of a top-level level (its table is `content_<id>`). */
export const collectionIdOf = (level: SchemaLevel) => level.table.slice('content_'.length);

/** The collection id of any level, nested ones included (their top-level table names it). */
export function rootCollectionIdOf(level: SchemaLevel): string {
  if (level.parentTable && !level.rootTable) throw new Error(`a nested level without its collection: ${level.table}`);
  return (level.rootTable ?? level.table).slice('content_'.length);
}

const countTriggers = (level: SchemaLevel, field: SchemaField) =>
  [
    ['ci', 'insert', sql`referencing new table as new_rows`],
    ['cu', 'update', sql`referencing old table as old_rows new table as new_rows`],
    ['cd', 'delete', sql`referencing old table as old_rows`],
  ].map(([suffix, event, transition]) => ({ name: id(indexName(level.table, field.id, suffix as string)), event: sql.raw(event as string), transition: transition as SQL }));

/**
 * Keeps a new field's per-value counts: statement triggers (insert, update, delete: PostgreSQL
 * allows transition tables on single-event triggers only) add the changes of each statement as
 * delta rows (migration 0010). The column is new, so there is nothing to count yet.
 */
async function addOptionCounts(executor: Executor, level: SchemaLevel, field: SchemaField, member: string) {
  const args = sql.raw([collectionIdOf(level), fieldColumn(field.id), member].map((a) => `'${a.replace(/'/g, "''")}'`).join(', '));
  for (const trigger of countTriggers(level, field)) {
    await executor.execute(
      sql`create trigger ${trigger.name} after ${trigger.event} on ${id(level.table)} ${trigger.transition} for each statement execute function content_count_options(${args})`,
    );
  }
}

/** The name of the unique index of a field, from which a violation is traced back to the field. */
export const uniqueIndexName = (table: string, fieldId: string) => indexName(table, fieldId, 'u');

/**
 * Turns a field's uniqueness on or off (per parent item for nested items). The index covers a
 * hash of the value so long texts fit in it; turning it on fails when stored values repeat.
 */
export async function setUnique(executor: Executor, level: SchemaLevel, field: SchemaField, on: boolean): Promise<void> {
  const name = id(uniqueIndexName(level.table, field.id));
  if (!on) {
    await executor.execute(sql`drop index if exists ${name}`);
    return;
  }
  const scope = level.parentTable ? sql`${id('_parent_id')}, ` : sql``;
  await executor.execute(sql`create unique index ${name} on ${id(level.table)} (${scope}md5(${id(fieldColumn(field.id))}::text))`);
}

/** Every table a field owns: none for a column, its own and its descendants' for a nested collection. */
export function tablesOfField(level: SchemaLevel, field: SchemaField): string[] {
  if (!isNestedField(field)) return [];
  const child = childLevel(level, field);
  return [child.table, ...child.fields.flatMap((inner) => tablesOfField(child, inner))];
}

/** Removes a field's storage. Dropping a column is instant at any size: the values are gone at once. */
export async function dropFieldStorage(executor: Executor, level: SchemaLevel, field: SchemaField): Promise<void> {
  await dropSearchWords(executor, level, field);
  if (isNestedField(field)) {
    await dropTables(executor, tablesOfField(level, field));
    return;
  }
  if (fieldType(field.type)?.storage.kind !== 'column') return;
  // The triggers keeping its vocabulary name the column: they go first (its word index goes with the column).
  await stopSearchWords(executor, level, field);
  if (countedMember(level, field)) {
    // The triggers name the column: they go first, with the counts.
    for (const trigger of countTriggers(level, field)) await executor.execute(sql`drop trigger if exists ${trigger.name} on ${id(level.table)}`);
    await executor.execute(sql`delete from item_option_counts where collection_id = ${collectionIdOf(level)} and field_column = ${fieldColumn(field.id)}`);
  }
  await executor.execute(sql`alter table ${id(level.table)} drop column if exists ${id(fieldColumn(field.id))}`);
}

export async function dropTables(executor: Executor, tables: readonly string[]): Promise<void> {
  // Deepest first, so no table is dropped while a child still refers to it.
  for (const table of [...tables].reverse()) await executor.execute(sql`drop table if exists ${id(table)} cascade`);
}

/** A value as a typed SQL parameter of its column. */
export function encodeValue(column: ColumnType, value: unknown): SQL {
  const param = encodedParam(column, value);
  return param === null ? sql`null` : sql`${param}${sql.raw(`::${column}`)}`;
}

/** The parameter a value is sent as (null when unset); it is written with the cast `::<column>`. */
function encodedParam(column: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // JSON always as its text: node-postgres would turn a JS array into a PostgreSQL array, and a
  // json column keeps this text, so its keys stay in the order they were written.
  return column === 'jsonb' || column === 'json' ? JSON.stringify(value) : value;
}

/**
 * PostgreSQL's text of a timestamptz as a Date. drizzle hands both drivers' timestamptz over as that
 * text, and `new Date(text)` reads years 1–99 as 1901–1999/2000–2049 ('0005-01-01 00:00:00+00'
 * became 2001-05-01): node-postgres's own parser (postgres-date) reads every year, BC included.
 */
const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;

/** A stored value as the API gives it. */
export function decodeValue(column: ColumnType, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (column === 'timestamptz') return (raw instanceof Date ? raw : parseTimestamptz(String(raw))).toISOString();
  if (column === 'double precision' && typeof raw === 'string') return Number(raw);
  // Both drivers parse json and jsonb already: a string here is a JSON string value, not JSON text.
  return raw;
}

export const columnTypeOf = (field: SchemaField): ColumnType | undefined => {
  const storage = fieldType(field.type)?.storage;
  return storage?.kind === 'column' ? storage.column : undefined;
};

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The text of a level's SELECT list, system columns and every field column. `_order` is a bigint,
 * which arrives as a string from node-postgres; an item's position fits a double exactly.
 */
const selectListText = (level: SchemaLevel): string =>
  ['"_id"', '"_created_date"', '"_last_updated_date"', '"_order"::double precision as "_order"', '"_rank"', ...columnFields(level).map((f) => quoted(fieldColumn(f.id)))].join(', ');

/** The SELECT list of a level: system columns and every field column. */
export function selectList(level: SchemaLevel): SQL {
  return sql.raw(selectListText(level));
}

export type { Item };

/** A row of a level's table as an item: system keys, then each set field under its slug. */
export function rowToItem(level: SchemaLevel, row: Record<string, unknown>): Item {
  const item: Record<string, unknown> = {
    _id: row._id,
    _createdDate: decodeValue('timestamptz', row._created_date),
    _lastUpdatedDate: decodeValue('timestamptz', row._last_updated_date),
    _order: Number(row._order),
    _rank: row._rank,
  };
  for (const field of columnFields(level)) {
    const value = decodeValue(columnTypeOf(field)!, row[fieldColumn(field.id)]);
    if (value !== null) item[field.slug] = value;
  }
  return item as Item;
}

/**
 * A timestamptz as the text JavaScript's `Date.prototype.toISOString` writes for it (UTC,
 * milliseconds truncated as the driver's Date keeps them): 4-digit years 0–9999, `±YYYYYY`
 * outside them (astronomical numbering: 1 BC is year 0).
 */
function isoText(value: SQL): SQL {
  const utc = sql`(${value} at time zone 'UTC')`;
  const year = sql`(case when extract(year from ${utc}) < 0 then extract(year from ${utc})::integer + 1 else extract(year from ${utc})::integer end)`;
  const outside = sql`(case when ${year} between 0 and 9999 then lpad(${year}::text, 4, '0') else (case when ${year} < 0 then '-' else '+' end) || lpad(abs(${year})::text, 6, '0') end || to_char(${utc}, '-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
  // The common case first: one to_char.
  return sql`(case when ${value} >= '0001-01-01 00:00:00+00'::timestamptz and ${value} < '10000-01-01 00:00:00+00'::timestamptz then to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') else ${outside} end)`;
}

/** A stored value as JSON text, as `JSON.stringify(decodeValue(column, value))` writes it (null when unset). */
function valueJson(column: ColumnType, value: SQL): SQL {
  switch (column) {
    case 'jsonb':
    case 'json':
      return sql`(${value})::text`;
    case 'timestamptz':
      return sql`('"' || ${isoText(value)} || '"')`;
    case 'double precision':
      // The shortest text that reads back as the same double (PostgreSQL 12 on), which JSON takes
      // (`1e+100`, `1.5e-07`); JSON.stringify writes -0 as 0 and what is not finite as null.
      return sql`(case when ${value} = 0 then '0' when ${value} in ('NaN', 'Infinity', '-Infinity') then 'null' else (${value})::text end)`;
    case 'boolean':
      return sql`(case when ${value} then 'true' when not ${value} then 'false' end)`;
    case 'text':
      return sql`to_json(${value})::text`;
  }
}

/**
 * The SQL text expression of a row of a level's table as the item's JSON: what
 * `JSON.stringify(rowToItem(level, row))` writes, parsed alike (tests/server/item-json.test.ts
 * holds them equal on both databases), with the same keys in the same order. Lists send it as it
 * comes, so a page is neither parsed into rows nor serialised again in JavaScript.
 */
export function itemJson(level: SchemaLevel): SQL {
  // One SQL text per level shape, built once: the statement's text stays the same from call to
  // call (the database can keep it prepared) and costs nothing to assemble.
  const key = `${level.table}\u0000${columnFields(level)
    .map((f) => `${f.id}\u0001${f.type}\u0001${f.slug}`)
    .join('\u0000')}`;
  let text = itemJsonTexts.get(key);
  if (text === undefined) {
    const parts: SQL[] = [
      sql`'{"_id":'`,
      sql`to_json(${id('_id')})::text`,
      sql`',"_createdDate":"'`,
      isoText(sql`${id('_created_date')}`),
      sql`'","_lastUpdatedDate":"'`,
      isoText(sql`${id('_last_updated_date')}`),
      sql`'","_order":'`,
      sql`${id('_order')}::text`,
      sql`',"_rank":'`,
      sql`to_json(${id('_rank')})::text`,
      // An unset field makes its whole part null, which concat leaves out. The key is a literal
      // (an E'' string, backslashes and quotes doubled), so the text has no parameters.
      ...columnFields(level).map((f) => sql`(${sql.raw(literal(`,${JSON.stringify(f.slug)}:`))} || ${valueJson(columnTypeOf(f)!, sql`${id(fieldColumn(f.id))}`)})`),
      sql`'}'`,
    ];
    // concat takes at most 100 arguments: nest it by groups.
    const group = (list: SQL[]): SQL => (list.length <= 90 ? sql`concat(${sql.join(list, sql`, `)})` : group(chunk(list, 90).map((c) => sql`concat(${sql.join(c, sql`, `)})`)));
    text = sqlText(group(parts));
    if (itemJsonTexts.size >= 1000) itemJsonTexts.delete(itemJsonTexts.keys().next().value!);
    itemJsonTexts.set(key, text);
  }
  return sql.raw(text);
}

const itemJsonTexts = new Map<string, string>();

/** A string as an SQL literal that reads the same whatever standard_conforming_strings says. */
const literal = (text: string) => `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The text of an SQL fragment without parameters. */
function sqlText(fragment: SQL): string {
  const built = new PgDialect().sqlToQuery(fragment);
  if (built.params.length) throw new Error('an SQL text with parameters');
  return built.sql;
}

const chunk = <T>(list: T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** The time of a write: milliseconds (the wire's precision), and always after the previous one. */
const writeTimeText = "date_trunc('milliseconds', clock_timestamp())";
export const writeTime = sql.raw(writeTimeText);

/**
 * A statement written as one flat list of text and values. drizzle turns a `sql` template into text
 * by walking every nested part (a type check per part, a merge per level): for an insert of many
 * items with a dozen values each that walk was about a tenth of a create's CPU (docs/performance.md
 * "Creates: where a create's time goes"). Flat, it is one pass over the values.
 */
class FlatStatement {
  private readonly chunks: unknown[] = [];
  private text = '';
  add(text: string): this {
    this.text += text;
    return this;
  }
  /** A parameter (null and undefined are written as `null`), followed by `cast`. */
  value(value: unknown, cast = ''): this {
    if (value === null || value === undefined) return this.add('null');
    this.chunks.push(new StringChunk(this.text), value);
    this.text = cast;
    return this;
  }
  build(): SQL {
    this.chunks.push(new StringChunk(this.text));
    return sql.fromList(this.chunks as SQLChunk[]);
  }
}

/** Inserts one item; `values` are already validated, keyed by field id. */
export async function insertItem(
  executor: Executor,
  level: SchemaLevel,
  item: { id: string; parentId?: string; rank: string; values: Map<SchemaField, unknown> },
): Promise<Item> {
  const [inserted] = await insertItems(executor, level, [item]);
  return inserted!;
}

/**
 * Inserts several items of one level in one statement (a batch of creates); a column an item has
 * no value for takes its default. The items come back in the order given.
 */
export async function insertItems(
  executor: Executor,
  level: SchemaLevel,
  items: readonly { id: string; parentId?: string; rank: string; values: Map<SchemaField, unknown> }[],
): Promise<Item[]> {
  if (items.length === 0) return [];
  const fields = new Map<string, SchemaField>();
  for (const item of items) for (const field of item.values.keys()) fields.set(field.id, field);
  const statement = new FlatStatement().add(`insert into ${quoted(level.table)} ("_id", "_rank", "_created_date", "_last_updated_date"`);
  if (level.parentTable) statement.add(', "_parent_id"');
  for (const field of fields.values()) statement.add(`, ${quoted(fieldColumn(field.id))}`);
  statement.add(') values ');
  items.forEach((item, i) => {
    statement.add(i === 0 ? '(' : ', (').value(item.id).add(', ').value(item.rank).add(`, ${writeTimeText}, ${writeTimeText}`);
    if (level.parentTable) statement.add(', ').value(item.parentId!);
    for (const field of fields.values()) {
      statement.add(', ');
      // As encodeValue writes it: the parameter and its cast.
      const column = columnTypeOf(field)!;
      if (item.values.has(field)) statement.value(encodedParam(column, item.values.get(field)), `::${column}`);
      else statement.add('default');
    }
    statement.add(')');
  });
  statement.add(` returning ${selectListText(level)}`);
  const returned = await query(executor, statement.build());
  const byId = new Map(returned.map((row) => [String(row._id), row]));
  return items.map((item) => rowToItem(level, byId.get(item.id)!));
}

/** Updates the given fields of one item and moves its last-updated time strictly forward. */
export async function updateItem(executor: Executor, level: SchemaLevel, itemId: string, values: Map<SchemaField, unknown>): Promise<Item | undefined> {
  const sets = [
    sql`${id('_last_updated_date')} = greatest(${writeTime}, ${id('_last_updated_date')} + interval '1 millisecond')`,
    ...[...values].map(([field, value]) => sql`${id(fieldColumn(field.id))} = ${encodeValue(columnTypeOf(field)!, value)}`),
  ];
  const [row] = await query(
    executor,
    sql`update ${id(level.table)} set ${sql.join(sets, sql`, `)} where ${id('_id')} = ${itemId} returning ${selectList(level)}`,
  );
  return row ? rowToItem(level, row) : undefined;
}

/** One item of a level (of one parent, for nested items); `lock` takes its row for the transaction. */
export async function readItem(executor: Executor, level: SchemaLevel, itemId: string, parentId?: string, lock = false): Promise<Item | undefined> {
  const parent = level.parentTable ? sql` and ${id('_parent_id')} = ${parentId ?? ''}` : sql``;
  const forUpdate = lock ? sql` for update` : sql``;
  const [row] = await query(executor, sql`select ${selectList(level)} from ${id(level.table)} where ${id('_id')} = ${itemId}${parent}${forUpdate}`);
  return row ? rowToItem(level, row) : undefined;
}

export async function deleteItem(executor: Executor, level: SchemaLevel, itemId: string): Promise<boolean> {
  const rows = await query(executor, sql`delete from ${id(level.table)} where ${id('_id')} = ${itemId} returning ${id('_id')}`);
  return rows.length > 0;
}

/** The highest rank among an item's siblings (served by the rank index: one index probe). */
export async function lastRank(executor: Executor, level: SchemaLevel, parentId?: string): Promise<string | null> {
  const where = level.parentTable ? sql` where ${id('_parent_id')} = ${parentId ?? ''}` : sql``;
  const scope = level.parentTable ? sql`${id('_parent_id')} desc, ` : sql``;
  const [row] = await query<{ rank: string }>(
    executor,
    sql`select ${id('_rank')} as rank from ${id(level.table)}${where} order by ${scope}${id('_rank')} desc limit 1`,
  );
  return row?.rank ?? null;
}

/** A page of a level's items in rank order. */
export async function listItems(executor: Executor, level: SchemaLevel, page: { offset: number; limit: number; parentId?: string }): Promise<Item[]> {
  const where = level.parentTable ? sql` where ${id('_parent_id')} = ${page.parentId ?? ''}` : sql``;
  const order = level.parentTable ? sql`${id('_parent_id')}, ${id('_rank')}, ${id('_id')}` : sql`${id('_rank')}, ${id('_id')}`;
  const rows = await query(
    executor,
    sql`select ${selectList(level)} from ${id(level.table)}${where} order by ${order} limit ${page.limit} offset ${page.offset}`,
  );
  return rows.map((row) => rowToItem(level, row));
}

/** How many items a nested list of one parent holds (top-level totals are kept in a counter). */
export async function countChildren(executor: Executor, level: SchemaLevel, parentId: string): Promise<number> {
  const [row] = await query<{ n: number }>(executor, sql`select count(*)::integer as n from ${id(level.table)} where ${id('_parent_id')} = ${parentId}`);
  return row?.n ?? 0;
}

/** Whether some stored value of the field repeats (within a parent for nested items). */
export async function hasDuplicates(executor: Executor, level: SchemaLevel, field: SchemaField): Promise<boolean> {
  const column = id(fieldColumn(field.id));
  const scope = level.parentTable ? sql`${id('_parent_id')}, ` : sql``;
  const rows = await query(
    executor,
    sql`select 1 from ${id(level.table)} where ${column} is not null group by ${scope}md5(${column}::text) having count(*) > 1 limit 1`,
  );
  return rows.length > 0;
}
