/**
 * A bulk load (an import) is fastest with the secondary indexes built afterwards: take the
 * definitions the storage layer made, drop them, load, and build them again. (Callers then
 * vacuum, so their measurements see the steady state autovacuum keeps.)
 */

/** Runs one SQL statement without parameters; both benches pass their own driver. */
export type RunSql = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

export async function loadWithIndexesDeferred(run: RunSql, table: string, load: () => Promise<void>): Promise<{ rowsSeconds: number; indexSeconds: number }> {
  if (!/^[a-z0-9_]+$/.test(table)) throw new Error(`not a table name of ours: ${table}`);
  const { rows } = await run(`select indexname, indexdef from pg_indexes where tablename = '${table}' and indexname not like '%_pkey'`);
  const definitions = rows as { indexname: string; indexdef: string }[];
  for (const d of definitions) await run(`drop index ${d.indexname}`);
  const start = performance.now();
  await load();
  const rowsSeconds = (performance.now() - start) / 1000;
  const indexStart = performance.now();
  for (const d of definitions) await run(d.indexdef);
  const indexSeconds = (performance.now() - indexStart) / 1000;
  return { rowsSeconds, indexSeconds };
}
