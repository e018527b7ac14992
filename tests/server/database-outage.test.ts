/**
 * PostgreSQL going away under a running server (docs/errors.md "When the database is away"): the
 * server reaches the database through a loopback TCP forwarder the test can cut and restore, as a
 * database restart would. While it is away, requests answer 503 database_unavailable with a
 * Retry-After, never a 500, and nothing half-written is left; once it is back, the very same server
 * serves again by itself — reads, writes and the readiness check — without a restart.
 *
 * PostgreSQL only (PGlite runs in the process: nothing to cut).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { newId } from '../../server/lib/ids.ts';
import { json, testEnv, type TestApp } from './support/test-app.ts';
import { expectProblem, waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';

/** A TCP forwarder to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
async function forwarder(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let up = true;
  const server = net.createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      up = false;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    restore() {
      up = true;
    },
    /** Connections still open through it. */
    get open() {
      return sockets.size / 2;
    },
    /** Stops listening and cuts what is still open (server.close alone would wait for it forever). */
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      }),
  };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('a database outage under a running server', () => {
  let t: TestApp;
  let f: ContentFixture;
  let proxy: Awaited<ReturnType<typeof forwarder>>;
  let adminUrl: URL;
  let name: string;
  let database: Database | undefined;

  beforeAll(async () => {
    adminUrl = new URL(process.env.TEST_DATABASE_URL!);
    name = `larder_t_${newId()}`;
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    proxy = await forwarder({ host: adminUrl.hostname, port: Number(adminUrl.port || 5432) });
    const url = new URL(adminUrl.toString());
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    url.pathname = `/${name}`;
    const opened = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
    database = opened;
    const config = loadConfig({ ...testEnv });
    const app = await buildApp({ config, database: opened, logger: process.env.TEST_LOG === '1' ? ({ level: 'warn' } as never) : false });
    await app.ready();
    t = { app, config, database: opened, close: async () => (await app.close(), await opened.close()) };
    f = await contentFixture(t);
    await createCollection(f, { id: 'notes', name: 'Notes', schema: [{ name: 'Text', slug: 'text', type: 1, primaryField: true }] });
  }, 120_000);

  afterAll(async () => {
    proxy?.restore();
    // A server that never got made (beforeAll failed part-way) still lets go of its database.
    await (t ? t.close() : (database?.close() ?? Promise.resolve())).catch(() => undefined);
    await proxy?.close();
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }, 240_000);

  it('answers 503 while the database is away and serves again by itself when it is back', async () => {
    const made = await f.call('POST', 'collection/notes/item', { text: 'before' });
    expect(made.statusCode, made.body).toBe(201);

    proxy.cut();
    const read = await f.call('GET', 'collection/notes/item');
    const problem = expectProblem(read, 503, 'database_unavailable');
    expect(problem.detail).toBe('The database cannot be reached just now. Try again in a moment.');
    expect(read.headers['retry-after']).toBe('5');
    expectProblem(await f.call('POST', 'collection/notes/item', { text: 'while away' }), 503, 'database_unavailable');
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/health/ready' }), 503, 'not_ready');
    // Liveness does not ask the database: the process is alive and must not be restarted.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    proxy.restore();
    // The pool makes new connections by itself; no restart of the server.
    await waitFor(async () => (await f.call('GET', 'collection/notes/item')).statusCode === 200, 30_000);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    const after = await f.call('POST', 'collection/notes/item', { text: 'after' });
    expect(after.statusCode, after.body).toBe(201);
    const texts = json(await f.call('GET', 'collection/notes/item')).map((item: { text: string }) => item.text).sort();
    // Nothing of the refused write was kept.
    expect(texts).toEqual(['after', 'before']);
  }, 120_000);
});
