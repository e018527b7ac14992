/**
 * The server's half of the control channel (docs/cli.md "While a server runs"): on PGlite, once
 * the server listens, `publishControlFile` writes `DATA_DIR/larder.control.json` with a fresh
 * token, and `POST /api/cli/run` runs the command line's operations inside this process, on its
 * database and file storage. Anyone else — another address than loopback, a request a proxy
 * forwarded, a wrong token, or no control file published — gets the router's own 404, before the
 * body is read. The route is not in the OpenAPI document: it is no part of the API.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { isLoopback } from '../mail/dev-mailbox-routes.ts';
import { CliError, type OperationContext, type Progress } from './operation.ts';
import { CONTROL_PATH, CONTROL_SCHEME, controlFilePath, type ControlEvent, type ControlFile } from './control.ts';

interface ControlState {
  /** SHA-256 of the published token; null until the control file is written, and again once closing. */
  tokenHash: Buffer | null;
  file: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The control channel's state (PGlite only; server/cli/control-routes.ts). */
    cliControl?: ControlState;
  }
}

const ControlBody = Type.Object(
  {
    operation: Type.String({ minLength: 1, maxLength: 100 }),
    input: Type.Unknown(),
    user: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Headers the command never sends: those a proxy on this machine adds when it forwards someone
 * else's request, and the Origin a browser adds to a page's request.
 */
const notFromTheCommand = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'via', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'origin'];

/** Loopback, not forwarded by a proxy on this machine nor sent by a browser, with the published token; in constant time. */
function admitted(state: ControlState, request: FastifyRequest): boolean {
  if (!state.tokenHash) return false;
  if (!isLoopback(request.socket.remoteAddress)) return false;
  if (notFromTheCommand.some((name) => request.headers[name] !== undefined)) return false;
  const header = request.headers.authorization ?? '';
  const prefix = `${CONTROL_SCHEME} `;
  const presented = sha256(header.startsWith(prefix) ? header.slice(prefix.length) : '');
  return timingSafeEqual(presented, state.tokenHash);
}

/**
 * Registers the control route on PGlite (app.ts). On PostgreSQL every command opens the database
 * itself, so there is nothing to forward and the route does not exist.
 */
export async function registerControlChannel(app: FastifyInstance): Promise<void> {
  if (app.ctx.database.kind !== 'pglite') return;
  const state: ControlState = { tokenHash: null, file: null };
  app.decorate('cliControl', state);
  // No new command once the server starts closing; the file goes with it.
  app.addHook('preClose', async () => {
    state.tokenHash = null;
    if (state.file) rmSync(state.file, { force: true });
    state.file = null;
  });
  await app.register(async (scope) => controlRoutes(scope, state), { prefix: CONTROL_PATH.slice(0, CONTROL_PATH.lastIndexOf('/')) });
}

async function controlRoutes(fastify: FastifyInstance, state: ControlState) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    CONTROL_PATH.slice(CONTROL_PATH.lastIndexOf('/')),
    {
      schema: { hide: true, body: ControlBody },
      onRequest: async (request) => {
        if (!admitted(state, request)) throw new AppError(404, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);
      },
    },
    async function runOperation(request, reply) {
      const { operation: name, input, user } = request.body;
      const stream = new PassThrough();
      const events = new EventWriter(stream);
      void (async () => {
        try {
          // Loaded on the first command, not at start: the server needs the operations only then.
          const { operations } = await import('./operations.ts');
          const operation = operations.get(name);
          if (!operation) throw new CliError(`This server does not know the command's operation "${name}" (is it an older Larder than the command?).`, 2, 'unknown_operation');
          if (operation.exclusive) {
            throw new CliError('This command needs the data directory to itself: stop the server first, then run it again.', 3, 'server_running');
          }
          const context: OperationContext = {
            database: app.ctx.database,
            config: app.ctx.config,
            storage: app.files.storage,
            audit: app.ctx.admin.audit,
            actor: `cli (${user})`,
            progress: (label, total) => events.progress(label, total),
            note: (message) => events.write({ type: 'note', message }),
          };
          const output = await operation.run(context, input as never);
          // As for any write: answered once this process has heard the invalidations it caused.
          await app.ctx.caches.settle();
          events.write({ type: 'result', output: output ?? null });
        } catch (error) {
          events.write({ type: 'error', error: refusalOf(error, app) });
        } finally {
          events.end();
        }
      })();
      return reply.header('content-type', 'application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').send(stream);
    },
  );
}

function refusalOf(error: unknown, app: FastifyInstance): { code: string; message: string; exitCode: number; details?: CliError['details'] } {
  if (error instanceof CliError) return { code: error.code, message: error.message, exitCode: error.exitCode, ...(error.details ? { details: error.details } : {}) };
  if (error instanceof AppError) return { code: error.code, message: error.message, exitCode: 1 };
  app.log.error({ err: error }, 'a command line operation failed');
  return { code: 'failed', message: error instanceof Error ? error.message : String(error), exitCode: 4 };
}

/**
 * Writes the answer's events. Ticks are summed and sent at most every 200 ms (an operation may
 * tick per row); a heartbeat every 15 s keeps a quiet connection alive through idle timeouts.
 */
class EventWriter {
  private nextId = 1;
  private readonly pending = new Map<number, number>();
  private readonly flusher: NodeJS.Timeout;
  private readonly heartbeat: NodeJS.Timeout;
  private ended = false;

  constructor(private readonly stream: PassThrough) {
    this.flusher = setInterval(() => this.flush(), 200);
    this.heartbeat = setInterval(() => this.write({ type: 'heartbeat' }), 15_000);
  }

  write(event: ControlEvent) {
    if (this.ended) return;
    if (event.type !== 'tick') this.flush();
    this.stream.write(`${JSON.stringify(event)}\n`);
  }

  progress(label: string, total?: number): Progress {
    const id = this.nextId++;
    this.write({ type: 'progress', id, label, ...(total === undefined ? {} : { total }) });
    return {
      tick: (n = 1) => this.pending.set(id, (this.pending.get(id) ?? 0) + n),
      total: (n) => this.write({ type: 'total', id, n }),
      done: () => this.write({ type: 'done', id }),
    };
  }

  private flush() {
    if (this.ended) return;
    for (const [id, n] of this.pending) this.stream.write(`${JSON.stringify({ type: 'tick', id, n } satisfies ControlEvent)}\n`);
    this.pending.clear();
  }

  end() {
    this.flush();
    this.ended = true;
    clearInterval(this.flusher);
    clearInterval(this.heartbeat);
    this.stream.end();
  }
}

const wildcard = new Set(['0.0.0.0', '::', '']);

/**
 * Once the server listens (server/start.ts): writes the control file, readable by its owner only,
 * with a new token. Answers its path, or null on PostgreSQL or when the server listens on no
 * address a command on this machine reaches through loopback.
 */
export function publishControlFile(app: FastifyInstance): string | null {
  const state = app.cliControl;
  if (!state) return null;
  const address = app.server.address() as AddressInfo | null;
  if (!address || typeof address === 'string') return null;
  let host: string;
  if (wildcard.has(address.address)) host = '127.0.0.1';
  else if (isLoopback(address.address)) host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  else {
    app.log.warn(`The server listens on ${address.address} only: commands of the command line cannot reach it through loopback while it runs.`);
    return null;
  }
  const token = randomBytes(32).toString('base64url');
  const file = controlFilePath(app.ctx.config.dataDir);
  const content: ControlFile = { pid: process.pid, url: `http://${host}:${address.port}`, token };
  // Written beside and renamed: a command never reads half a file, nor one anybody else could read.
  // Made anew ('wx': whatever is at the path, a link included, is removed first and never followed).
  const temporary = `${file}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  writeFileSync(temporary, `${JSON.stringify(content)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(temporary, 0o600);
  // A file system that ignores modes would show the token to every user: no channel then.
  if (process.platform !== 'win32' && statSync(temporary).mode & 0o077) {
    rmSync(temporary, { force: true });
    app.log.warn(`${file} cannot be made readable by this user only on this file system: commands of the command line cannot reach this server while it runs.`);
    return null;
  }
  renameSync(temporary, file);
  state.tokenHash = sha256(token);
  state.file = file;
  return file;
}
