/**
 * CSV export of a list (content spec §7 "CSV export"; README "Ranks and CSV"): exactly the
 * filtered, sorted list the query engine compiles, streamed. Rows are read in keyset batches
 * (`(sort key, _id)` after the last row sent, each batch its own short read with the list
 * statement timeout), so memory stays flat at any size, no connection or transaction is held
 * while the client reads (PGlite has one connection: other requests run between batches), and
 * a slow client only slows its own export (the stream's backpressure pauses the reads).
 *
 * Format: a header row of keys — `_id`, the fields' slugs in schema order (types without a CSV
 * form, nested collections and metadata, are left out), `_createdDate`, `_lastUpdatedDate` —
 * then one row per item, each cell written by its field type's CSV codec (the registry's
 * `csv.toCell`, which `csv.fromCell` reads back). `projectOn`/`projectOff` choose the columns.
 * A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is neutralised with a
 * leading `'` so spreadsheets do not run it as a formula; types whose codec is `formulaSafe`
 * (Number, Phone, GeoPoint: only numbers) are left as they are.
 */
import type { FastifyReply } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { stringify } from 'csv-stringify';
import { fieldType, type ColumnType, type CsvCodec, type SchemaField } from '../../definitions/field-types/index.ts';
import type { Db } from '../db/index.ts';
import { CollectionService, invalid, levelOf } from './collections.ts';
import { compileListQuery, countStatement, type CompiledList } from './query/compile.ts';
import { guarded, resolveNestedList } from './query/engine.ts';
import { parseListQuery, type ListQuery, type RawListParams } from './query/parse.ts';
import type { Target } from './query/targets.ts';
import { columnFields, fieldColumn, type SchemaLevel } from './schema-tree.ts';
import { columnTypeOf, countChildren, decodeValue, query, targetExpression, type Executor } from './storage.ts';

export const csvLimits = {
  /** Rows read per batch. */
  batchSize: 5000,
};

export interface CsvColumn {
  header: string;
  /** The cell of a row of the level's table (as selectList reads it). */
  cell(row: Record<string, unknown>): string;
}

/** Text a spreadsheet would run as a formula, behind any quotes neutralising already added. */
const formulaStart = /^'*[=+\-@\t\r]/;

/**
 * Prefixes `'` to a cell a spreadsheet would read as a formula. Reversible (see `unneutralise`):
 * text that already starts with quotes before such a character gets one more.
 */
export const neutralise = (text: string): string => (formulaStart.test(text) ? `'${text}` : text);

/** The text a neutralised cell stood for (a CSV reader's inverse of `neutralise`). */
export const unneutralise = (cell: string): string => (cell.startsWith("'") && formulaStart.test(cell) ? cell.slice(1) : cell);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The columns of a list's CSV, projected like the list; each reads its value straight from the row. */
export function csvColumns(level: SchemaLevel, projection?: ListQuery['projection']): CsvColumn[] {
  const fields = columnFields(level)
    .map((field) => ({ field, codec: fieldType(field.type)?.csv, column: fieldColumn(field.id), type: columnTypeOf(field) }))
    .filter((entry): entry is { field: SchemaField; codec: CsvCodec; column: string; type: ColumnType } => entry.codec !== undefined && entry.type !== undefined);
  // Dates arrive as ISO text (csvSelect), exactly what the API gives.
  const date = (column: string) => (row: Record<string, unknown>) => text(row[column]);
  const columns: (CsvColumn & { key: string })[] = [
    { key: '_id', header: '_id', cell: (row) => text(row._id) },
    ...fields.map(({ field, codec, column, type }) => ({
      key: field.slug,
      header: field.slug,
      cell: (row: Record<string, unknown>) => {
        const value = type === 'timestamptz' ? (row[column] ?? null) : decodeValue(type, row[column]);
        if (value === null) return '';
        const cell = codec.toCell(value, field);
        return codec.formulaSafe ? cell : neutralise(cell);
      },
    })),
    { key: '_createdDate', header: '_createdDate', cell: date('_created_date') },
    { key: '_lastUpdatedDate', header: '_lastUpdatedDate', cell: date('_last_updated_date') },
  ];
  if (!projection) return columns;
  if ('on' in projection) return columns.filter((c) => c.key === '_id' || projection.on.includes(c.key));
  return columns.filter((c) => !projection.off.includes(c.key));
}

/** An instant as the API writes it (`toISOString`: UTC, milliseconds), made by the database. */
const isoText = (column: string) =>
  sql`to_char(${sql.identifier(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${sql.identifier(column)}`;

/**
 * The columns an export reads: like the list's, but dates as ISO text (parsing them into Date
 * objects and back is most of the per-row cost otherwise).
 */
export function csvSelect(level: SchemaLevel): SQL {
  return sql.join(
    [
      sql`${sql.identifier('_id')}`,
      isoText('_created_date'),
      isoText('_last_updated_date'),
      ...columnFields(level).map((field) => (columnTypeOf(field) === 'timestamptz' ? isoText(fieldColumn(field.id)) : sql`${sql.identifier(fieldColumn(field.id))}`)),
    ],
    sql`, `,
  );
}

/** `{collection}[-{nested path}]-{YYYY-MM-DD}.csv` (UTC date). */
export function csvFilename(collection: string, nestedPath = '', date = new Date()): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');
  const parts = [safe(collection), ...(nestedPath ? [safe(nestedPath)] : []), date.toISOString().slice(0, 10)];
  return `${parts.join('-')}.csv`;
}

/** The SQL type of a sort expression, to compare a batch's last key (sent back as text) with it. */
function sortKeyType(sort: Target | undefined): string {
  if (!sort) return 'text';
  const key = sort.sortKey ?? { of: 'value' };
  if (key.of !== 'value') return 'text';
  switch (sort.kind) {
    case 'number':
      return 'double precision';
    case 'bool':
      return 'boolean';
    case 'date':
      return 'timestamptz';
    case 'text':
    case 'option':
      return 'text';
    default:
      return 'jsonb';
  }
}

/**
 * The keyset of a compiled list: its sort expression (what `compileListQuery` orders by: the
 * sort key's index expression, or `_rank`) and direction. CompiledList exposes only the whole
 * ORDER BY, so this mirrors compile.ts.
 */
function keysetOf(q: ListQuery) {
  return {
    expression: q.sort ? targetExpression(q.sort.column, q.sort.sortKey ?? { of: 'value' }) : sql`${sql.identifier('_rank')}`,
    type: sortKeyType(q.sort),
    desc: q.desc,
  };
}

type Keyset = ReturnType<typeof keysetOf>;

/**
 * The list in keyset order is two runs: rows with a sort value and rows without (PostgreSQL puts
 * nulls last ascending and first descending, as the list's ORDER BY does). Each batch reads
 * within one run, with a plain row comparison the sort index serves as a range.
 */
type Run = 'values' | 'nulls';
interface Position {
  run: Run;
  /** The last row sent in this run (none yet: the run's start). */
  last?: { key: string | null; id: string };
}

const runsOf = (k: Keyset): Run[] => (k.desc ? ['nulls', 'values'] : ['values', 'nulls']);

function inRun(k: Keyset, p: Position): SQL {
  const e = k.expression;
  const rowId = sql.identifier('_id');
  const cmp = sql.raw(k.desc ? '<' : '>');
  if (p.run === 'nulls') return p.last ? sql`${e} is null and ${rowId} ${cmp} ${p.last.id}::text` : sql`${e} is null`;
  if (!p.last) return sql`${e} is not null`;
  return sql`(${e}, ${rowId}) ${cmp} (${p.last.key}::${sql.raw(k.type)}, ${p.last.id}::text)`;
}

export interface CsvSource {
  level: SchemaLevel;
  /** The parsed list query (its page is ignored: the export is the whole list). */
  query: ListQuery;
  /** The parent item, for a nested list. */
  parentId?: string | undefined;
  /** The download's file name (see csvFilename). */
  filename: string;
  /** The total when nothing filters (the kept counter); otherwise the matching rows are counted. */
  unfilteredTotal?: ((executor: Executor) => Promise<number>) | undefined;
}

/**
 * Streams a list as CSV: `text/csv`, `content-disposition: attachment` with the file name, and
 * `item-count` with the number of rows to expect (for the console's progress). Bad input and the
 * first batch's errors are answered as problems before anything is sent.
 */
export async function streamItemsCsv(db: Db, source: CsvSource, reply: FastifyReply): Promise<FastifyReply> {
  const q = source.query;
  if (q.pipeline) throw invalid([{ path: 'aggregationPipeline', message: 'cannot be exported as CSV: export the list, filtered with query, filter or find' }]);
  const batchSize = csvLimits.batchSize;
  const compiled: CompiledList = compileListQuery(source.level, { ...q, pageNumber: 1, perPage: batchSize }, { parentId: source.parentId });
  const keyset = keysetOf(q);
  const columns = csvColumns(source.level, q.projection);
  const select = csvSelect(source.level);

  const readBatch = (p: Position) =>
    guarded(db, (executor) =>
      query(
        executor,
        sql`select ${select}, (${keyset.expression})::text as ${sql.identifier('__sort_key')} from ${compiled.table}
            where (${compiled.where}) and ${inRun(keyset, p)}
            order by ${compiled.orderBy} limit ${batchSize}`,
      ),
    );

  const total = await guarded(db, async (executor) =>
    !compiled.filtered && source.unfilteredTotal ? source.unfilteredTotal(executor) : ((await query<{ n: number }>(executor, countStatement(compiled)))[0]?.n ?? 0),
  );
  const [firstRun, secondRun] = runsOf(keyset);
  const first = await readBatch({ run: firstRun! });

  const csv = stringify({ eof: true });
  /** Resolves when the stream wants more, or is gone (the client left). */
  const room = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        csv.off('drain', done);
        csv.off('close', done);
        resolve();
      };
      csv.on('drain', done);
      csv.on('close', done);
    });

  /** The batch after `batch` (undefined at the end); asked for before `batch` is written, so the database works while rows are formatted. */
  const nextOf = (run: Run, batch: Record<string, unknown>[]): [Run, Promise<Record<string, unknown>[]>] | undefined => {
    if (batch.length === batchSize) {
      const last = batch[batch.length - 1]!;
      return [run, readBatch({ run, last: { key: (last.__sort_key as string | null) ?? null, id: last._id as string } })];
    }
    return run === firstRun ? [secondRun!, readBatch({ run: secondRun! })] : undefined;
  };

  async function pump() {
    let run = firstRun!;
    let batch = first;
    csv.write(columns.map((c) => c.header));
    for (;;) {
      const next = nextOf(run, batch);
      // A read the client no longer waits for must not reject unhandled.
      next?.[1].catch(() => undefined);
      for (const row of batch) {
        if (csv.destroyed) return;
        if (!csv.write(columns.map((c) => c.cell(row)))) await room();
      }
      if (csv.destroyed || !next) break;
      [run, batch] = [next[0], await next[1]];
    }
    if (!csv.destroyed) csv.end();
  }

  void pump().catch((error: unknown) => {
    // Headers are gone: the client sees a cut-off file.
    reply.log.warn({ err: error }, 'csv export stopped');
    csv.destroy(error as Error);
  });
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${source.filename}"`)
    .header('item-count', String(total))
    .header('cache-control', 'no-store')
    .send(csv);
}

/**
 * The export of a collection's list as a route answers it: the top level, or (with `itemId` and
 * a `nestedID` ending in a nested collection slug) a nested list. `params` are the list's query
 * parameters as they came (paging and `download`/`pagination` are ignored). Checks permissions
 * nowhere: the caller has.
 */
export async function exportListCsv(
  db: Db,
  target: { projectId: string; slug: string; itemId?: string | undefined; nestedID?: string | undefined },
  params: RawListParams & Record<string, unknown>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { pageNumber: _page, perPage: _perPage, download: _download, pagination: _pagination, ...raw } = params;
  const row = await new CollectionService(db).row(target.projectId, target.slug);
  if (target.itemId === undefined || !target.nestedID) {
    const level = levelOf(row);
    return streamItemsCsv(db, { level, query: parseListQuery(level, raw), filename: csvFilename(row.slug), unfilteredTotal: async () => row.itemCount }, reply);
  }
  const address = await resolveNestedList(db, row, target.itemId, target.nestedID);
  if (!address) throw invalid([{ path: 'nestedID', message: 'must end with a nested collection slug (the list to export)' }]);
  return streamItemsCsv(
    db,
    {
      level: address.level,
      query: parseListQuery(address.level, raw),
      parentId: address.parentId,
      filename: csvFilename(row.slug, target.nestedID),
      unfilteredTotal: (executor) => countChildren(executor, address.level, address.parentId!),
    },
    reply,
  );
}
