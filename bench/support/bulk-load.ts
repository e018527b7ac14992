/**
 * A bulk load (an import) is fastest with the secondary indexes built afterwards: take the
 * definitions the storage layer made, drop them, load, and build them again. (Callers then
 * vacuum, so their measurements see the steady state autovacuum keeps.)
 */

/** Runs one SQL statement without parameters; both benches pass their own driver. */
export type RunSql = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * `concurrency`: how many index builds run at once (each on its own connection when `run` is a
 * pool's). A server with cores to spare builds a table's GIN indexes side by side, as an import
 * tool would; the largest builds start first. PGlite has one connection: leave it at 1.
 */
export async function loadWithIndexesDeferred(
  run: RunSql,
  table: string,
  load: () => Promise<void>,
  { concurrency = 1 }: { concurrency?: number } = {},
): Promise<{ rowsSeconds: number; indexSeconds: number }> {
  if (!/^[a-z0-9_]+$/.test(table)) throw new Error(`not a table name of ours: ${table}`);
  const { rows } = await run(`select indexname, indexdef from pg_indexes where tablename = '${table}' and indexname not like '%_pkey'`);
  const definitions = rows as { indexname: string; indexdef: string }[];
  for (const d of definitions) await run(`drop index ${d.indexname}`);
  const start = performance.now();
  await load();
  const rowsSeconds = (performance.now() - start) / 1000;
  const indexStart = performance.now();
  // GIN builds (trigram and word indexes) take far longer than the btrees: they go first.
  const queue = [...definitions].sort((a, b) => Number(/using gin/i.test(b.indexdef)) - Number(/using gin/i.test(a.indexdef)));
  const worker = async () => {
    for (let d = queue.shift(); d; d = queue.shift()) await run(d.indexdef);
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  const indexSeconds = (performance.now() - indexStart) / 1000;
  return { rowsSeconds, indexSeconds };
}

/**
 * Writes `count` rows in batches of `batch`: `write(offset, n)` makes a batch in JavaScript and
 * starts its write. Up to `inserters` writes run at once (each on its own connection of a pool)
 * while the next batch is made, so making, the database's triggers and the writes overlap; the
 * first failure ends the load. `afterBatch` runs after each batch is started (the benches yield to
 * the event loop and log there).
 */
export async function writeBatchesOverlapped(
  count: number,
  batch: number,
  inserters: number,
  write: (offset: number, n: number) => Promise<unknown>,
  afterBatch: (offset: number) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  for (let offset = 0; offset < count; offset += batch) {
    const written = write(offset, Math.min(batch, count - offset)).then(
      () => undefined,
      (error: unknown) => {
        failure ??= error;
      },
    );
    const tracked: Promise<void> = written.finally(() => running.delete(tracked));
    running.add(tracked);
    if (running.size >= inserters) await Promise.race(running);
    if (failure) throw failure;
    await afterBatch(offset);
  }
  await Promise.all(running);
  if (failure) throw failure;
}
