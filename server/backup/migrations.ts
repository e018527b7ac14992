/**
 * The migrations of ./drizzle as a backup sees them: which ones a database has, and applying them
 * up to a level inside the caller's transaction (drizzle's own migrator opens a transaction of its
 * own, and a restore must stay one). Same bookkeeping as drizzle: `drizzle.__drizzle_migrations`
 * rows of (hash, created_at = the journal's `when`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrationsFolder } from '../db/index.ts';
import { run, type Executor } from './catalog.ts';

export interface KnownMigration {
  tag: string;
  when: number;
  hash: string;
  statements: string[];
}

/** The migrations this code carries, oldest first. */
export function knownMigrations(): KnownMigration[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  const files = readMigrationFiles({ migrationsFolder });
  return journal.entries.map((entry, i) => ({ tag: entry.tag, when: entry.when, hash: files[i]!.hash, statements: files[i]!.sql }));
}

/** The migrations a database has (none when it was never migrated). */
export async function appliedMigrations(executor: Executor): Promise<{ createdAt: number; hash: string }[]> {
  const [exists] = await run<{ present: boolean }>(executor, `select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!exists?.present) return [];
  const rows = await run<{ created_at: string; hash: string }>(executor, `select created_at::text as created_at, hash from drizzle.__drizzle_migrations order by created_at, id`);
  return rows.map((r) => ({ createdAt: Number(r.created_at), hash: r.hash }));
}

/** Applies, in the caller's transaction, every known migration newer than the database's and not newer than `upTo`. */
export async function applyMigrations(executor: Executor, upTo = Number.POSITIVE_INFINITY): Promise<number> {
  await run(executor, 'create schema if not exists drizzle');
  await run(executor, 'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
  const applied = await appliedMigrations(executor);
  const last = applied.at(-1)?.createdAt ?? 0;
  let count = 0;
  for (const migration of knownMigrations()) {
    if (migration.when <= last || migration.when > upTo) continue;
    for (const statement of migration.statements) if (statement.trim()) await run(executor, statement);
    await run(executor, 'insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [migration.hash, migration.when]);
    count += 1;
  }
  return count;
}
