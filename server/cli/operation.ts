/**
 * What the `larder` command line does, as operations (docs/cli.md): each takes JSON input and
 * gives JSON output, so the same operation runs in the command's own process (the database opened
 * directly) or, when a running server holds the embedded database, inside that server through its
 * control channel (server/cli/runner.ts). Commands (server/cli/*-commands.ts) only turn arguments
 * into an operation's input and its output into text or `--json`.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { FileStorage } from '../files/storage.ts';
import type { AuditLog } from '../admin/audit.ts';

/** A long step's progress: the command line draws a bar (cli-progress), `--json` prints nothing. */
export interface Progress {
  /** Moves the bar on by `n` (default 1). */
  tick(n?: number): void;
  /** Sets the total once known. */
  total(n: number): void;
  done(): void;
}

export interface OperationContext {
  database: Database;
  config: Config;
  /** The configured file storage (local directory or S3). */
  storage: FileStorage;
  /** The audit log: every operation that changes something records itself (docs/admin.md "Audit log"). */
  audit: AuditLog;
  /** Who runs it, as the audit log names them: `cli (<os user>)`. */
  actor: string;
  /** Starts a progress bar for a step (`label`, e.g. "items"), with its total when known. */
  progress(label: string, total?: number): Progress;
  /** A line for people (not printed with `--json`). */
  note(message: string): void;
}

export interface Operation<I, O> {
  name: string;
  /**
   * Needs the database to itself (migrate, restore): refused while a server holds the embedded
   * database, never forwarded to it.
   */
  exclusive?: boolean;
  /** Opens the database without applying migrations (restore applies them itself). */
  withoutMigrations?: boolean;
  /**
   * The input's fields that are file paths (a backup's archive): the command line makes them
   * absolute before running, so a server running the operation for it (docs/cli.md "While a
   * server runs") reads and writes where the command was given, not in the server's directory.
   */
  paths?: readonly string[];
  run(context: OperationContext, input: I): Promise<O>;
}

/**
 * A refusal the command line prints as `Error: <message>` and exits with `exitCode` (default 1).
 * `details` go into the `--json` error document beside code and message; its `errors` (an import's
 * bad rows) are also printed as text, the first 20.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly code = 'cli_error',
    readonly details?: { errors?: { line?: number; record?: number; path: string; message: string }[] },
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const defineOperation = <I, O>(operation: Operation<I, O>): Operation<I, O> => operation;
