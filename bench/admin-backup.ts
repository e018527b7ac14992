/**
 * `npm run bench -- admin backup` (docs/cli.md "Backups and restores"): `larder backup` of an
 * installation whose one collection holds 100,000 and then 1,000,000 items, on PostgreSQL. Each
 * backup runs as the real command in a child process; its peak resident memory is sampled from
 * /proc every 20 ms. The claim to show: the time grows with the rows, the memory does not.
 *
 *   BENCH_DATABASE_URL   the server (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_BACKUP_ITEMS   the sizes, comma-separated (default 100000,1000000)
 *   --json               one JSON document
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../server/db/index.ts';
import { newId } from '../server/lib/ids.ts';

interface Figure {
  items: number;
  seconds: number;
  peakRssMb: number;
  archiveMb: number;
  rows: number;
}

/** Peak RSS of a process and its children, sampled from /proc (Linux). */
function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

async function backupOnce(url: string, file: string): Promise<{ seconds: number; peak: number; output: { rows: number; bytes: number } }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/larder.mjs', '--json', 'backup', file], {
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: path.dirname(file) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 20);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`larder backup exited ${code}: ${out}`);
  return { seconds: (performance.now() - started) / 1000, peak, output: JSON.parse(out) as { rows: number; bytes: number } };
}

export async function run(args: string[]): Promise<number> {
  const asJson = args.includes('--json');
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const sizes = (process.env.BENCH_BACKUP_ITEMS ?? '100000,1000000').split(',').map(Number);
  const name = `larder_bench_backup_${newId().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'larder-bench-backup-'));
  const figures: Figure[] = [];
  try {
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    const client = (database.db as unknown as { $client: pg.Pool }).$client;
    // A collection's table as the storage layer makes it (docs/content-storage.md "Storage"): system columns, a title, a number, a date.
    await client.query(`create table content_bench (
      _id text primary key, _order bigint generated always as identity, _rank text collate "C" not null,
      _created_date timestamptz not null, _last_updated_date timestamptz not null,
      f_title text, f_price double precision, f_when timestamptz)`);
    await client.query('create index content_bench_rank on content_bench (_rank, _id)');
    let loaded = 0;
    for (const items of sizes) {
      for (let from = loaded + 1; from <= items; from += 100_000) {
        const to = Math.min(items, from + 99_999);
        await client.query(
          `insert into content_bench (_id, _rank, _created_date, _last_updated_date, f_title, f_price, f_when)
           select substr(md5(i::text), 1, 24), 'a' || lpad(i::text, 8, '0') || 'V', now(), now(), 'bench item number ' || i || ' of the backup', i * 1.5, now() - (i || ' minutes')::interval
           from generate_series($1::int, $2::int) i`,
          [from, to],
        );
      }
      loaded = items;
      await client.query('vacuum analyze content_bench');
      const file = path.join(dir, `backup-${items}.tar.gz`);
      const result = await backupOnce(url.toString(), file);
      figures.push({ items, seconds: result.seconds, peakRssMb: result.peak / 1024 / 1024, archiveMb: statSync(file).size / 1024 / 1024, rows: result.output.rows });
      rmSync(file, { force: true });
      if (!asJson) {
        const f = figures.at(-1)!;
        console.log(`${items.toLocaleString('en')} items: ${f.seconds.toFixed(1)} s, peak RSS ${f.peakRssMb.toFixed(0)} MB, archive ${f.archiveMb.toFixed(1)} MB (${f.rows.toLocaleString('en')} rows in all)`);
      }
    }
    await database.close();
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
  if (asJson) console.log(JSON.stringify({ backup: figures }));
  return 0;
}
