/**
 * `npm start` as a process: it serves on its port, a second process refuses the same data
 * directory, SIGINT/SIGTERM close cleanly (lock released, data kept), and a restart finds the data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/support/server.ts';
import { testEnv } from './support/test-app.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-proc-'));
const children: ChildProcess[] = [];

function start(port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    env: { ...process.env, ...testEnv, DATABASE_URL: '', LOG_LEVEL: 'error', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function healthy(port: number, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return (await response.json()) as { status: string; db: string };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no health answer');
}

/** The status of a password sign-in against the process on `port`. */
async function signInStatus(port: number, username: string, password: string) {
  const response = await fetch(`http://127.0.0.1:${port}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password, client_id: 'larder-console', client_secret: 'larder-console' }),
  });
  return response.status;
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process on PGlite', () => {
  it('serves, refuses a second process on the same data directory, and closes cleanly on SIGTERM and SIGINT', async () => {
    const port = await freePort();
    const first = start(port, { ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'a long admin password' });
    expect(await healthy(port)).toEqual({ status: 'ok', db: 'pglite' });
    expect(existsSync(path.join(dataDir, 'larder.lock'))).toBe(true);

    const second = start(await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('in use by another Larder process');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'larder.lock'))).toBe(false);

    // The data survived: the admin made at first start can sign in after a restart.
    const port2 = await freePort();
    const again = start(port2);
    await healthy(port2);
    expect(await signInStatus(port2, 'root@example.com', 'a long admin password')).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'larder.lock'))).toBe(false);
  }, 180_000);

  it('keeps an acknowledged write through a crash, and a restart takes over the lock of the dead process', async () => {
    const port = await freePort();
    const crashing = start(port);
    await healthy(port);
    const signup = await fetch(`http://127.0.0.1:${port}/api/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'crash-survivor', email: 'crash@example.com', password: 'survives a crash' }),
    });
    expect(signup.status).toBe(201);
    crashing.child.kill('SIGKILL');
    await crashing.exited;
    expect(existsSync(path.join(dataDir, 'larder.lock'))).toBe(true);

    const port2 = await freePort();
    const restarted = start(port2);
    await healthy(port2, 20_000);
    expect(await signInStatus(port2, 'crash-survivor', 'survives a crash')).toBe(200);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  }, 180_000);
});
