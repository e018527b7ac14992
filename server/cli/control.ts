/**
 * The control channel (docs/cli.md "While a server runs"). PGlite is a single-process database:
 * while a server holds the data directory (server/db/lock.ts), a command cannot open it, so the
 * command asks that server to run the operation instead. The server writes
 * `DATA_DIR/larder.control.json` ({pid, url, token}, readable by its owner only) once it listens
 * and removes it when it closes; the command reads it, posts the operation to `url` with the
 * token, and reads the answer as NDJSON events: progress, notes, then the result or the error.
 */
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { lockOwnerPid } from '../db/lock.ts';
import { isLoopback } from '../mail/dev-mailbox-routes.ts';
import { CliError, type OperationContext, type Progress } from './operation.ts';

export const CONTROL_FILE = 'larder.control.json';
export const CONTROL_PATH = '/api/cli/run';
export const CONTROL_SCHEME = 'Larder-Control';

export interface ControlFile {
  pid: number;
  /** The server's own loopback address, e.g. `http://127.0.0.1:3000`. */
  url: string;
  token: string;
}

/** What the command posts. */
export interface ControlRequest {
  operation: string;
  input: unknown;
  /** The operating-system user running the command: the audit log names `cli (<user>)`. */
  user: string;
}

/** One line of the server's answer. */
export type ControlEvent =
  | { type: 'progress'; id: number; label: string; total?: number }
  | { type: 'tick'; id: number; n: number }
  | { type: 'total'; id: number; n: number }
  | { type: 'done'; id: number }
  | { type: 'note'; message: string }
  | { type: 'heartbeat' }
  | { type: 'result'; output: unknown }
  | { type: 'error'; error: { code: string; message: string; exitCode: number; details?: CliError['details'] } };

export const controlFilePath = (dataDir: string) => path.join(dataDir, CONTROL_FILE);

const unreachable = (message: string) => new CliError(message, 3, 'server_unreachable');
const unsafe = (message: string) => new CliError(message, 3, 'control_file_unsafe');

/**
 * The control file of the server holding `dataDir`, or null when there is none (or it is
 * unreadable). A command sends the file's token, and the operation's input (a password too), to
 * the file's address, so a file it cannot trust is refused (`control_file_unsafe`, exit 3) rather
 * than used: one other users may read (its token may have leaked) or write (it may point
 * elsewhere), owned by someone else than the command's user, the directory's owner or root, naming
 * an address other than loopback, or naming another process than the one holding the directory.
 */
export function readControlFile(dataDir: string): ControlFile | null {
  const file = controlFilePath(dataDir);
  let parsed: Partial<ControlFile>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ControlFile>;
  } catch {
    return null;
  }
  if (typeof parsed.url !== 'string' || typeof parsed.token !== 'string' || typeof parsed.pid !== 'number') return null;
  const control: ControlFile = { pid: parsed.pid, url: parsed.url, token: parsed.token };
  // Modes and owners mean nothing on Windows (ACLs there).
  if (process.platform !== 'win32') {
    const { mode, uid } = statSync(file);
    if (mode & 0o077) {
      throw unsafe(
        `${file} can be read or written by other users (mode ${(mode & 0o777).toString(8)}), so its token may be known to them: the command does not use it. Restart the server (it writes a new one, for its owner only) and keep DATA_DIR closed to others.`,
      );
    }
    const trusted = new Set([process.getuid?.(), statSync(dataDir).uid, 0]);
    if (!trusted.has(uid)) throw unsafe(`${file} belongs to another user (uid ${uid}) than the data directory's: the command does not use it.`);
  }
  let host: string;
  try {
    host = new URL(control.url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    throw unsafe(`${file} names no valid address (${control.url}).`);
  }
  if (!isLoopback(host)) throw unsafe(`${file} names ${control.url}, not a loopback address of this machine: the command does not send it the token.`);
  const holder = lockOwnerPid(dataDir);
  if (holder !== null && holder !== control.pid) {
    throw new CliError(
      `The data directory ${dataDir} is in use by process ${holder}, but its control file was written by process ${control.pid} (a server that stopped without removing it): stop process ${holder}, or wait until it ends, then run the command again.`,
      3,
      'data_dir_locked',
    );
  }
  return control;
}

/**
 * Runs an operation inside the server named by `control`, drawing its progress and notes here.
 * Resolves to the operation's output; rejects with the operation's refusal as a CliError.
 */
export function forward(control: ControlFile, request: ControlRequest, context: Pick<OperationContext, 'progress' | 'note'>): Promise<unknown> {
  const body = JSON.stringify(request);
  const bars = new Map<number, Progress>();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, output?: unknown) => {
      if (settled) return;
      settled = true;
      for (const bar of bars.values()) bar.done();
      if (error) reject(error);
      else resolve(output);
    };
    const handle = (event: ControlEvent) => {
      switch (event.type) {
        case 'progress':
          bars.set(event.id, context.progress(event.label, event.total));
          break;
        case 'tick':
          bars.get(event.id)?.tick(event.n);
          break;
        case 'total':
          bars.get(event.id)?.total(event.n);
          break;
        case 'done':
          bars.get(event.id)?.done();
          bars.delete(event.id);
          break;
        case 'note':
          context.note(event.message);
          break;
        case 'result':
          finish(null, event.output);
          break;
        case 'error':
          finish(new CliError(event.error.message, event.error.exitCode, event.error.code, event.error.details));
          break;
        default:
          break;
      }
    };
    let url: URL;
    try {
      url = new URL(CONTROL_PATH, control.url);
    } catch {
      finish(unreachable(`The control file names no valid address (${control.url}).`));
      return;
    }
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `${CONTROL_SCHEME} ${control.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          finish(
            unreachable(
              response.statusCode === 404
                ? `The server at ${control.url} refused the control token: its control file is out of date. Restart the server, or stop it and run the command again.`
                : `The server at ${control.url} answered ${response.statusCode} to the command.`,
            ),
          );
          return;
        }
        response.setEncoding('utf8');
        let buffered = '';
        response.on('data', (chunk: string) => {
          buffered += chunk;
          let newline;
          while ((newline = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, newline);
            buffered = buffered.slice(newline + 1);
            if (!line.trim()) continue;
            try {
              handle(JSON.parse(line) as ControlEvent);
            } catch {
              finish(unreachable(`The server at ${control.url} sent an answer the command cannot read.`));
              req.destroy();
              return;
            }
          }
        });
        response.on('end', () => finish(unreachable(`The server at ${control.url} closed the connection before the command finished (is it shutting down?).`)));
        response.on('error', () => finish(unreachable(`The connection to the server at ${control.url} broke before the command finished.`)));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        unreachable(
          `Cannot reach the server (pid ${control.pid}) that holds the data directory at ${control.url}: ${error.code ?? error.message}. If it has stopped, run the command again.`,
        ),
      ),
    );
    req.end(body);
  });
}
