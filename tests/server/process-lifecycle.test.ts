/**
 * `npm start` as a process: it serves on its port, a second process refuses the same data
 * directory, SIGINT/SIGTERM close cleanly (lock released, data kept) — a request in flight is
 * finished, new connections are refused, and a request that never ends does not hold the process
 * past SHUTDOWN_TIMEOUT_S — and a restart finds the data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type ClientRequest } from 'node:http';
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

/** A sign-up whose body is sent in two halves, when the test says; resolves with the status. */
function slowSignUp(port: number, username: string) {
  const body = JSON.stringify({ username, email: `${username}@example.com`, password: 'a password for later' });
  let req!: ClientRequest;
  const status = new Promise<number>((resolve, reject) => {
    req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/api/user', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  return { status, finish: () => req.end(body.slice(10)), abort: () => req.destroy() };
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

  it('on SIGTERM finishes the request in flight, refuses new connections, and exits past SHUTDOWN_TIMEOUT_S when a request never ends', async () => {
    const port = await freePort();
    const server = start(port, { SHUTDOWN_TIMEOUT_S: '20', LOG_LEVEL: 'info' });
    await healthy(port);
    const inFlight = slowSignUp(port, 'in-flight');
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    // No new connection once closing.
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    inFlight.finish();
    expect(await inFlight.status).toBe(201);
    expect(await server.exited, server.output()).toBe(0);

    // A request that never ends: the process waits SHUTDOWN_TIMEOUT_S, then exits anyway.
    const port2 = await freePort();
    const again = start(port2, { SHUTDOWN_TIMEOUT_S: '2', LOG_LEVEL: 'info' });
    await healthy(port2);
    // The sign-up above was acknowledged, so it is there.
    expect(await signInStatus(port2, 'in-flight', 'a password for later')).not.toBe(401);
    const stuck = slowSignUp(port2, 'never-finished');
    stuck.status.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const signalled = Date.now();
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(1);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(again.output()).toContain('still closing after 2 s (SHUTDOWN_TIMEOUT_S); exiting now');
    stuck.abort();
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
