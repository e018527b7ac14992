/**
 * Runs one operation for a command (docs/cli.md): opens the installation's database and file
 * storage from the same settings as the server, gives the operation its context (audit log,
 * progress bars, notes), prints the result as text or `--json`, and turns a refusal into
 * `Error: …` and a non-zero exit.
 */
import os from 'node:os';
import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { AuditLog } from '../admin/audit.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { DataDirectoryLockedError } from '../db/lock.ts';
import { createStorage } from '../files/storage.ts';
import { CliError, type Operation, type OperationContext, type Progress } from './operation.ts';

export type RunCommand = <I, O>(command: Command, operation: Operation<I, O>, input: I, present: (output: O) => string) => Promise<void>;

/** The audit log's name for whoever runs the command line. */
export const cliActor = () => `cli (${safeUser()})`;

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown user';
  }
}

function progressFor(json: boolean): OperationContext['progress'] {
  return (label, total) => {
    if (json || !process.stderr.isTTY) return { tick() {}, total() {}, done() {} } satisfies Progress;
    const bar = new SingleBar({ format: `${label.padEnd(12)} {bar} {value}/{total} {percentage}% {eta_formatted}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
    bar.start(total ?? 0, 0);
    return {
      tick: (n = 1) => bar.increment(n),
      total: (n) => bar.setTotal(n),
      done: () => bar.stop(),
    };
  };
}

export const runCommand: RunCommand = async (command, operation, input, present) => {
  const json = Boolean(command.optsWithGlobals().json);
  try {
    const output = await runDirect(operation, input, json);
    process.stdout.write(json ? `${JSON.stringify(output)}\n` : `${present(output)}\n`);
  } catch (error) {
    const refusal = error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error), 1, 'failed');
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: refusal.code, message: refusal.message } })}\n`);
    else process.stderr.write(`Error: ${refusal.message}\n`);
    process.exitCode = refusal.exitCode;
  }
};

/** Runs the operation in this process, on the database opened directly. */
export async function runDirect<I, O>(operation: Operation<I, O>, input: I, json: boolean): Promise<O> {
  const config = loadConfig();
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, skipMigrations: operation.withoutMigrations === true });
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      throw new CliError(`${error.message} (the command line cannot reach the embedded database while a server runs on it).`, 2, 'data_dir_locked');
    }
    throw error;
  }
  const storage = createStorage(config.files);
  try {
    const context: OperationContext = {
      database,
      config,
      storage,
      audit: new AuditLog(database.db),
      actor: cliActor(),
      progress: progressFor(json),
      note: (message) => {
        if (!json) process.stderr.write(`${message}\n`);
      },
    };
    return await operation.run(context, input);
  } finally {
    storage.close?.();
    await database.close();
  }
}
