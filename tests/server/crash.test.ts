/**
 * kill -9 of a real server process (`server/start.ts`) in the middle of work, then a restart on the
 * same database and data directory (docs/files.md "Temporary files after a crash"): twenty
 * writers creating items in a collection with a webhook to a loopback receiver, uploads of project
 * files, and one slow upload stopped mid-body. After the restart:
 *
 * - every write answered 201 is there with its values (acknowledged = answered 201 before the kill);
 * - no half item: every row of the collection holds all three values one writer sent together
 *   (title `w<writer>-<n>`, number `<n>`, body `body of w<writer>-<n>`) — a row with a value missing
 *   or from another write would be one; rows nobody saw acknowledged (in flight at the kill) may be
 *   there, whole;
 * - the collection's kept item counter (the unfiltered total) equals its rows;
 * - every row's create webhook reaches the receiver at least once (the restarted server's relay and
 *   retries, on short settings);
 * - every upload answered 201 is served whole, and no temporary upload file is left (spool and
 *   local storage's `.part` files: server/files/leftovers.ts).
 *
 * PGlite always (its data directory opens again after kill -9); PostgreSQL when TEST_DATABASE_URL is set.
 * Small numbers on purpose: the kill comes about a second and a half into the work.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { openDatabase } from '../../server/db/index.ts';
import { freePort } from '../../e2e/support/server.ts';
import { openTestDatabase, testEnv, databaseKinds, type DatabaseKind } from './support/test-app.ts';
import { waitFor } from './support/assertions.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

const WRITERS = 20;
const UPLOADERS = 3;
const UPLOAD_BYTES = 100_000;

/** Fast webhook retries; the sender at the server's own priority so a loaded machine does not stretch the leases. */
const serverEnv = {
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32',
  WEBHOOK_SENDER_NICE: '0',
  WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1s,1s,1s',
  WEBHOOK_POLL_S: '0.5',
  WEBHOOK_TIMEOUT_S: '2',
  WEBHOOK_MAINTENANCE_S: '1',
  LOG_LEVEL: 'error',
  HOST: '127.0.0.1',
};

/** Files (not folders) anywhere under a directory. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A receiver on loopback that answers every delivery 200 and keeps the item ids delivered. */
async function startReceiver() {
  const delivered = new Set<string>();
  let count = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      count += 1;
      try {
        delivered.add((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { itemID: string }).itemID);
      } catch {
        /* not a delivery */
      }
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    delivered,
    count: () => count,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

for (const kind of databaseKinds) {
  describe(`kill -9 of the server on ${kind}`, () => {
    const children: ChildProcess[] = [];
    const cleanups: (() => Promise<unknown> | unknown)[] = [];
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    /** A fresh, migrated database: a PGlite data directory cloned from the suite's template, or a database of its own on the server. */
    async function prepare(kindOf: DatabaseKind, dataDir: string): Promise<string> {
      if (kindOf === 'pglite') {
        const template = readFileSync(path.resolve('.tmp/pglite-template.tar.gz'));
        const database = await openDatabase({ dataDir, loadDataDir: new Blob([template]), skipMigrations: true });
        await database.close();
        return '';
      }
      const database = await openTestDatabase('postgres');
      cleanups.push(() => database.close());
      return database.url!;
    }

    function start(port: number, dataDir: string, databaseUrl: string) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
        env: { ...process.env, ...testEnv, ...serverEnv, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      children.push(child);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return { child, exited, output: () => output };
    }

    async function healthy(port: number) {
      await waitFor(async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
        } catch {
          return false;
        }
      }, 120_000);
    }

    it('keeps every acknowledged write, item and upload whole, counters true, webhooks delivered and no upload file left', async () => {
      const receiver = await startReceiver();
      cleanups.push(() => receiver.stop());
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const databaseUrl = await prepare(kind, dataDir);
      const temporaryFiles = () => [...filesUnder(path.join(dataDir, 'uploads')), ...filesUnder(path.join(dataDir, 'files', '.tmp'))];

      const port = await freePort();
      const first = start(port, dataDir, databaseUrl);
      await healthy(port);
      let base = `http://127.0.0.1:${port}`;

      // An owner with an organization, a project, a collection and a webhook on it, over HTTP.
      const call = async (method: string, url: string, body?: unknown, token?: string) => {
        const response = await fetch(base + url, {
          method,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        return { status: response.status, text, json: () => JSON.parse(text) as any, headers: response.headers };
      };
      const account = { username: 'crasher', email: 'crasher@example.com', password: 'correct horse battery' };
      expect((await call('POST', '/api/user', account)).status).toBe(201);
      const grant = await fetch(`${base}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', ...account, client_id: 'larder-console', client_secret: 'larder-console' }),
      });
      const token = ((await grant.json()) as { access_token: string }).access_token;
      const mails = (await call('GET', `/api/dev/mailbox?to=${encodeURIComponent(account.email)}`)).json() as { mails: { kind: string; link: string }[] };
      const confirmId = mails.mails.find((m) => m.kind === 'confirm')!.link.split('/confirm/')[1]!;
      expect((await call('POST', `/api/user/${confirmId}/confirm`, undefined, token)).status).toBe(200);
      const org = (await call('POST', '/api/organization', { name: 'Crash Org' }, token)).json().id as string;
      const project = (await call('POST', `/api/organization/${org}/project`, { name: 'Crash' }, token)).json().id as string;
      const under = `/api/organization/${org}/project/${project}`;
      const collection = await call(
        'POST',
        `${under}/collection`,
        {
          id: 'notes',
          name: 'Notes',
          schema: [
            { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
            { name: 'N', slug: 'n', type: code('Number') },
            { name: 'Body', slug: 'body', type: code('PlainText') },
          ],
        },
        token,
      );
      expect(collection.status, collection.text).toBe(201);
      const hook = await call('POST', '/api/webhook', { organizationID: org, projectID: project, method: 'POST', trigger: 'create', name: 'Crash', webhookURI: receiver.url, collections: ['notes'] }, token);
      expect(hook.status, hook.text).toBe(201);

      // The slow upload: headers and a part of the body sent, the rest never; killed while the server spools it.
      const boundary = 'crash-boundary';
      const slow = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `${under}/asset`,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(5_000_000) },
      });
      slow.on('error', () => undefined);
      slow.write(`--${boundary}\r\ncontent-disposition: form-data; name="asset"; filename="slow.txt"\r\ncontent-type: text/plain\r\n\r\n`);
      slow.write('s'.repeat(100_000));
      await waitFor(() => filesUnder(path.join(dataDir, 'uploads')).length > 0, 30_000);

      let stopped = false;
      const acknowledged = new Map<string, { title: string; n: number; body: string }>();
      const uploads: { url: string; sha: string; size: number }[] = [];
      const refused: string[] = [];
      let unanswered = 0; // writes in flight at the kill (one per writer at most)
      let uploadsCut = 0;

      async function writer(w: number) {
        for (let n = 1; !stopped; n += 1) {
          const values = { title: `w${w}-${n}`, n, body: `body of w${w}-${n}` };
          try {
            const response = await call('POST', `${under}/collection/notes/item`, values, token);
            if (response.status === 201) acknowledged.set(response.json()._id as string, values);
            else refused.push(`${response.status} ${response.text}`);
          } catch {
            unanswered += 1;
            return;
          }
        }
      }
      async function uploader(u: number) {
        for (let n = 1; !stopped; n += 1) {
          const bytes = new TextEncoder().encode(`upload ${u}-${n} `.padEnd(UPLOAD_BYTES, String.fromCharCode(97 + ((u + n) % 26))));
          const form = new FormData();
          form.append('asset', new Blob([bytes], { type: 'text/plain' }), `u${u}-${n}.txt`);
          try {
            const response = await fetch(`${base}${under}/asset`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
            const text = await response.text();
            if (response.status === 201) uploads.push({ url: (JSON.parse(text) as { url: string }).url, sha: sha(bytes), size: bytes.length });
            else refused.push(`${response.status} ${text}`);
          } catch {
            uploadsCut += 1;
            return;
          }
        }
      }

      // Uploads first: on PGlite, twenty writers can hold an upload's queries back for tens of seconds.
      const uploading = Array.from({ length: UPLOADERS }, (_, u) => uploader(u));
      await waitFor(() => uploads.length >= 1 || refused.length > 0, 60_000);
      const writing = Array.from({ length: WRITERS }, (_, w) => writer(w));
      const began = Date.now();
      // About a second and a half of writes, at least one per writer acknowledged, then kill -9.
      await waitFor(() => (Date.now() - began >= 1500 && acknowledged.size >= WRITERS) || refused.length > 0, 60_000);
      first.child.kill('SIGKILL');
      await first.exited;
      stopped = true;
      await Promise.all([...uploading, ...writing]);
      slow.destroy();
      const leftByCrash = temporaryFiles().length;
      expect(leftByCrash, 'the slow upload was being spooled when the process died').toBeGreaterThan(0);

      // The restart on the same database and data directory.
      const port2 = await freePort();
      const restartedAt = Date.now();
      const second = start(port2, dataDir, databaseUrl);
      await healthy(port2);
      const restartS = ((Date.now() - restartedAt) / 1000).toFixed(1);
      base = `http://127.0.0.1:${port2}`;
      const leftAfterRestart = temporaryFiles();
      expect(leftAfterRestart).toEqual([]);

      const list = await call('GET', `${under}/collection/notes/item?perPage=1000`, undefined, token);
      expect(list.status, list.text).toBe(200);
      const rows = list.json() as { _id: string; title?: string; n?: number; body?: string }[];
      const counter = Number(list.headers.get('item-count'));
      const byId = new Map(rows.map((row) => [row._id, row]));
      const lost = [...acknowledged].filter(([id, values]) => {
        const row = byId.get(id);
        return !row || row.title !== values.title || row.n !== values.n || row.body !== values.body;
      });
      const half = rows.filter((row) => {
        const match = /^w(\d+)-(\d+)$/.exec(row.title ?? '');
        return !match || row.n !== Number(match[2]) || row.body !== `body of ${row.title}`;
      });

      // Every row's create reaches the receiver at least once (first attempts lost in the kill come back when their lease runs out).
      await waitFor(() => rows.every((row) => receiver.delivered.has(row._id)), 60_000).catch(() => undefined);
      const undelivered = rows.filter((row) => !receiver.delivered.has(row._id)).map((row) => row._id);

      const unreadable: string[] = [];
      for (const upload of uploads) {
        const response = await fetch(base + new URL(upload.url).pathname);
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (response.status !== 200 || bytes.length !== upload.size || sha(bytes) !== upload.sha) unreadable.push(`${upload.url}: ${response.status} ${bytes.length}`);
      }

      console.log(
        `crash ${kind}: writes acknowledged ${acknowledged.size}, unanswered at the kill ${unanswered}, rows ${rows.length}, lost ${lost.length}, half items ${half.length}, ` +
          `counter ${counter} for ${rows.length} rows, deliveries ${receiver.count()} (undelivered rows ${undelivered.length}), uploads acknowledged ${uploads.length} (cut ${uploadsCut}, unreadable ${unreadable.length}), ` +
          `temporary files left by the crash ${leftByCrash}, after the restart ${leftAfterRestart.length} (restart ${restartS} s)`,
      );
      expect(refused).toEqual([]);
      expect(lost).toEqual([]);
      expect(half).toEqual([]);
      // Rows beyond the acknowledged ones are writes in flight at the kill, one per writer at most.
      expect(rows.length).toBeGreaterThanOrEqual(acknowledged.size);
      expect(rows.length).toBeLessThanOrEqual(acknowledged.size + unanswered);
      expect(counter).toBe(rows.length);
      expect(undelivered).toEqual([]);
      expect(unreadable).toEqual([]);

      second.child.kill('SIGTERM');
      await second.exited;
      expect(second.child.exitCode, second.output()).toBe(0);
    }, 300_000);
  });
}
