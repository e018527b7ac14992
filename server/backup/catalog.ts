/**
 * The database as the catalog describes it, for backups (docs/cli.md "Backups and restores"):
 * every table of the `public` schema, those the migrations made and those made at run time (one
 * per collection and per nested list, docs/content-storage.md "Storage"), with what it takes to
 * make a run-time table again — columns, constraints, indexes, triggers — and the sequences.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import type { ColumnManifest, SequenceManifest, TableManifest } from './manifest.ts';

/** Anything that runs SQL: the database or a transaction. */
export type Executor = { execute: Db['execute'] };

/**
 * A statement written with `$1`, `$2`… placeholders, run through drizzle (rows as the driver gives
 * them). Without parameters the text goes as it is (migrations and DDL hold `$$` bodies).
 */
export async function run<T = Record<string, unknown>>(executor: Executor, text: string, params: unknown[] = []): Promise<T[]> {
  if (params.length === 0) return ((await executor.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`));
  const result = (await executor.execute(sql.join(chunks))) as unknown as { rows: T[] };
  return result.rows;
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const qualified = (table: string) => `public.${quoteIdent(table)}`;

export type TableShape = Omit<TableManifest, 'rows' | 'entry' | 'bytes' | 'sha256'>;

/** Every ordinary table of `public`, by name. */
export async function publicTables(executor: Executor): Promise<string[]> {
  const rows = await run<{ name: string }>(
    executor,
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  return rows.map((r) => r.name);
}

/** A table's shape: what `create table` and the statements after the rows need. */
export async function tableShape(executor: Executor, table: string): Promise<TableShape> {
  const relation = qualified(table);
  const columns = await run<{ name: string; type: string; not_null: boolean; identity: string; generated: string; default_value: string | null; collation: string | null; generation: string | null }>(
    executor,
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
            a.attidentity::text as identity, a.attgenerated::text as generated,
            case when a.attgenerated = '' and a.attidentity = '' then pg_get_expr(d.adbin, d.adrelid) end as default_value,
            case when a.attgenerated <> '' then pg_get_expr(d.adbin, d.adrelid) end as generation,
            case when a.attcollation <> 0 and a.attcollation <> t.typcollation
                 then (select quote_ident(co.collname) from pg_collation co where co.oid = a.attcollation) end as collation
     from pg_attribute a join pg_type t on t.oid = a.atttypid
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
    [relation],
  );
  const constraints = await run<{ name: string; kind: string; definition: string; ref: string | null }>(
    executor,
    `select c.conname as name, c.contype::text as kind, pg_get_constraintdef(c.oid) as definition,
            case when c.contype = 'f' then r.relname end as ref
     from pg_constraint c left join pg_class r on r.oid = c.confrelid
     where c.conrelid = $1::regclass and c.contype in ('p', 'u', 'c', 'x', 'f')
     order by array_position(array['p', 'u', 'c', 'x', 'f'], c.contype::text), c.conname`,
    [relation],
  );
  const indexes = await run<{ definition: string }>(
    executor,
    `select pg_get_indexdef(i.indexrelid) as definition from pg_index i
     where i.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid)
     order by i.indexrelid`,
    [relation],
  );
  const triggers = await run<{ definition: string }>(
    executor,
    `select pg_get_triggerdef(t.oid) as definition from pg_trigger t where t.tgrelid = $1::regclass and not t.tgisinternal order by t.tgname`,
    [relation],
  );
  return {
    name: table,
    columns: columns.map(
      (c): ColumnManifest => ({
        name: c.name,
        type: c.type,
        notNull: c.not_null,
        identity: c.identity ?? '',
        generated: c.generated ? c.generation : null,
        default: c.default_value,
        collation: c.collation,
      }),
    ),
    constraints: constraints.map((c) => ({ name: c.name, kind: c.kind, definition: c.definition, references: c.ref })),
    indexes: indexes.map((i) => i.definition),
    triggers: triggers.map((t) => t.definition),
  };
}

/** Every sequence of `public` with its current value and the column owning it. */
export async function publicSequences(executor: Executor): Promise<SequenceManifest[]> {
  const rows = await run<{ name: string; table_name: string | null; column_name: string | null; last_value: string | null }>(
    executor,
    `select s.sequencename as name, owner.table_name, owner.column_name, s.last_value::text as last_value
     from pg_sequences s
     left join lateral (
       select t.relname as table_name, a.attname as column_name
       from pg_class q join pg_depend d on d.objid = q.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjsubid > 0
       join pg_class t on t.oid = d.refobjid join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
       where q.relname = s.sequencename and q.relnamespace = 'public'::regnamespace limit 1
     ) owner on true
     where s.schemaname = 'public' order by s.sequencename`,
  );
  return rows.map((r) => ({ name: r.name, table: r.table_name, column: r.column_name, lastValue: r.last_value }));
}

/** `create table` of a run-time table: columns only; constraints, indexes and triggers come after its rows. */
export function createTableStatement(table: TableShape): string {
  const columns = table.columns.map((c) => {
    let line = `${quoteIdent(c.name)} ${c.type}`;
    if (c.collation) line += ` collate ${c.collation}`;
    if (c.identity) line += ` generated ${c.identity === 'a' ? 'always' : 'by default'} as identity`;
    else if (c.generated) line += ` generated always as (${c.generated}) stored`;
    else if (c.default !== null) line += ` default ${c.default}`;
    if (c.notNull) line += ' not null';
    return line;
  });
  return `create table ${qualified(table.name)} (${columns.join(', ')})`;
}

/**
 * Tables in an order where every table comes after those its foreign keys point at (a table
 * pointing at itself or in a cycle keeps its place), so rows can be loaded with the keys checked.
 */
export function loadOrder(tables: readonly Pick<TableShape, 'name' | 'constraints'>[]): string[] {
  const names = new Set(tables.map((t) => t.name));
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const order: string[] = [];
  const visit = (name: string) => {
    if (done.has(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const c of byName.get(name)?.constraints ?? []) if (c.kind === 'f' && c.references && c.references !== name && names.has(c.references)) visit(c.references);
    visiting.delete(name);
    done.add(name);
    order.push(name);
  };
  for (const t of tables) visit(t.name);
  return order;
}
