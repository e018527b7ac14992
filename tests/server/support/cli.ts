/**
 * The `larder` command line run as a separate process, as an operator runs it (docs/cli.md), and
 * the same commands run inside the test's process on a database it holds open.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { AuditLog } from '../../../server/admin/audit.ts';
import { registerAdminCommands } from '../../../server/cli/admin-commands.ts';
import { asCliError, cliActor, type RunCommand } from '../../../server/cli/runner.ts';
import { loadConfig } from '../../../server/config.ts';
import { openDatabase, type Database } from '../../../server/db/index.ts';
import type { FileStorage } from '../../../server/files/storage.ts';
import { newId } from '../../../server/lib/ids.ts';
import { testEnv } from './test-app.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, for `--json` runs. */
  json: any;
}

/** Where the command finds the installation: one of these, as the server's environment would say. */
export type CliTarget = { DATA_DIR: string } | { DATABASE_URL: string };

/** The suite's own settings, which are not the installation's. */
const hidden = ['DATABASE_URL', 'DATA_DIR', 'SUPER_ADMIN_USERNAMES', 'ADMIN_PASSWORD', 'ADMIN_EMAIL'];

export function larder(target: CliTarget, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const base = { ...process.env };
  for (const name of hidden) delete base[name];
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

/**
 * `larder admin|user|migrate …` run inside this process: the arguments parsed by the command
 * line's own commands (server/cli/admin-commands.ts), the operation run on `database`, answered as
 * the runner (server/cli/runner.ts `runCommand`) answers — the `--json` document or the text, a
 * refusal's `Error:` line and exit code. `env` are the installation's settings for this run (the
 * commands read ADMIN_PASSWORD from the environment, so it is set there meanwhile). What only a
 * process shows (its real exit status, commander's usage errors, settings read at start) is for
 * `larder` above: a suite runs a few commands that way and the rest here, without a process start
 * and a database opening each.
 */
export function inProcessLarder(database: Database, target: CliTarget) {
  // Administrator commands keep no files: a use of the storage is a mistake of the test.
  const storage = new Proxy({} as FileStorage, {
    get: () => {
      throw new Error('the administrator commands use no file storage');
    },
  });
  return async (args: string[], env: Record<string, string> = {}): Promise<CliRun> => {
    const config = loadConfig({ ...testEnv, ...target, ...env });
    const context = { database, config, storage, audit: new AuditLog(database.db), actor: cliActor(), progress: () => ({ tick() {}, total() {}, done() {} }), note() {} };
    let answer: CliRun | undefined;
    const run: RunCommand = async (command, operation, input, present) => {
      const json = Boolean(command.optsWithGlobals().json);
      try {
        const output = await operation.run(context, input);
        answer = { code: 0, stdout: json ? `${JSON.stringify(output ?? null)}\n` : `${present(output)}\n`, stderr: '', json: json ? JSON.parse(JSON.stringify(output ?? null)) : undefined };
      } catch (error) {
        const refusal = asCliError(error);
        const document = { error: { code: refusal.code, message: refusal.message } };
        answer = json
          ? { code: refusal.exitCode, stdout: `${JSON.stringify(document)}\n`, stderr: '', json: document }
          : { code: refusal.exitCode, stdout: '', stderr: `Error: ${refusal.message}\n`, json: undefined };
      }
    };
    const program = new Command().name('larder').option('--json').exitOverride();
    registerAdminCommands(program, run);
    await withSettings(env, () => program.parseAsync(args, { from: 'user' }));
    if (!answer) throw new Error(`larder ${args.join(' ')}: no command ran`);
    return answer;
  };
}

/**
 * Runs `use` with these settings in this process's environment, where the command line's code
 * reads them (`loadConfig()`), and without the suite's own; puts the environment back after.
 */
export async function withSettings<T>(env: Record<string, string>, use: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries([...hidden, ...Object.keys(env)].map((name) => [name, process.env[name]]));
  for (const name of hidden) delete process.env[name];
  Object.assign(process.env, env);
  try {
    return await use();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
