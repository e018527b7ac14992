/**
 * Bulk import of items into one top-level collection (docs/content-storage.md "Importing items"):
 * a stream of CSV, a JSON array or NDJSON, read as it arrives (import-readers.ts), checked in
 * batches by the same rules as a create, and written in ONE transaction under the collection
 * row's `for update` lock: on PostgreSQL each batch by `COPY … FROM STDIN` (pg-copy-streams), on
 * PGlite by one `insert … select … from json_populate_recordset(…)`. The first bad row stops the
 * writing: the reading goes on to collect up to 100 bad rows, then the import is refused and
 * everything rolls back (with `skipBadRows` bad rows are left out and reported instead).
 * Statement triggers (option counts, search vocabularies, kept search totals) fire for COPY as
 * for inserts, once per batch; one content event per batch (trigger `import`) tells live streams.
 * A batch is written while the next one is read and checked. Indexes are kept row by row, never
 * dropped for the import: readers of the collection go on meanwhile (docs/content-storage.md).
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { generateNKeysBetween } from 'fractional-indexing';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { contentLimits, isItemId, metadataField } from '../../definitions/content.ts';
import { parseDate } from '../../definitions/field-types/date/index.ts';
import { fieldType, type ColumnType, type FieldType, type NestedItemFound, type ResolveContext, type SchemaField } from '../../definitions/field-types/index.ts';
import { valueProblem, type RefusalParams, type ValueProblem, type ValueRefusal } from '../../definitions/field-types/value-refusal.ts';
import type { Db } from '../db/index.ts';
import { mayNameFiles } from '../files/claims.ts';
import { AppError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { recordContentEvents } from '../live/events.ts';
import { collectionRow, levelOf, type CollectionRow } from './collections.ts';
import { unneutralise } from './csv.ts';
import { readRecords, UnreadableFileError, type ImportFormat, type RecordPlace, type SourceRecord } from './import-readers.ts';
import { sanitizeRichText } from './sanitize.ts';
import { childLevel, columnFields, fieldColumn, nestedFieldBySlug, type SchemaLevel } from './schema-tree.ts';
import { columnTypeOf, decodeValue, lastRank, query, uniqueIndexName } from './storage.ts';

export { importFormats, type ImportFormat } from './import-readers.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface ImportOptions {
  format: ImportFormat;
  /** Leave bad rows out (reported) and write the rest; otherwise the first bad row refuses the import. */
  skipBadRows?: boolean | undefined;
  /** Drop keys that are not fields (and not `_id`, `_createdDate`, `_lastUpdatedDate`) instead of refusing them. */
  ignoreUnknown?: boolean | undefined;
  /** Rows checked and written together (default 5,000). */
  batchSize?: number | undefined;
  /** Called as bytes are read, with the total so far (the upload's progress). */
  onBytes?: ((bytes: number) => void) | undefined;
}

/** A bad row: where (the file's 1-based `line`, or for a JSON array the 1-based `record`), which key, and why. */
export interface ImportRowError {
  line?: number;
  record?: number;
  path: string;
  message: string;
  code?: string;
  params?: RefusalParams;
}

export interface ImportResult {
  /** The id the import's events carry (`item.importID`). */
  importID: string;
  imported: number;
  /** Bad rows left out (with `skipBadRows`). */
  skipped: number;
  /** The first 100 bad rows' problems, in file order. */
  errors: ImportRowError[];
  batches: number;
}

/** At most this many row problems are kept (and, refusing, read for). */
export const importErrorsMax = 100;
const defaultBatchSize = 5000;

/** An import that writes nothing: the bad rows found (at most 100), as the problem's `errors`. */
export class ImportRefusedError extends AppError {
  constructor(
    readonly rowErrors: ImportRowError[],
    badRows: number,
  ) {
    const first = rowErrors[0];
    const where = first ? (first.record !== undefined ? `record ${first.record}` : `line ${first.line}`) : '';
    super(
      422,
      'import_refused',
      `Nothing was imported: ${badRows}${rowErrors.length >= importErrorsMax ? ' or more' : ''} row(s) cannot be written${first ? ` (first at ${where}${first.path ? `, ${first.path}` : ''}: ${first.message})` : ''}. Fix them, or import with skipBadRows to leave them out.`,
      { errors: rowErrors },
    );
  }
}

/** What a key of the file stands for. */
type KeyPlan =
  | { kind: 'field'; field: SchemaField; type: FieldType; column: ColumnType }
  | { kind: 'id' | 'created' | 'updated' | 'ignored' }
  | { kind: 'refused'; problem: ValueProblem | { path: string; message: string } }
  | { kind: 'unknown' };

const nestedMessage = 'is a nested collection: an import writes top-level items only (add nested items through the API)';
const unknownMessage = (collection: string) => `is not a field of collection "${collection}" (leave it out, or import with ignoreUnknown)`;

function planKey(level: SchemaLevel, key: string): KeyPlan {
  if (key === '_id') return { kind: 'id' };
  if (key === '_createdDate') return { kind: 'created' };
  if (key === '_lastUpdatedDate') return { kind: 'updated' };
  // The server's keys come back in items people export and import again: they are not theirs to set.
  if (key === '_order' || key === '_rank') return { kind: 'ignored' };
  const field = level.fields.find((f) => f.slug === key && f.id !== metadataField.id);
  const type = field ? fieldType(field.type) : undefined;
  if (!field || !type) return { kind: 'unknown' };
  if (type.storage.kind === 'table') return { kind: 'refused', problem: { path: key, message: nestedMessage } };
  if (type.storage.kind !== 'column') return { kind: 'refused', problem: valueProblem(key, { code: 'notWritable' }) };
  return { kind: 'field', field, type, column: type.storage.column };
}

/** A column field of the level, with what every row's check asks of it. */
interface ColumnPlan {
  field: SchemaField;
  type: FieldType;
  /** Required and checked as such (as a create: a required image may be uploaded after the item exists). */
  required: boolean;
}

function columnPlans(level: SchemaLevel): ColumnPlan[] {
  return columnFields(level).map((field) => {
    const type = fieldType(field.type)!;
    return { field, type, required: Boolean(field.required) && type.capabilities.required && type.files === undefined };
  });
}

/**
 * No fewer than the UTF-8 bytes of `JSON.stringify(value)`: a character of a string takes at most 6
 * (`\u001f`), a number at most 24 (`-1.2345678901234567e-308`). An item whose bound is within the
 * size limit need not be measured.
 */
function jsonBytesAtMost(value: unknown): number {
  if (typeof value === 'string') return 6 * value.length + 2;
  if (value === null || typeof value !== 'object') return 24;
  let n = 2;
  if (Array.isArray(value)) for (const entry of value) n += jsonBytesAtMost(entry) + 1;
  else for (const key in value) n += 6 * key.length + 4 + jsonBytesAtMost((value as Record<string, unknown>)[key]);
  return n;
}

/** One record being imported: its values once checked, or its problems. */
interface Row {
  place: RecordPlace;
  problems: { path: string; message: string; code?: string; params?: RefusalParams }[];
  id?: string;
  created?: string;
  updated?: string;
  values: Map<SchemaField, unknown>;
}

const refusalOf = (path: string, refusal: ValueRefusal) => valueProblem(path, refusal);

/**
 * Checks one record's values as a create checks a body (ItemService.prepareValues): the field
 * types' input checks with the same messages, rich text sanitised, defaults, required fields, the
 * item's size. CSV cells are first read by the type's codec (`csv.fromCell`, after undoing the
 * export's formula neutralising). Links and uniqueness are checked per batch afterwards.
 */
function checkRecord(plans: readonly KeyPlan[], raws: readonly unknown[], cells: boolean, columns: readonly ColumnPlan[], place: RecordPlace): Row {
  const row: Row = { place, problems: [], values: new Map() };
  for (let i = 0; i < plans.length; i += 1) {
    const plan = plans[i]!;
    const raw = raws[i];
    switch (plan.kind) {
      case 'ignored':
      case 'unknown':
        continue;
      case 'refused':
        row.problems.push(plan.problem);
        continue;
      case 'id': {
        if (raw === null || raw === undefined || raw === '') continue;
        if (!isItemId(raw)) row.problems.push({ path: '_id', message: 'must be an item id: 1-64 letters, digits, - and _' });
        else row.id = raw;
        continue;
      }
      case 'created':
      case 'updated': {
        // Kept when given and valid, else the time of the import (docs/content-storage.md "Importing items").
        const parsed = typeof raw === 'string' && raw.trim() !== '' ? parseDate(raw.trim()) : undefined;
        if (parsed?.ok) row[plan.kind] = new Date(parsed.value).toISOString();
        continue;
      }
      case 'field': {
        const { field, type } = plan;
        let value = raw;
        if (cells) {
          const codec = type.csv;
          if (!codec) {
            row.problems.push(refusalOf(field.slug, { code: 'notWritable' }));
            continue;
          }
          const text = raw as string;
          const read = codec.fromCell(codec.formulaSafe ? text : unneutralise(text), field);
          if (!read.ok) {
            row.problems.push(refusalOf(field.slug, read));
            continue;
          }
          value = read.value;
        }
        if (value === null || value === undefined) {
          row.values.set(field, null);
          continue;
        }
        const checked = type.validate(value, field);
        if (!checked.ok) row.problems.push(refusalOf(field.slug, checked));
        else if (type.markup === 'html' && typeof checked.value === 'string') row.values.set(field, sanitizeRichText(checked.value) || null);
        else row.values.set(field, checked.value);
      }
    }
  }
  for (const { field, type } of columns) {
    const initial = row.values.has(field) || !type.defaultFor ? undefined : type.defaultFor(field);
    if (initial !== undefined) row.values.set(field, initial);
  }
  for (const { field, type, required } of columns) {
    if (!required || row.problems.some((p) => p.path === field.slug)) continue;
    if (type.isEmpty(row.values.get(field) ?? null)) row.problems.push(refusalOf(field.slug, { code: 'required', params: { field: field.name } }));
  }
  if (row.problems.length === 0) {
    let bound = 0;
    for (const value of row.values.values()) bound += jsonBytesAtMost(value);
    // Measured exactly only when the bound does not settle it.
    const sizes = bound <= contentLimits.itemBytesMax ? [] : [...row.values].map(([field, value]) => [field.slug, value === null ? 0 : Buffer.byteLength(JSON.stringify(value))] as const);
    if (sizes.reduce((sum, [, size]) => sum + size, 0) > contentLimits.itemBytesMax) {
      const largest = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
      row.problems.push(refusalOf(largest[0], { code: 'itemTooLarge', params: { max: contentLimits.itemBytesMax } }));
    }
  }
  return row;
}

const jsonIds = (ids: Iterable<string>) => JSON.stringify([...ids]);
const id = (name: string) => sql.identifier(name);

/**
 * Linked items (ItemRef) looked up for a whole batch: the types' `resolve` runs twice, first
 * against a context that only notes the ids asked for, then against the rows read in one query per
 * referenced collection (and one for their nested picks), so a batch costs a few statements
 * whatever its size.
 */
class BatchLinks {
  private readonly items = new Map<string, Set<string>>();
  private readonly nested = new Map<string, Map<string, Set<string>>>();
  private readonly found = new Map<string, Map<string, string>>();
  private readonly foundNested = new Map<string, Map<string, Map<string, NestedItemFound>>>();
  private readonly rows = new Map<string, Promise<CollectionRow | undefined>>();

  constructor(
    private readonly tx: Tx,
    private readonly projectId: string,
  ) {}

  readonly noting: ResolveContext = {
    referencedItems: async (collectionID, ids) => {
      const set = this.items.get(collectionID) ?? new Set<string>();
      this.items.set(collectionID, set);
      for (const one of ids) set.add(one);
      return new Map(ids.map((one) => [one, '']));
    },
    referencedNestedItems: async (collectionID, picks) => {
      const bySlug = this.nested.get(collectionID) ?? new Map<string, Set<string>>();
      this.nested.set(collectionID, bySlug);
      const out = new Map<string, Map<string, NestedItemFound>>();
      for (const { slug, ids } of picks) {
        const set = bySlug.get(slug) ?? new Set<string>();
        bySlug.set(slug, set);
        for (const one of ids) set.add(one);
        out.set(slug, new Map());
      }
      return out;
    },
  };

  readonly answering: ResolveContext = {
    referencedItems: async (collectionID, ids) => {
      const known = this.found.get(collectionID);
      return new Map(ids.flatMap((one) => (known?.has(one) ? [[one, known.get(one)!] as const] : [])));
    },
    referencedNestedItems: async (collectionID, picks) => {
      const known = this.foundNested.get(collectionID);
      const out = new Map<string, Map<string, NestedItemFound>>();
      for (const { slug } of picks) {
        const items = known?.get(slug);
        if (items) out.set(slug, items);
      }
      return out;
    },
  };

  private collection(slug: string) {
    let row = this.rows.get(slug);
    if (!row) {
      row = collectionRow(this.tx, this.projectId, slug).catch(() => undefined);
      this.rows.set(slug, row);
    }
    return row;
  }

  /** The display text of a level's items, as JSON whatever the column (ItemService's resolve context does the same). */
  private static display(level: SchemaLevel) {
    const primary = columnFields(level).find((f) => f.primaryField);
    return {
      select: primary ? sql`to_jsonb(${id(fieldColumn(primary.id))})` : sql`null::jsonb`,
      text: (raw: unknown, itemId: string) => (primary ? fieldType(primary.type)!.display(decodeValue(columnTypeOf(primary)!, raw), primary) : '') || itemId,
    };
  }

  /** Reads every id noted since the last call. */
  async fetch(): Promise<void> {
    for (const [collectionID, ids] of this.items) {
      const target = await this.collection(collectionID);
      const found = new Map<string, string>();
      this.found.set(collectionID, found);
      if (!target || ids.size === 0) continue;
      const level = levelOf(target);
      const display = BatchLinks.display(level);
      const rows = await query<{ _id: string; display: unknown }>(
        this.tx,
        sql`select ${id('_id')}, ${display.select} as display from ${id(level.table)} where ${id('_id')} in (select jsonb_array_elements_text(${jsonIds(ids)}::jsonb))`,
      );
      for (const r of rows) found.set(r._id, display.text(r.display, r._id));
    }
    for (const [collectionID, bySlug] of this.nested) {
      const target = await this.collection(collectionID);
      const out = new Map<string, Map<string, NestedItemFound>>();
      this.foundNested.set(collectionID, out);
      if (!target) continue;
      const top = levelOf(target);
      for (const [slug, ids] of bySlug) {
        const field = nestedFieldBySlug(top, slug);
        if (!field) continue;
        const items = new Map<string, NestedItemFound>();
        out.set(slug, items);
        if (ids.size === 0) continue;
        const level = childLevel(top, field);
        const display = BatchLinks.display(level);
        const rows = await query<{ _id: string; parent: string; display: unknown }>(
          this.tx,
          sql`select ${id('_id')}, ${id('_parent_id')} as parent, ${display.select} as display from ${id(level.table)} where ${id('_id')} in (select jsonb_array_elements_text(${jsonIds(ids)}::jsonb))`,
        );
        for (const r of rows) items.set(r._id, { parentID: r.parent, value: display.text(r.display, r._id) });
      }
    }
    this.items.clear();
    this.nested.clear();
  }
}

/** A checked value as the text its column reads (the unique index compares `md5(value::text)`). */
function columnText(column: ColumnType, value: unknown): string {
  if (column === 'jsonb' || column === 'json') return JSON.stringify(value);
  return String(value);
}

/** A row's cell in COPY's CSV: NULL unquoted and empty, every other value quoted (so `""` and `\.` read as text). */
function copyCell(column: ColumnType, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (column) {
    case 'double precision':
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
    default: {
      const text = column === 'jsonb' || column === 'json' ? JSON.stringify(value) : String(value);
      return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
    }
  }
}

interface Written {
  id: string;
  rank: string;
  created: string;
  updated: string;
  values: Map<SchemaField, unknown>;
}

const dialect = new PgDialect();

/** The pooled node-postgres client of a transaction (COPY needs it); undefined on PGlite. */
function copyClientOf(tx: Tx): pg.ClientBase | undefined {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? client : undefined;
}

/**
 * Writes a batch: PostgreSQL by `COPY … FROM STDIN (FORMAT csv)` on the transaction's own
 * connection; PGlite (no COPY stream) by one `insert … select` over `json_populate_recordset`.
 */
async function writeBatch(tx: Tx, level: SchemaLevel, rows: readonly Written[]): Promise<void> {
  const fields = columnFields(level);
  const client = copyClientOf(tx);
  const names = ['_id', '_rank', '_created_date', '_last_updated_date', ...fields.map((f) => fieldColumn(f.id))];
  const columnList = sql.join(
    names.map((name) => id(name)),
    sql`, `,
  );
  if (client) {
    const text = dialect.sqlToQuery(sql`copy ${id(level.table)} (${columnList}) from stdin with (format csv)`).sql;
    const types = fields.map((f) => columnTypeOf(f)!);
    const lines: string[] = [];
    for (const row of rows) {
      const cells = [copyCell('text', row.id), copyCell('text', row.rank), row.created, row.updated];
      for (const [i, field] of fields.entries()) cells.push(copyCell(types[i]!, row.values.get(field) ?? null));
      lines.push(cells.join(','));
    }
    const stream = client.query(copyFrom(text));
    stream.end(`${lines.join('\n')}\n`);
    await finished(stream);
    return;
  }
  const records = rows.map((row) => {
    const out: Record<string, unknown> = { _id: row.id, _rank: row.rank, _created_date: row.created, _last_updated_date: row.updated };
    for (const field of fields) out[fieldColumn(field.id)] = row.values.get(field) ?? null;
    return out;
  });
  await tx.execute(
    sql`insert into ${id(level.table)} (${columnList}) select ${columnList} from json_populate_recordset(null::${id(level.table)}, ${JSON.stringify(records)}::json)`,
  );
}

/** The rows of a batch whose caller ids or unique values are stored already: by `_id`, and per unique field the texts taken. */
async function takenInTable(tx: Tx, level: SchemaLevel, rows: readonly Row[], unique: readonly SchemaField[]) {
  const ids = rows.flatMap((row) => (row.id ? [row.id] : []));
  const takenIds = new Set<string>();
  if (ids.length) {
    const found = await query<{ _id: string }>(tx, sql`select ${id('_id')} from ${id(level.table)} where ${id('_id')} in (select jsonb_array_elements_text(${jsonIds(ids)}::jsonb))`);
    for (const r of found) takenIds.add(r._id);
  }
  const takenValues = new Map<SchemaField, Set<string>>();
  for (const field of unique) {
    const column = columnTypeOf(field)!;
    const texts = new Set<string>();
    for (const row of rows) {
      const value = row.values.get(field);
      if (value !== null && value !== undefined) texts.add(columnText(column, value));
    }
    const taken = new Set<string>();
    takenValues.set(field, taken);
    if (!texts.size) continue;
    // The same expression as the unique index (storage.ts setUnique), so it is one index probe per value.
    const found = await query<{ v: string }>(
      tx,
      sql`select v from jsonb_array_elements_text(${jsonIds(texts)}::jsonb) as v
          where exists (select 1 from ${id(level.table)} where md5(${id(fieldColumn(field.id))}::text) = md5((v::${sql.raw(column)})::text))`,
    );
    for (const r of found) taken.add(r.v);
  }
  return { takenIds, takenValues };
}

/** `n` ids as newId makes them, from one draw of random bytes. */
function newIds(n: number): string[] {
  const hex = randomBytes(12 * n).toString('hex');
  return Array.from({ length: n }, (_, i) => hex.slice(24 * i, 24 * i + 24));
}

const placeOf = (place: RecordPlace) => ('line' in place ? `line ${place.line}` : `record ${place.record}`);

/**
 * Imports a stream into the top-level collection `collection` of a project. Resolves to what was
 * written; throws ImportRefusedError (422, nothing written) when a row is bad and `skipBadRows`
 * is off, or the file cannot be read; any other error (the client leaving mid-upload) rolls back
 * too. For a caller such as a benchmark: pass any Readable of the file's bytes.
 */
export async function importItems(db: Db, target: { projectId: string; collection: string }, source: Readable, options: ImportOptions): Promise<ImportResult> {
  const batchSize = Math.max(1, options.batchSize ?? defaultBatchSize);
  const importID = newId();
  const errors: ImportRowError[] = [];
  let badRows = 0;
  const report = (row: Row) => {
    badRows += 1;
    for (const problem of row.problems) if (errors.length < importErrorsMax) errors.push({ ...row.place, ...problem });
  };
  const reader = readRecords(options.format, source, { onBytes: options.onBytes, recordMax: 4 * contentLimits.itemBytesMax });

  try {
    return await db.transaction(async (tx) => {
      // The counter, the rank and the schema need the row for the whole import, as creates do.
      const collection = await collectionRow(tx, target.projectId, target.collection, 'update');
      const level = levelOf(collection);
      const columns = columnPlans(level);
      const unique = columnFields(level).filter((field) => field.unique && fieldType(field.type)?.capabilities.unique);
      const linked = columnFields(level).filter((field) => fieldType(field.type)?.resolve);
      const withFiles = columnFields(level).filter((field) => fieldType(field.type)?.files !== undefined);
      let rank = await lastRank(tx, level);
      // Items the collection holds once the rows accepted so far are in (the single-item rule).
      let accepted = collection.itemCount;
      let imported = 0;
      let batches = 0;

      // CSV: the header's keys, planned once; JSON formats: per record (a cache by key).
      const header = await reader.header();
      const headerPlans = header?.map((key) => planKey(level, key));
      if (options.format === 'csv') {
        if (!header) throw new UnreadableFileError({ line: 1 }, 'The file is empty: it needs a header row of keys.');
        const problems: ImportRowError[] = [];
        const seen = new Set<string>();
        for (const [i, key] of header.entries()) {
          const plan = headerPlans![i]!;
          if (seen.has(key)) problems.push({ line: 1, path: key, message: 'is a column of the header twice' });
          seen.add(key);
          if (plan.kind === 'refused') problems.push({ line: 1, ...plan.problem });
          else if (plan.kind === 'unknown' && !options.ignoreUnknown) problems.push({ line: 1, path: key, message: unknownMessage(collection.slug) });
        }
        if (problems.length) throw new ImportRefusedError(problems.slice(0, importErrorsMax), 1);
      }
      const plans = new Map<string, KeyPlan>();
      const planOf = (key: string) => {
        let plan = plans.get(key);
        if (!plan) plans.set(key, (plan = planKey(level, key)));
        return plan;
      };

      // Caller ids and unique values seen in the file so far: where each was first.
      const idsSeen = new Map<string, RecordPlace>();
      const valuesSeen = new Map<SchemaField, Map<string, RecordPlace>>(unique.map((field) => [field, new Map()]));

      const toRow = (record: SourceRecord): Row => {
        if (record.kind === 'unreadable') return { place: record.place, problems: [{ path: '', message: record.message }], values: new Map() };
        if (record.kind === 'cells') {
          if (record.cells.length !== header!.length) {
            return { place: record.place, problems: [{ path: '', message: `has ${record.cells.length} cell(s) where the header has ${header!.length}` }], values: new Map() };
          }
          return checkRecord(headerPlans!, record.cells, true, columns, record.place);
        }
        const value = record.value;
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return { place: record.place, problems: [{ path: '', message: 'must be a JSON object of values keyed by field slug' }], values: new Map() };
        const keyPlans: KeyPlan[] = [];
        const raws: unknown[] = [];
        const unknown: string[] = [];
        for (const key in value) {
          const plan = planOf(key);
          if (plan.kind === 'unknown' && !options.ignoreUnknown) unknown.push(key);
          keyPlans.push(plan);
          raws.push((value as Record<string, unknown>)[key]);
        }
        const row = checkRecord(keyPlans, raws, false, columns, record.place);
        for (const key of unknown) row.problems.unshift({ path: key, message: unknownMessage(collection.slug) });
        return row;
      };

      /**
       * A failed write (a unique violation: ImportRefusedError) aborts the transaction, so the next
       * batch's queries fail after it: its error is the one to throw.
       */
      const settle = async (rows: Row[]) => {
        try {
          await settleBatch(rows);
        } catch (error) {
          await writing;
          throw error;
        }
      };
      /** Checks a batch's links, files, single item, ids and unique values; writes its good rows unless the import is already refused. */
      const settleBatch = async (rows: Row[]) => {
        // Links: every ItemRef value of the batch, looked up at once.
        const live = () => rows.filter((row) => row.problems.length === 0);
        if (linked.length) {
          const links = new BatchLinks(tx, target.projectId);
          for (const pass of ['noting', 'answering'] as const) {
            if (pass === 'answering') await links.fetch();
            for (const row of live()) {
              for (const field of linked) {
                const value = row.values.get(field);
                if (value === null || value === undefined) continue;
                const resolved = await fieldType(field.type)!.resolve!(value, field, links[pass]);
                if (pass === 'noting') continue;
                if (resolved.ok) row.values.set(field, resolved.value);
                else row.problems.push(refusalOf(field.slug, resolved));
              }
            }
          }
        }
        for (const row of live()) {
          // Creates copy a stored file another item holds (server/files/claims.ts); an import does not copy files.
          for (const field of withFiles) {
            const value = row.values.get(field);
            if (value !== null && value !== undefined && mayNameFiles(db, { [field.slug]: value })) {
              row.problems.push({ path: field.slug, message: 'names a file stored on this server: an import cannot copy stored files (give an outside address, or upload the file to the item afterwards)' });
            }
          }
        }
        const { takenIds, takenValues } = await takenInTable(tx, level, live(), unique);
        for (const row of live()) {
          if (collection.singleItem && accepted >= 1) {
            row.problems.push({ path: '', message: 'This is a single item collection and it already has its item.' });
            continue;
          }
          if (row.id) {
            const earlier = idsSeen.get(row.id);
            if (takenIds.has(row.id)) row.problems.push({ path: '_id', message: 'Another item of this collection already has this id.' });
            else if (earlier) row.problems.push({ path: '_id', message: `is the id of an earlier row too (${placeOf(earlier)})` });
          }
          for (const field of unique) {
            const value = row.values.get(field);
            if (value === null || value === undefined) continue;
            const text = columnText(columnTypeOf(field)!, value);
            const earlier = valuesSeen.get(field)!.get(text);
            if (takenValues.get(field)!.has(text)) row.problems.push(refusalOf(field.slug, { code: 'notUnique' }));
            else if (earlier) row.problems.push({ path: field.slug, message: `must be unique: an earlier row has this value too (${placeOf(earlier)})` });
          }
          if (row.problems.length) continue;
          accepted += 1;
          if (row.id) idsSeen.set(row.id, row.place);
          for (const field of unique) {
            const value = row.values.get(field);
            if (value !== null && value !== undefined) valuesSeen.get(field)!.set(columnText(columnTypeOf(field)!, value), row.place);
          }
        }
        for (const row of rows) if (row.problems.length) report(row);
        if (badRows > 0 && !options.skipBadRows) return;
        const good = live();
        if (!good.length) return;
        const ranks = generateNKeysBetween(rank, null, good.length);
        rank = ranks[ranks.length - 1]!;
        const now = new Date().toISOString();
        const ids = newIds(good.length);
        const written: Written[] = good.map((row, i) => ({ id: row.id ?? ids[i]!, rank: ranks[i]!, created: row.created ?? now, updated: row.updated ?? now, values: row.values }));
        imported += written.length;
        batches += 1;
        const batch = batches;
        // One connection: the previous batch's write ends first. This one's goes on while the next batch is read and checked.
        await writing;
        writing = write(written, batch);
        writing.catch(() => undefined);
      };
      const write = async (written: Written[], batch: number) => {
        await guardUnique(level, () => writeBatch(tx, level, written));
        await recordContentEvents(
          tx,
          [
            {
              projectId: target.projectId,
              collectionId: collection.id,
              rootItemId: null,
              nestedPath: '',
              trigger: 'import',
              itemId: '',
              item: { importID, batch, count: written.length, firstID: written[0]!.id, lastID: written[written.length - 1]!.id },
            },
          ],
          sql`update content_collections set item_count = item_count + ${written.length} where id = ${collection.id}`,
        );
      };
      let writing: Promise<void> = Promise.resolve();

      try {
        let batch: Row[] = [];
        for await (const record of reader.records) {
          batch.push(toRow(record));
          if (batch.length >= batchSize) {
            await settle(batch);
            batch = [];
            // Refused: read on only to collect problems, up to the most kept.
            if (!options.skipBadRows && errors.length >= importErrorsMax) break;
          }
        }
        if (batch.length) await settle(batch);
        await writing;
      } finally {
        // A write still under way ends before the transaction does (its failure, if any, already thrown or beside the point).
        await writing.catch(() => undefined);
      }
      if (badRows > 0 && !options.skipBadRows) throw new ImportRefusedError(errors, badRows);
      return { importID, imported, skipped: badRows, errors, batches };
    });
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new ImportRefusedError([...errors, { ...error.place, path: '', message: error.message }].slice(0, importErrorsMax), badRows + 1);
    throw error;
  }
}

/** A unique violation during a write (a value the checks above did not see: jsonb key order): the import is refused, not a 500. */
async function guardUnique(level: SchemaLevel, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    for (let e = error as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
      if (e.code !== '23505') continue;
      const constraint = e.constraint ?? /unique constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
      const field = columnFields(level).find((f) => uniqueIndexName(level.table, f.id) === constraint);
      throw new ImportRefusedError([{ path: field?.slug ?? '_id', message: field ? 'must be unique: a value repeats' : 'an id repeats' }], 1);
    }
    throw error;
  }
}
