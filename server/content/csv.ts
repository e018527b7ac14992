/**
 * CSV export of a list (docs/content-storage.md "Ranks and CSV"): exactly the
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
 * (Number, Phone, GeoPoint: only numbers) are left as they are. Cells are quoted as RFC 4180
 * (and csv-stringify) do: when they hold a comma, a quote, CR or LF, quotes doubled.
 *
 * The database writes the file: each codec's `sqlForm` is compiled to an expression giving the
 * cell `toCell` would (then neutralised and quoted in SQL too), and each batch comes back as ONE
 * text value, its lines joined, with its last keyset position. Decoding rows in JavaScript was
 * most of the cost (pg row parsing, a codec call per cell). A cell the SQL form cannot write
 * exactly (a JSON object with numeric keys, which JavaScript reorders; a value of the wrong shape;
 * a type without a form) comes back as NULL; its batch is then read again and written by the
 * JavaScript codecs (`csvColumns`), which stay the reference the SQL forms are tested against.
 */
import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { PassThrough } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { fieldType, type ColumnType, type CsvCodec, type CsvSqlForm, type SchemaField } from '../../definitions/field-types/index.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { collectionRow, invalid, levelOf } from './collections.ts';
import { compileListQuery, countStatement, holdsSearch, type CompiledList } from './query/compile.ts';
import { resolveSearchWords } from './query/search-words.ts';
import { guarded, listStatementTimeoutMs, resolveNestedList } from './query/engine.ts';
import { copyBatch, copyPoolOf, copySql, type BoundaryRow } from './csv-copy.ts';
import type { CsvLimits } from './csv-limits.ts';
import { parseListQuery, type ListQuery, type RawListParams } from './query/parse.ts';
import type { Target } from './query/targets.ts';
import { columnFields, fieldColumn, type SchemaLevel } from './schema-tree.ts';
import { columnTypeOf, countChildren, decodeValue, query, targetExpression, type Executor } from './storage.ts';

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

interface ExportColumn extends CsvColumn {
  key: string;
  /** The cell as SQL over the row's columns (before neutralising), NULL when it cannot be written exactly; undefined: JavaScript only. */
  sql: SQL | undefined;
  /** Not a formula-safe type: neutralise. */
  neutralise: boolean;
  /** The SQL cell never needs neutralising or quoting (numbers, booleans, instants). */
  plain: boolean;
  /** The SQL cell is never NULL (its form writes every value of the column exactly). */
  exact: boolean;
}

/** Forms whose cells never start like a formula nor hold a comma, quote or line break. */
const plainForms = new Set<CsvSqlForm['of']>(['number', 'bool', 'instant']);
/** Forms whose SQL writes every value exactly (never NULL): the others check the value's shape, or JSON's key order. */
const exactForms = new Set<CsvSqlForm['of']>(['text', 'number', 'bool', 'instant', 'member']);

/** The columns of an export: header, the JavaScript cell (the reference) and the SQL cell. */
function exportColumns(level: SchemaLevel, projection?: ListQuery['projection'], sqlNumbers = true): ExportColumn[] {
  const fields = columnFields(level)
    .map((field) => ({ field, codec: fieldType(field.type)?.csv, column: fieldColumn(field.id), type: columnTypeOf(field) }))
    .filter((entry): entry is { field: SchemaField; codec: CsvCodec; column: string; type: ColumnType } => entry.codec !== undefined && entry.type !== undefined);
  // Dates arrive as ISO text (csvSelect), exactly what the API gives.
  const date = (column: string) => (row: Record<string, unknown>) => text(row[column]);
  const system = (key: string, column: string, form: CsvSqlForm): ExportColumn => ({
    key,
    header: key,
    cell: key === '_id' ? (row) => text(row._id) : date(column),
    sql: cellSql(form, sql`${sql.identifier(column)}`, sqlNumbers),
    neutralise: false,
    plain: plainForms.has(form.of),
    exact: exactForms.has(form.of),
  });
  const columns: ExportColumn[] = [
    system('_id', '_id', { of: 'text' }),
    ...fields.map(({ field, codec, column, type }) => ({
      key: field.slug,
      header: field.slug,
      cell: (row: Record<string, unknown>) => {
        const value = type === 'timestamptz' ? (row[column] ?? null) : decodeValue(type, row[column]);
        if (value === null) return '';
        const cell = codec.toCell(value, field);
        return codec.formulaSafe ? cell : neutralise(cell);
      },
      sql: codec.sqlForm && cellSql(codec.sqlForm, sql`${sql.identifier(column)}`, sqlNumbers),
      neutralise: !codec.formulaSafe,
      plain: codec.sqlForm !== undefined && plainForms.has(codec.sqlForm.of),
      exact: codec.sqlForm !== undefined && exactForms.has(codec.sqlForm.of),
    })),
    system('_createdDate', '_created_date', { of: 'instant' }),
    system('_lastUpdatedDate', '_last_updated_date', { of: 'instant' }),
  ];
  if (!projection) return columns;
  if ('on' in projection) return columns.filter((c) => c.key === '_id' || projection.on.includes(c.key));
  return columns.filter((c) => !projection.off.includes(c.key));
}

/** The columns of a list's CSV, projected like the list; each reads its value straight from the row (csvSelect). */
export function csvColumns(level: SchemaLevel, projection?: ListQuery['projection']): CsvColumn[] {
  return exportColumns(level, projection).map(({ header, cell }) => ({ header, cell }));
}

/** Patterns, as bound parameters (no escaping to get wrong). PostgreSQL's `^` is the text's start, as JavaScript's without `m`. */
const formulaPattern = "^'*[=+@\t\r-]";
/** A JSON string literal, or a `:`/`,` separator with the space jsonb's text puts after it. */
const jsonSpacePattern = '("(?:[^"\\\\]|\\\\.)*")|([:,]) ';
/** Tokens of compact JSON text: a string literal or other non-number text (group 1), or a number (group 2). */
const jsonTokenPattern = '("(?:[^"\\\\]|\\\\.)*"|[^"0-9-]+)|(-?[0-9][0-9.]*)';
/** A JSON string literal. */
const jsonStringPattern = '"(?:[^"\\\\]|\\\\.)*"';
/** A number jsonb writes out in full where JavaScript writes an exponent (|x| >= 1e21 or < 1e-6). */
const jsonPlainExponentPattern = '(^|[^0-9.])([0-9]{22,}|0\\.0{6,})';
/** A key JavaScript puts first, in numeric order (an array index), where jsonb sorts keys by length, then bytes. */
const jsonIndexKeyPattern = '"(0|[1-9][0-9]*)":';
/**
 * Text that may hold an array-index key or a plain number JavaScript writes with an exponent: it
 * matches wherever `jsonIndexKeyPattern` or `jsonPlainExponentPattern` do (and more), so text it
 * misses (nearly all) needs neither of them, one regex run a value instead of two.
 */
const jsonSuspectPattern = '"[0-9]+":|[0-9]{22}|0\\.0{6}';

/**
 * A double as JavaScript's `String(n)`. PostgreSQL (12+, with `extra_float_digits` > 0, the
 * default) writes shortest round-trip digits, in plain notation for decimal exponents -4 to 14,
 * as JavaScript does; outside it, it writes `d.ddde±XX` where JavaScript is plain up to 20 and
 * from -6, and otherwise writes `d.ddde±X`. Above 2^53 the shortest digits may lie exactly halfway
 * between two doubles (5.01523e20): JavaScript takes them when they round back (ties to even),
 * PostgreSQL writes 17 digits, so shorter prefixes of its digits, and the next number up, are
 * tried first. -0 is `0`; NaN and the infinities read the same in both.
 *
 * `x` must be a column or a subquery's output: it is repeated. The subqueries are kept from being
 * pulled up (`offset 0`): inlining them would copy expressions into each use, and the planner's
 * work grows with every copy.
 */
export function jsNumberSql(x: SQL): SQL {
  return sql`(case when ${x} = 0 then '0' when abs(${x}) >= '1e-4'::float8 and abs(${x}) < '1e15'::float8 then (${x})::text
    else (select case when strpos(p.t, 'e') = 0 then p.t else
      (select case
        when q.e >= 21 or q.e <= -7 then p.s || left(q.d, 1) || (case when length(q.d) > 1 then '.' || substr(q.d, 2) else '' end) || 'e' || (case when q.e > 0 then '+' else '-' end) || abs(q.e)::text
        when q.e >= 0 then (case when length(q.d) <= q.e + 1 then p.s || q.d || repeat('0', q.e + 1 - length(q.d)) else p.s || left(q.d, q.e + 1) || '.' || substr(q.d, q.e + 2) end)
        else p.s || '0.' || repeat('0', -q.e - 1) || q.d end
       from (select coalesce(c.d, p.d) as d, coalesce(c.e, p.e) as e
             from (select 1) one left join lateral (
               select rtrim(k.c, '0') as d, k.ce as e
               from generate_series(1, length(p.d) - 1) as l(n),
                 lateral (select left(p.d, l.n) as c, p.e as ce union all select u, p.e + length(u) - l.n from (select (left(p.d, l.n)::numeric + 1)::text as u offset 0) up) k
               where p.a >= '9007199254740992'::float8
                 and (select case when v <= '1.7976931348623157e308'::numeric then v::float8 = p.a else false end
                      from (select (k.c || 'e' || (k.ce - length(k.c) + 1)::text)::numeric as v offset 0) kv)
               order by l.n limit 1) c on true
             offset 0) q)
      end
      from (select t, s, a, replace(replace(split_part(t, 'e', 1), '-', ''), '.', '') as d, (case when strpos(t, 'e') = 0 then 0 else split_part(t, 'e', 2)::int end) as e
            from (select (${x})::text as t, (case when ${x} < 0 then '-' else '' end) as s, abs(${x}) as a offset 0) p0 offset 0) p)
    end)`;
}

/**
 * A JSON number's text (jsonb writes numeric text: `1e+21` written out) as JavaScript writes the
 * double it parses to; NULL outside a double's range (PostgreSQL would refuse the cast).
 */
const jsonNumberSql = (numberText: SQL): SQL =>
  sql`(select case when f is not null then ${jsNumberSql(sql`f`)} end
    from (select case when n = 0 or abs(n) between '4e-324'::numeric and '1.7976931348623157e308'::numeric then n::float8 end as f
          from (select (${numberText})::numeric as n offset 0) n0 offset 0) n1)`;

/**
 * The cell `toCell` gives for `value` (a column), '' when not set, NULL when the form cannot
 * write this value exactly. `sqlNumbers` false (a session printing floats without the shortest
 * digits) leaves numbers to JavaScript.
 */
export function cellSql(form: CsvSqlForm, value: SQL, sqlNumbers = true): SQL | undefined {
  const set = (cell: SQL) => sql`(case when ${value} is null then '' else ${cell} end)`;
  const lit = (text: string) => sql`${text}::text`;
  switch (form.of) {
    case 'text':
      return sql`coalesce(${value}, '')`;
    case 'bool':
      return sql`(case when ${value} then 'true' when not ${value} then 'false' else '' end)`;
    case 'instant':
      return set(sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
    case 'number':
      return sqlNumbers ? set(jsNumberSql(value)) : undefined;
    case 'member':
      // `->` with a key gives NULL for an array or a scalar: the member's type is the one test needed.
      return set(sql`(case when jsonb_typeof(${value} -> ${lit(form.member)}) = 'string' then ${value} ->> ${lit(form.member)} else '' end)`);
    case 'members': {
      const entry = sql.identifier('e');
      const member = sql`(${entry} -> ${lit(form.member)})`;
      return set(sql`(case when jsonb_typeof(${value}) = 'array' then
        (select case when coalesce(bool_and(jsonb_typeof(${entry}) <> 'object' or jsonb_typeof(${member}) = 'string'), true)
          then coalesce(string_agg(case when jsonb_typeof(${entry}) = 'object' then ${entry} ->> ${lit(form.member)} else '' end, ${lit(form.separator)} order by ${sql.identifier('o')}), '') end
         from jsonb_array_elements(${value}) with ordinality as ${sql.identifier('entries')}(${entry}, ${sql.identifier('o')}))
        else '' end)`);
    }
    case 'numbers': {
      if (!sqlNumbers) return undefined;
      const parts = form.members.map((member) => jsonNumberSql(sql`(${value} ->> ${lit(member)})`));
      const numeric = form.members.map((member) => sql`jsonb_typeof(${value} -> ${lit(member)}) = 'number'`);
      return set(sql`(case when jsonb_typeof(${value}) <> 'object' then '' when ${sql.join(numeric, sql` and `)} then ${sql.join(parts, sql` || ${lit(form.separator)} || `)} end)`);
    }
    case 'json': {
      if (!sqlNumbers) return undefined;
      // jsonb's text is JSON.stringify's but for the space after each `:` and `,` and for numbers
      // (numeric text: 1e+21 is written out, 1e-7 too); keys are in jsonb's order (length, then
      // bytes), which JavaScript keeps, except that it puts array-index keys first.
      const compact = sql`regexp_replace((${value})::text, ${jsonSpacePattern}, '\\1\\2', 'g')`;
      const token = sql.identifier('token');
      const written = sql.identifier('written');
      const tokens = sql`(select case when bool_and(${written} is not null) then string_agg(${written}, '' order by ${sql.identifier('o')}) end
        from (select coalesce(${token}[1], ${jsonNumberSql(sql`${token}[2]`)}) as ${written}, ${sql.identifier('o')}
          from regexp_matches(${compact}, ${jsonTokenPattern}, 'g') with ordinality as ${sql.identifier('tokens')}(${token}, ${sql.identifier('o')}) offset 0) ${sql.identifier('parts')})`;
      return set(sql`(case when jsonb_typeof(${value}) = 'null' then ''
        when (${value})::text ~ ${jsonIndexKeyPattern} then null
        when jsonb_typeof(${value}) in ('object', 'array') and not jsonb_path_exists(${value}, 'strict $.** ? (@.type() == "number")') then ${compact}
        else ${tokens} end)`);
    }
    case 'jsonText': {
      // A `json` column holds JSON.stringify's text, keys in the author's order, which is the cell;
      // a value moved from jsonb by migration 0023 has jsonb's spaces (taken out here) and plain
      // numbers JavaScript writes with an exponent (22+ integer digits, 6+ zeros after the point:
      // left to JavaScript, as are array-index keys, which JavaScript puts first; one cheaper
      // regex, `jsonSuspectPattern`, rules both out for nearly every value). Text with no
      // `: ` or `, ` at all (JSON.stringify's, nearly always) has no such space: the replace, about
      // 10 µs a value, is skipped.
      const text = sql`(${value})::text`;
      return set(sql`(case when ${text} = 'null' then ''
        when ${text} ~ ${jsonSuspectPattern} and (${text} ~ ${jsonIndexKeyPattern}
          or (${text} ~ ${jsonPlainExponentPattern} and regexp_replace(${text}, ${jsonStringPattern}, '""', 'g') ~ ${jsonPlainExponentPattern})) then null
        when strpos(${text}, ': ') = 0 and strpos(${text}, ', ') = 0 then ${text}
        else regexp_replace(${text}, ${jsonSpacePattern}, '\\1\\2', 'g') end)`);
    }
  }
}

/** A cell neutralised (unless formula-safe) and quoted, from its text `cell` (a column reference: it is used several times). */
function finishedCell(cell: SQL, column: Pick<ExportColumn, 'neutralise' | 'plain'>): SQL {
  if (column.plain) return cell;
  // Cheap tests first (a regex over a long text costs more than the rest of its cell): the
  // first character, and one search per character that needs quoting.
  const neutralised = column.neutralise ? sql`(case when ${formulaStartSql(cell)} then '''' || ${cell} else ${cell} end)` : cell;
  return sql`(case when strpos(${cell}, ',') > 0 or strpos(${cell}, '"') > 0 or strpos(${cell}, chr(10)) > 0 or strpos(${cell}, chr(13)) > 0
    then '"' || replace(${neutralised}, '"', '""') || '"' else ${neutralised} end)`;
}

/**
 * Whether a text starts like a formula (`formulaStart`): its first character's code point
 * (`ascii`, cheaper than `left` and a comparison of texts) is `=`, `+`, `-`, `@`, tab or CR, or a
 * quote before such a character (the regex runs only for texts starting with a quote).
 */
const formulaStartSql = (cell: SQL) => sql`(ascii(${cell}) in (61, 43, 45, 64, 9, 13) or (ascii(${cell}) = 39 and ${cell} ~ ${formulaPattern}))`;

/**
 * A cell for COPY, from its text `cell` (a column reference: it is used several times):
 * neutralised unless formula-safe, NULL when empty (COPY writes NULL as nothing and an empty
 * string as `""`), and a call of `larder_csv_inexact()` (an error that stops the COPY) when the
 * SQL form cannot write the value exactly. COPY does the quoting.
 */
function copyCell(cell: SQL, column: Pick<ExportColumn, 'neutralise' | 'plain' | 'exact'>): SQL {
  const inexact = column.exact ? sql`` : sql` when ${cell} is null then larder_csv_inexact()`;
  if (column.plain || !column.neutralise) return column.exact ? sql`nullif(${cell}, '')` : sql`(case when ${cell} <> '' then ${cell}${inexact} end)`;
  return sql`(case when ${formulaStartSql(cell)} then '''' || ${cell} when ${cell} <> '' then ${cell}${inexact} end)`;
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

/** One batch as written: its text (lines, each ending with LF), rows, and where the next batch starts. */
interface Batch {
  text: string | Buffer[];
  rows: number;
  /** The last row written (none when the batch is empty). */
  last?: { key: string | null; id: string };
  /** The run may hold more rows after this batch. */
  more: boolean;
}

/** Counts of batches written each way since the process started (tests check the database path is taken). */
export const csvStats = { sqlBatches: 0, jsBatches: 0, copyBatches: 0, copyElsewhere: 0 };

/** What an export reads and writes, settled before its first batch. */
interface ExportPlan {
  db: Db;
  level: SchemaLevel;
  limits: CsvLimits;
  compiled: CompiledList;
  keyset: Keyset;
  columns: ExportColumn[];
  /** The rows to expect (the `item-count` header). */
  total: number;
  /** Every column has an SQL form: the database writes the batches. */
  inSql: boolean;
  /** COPY writes them (PostgreSQL), through this pool. */
  copyPool: pg.Pool | undefined;
}

/** Which word indexes may serve a search (server/content/field-indexes.ts `usableWords`; undefined: all). */
type UsableWords = (table: string, column: string) => boolean;

const sortKey = sql.identifier('__sort_key');
const rowId = sql.identifier('_id');
const cellNamesOf = (columns: ExportColumn[]) => columns.map((_, i) => sql.identifier(`__c${i}`));

/**
 * The list the export writes (the pipeline refused, a search's words resolved), its total, its
 * columns, and which way its batches are written.
 */
async function planExport(db: Db, source: Omit<CsvSource, 'filename'>, config: Pick<Config, 'csv' | 'listQueries'>, usableWords?: UsableWords): Promise<ExportPlan> {
  let q = source.query;
  if (q.pipeline) throw invalid([{ path: 'aggregationPipeline', message: 'cannot be exported as CSV: export the list, filtered with query, filter or find' }]);
  const limits = config.csv;
  // A search reads its tokens from the vocabularies first, as the list does, so the export is the list's rows.
  if (q.where && holdsSearch(q.where)) {
    const where = q.where;
    q = { ...q, where: await guarded(db, (executor) => resolveSearchWords(executor, source.level.table, where, config.listQueries.searchWords, undefined, usableWords)) };
  }
  const compiled: CompiledList = compileListQuery(source.level, { ...q, pageNumber: 1, perPage: limits.batchSize }, { parentId: source.parentId });
  const keyset = keysetOf(q);

  const [total, settings] = await guarded(db, async (executor) => [
    !compiled.filtered && source.unfilteredTotal ? await source.unfilteredTotal(executor) : ((await query<{ n: number }>(executor, countStatement(compiled)))[0]?.n ?? 0),
    // Numbers are written by the database only when it prints floats as JavaScript does (shortest
    // round-trip digits); COPY statements carry their parameters as literals, which needs plain
    // backslashes in quoted text.
    (await query<{ floats: boolean; literals: boolean }>(
      executor,
      sql`select current_setting('extra_float_digits')::int > 0 as floats, current_setting('standard_conforming_strings') = 'on' as literals`,
    ))[0],
  ] as const);
  const columns = exportColumns(source.level, q.projection, settings?.floats === true && limits.sql);
  const inSql = limits.sql && columns.every((c) => c.sql !== undefined);
  const pool = copyPoolOf(db);
  // One column would be written differently by COPY (it quotes a lone `\.`, its end-of-data mark).
  const byCopy = inSql && limits.copy && pool !== undefined && settings?.literals === true && columns.length > 1;
  return { db, level: source.level, limits, compiled, keyset, columns, total, inSql, copyPool: byCopy ? pool : undefined };
}

type BatchReader = (p: Position) => Promise<Batch>;

/** A batch read as rows and written by the JavaScript codecs. */
function rowBatches({ db, level, limits, compiled, keyset, columns }: ExportPlan): BatchReader {
  const { batchSize } = limits;
  const select = csvSelect(level);
  return async (p) => {
    const rows = await guarded(db, (executor) =>
      query(
        executor,
        sql`select ${select}, (${keyset.expression})::text as ${sortKey} from ${compiled.table}
            where (${compiled.where}) and ${inRun(keyset, p)}
            order by ${compiled.orderBy} limit ${batchSize}`,
      ),
    );
    csvStats.jsBatches += 1;
    const last = rows.at(-1);
    return {
      text: rows.length ? stringify(rows.map((row) => columns.map((c) => c.cell(row))), { eof: true }) : '',
      rows: rows.length,
      ...(last ? { last: { key: (last.__sort_key as string | null) ?? null, id: last._id as string } } : {}),
      more: rows.length === batchSize,
    };
  };
}

/**
 * A batch written by the database: the rows read as in `rowBatches`, then (past the LIMIT, so only
 * those rows) each one's cells and line, then one row: the lines joined in keyset order, up to
 * `batchBytes`, with the last one's position. A row with a cell the SQL forms cannot write
 * exactly makes the whole batch be read again as rows (`readRows`).
 */
function textBatches({ db, limits, compiled, keyset, columns }: ExportPlan, readRows: BatchReader): BatchReader {
  const { batchSize, batchBytes } = limits;
  const dir = sql.raw(keyset.desc ? 'desc' : 'asc');
  const cellNames = cellNamesOf(columns);
  // One concatenation (`||` would copy the growing line once per cell); a NULL cell (one the SQL
  // form cannot write) makes the line NULL, as concat_ws would skip it.
  const lineSql = sql`(case when num_nulls(${sql.join(
    cellNames.map((name) => sql`${name}`),
    sql`, `,
  )}) = 0 then concat_ws(',', ${sql.join(
    columns.map((c, i) => finishedCell(sql`${cellNames[i]!}`, c)),
    sql`, `,
  )}) end)`;
  return async (p) => {
    const [row] = await guarded(db, async (executor) => {
      // The cell expressions make a plan PostgreSQL prices high enough to JIT-compile, which
      // takes seconds (for a few milliseconds of work per batch).
      await executor.execute(sql`select set_config('jit', 'off', true)`);
      return query<{ csv: string | null; rows: number; written: number; read: number; last_key: string | null; last_id: string | null }>(
        executor,
        sql`with lines as (
              select ${sql.identifier('_id')}, ${sortKey}, line,
                     row_number() over w as n,
                     sum(coalesce(octet_length(line), 0)) over w - coalesce(octet_length(line), 0) as before
              from (
                select ${sql.identifier('_id')}, __key, ${sortKey}, ${lineSql} as line
                from (
                  select ${sql.identifier('_id')}, __key, ${sortKey}, ${sql.join(
                    columns.map((c, i) => sql`${c.sql!} as ${cellNames[i]!}`),
                    sql`, `,
                  )}
                  from (
                    select *, ${keyset.expression} as __key, (${keyset.expression})::text as ${sortKey} from ${compiled.table}
                    where (${compiled.where}) and ${inRun(keyset, p)}
                    order by ${compiled.orderBy} limit ${batchSize}
                  ) page offset 0
                ) cells offset 0
              ) lined
              window w as (order by __key ${dir}, ${sql.identifier('_id')} ${dir} rows between unbounded preceding and current row)
            ),
            batch as (
              select string_agg(line || chr(10), '' order by n) filter (where before < ${batchBytes}) as csv,
                     (count(*) filter (where before < ${batchBytes}))::int as rows,
                     (count(line) filter (where before < ${batchBytes}))::int as written,
                     count(*)::int as read,
                     max(n) filter (where before < ${batchBytes}) as last
              from lines
            )
            select batch.csv, batch.rows, batch.written, batch.read, lines.${sortKey} as last_key, lines.${sql.identifier('_id')} as last_id
            from batch left join lines on lines.n = batch.last`,
      );
    });
    if (!row || row.rows === 0) return { text: '', rows: 0, more: false };
    if (row.written < row.rows) return readRows(p);
    csvStats.sqlBatches += 1;
    return { text: row.csv ?? '', rows: row.rows, last: { key: row.last_key, id: row.last_id! }, more: row.read === batchSize || row.rows < row.read };
  };
}

/**
 * A batch written by COPY (PostgreSQL): the run's next `copyRows` rows, their cells as
 * `copyCell` gives them. COPY answers only the file, so the batch's last row (where the next
 * starts) is read first by an index probe, in the same snapshot. A batch COPY cannot write
 * exactly, or bigger than `batchBytes`, is written by `readText` instead (which falls back to
 * the codecs in turn).
 */
function copyBatches({ limits, compiled, keyset, columns }: ExportPlan, pool: pg.Pool, readText: BatchReader): BatchReader {
  const { batchBytes } = limits;
  const cellNames = cellNamesOf(columns);
  let copyRows = limits.copyBatchSize;
  return async (p) => {
    // Each part holds `partRows` rows; the batch `copyRows` in all.
    const parts = Math.max(1, Math.min(limits.copyParts, copyRows));
    const partRows = Math.ceil(copyRows / parts);
    const after = (from: BoundaryRow): Position => (from ? { run: p.run, last: { key: (from.__sort_key as string | null) ?? null, id: from._id as string } } : p);
    const outcome = await copyBatch(pool, {
      timeoutMs: listStatementTimeoutMs,
      maxBytes: batchBytes,
      parts,
      probe: (from) => sql`select (${keyset.expression})::text as ${sortKey}, ${rowId} from ${compiled.table}
        where (${compiled.where}) and ${inRun(keyset, after(from))} order by ${compiled.orderBy} offset ${partRows - 1} limit 1`,
      copy: (from) =>
        copySql(sql`select ${sql.join(
          columns.map((c, i) => copyCell(sql`${cellNames[i]!}`, c)),
          sql`, `,
        )}
          from (
            select ${sql.join(
              columns.map((c, i) => sql`${c.sql!} as ${cellNames[i]!}`),
              sql`, `,
            )}
            from (
              select * from ${compiled.table}
              where (${compiled.where}) and ${inRun(keyset, after(from))}
              order by ${compiled.orderBy} limit ${partRows}
            ) page offset 0
          ) cells`),
    });
    if (outcome.kind === 'elsewhere') {
      csvStats.copyElsewhere += 1;
      // Rows this big: smaller COPY batches from now on.
      if (outcome.why === 'too big') copyRows = Math.max(1, Math.floor(copyRows / 4));
      return readText(p);
    }
    csvStats.copyBatches += 1;
    const b = outcome.boundary;
    if (outcome.rows > 0) copyRows = Math.max(1, Math.min(limits.copyBatchSize, Math.floor(batchBytes / 2 / (outcome.bytes / outcome.rows))));
    return {
      text: outcome.chunks,
      rows: outcome.rows,
      ...(b ? { last: { key: (b.__sort_key as string | null) ?? null, id: b._id as string } } : {}),
      more: b !== undefined,
    };
  };
}

/** The reader of the plan's way: COPY, else the database's text, else the codecs (each falls back to the next). */
function batchReader(plan: ExportPlan): BatchReader {
  const readRows = rowBatches(plan);
  if (!plan.inSql) return readRows;
  const readText = textBatches(plan, readRows);
  return plan.copyPool ? copyBatches(plan, plan.copyPool, readText) : readText;
}

/** Resolves when the stream wants more, or is gone (the client left). */
function room(out: PassThrough) {
  return new Promise<void>((resolve) => {
    if (out.destroyed) return resolve();
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * Writes the header and the batches to `out`, the first already read, through both runs of the
 * keyset; each next batch is asked for before the one in hand is written, so the database works
 * meanwhile. Stops when the client leaves.
 */
async function pumpBatches(out: PassThrough, header: string, first: Batch, readBatch: BatchReader, [firstRun, secondRun]: Run[], written: { rows: number }) {
  /** The batch after `batch` (undefined at the end). */
  const nextOf = (run: Run, batch: Batch): [Run, Promise<Batch>] | undefined => {
    if (batch.more && batch.last) return [run, readBatch({ run, last: batch.last })];
    return run === firstRun ? [secondRun!, readBatch({ run: secondRun! })] : undefined;
  };
  let run = firstRun!;
  let batch = first;
  if (!out.write(header)) await room(out);
  for (;;) {
    const next = nextOf(run, batch);
    // A read the client no longer waits for must not reject unhandled.
    next?.[1].catch(() => undefined);
    if (out.destroyed) return;
    written.rows += batch.rows;
    if (typeof batch.text === 'string') {
      if (batch.text && !out.write(batch.text)) await room(out);
    } else {
      let full = false;
      for (const chunk of batch.text) full = !out.write(chunk);
      if (full) await room(out);
    }
    if (out.destroyed || !next) break;
    [run, batch] = [next[0], await next[1]];
  }
  if (!out.destroyed) out.end();
}

/**
 * A list's CSV as a stream (the header, then the batches), for a route or a job (the scheduled
 * export to S3). Bad input and the first batch's errors throw here; a later failure destroys the
 * stream with its error (after `onError`). `written.rows`: the items written so far.
 */
export async function itemsCsvStream(
  db: Db,
  source: Omit<CsvSource, 'filename'>,
  config: Pick<Config, 'csv' | 'listQueries'>,
  onError?: (error: unknown) => void,
  usableWords?: UsableWords,
): Promise<{ stream: PassThrough; total: number; written: { rows: number } }> {
  const plan = await planExport(db, source, config, usableWords);
  const header = stringify([plan.columns.map((c) => c.header)], { eof: true });
  const readBatch = batchReader(plan);
  const runs = runsOf(plan.keyset);
  const first = await readBatch({ run: runs[0]! });
  const out = new PassThrough();
  const written = { rows: 0 };
  void pumpBatches(out, header, first, readBatch, runs, written).catch((error: unknown) => {
    onError?.(error);
    out.destroy(error as Error);
  });
  return { stream: out, total: plan.total, written };
}

/**
 * Streams a list as CSV: `text/csv`, `content-disposition: attachment` with the file name, and
 * `item-count` with the number of rows to expect (for the console's progress). Bad input and the
 * first batch's errors are answered as problems before anything is sent.
 */
export async function streamItemsCsv(db: Db, source: CsvSource, reply: FastifyReply): Promise<FastifyReply> {
  const { stream: out, total } = await itemsCsvStream(
    db,
    source,
    reply.server.ctx.config,
    (error) => {
      // Headers are gone: the client sees a cut-off file.
      reply.log.warn({ err: error }, 'csv export stopped');
    },
    reply.server.ctx.fieldIndexes.usableWords(),
  );
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${source.filename}"`)
    .header('item-count', String(total))
    .header('cache-control', 'no-store')
    .send(out);
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
  const row = await collectionRow(db, target.projectId, target.slug);
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

/** The cell an export writes for `value` (an SQL expression of the codec's column type), neutralised and quoted; undefined when the codec has no SQL form. */
export function csvCellSql(codec: CsvCodec, value: SQL): SQL | undefined {
  const form = codec.sqlForm;
  const cell = form && cellSql(form, value);
  return cell && finishedCell(cell, { neutralise: !codec.formulaSafe, plain: plainForms.has(form.of) });
}

/** The cell a COPY export writes for `value` (before COPY's quoting): NULL when empty, an error when inexact; undefined when the codec has no SQL form. */
export function csvCopyCellSql(codec: CsvCodec, value: SQL): SQL | undefined {
  const form = codec.sqlForm;
  const cell = form && cellSql(form, value);
  return cell && copyCell(sql`(${cell})`, { neutralise: !codec.formulaSafe, plain: plainForms.has(form.of), exact: exactForms.has(form.of) });
}
