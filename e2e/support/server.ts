/**
 * Starts the real product for the browser tests: `server/start.ts` in a child process with its
 * own empty data directory and port, exactly as `npm start` runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  dataDir: string;
  /** Everything the server wrote to stdout and stderr so far (also passed through to ours). */
  output(): string;
  /** Stops the server; `inspect` sees its data directory and output after it exited, before the directory is removed. */
  stop(options?: { inspect?: (dataDir: string, output: string) => void }): Promise<void>;
}

/**
 * `beforeStart` runs with the server's environment (its empty data directory included) before the
 * server starts: e2e/run.ts makes the super-admin there with the command line.
 */
export async function startServer(env: Record<string, string> = {}, beforeStart?: (serverEnv: NodeJS.ProcessEnv) => void): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ...env,
  };
  try {
    beforeStart?.(serverEnv);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    process.stdout.write(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    process.stderr.write(chunk);
  });
  const output = () => Buffer.concat(chunks).toString('utf8');
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error('the server did not answer /api/health within 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    process: child,
    dataDir,
    output,
    stop: async (options = {}) => {
      // A process ended by a signal (kill -9 in tests/server/multi-process.test.ts) has no exit code but a signal code.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      try {
        options.inspect?.(dataDir, output());
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
