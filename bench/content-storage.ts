/**
 * Content storage at scale: loads N items (default 1,000,000) into a collection table made by the
 * real storage layer (server/content/storage.ts) on PostgreSQL, then times what the console and
 * the public API do with a big collection. It makes its own database and drops it at the end.
 *
 *   npx tsx bench/content-storage.ts                  # 1,000,000 items, typed-column layout
 *   BENCH_ITEMS=100000 npx tsx bench/content-storage.ts
 *   BENCH_LAYOUTS=typed,jsonb npx tsx bench/content-storage.ts   # also the one-jsonb-column layout, for comparison
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   # the server to use (this is the default)
 *   --json prints the figures as JSON.
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { generateNKeysBetween } from 'fractional-indexing';
import type { SchemaField } from '../definitions/field-types/index.ts';
import { openDatabase, type Db } from '../server/db/index.ts';
import { contentCollections, organizations, projects } from '../server/db/schema.ts';
import { newId } from '../server/lib/ids.ts';
import { ItemService } from '../server/content/items.ts';
import { addFieldStorage, createLevelTable, dropFieldStorage } from '../server/content/storage.ts';
import { fieldColumn, topLevel, type SchemaLevel } from '../server/content/schema-tree.ts';
import { metadataField } from '../definitions/content.ts';
import { loadWithIndexesDeferred } from './support/bulk-load.ts';
import { phrase, prng, vocabulary } from './support/data.ts';

type Layout = 'typed' | 'jsonb';

interface Figures {
  layout: Layout;
  items: number;
  loadSeconds: number;
  loadRowsPerSecond: number;
  indexBuildSeconds: number;
  indexedInsertRowsPerSecond: number;
  apiInserts: { count: number; perSecond: number; medianMs: number } | null;
  tableMB: number;
  indexMB: number;
  timingsMs: Record<string, number>;
  matches: Record<string, number>;
}


const field = (slug: string, type: number, extra: Partial<SchemaField> = {}): SchemaField => ({ id: newId(), name: slug, slug, type, ...extra });

const statusOptions = ['draft', 'review', 'published', 'archived'].map((value, i) => ({ _id: `s${i}`, value }));

function schemaFields() {
  return {
    title: field('title', 1),
    price: field('price', 3),
    published: field('published', 10),
    status: field('status', 7, { options: statusOptions }),
    featured: field('featured', 8),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function timed<T>(runs: number, action: () => Promise<T>): Promise<{ ms: number; result: T }> {
  let result!: T;
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    result = await action();
    times.push(performance.now() - start);
  }
  return { ms: Math.round(median(times) * 100) / 100, result };
}

async function runLayout(adminUrl: string, layout: Layout, items: number, incremental: number, log: (line: string) => void): Promise<Figures> {
  const dbName = `larder_bench_${layout}_${newId().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  try {
    const db = database.db;
    const exec = drizzle({ client: pool });
    const random = prng(42);
    const words = vocabulary(random, 5000);
    const fields = schemaFields();
    const organizationId = newId();
    const projectId = newId();
    const collectionRowId = newId();
    const level: SchemaLevel = topLevel(collectionRowId, [...Object.values(fields), { ...metadataField }]);
    await db.insert(organizations).values({ id: organizationId, name: 'Bench' });
    await db.insert(projects).values({ id: projectId, organizationId, name: 'Bench' });
    await db.insert(contentCollections).values({
      id: collectionRowId,
      projectId,
      slug: 'articles',
      name: 'Articles',
      schema: level.fields,
      storageTables: [level.table],
    });

    // The table with every index in place before loading: a live collection grows this way.
    await createLevelTable(exec, level);
    if (layout === 'typed') {
      for (const f of Object.values(fields)) await addFieldStorage(exec, level, f);
    } else {
      await exec.execute(sql.raw(`alter table ${level.table} add column data jsonb not null default '{}'`));
      await exec.execute(sql.raw(`create index ${level.table}_title_b on ${level.table} (left(data->>'title', 128), _id)`));
      await exec.execute(sql.raw(`create index ${level.table}_title_t on ${level.table} using gin ((data->>'title') gin_trgm_ops)`));
      await exec.execute(sql.raw(`create index ${level.table}_price_b on ${level.table} (((data->>'price')::double precision), _id)`));
      await exec.execute(sql.raw(`create index ${level.table}_published_b on ${level.table} (((data->>'published')), _id)`));
      await exec.execute(sql.raw(`create index ${level.table}_status_b on ${level.table} ((data->'status'->>'_id'), _id)`));
      await exec.execute(sql.raw(`create index ${level.table}_featured_b on ${level.table} (((data->>'featured')::boolean), _id)`));
    }

    const col = (slug: keyof typeof fields) => fieldColumn(fields[slug].id);
    const ranks = generateNKeysBetween(null, null, items + incremental);
    const start2020 = Date.UTC(2020, 0, 1);

    /** Inserts rows `from`..`from + n` of the data set as one multi-row statement. */
    const insertRows = async (from: number, n: number) => {
      const ids: string[] = [];
      const rankList: string[] = [];
      const created: string[] = [];
      const titles: string[] = [];
      const prices: number[] = [];
      const dates: string[] = [];
      const statuses: string[] = [];
      const featured: boolean[] = [];
      for (let i = 0; i < n; i += 1) {
        ids.push(newId());
        rankList.push(ranks[from + i]!);
        created.push(new Date(start2020 + (from + i) * 1000).toISOString());
        titles.push(phrase(random, words, 3 + Math.floor(random() * 3)));
        prices.push(Math.round(random() * 100_000) / 100);
        dates.push(new Date(start2020 + Math.floor(random() * 5 * 365 * 86_400_000)).toISOString());
        const status = statusOptions[Math.floor(random() * statusOptions.length)]!;
        statuses.push(JSON.stringify(status));
        featured.push(random() < 0.1);
      }
      if (layout === 'typed') {
        await pool.query(
          `insert into ${level.table} (_id, _rank, _created_date, _last_updated_date, ${col('title')}, ${col('price')}, ${col('published')}, ${col('status')}, ${col('featured')})
           select * from unnest($1::text[], $2::text[], $3::timestamptz[], $3::timestamptz[], $4::text[], $5::float8[], $6::timestamptz[], $7::jsonb[], $8::boolean[])`,
          [ids, rankList, created, titles, prices, dates, statuses, featured],
        );
      } else {
        const docs = titles.map((title, i) =>
          JSON.stringify({ title, price: prices[i], published: dates[i], status: JSON.parse(statuses[i]!) as unknown, featured: featured[i] }),
        );
        await pool.query(
          `insert into ${level.table} (_id, _rank, _created_date, _last_updated_date, data)
           select * from unnest($1::text[], $2::text[], $3::timestamptz[], $3::timestamptz[], $4::jsonb[])`,
          [ids, rankList, created, docs],
        );
      }
      await pool.query('update content_collections set item_count = item_count + $1 where id = $2', [n, collectionRowId]);
    };

    const batch = 5000;
    const loadStart = performance.now();
    const { rowsSeconds, indexSeconds } = await loadWithIndexesDeferred((text) => pool.query(text), level.table, async () => {
      for (let offset = 0; offset < items; offset += batch) {
        await insertRows(offset, Math.min(batch, items - offset));
        if ((offset / batch) % 40 === 0) log(`  ${layout}: ${offset} items loaded`);
      }
    });
    const loadSeconds = (performance.now() - loadStart) / 1000;
    await pool.query(`vacuum analyze ${level.table}`);
    log(`  ${layout}: loaded ${items} in ${loadSeconds.toFixed(1)} s (rows ${rowsSeconds.toFixed(1)} s, indexes ${indexSeconds.toFixed(1)} s)`);

    // Growth of a big collection: every index maintained row by row, 1,000 rows a statement.
    const growStart = performance.now();
    for (let offset = items; offset < items + incremental; offset += 1000) await insertRows(offset, Math.min(1000, items + incremental - offset));
    const growSeconds = (performance.now() - growStart) / 1000;
    log(`  ${layout}: ${incremental} more rows into the indexed table in ${growSeconds.toFixed(1)} s`);

    // Writes through the item service (validation, rank, counter, one transaction each).
    let apiInserts: Figures['apiInserts'] = null;
    if (layout === 'typed') {
      const service = new ItemService(db as Db);
      const count = Number(process.env.BENCH_API_INSERTS ?? 2000);
      const times: number[] = [];
      const begin = performance.now();
      for (let i = 0; i < count; i += 1) {
        const t0 = performance.now();
        await service.create(projectId, 'articles', {
          title: `${words[i % words.length]} api item ${i}`,
          price: i,
          published: new Date(start2020 + i * 60_000).toISOString(),
          status: { _id: 's1' },
          featured: i % 2 === 0,
        });
        times.push(performance.now() - t0);
      }
      const seconds = (performance.now() - begin) / 1000;
      apiInserts = { count, perSecond: Math.round(count / seconds), medianMs: Math.round(median(times) * 100) / 100 };
      log(`  ${layout}: ${count} API inserts at ${apiInserts.perSecond}/s`);
    }

    // Measure the steady state autovacuum keeps: statistics fresh, GIN pending lists merged.
    await pool.query(`vacuum analyze ${level.table}`);
    const total = items + incremental + (apiInserts?.count ?? 0);
    const q = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows;
    const t = level.table;
    const v = (slug: keyof typeof fields) =>
      layout === 'typed'
        ? { title: `left(${col('title')}, 128)`, titleText: col('title'), price: col('price'), published: col('published'), status: `(${col('status')}->>'_id')`, featured: col('featured') }[
            slug === 'title' ? 'title' : slug
          ]
        : {
            title: `left(data->>'title', 128)`,
            price: `((data->>'price')::double precision)`,
            published: `(data->>'published')`,
            status: `(data->'status'->>'_id')`,
            featured: `((data->>'featured')::boolean)`,
          }[slug];
    const titleText = layout === 'typed' ? col('title') : `(data->>'title')`;
    const timings: Record<string, number> = {};
    const matches: Record<string, number> = {};
    const record = async (name: string, runs: number, action: () => Promise<unknown[]>) => {
      const { ms, result } = await timed(runs, action);
      timings[name] = ms;
      matches[name] = result.length;
    };

    await record('count: counter row', 5, () => q('select item_count from content_collections where id = $1', [collectionRowId]));
    await record('count: count(*) scan', 3, () => q(`select count(*) from ${t}`));
    await record('page 1 by rank (50)', 5, () => q(`select * from ${t} order by _rank, _id limit 50`));
    const deepOffset = Math.max(0, total - 1000);
    await record(`deep page by rank: offset ${deepOffset}`, 3, () => q(`select * from ${t} order by _rank, _id limit 50 offset ${deepOffset}`));
    const [cursor] = await q(`select _rank, _id from ${t} order by _rank, _id limit 1 offset ${deepOffset - 1}`);
    await record('deep page by rank: keyset', 5, () => q(`select * from ${t} where (_rank, _id) > ($1, $2) order by _rank, _id limit 50`, [cursor!._rank, cursor!._id]));
    await record('sort by price desc (50)', 5, () => q(`select * from ${t} order by ${v('price')} desc, _id desc limit 50`));
    const [priceCursor] = await q(`select ${v('price')} as p, _id from ${t} order by ${v('price')} desc, _id desc limit 1 offset ${deepOffset - 1}`);
    await record('sort by price desc: deep keyset', 5, () =>
      q(`select * from ${t} where (${v('price')}, _id) < ($1, $2) order by ${v('price')} desc, _id desc limit 50`, [priceCursor!.p, priceCursor!._id]),
    );
    await record('sort by title (50)', 5, () => q(`select * from ${t} order by ${v('title')}, _id limit 50`));
    await record('sort by published, date range (50)', 5, () =>
      q(`select * from ${t} where ${v('published')} >= $1 and ${v('published')} < $2 order by ${v('published')}, _id limit 50`, [
        layout === 'typed' ? '2022-03-01T00:00:00Z' : '2022-03-01T00:00:00.000Z',
        layout === 'typed' ? '2022-04-01T00:00:00Z' : '2022-04-01T00:00:00.000Z',
      ]),
    );
    await record('filter option = (50)', 5, () => q(`select * from ${t} where ${v('status')} = 's2' order by ${v('status')}, _id limit 50`));
    const term = words[123]!;
    await record(`trigram search ~* '${term}' (50)`, 5, () => q(`select * from ${t} where ${titleText} ~* $1 limit 50`, [term]));
    await record(`trigram search ~* '${term}': all matches`, 3, () => q(`select _id from ${t} where ${titleText} ~* $1`, [term]));
    await record(`trigram search ~* '${term}' sorted by rank (50)`, 3, () => q(`select * from ${t} where ${titleText} ~* $1 order by _rank, _id limit 50`, [term]));

    const [size] = await q(`select pg_table_size($1) as table_bytes, pg_indexes_size($1) as index_bytes`, [t]);
    const tableMB = Math.round(Number(size!.table_bytes) / 1048576);
    const indexMB = Math.round(Number(size!.index_bytes) / 1048576);

    // Schema changes on a full table.
    if (layout === 'typed') {
      const extra = field('subtitle', 1);
      const { ms: addMs } = await timed(1, () => addFieldStorage(exec, level, extra));
      timings['add a PlainText field (column + 2 indexes)'] = addMs;
      const { ms: dropMs } = await timed(1, () => dropFieldStorage(exec, level, extra));
      timings['delete a field (drop column)'] = dropMs;
    } else {
      const { ms: dropMs } = await timed(1, () => q(`update ${t} set data = data - 'featured' where data ? 'featured'`));
      timings['delete a field (rewrite every row)'] = dropMs;
    }

    return {
      layout,
      items: total,
      loadSeconds: Math.round(loadSeconds * 10) / 10,
      loadRowsPerSecond: Math.round(items / loadSeconds),
      indexBuildSeconds: Math.round(indexSeconds * 10) / 10,
      indexedInsertRowsPerSecond: Math.round(incremental / growSeconds),
      apiInserts,
      tableMB,
      indexMB,
      timingsMs: timings,
      matches,
    };
  } finally {
    await pool.end();
    await database.close();
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`drop database if exists ${dbName} with (force)`);
    await drop.end();
  }
}

export async function run(args: string[]): Promise<number> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const items = Number(process.env.BENCH_ITEMS ?? 1_000_000);
  const incremental = Number(process.env.BENCH_GROWTH ?? 20_000);
  const layouts = (process.env.BENCH_LAYOUTS ?? 'typed').split(',').map((s) => s.trim()) as Layout[];
  const asJson = args.includes('--json');
  const log = (line: string) => {
    if (!asJson) console.log(line);
  };
  const results: Figures[] = [];
  for (const layout of layouts) {
    log(`${layout} layout, ${items} items`);
    results.push(await runLayout(adminUrl, layout, items, incremental, log));
  }
  if (asJson) {
    console.log(JSON.stringify(results, null, 2));
    return 0;
  }
  for (const r of results) {
    console.log(`\n${r.layout}: ${r.items} items; bulk load ${r.loadSeconds} s (${r.loadRowsPerSecond} rows/s, of which index build ${r.indexBuildSeconds} s); table ${r.tableMB} MB, indexes ${r.indexMB} MB`);
    console.log(`  inserts into the full, indexed table: ${r.indexedInsertRowsPerSecond} rows/s (1,000-row statements)`);
    if (r.apiInserts) console.log(`  API inserts: ${r.apiInserts.perSecond}/s, median ${r.apiInserts.medianMs} ms`);
    for (const [name, ms] of Object.entries(r.timingsMs)) console.log(`  ${name.padEnd(58)} ${String(ms).padStart(10)} ms${r.matches[name] !== undefined ? `  (${r.matches[name]} rows)` : ''}`);
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await run(process.argv.slice(2)));
}
