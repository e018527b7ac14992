/**
 * Runs one operation for a command (docs/cli.md): opens the installation's database and file
 * storage from the same settings as the server, gives the operation its context (audit log,
 * progress bars, notes), prints the result as text or `--json`, and turns a refusal into
 * `Error: …` and a non-zero exit (docs/cli.md "Commands" lists the codes). While a server holds
 * the embedded database, the operation runs inside that server instead (docs/cli.md "While a
 * server runs").
 */
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { AuditLog } from '../admin/audit.ts';
import { loadConfig, type Config } from '../config.ts';
import { databaseCode, openDatabase, type Database } from '../db/index.ts';
import { DataDirectoryLockedError } from '../db/lock.ts';
import { createStorage } from '../files/storage.ts';
import { AppError } from '../lib/errors.ts';
import { rowLines } from './row-lines.ts';
import { forward, readControlFile } from './control.ts';
import { CliError, type Operation, type OperationContext, type Progress } from './operation.ts';

export type RunCommand = <I, O>(command: Command, operation: Operation<I, O>, input: I, present: (output: O) => string) => Promise<void>;

/** The exit codes (docs/cli.md "Commands"). */
export const exitCodes = {
  /** The command could not do what was asked: an unknown user, a taken e-mail, a bad archive. */
  refused: 1,
  /** Bad arguments, options or settings. */
  usage: 2,
  /** The installation cannot be reached: the database, or the server holding the data directory. */
  unavailable: 3,
  /** Anything else: a fault of Larder's, reported with its stack. */
  unexpected: 4,
} as const;

/** The operating-system user running the command. */
export function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown user';
  }
}

/** The audit log's name for whoever runs the command line. */
export const cliActor = () => `cli (${osUser()})`;

function progressFor(json: boolean): OperationContext['progress'] {
  return (label, total) => {
    if (json || !process.stderr.isTTY) return { tick() {}, total() {}, done() {} } satisfies Progress;
    const bar = new SingleBar({ format: `${label.padEnd(12)} {bar} {value}/{total} {percentage}% {eta_formatted}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
    bar.start(total ?? 0, 0);
    let stopped = false;
    return {
      tick: (n = 1) => bar.increment(n),
      total: (n) => bar.setTotal(n),
      done: () => {
        if (!stopped) bar.stop();
        stopped = true;
      },
    };
  };
}

const noteFor = (json: boolean) => (message: string) => {
  if (!json) process.stderr.write(`${message}\n`);
};

export const runCommand: RunCommand = async (command, operation, input, present) => {
  const json = Boolean(command.optsWithGlobals().json);
  try {
    const output = await execute(operation, input, json);
    process.stdout.write(json ? `${JSON.stringify(output ?? null)}\n` : `${present(output)}\n`);
    process.exitCode = 0;
  } catch (error) {
    const refusal = asCliError(error);
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: refusal.code, message: refusal.message, ...refusal.details } })}\n`);
    else process.stderr.write(`Error: ${[refusal.message, ...rowLines(refusal.details?.errors ?? [])].join('\n')}\n`);
    if (refusal.exitCode === exitCodes.unexpected && !json && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = refusal.exitCode;
  }
};

/** A refusal as the command line reports it; what no code path expected is exit 4. */
export function asCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof AppError) return new CliError(error.message, exitCodes.refused, error.code);
  const reached = connectionProblem(error);
  if (reached) return reached;
  return new CliError(`Unexpected failure: ${error instanceof Error ? error.message : String(error)}`, exitCodes.unexpected, 'unexpected');
}

let databaseLabel = 'the database';

/** A failure to reach PostgreSQL, said plainly (no stack: it is the setting or the server, not Larder). */
function connectionProblem(error: unknown): CliError | null {
  const sqlState = databaseCode(error);
  const system = systemCode(error);
  const reason =
    system === 'ECONNREFUSED'
      ? 'the connection was refused (is PostgreSQL running there?)'
      : system === 'ENOTFOUND' || system === 'EAI_AGAIN'
        ? 'its host name is unknown'
        : system === 'ETIMEDOUT' || system === 'EHOSTUNREACH' || system === 'ENETUNREACH'
          ? 'the host does not answer'
          : system === 'ECONNRESET'
            ? 'the connection was reset'
            : sqlState === '28P01' || sqlState === '28000'
              ? 'the user name or password was refused'
              : sqlState === '3D000'
                ? 'that database does not exist (create it first)'
                : sqlState === '57P03'
                  ? 'the database server is starting up or shutting down'
                  : null;
  return reason ? new CliError(`Cannot reach ${databaseLabel}: ${reason}.`, exitCodes.unavailable, 'database_unreachable') : null;
}

/** The system error code (ECONNREFUSED…) of an error or one it wraps (drizzle wraps the driver's). */
function systemCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined; e; e = (e.cause ?? e.errors?.[0]) as typeof e) {
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** The connection string without its password, for messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return `the database ${parsed.toString()}`;
  } catch {
    return 'the database of DATABASE_URL';
  }
}

const connectTimeoutMs = 15_000;

function withinTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CliError(`Cannot reach ${what}: no answer within ${connectTimeoutMs / 1000} s.`, exitCodes.unavailable, 'database_unreachable')), connectTimeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The operation's file paths made absolute, so they mean the same in a server's process. */
function withAbsolutePaths<I>(operation: Operation<I, unknown>, input: I): I {
  if (!operation.paths?.length || !input || typeof input !== 'object') return input;
  const copy = { ...(input as Record<string, unknown>) };
  for (const key of operation.paths) if (typeof copy[key] === 'string' && copy[key]) copy[key] = path.resolve(copy[key]);
  return copy as I;
}

/**
 * Runs the operation: in this process on the database opened directly, or, when a server holds
 * the embedded database, inside that server through its control channel.
 */
export async function execute<I, O>(operation: Operation<I, O>, input: I, json: boolean): Promise<O> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    throw new CliError(`A setting is not valid: ${(error as Error).message}.`, exitCodes.usage, 'invalid_setting');
  }
  const absolute = withAbsolutePaths(operation, input);
  const progress = progressFor(json);
  const note = noteFor(json);
  let database: Database;
  try {
    database = await openFor(operation, config);
  } catch (error) {
    if (!(error instanceof DataDirectoryLockedError)) throw error;
    if (operation.exclusive) {
      throw new CliError(`${error.message} This command needs the data directory to itself: stop the server first, then run it again.`, exitCodes.unavailable, 'server_running');
    }
    const control = readControlFile(config.dataDir);
    if (!control) {
      throw new CliError(`${error.message} (It offers no control channel the command could use: another command, or a server older than this one.)`, exitCodes.unavailable, 'data_dir_locked');
    }
    note(`The server (pid ${control.pid}) holds ${config.dataDir}: running the command inside it.`);
    return (await forward(control, { operation: operation.name, input: absolute, user: osUser() }, { progress, note })) as O;
  }
  const storage = createStorage(config.files);
  try {
    const context: OperationContext = { database, config, storage, audit: new AuditLog(database.db), actor: cliActor(), progress, note };
    return await operation.run(context, absolute);
  } finally {
    storage.close?.();
    await database.close();
  }
}

async function openFor(operation: Operation<never, unknown> | Operation<any, any>, config: Config): Promise<Database> {
  const options = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, skipMigrations: operation.withoutMigrations === true, poolSize: 4, readPoolSize: 2 };
  if (!config.databaseUrl) return openDatabase(options);
  databaseLabel = describeUrl(config.databaseUrl);
  let database: Database | undefined;
  try {
    database = await withinTimeout(openDatabase(options), databaseLabel);
    // Without migrations nothing has connected yet: find an unreachable database before the operation starts.
    await withinTimeout(database.ping(), databaseLabel);
    return database;
  } catch (error) {
    void database?.close().catch(() => {});
    throw connectionProblem(error) ?? error;
  }
}
