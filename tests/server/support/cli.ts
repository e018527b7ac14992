/** The `larder` command line run as a separate process, as an operator runs it (docs/cli.md). */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../../server/db/index.ts';
import { newId } from '../../../server/lib/ids.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, for `--json` runs. */
  json: any;
}

/** Where the command finds the installation: one of these, as the server's environment would say. */
export type CliTarget = { DATA_DIR: string } | { DATABASE_URL: string };

export function larder(target: CliTarget, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const base = { ...process.env };
  // The suite's own settings are not the installation's.
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  delete base.SUPER_ADMIN_USERNAMES;
  delete base.ADMIN_PASSWORD;
  delete base.ADMIN_EMAIL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.resolve('bin/larder.mjs'), ...args],
      { cwd: path.resolve('.'), env: { ...base, LOG_LEVEL: 'silent', ...target, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(stdout);
        } catch {
          parsed = undefined;
        }
        resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr, json: parsed });
      },
    );
  });
}

/** A PGlite data directory, migrated, from the suite's template (quicker than a first start). */
export async function templateDataDir(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir, loadDataDir: new Blob([readFileSync(path.resolve('.tmp/pglite-template.tar.gz'))]), skipMigrations: true });
  await database.close();
}

/** A new, empty PostgreSQL database on the TEST_DATABASE_URL server; `drop` removes it. */
export async function emptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `larder_cli_${newId()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
