/**
 * Test applications on both databases: PGlite always, PostgreSQL when TEST_DATABASE_URL is set
 * (each app gets a fresh database of its own on that server, dropped at close).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../../server/app.ts';
import { loadConfig, type Config } from '../../../server/config.ts';
import { openDatabase, type Database } from '../../../server/db/index.ts';
import { newId } from '../../../server/lib/ids.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases the suite runs against. */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** Rate limits high enough that only the rate-limit tests ever meet them. */
export const testEnv: Record<string, string> = {
  SERVE_CONSOLE: '0',
  PUBLIC_URL: 'http://larder.test',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_LOGIN_ACCOUNT: '1000/1m',
  RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS: '1000/1m',
  RATE_LIMIT_LOGIN_ADDRESS: '1000/1m',
  RATE_LIMIT_RESET_ACCOUNT: '1000/1m',
  RATE_LIMIT_RESET_ADDRESS: '1000/1m',
  RATE_LIMIT_SIGNUP_ADDRESS: '1000/1m',
  // Totals kept for slow filters depend on timing: only tests/server/kept-totals.test.ts turns them on.
  SEARCH_KEPT_SLOW_MS: '0',
  ...(process.env.TEST_FIELD_INDEXES ? { FIELD_INDEXES: process.env.TEST_FIELD_INDEXES } : {}),
};

/**
 * A test database; on PostgreSQL with its connection string, so a test can open a second pool as
 * another process would. `migrated: false` gives a fresh installation's database, never migrated
 * (what `larder restore` opens).
 */
export async function openTestDatabase(kind: DatabaseKind, options: { migrated?: boolean } = {}): Promise<Database & { url?: string }> {
  const migrated = options.migrated ?? true;
  if (kind === 'pglite') {
    if (!migrated) return openDatabase({ skipMigrations: true });
    const dump = readFileSync(path.resolve('.tmp/pglite-template.tar.gz'));
    return openDatabase({ loadDataDir: new Blob([dump]), skipMigrations: false });
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `larder_t_${newId()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  // A test database is thrown away at the end: commits need not wait for the disk.
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 5, skipMigrations: !migrated });
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}

export interface TestApp {
  app: App;
  config: Config;
  database: Database & { url?: string };
  close(): Promise<void>;
}

export async function createTestApp(kind: DatabaseKind, env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...testEnv, ...env });
  const database = await openTestDatabase(kind);
  const app = await buildApp({ config, database, logger: process.env.TEST_LOG === '1' ? ({ level: 'error' } as never) : false });
  await app.ready();
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export const json = <T = any>(response: LightMyRequestResponse): T => JSON.parse(response.body) as T;
