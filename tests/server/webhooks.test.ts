/**
 * Webhooks (docs/webhooks.md) against a real receiving HTTP server on
 * loopback, reached through the outbound allow-list: the calls and their bad input, a signature
 * the receiver can verify, retries with backoff, redelivery, disabling, nested triggers, a
 * receiver that hangs, answers 10 MB or redirects forever, a clean stop and restart on PGlite that
 * loses nothing, and on PostgreSQL the outbox surviving kill -9 of a server process between the
 * write and the delivery.
 */
import { createHmac } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { webhookQueue } from '../../server/webhooks/delivery.ts';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { webhookHeaders } from '../../definitions/webhooks.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/index.ts';
import { recordContentEvent } from '../../server/live/events.ts';
import { createTestApp, databaseKinds, json, testEnv, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { bearer } from './support/flows.ts';
import { expectProblem, waitFor } from './support/assertions.ts';
import { freePort } from '../../e2e/support/server.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** A receiver on loopback: records every request and answers as `respond` says. */
class Receiver {
  readonly received: Received[] = [];
  respond: (request: Received, response: ServerResponse) => void = (_r, response) => response.end('ok');
  private server!: Server;
  port = 0;

  async start() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const entry = { method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        this.received.push(entry);
        this.respond(entry, response);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(pathname = '/hook') {
    return `http://127.0.0.1:${this.port}${pathname}`;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const verify = (secret: string, r: Received) => {
  const timestamp = String(r.headers[webhookHeaders.timestamp]);
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex')}`;
  return r.headers[webhookHeaders.signature] === expected;
};

/** Fast retries for tests: 3 attempts, 300 ms then 600 ms apart; disabled after 2 failed deliveries. */
const webhookEnv = {
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32',
  WEBHOOK_RETRY_SCHEDULE: '300ms,600ms',
  WEBHOOK_POLL_S: '0.5',
  WEBHOOK_DISABLE_AFTER: '2',
  WEBHOOK_TIMEOUT_S: '2',
};

const schema = [
  { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
  { name: 'Comments', slug: 'comments', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: code('PlainText') }] },
];

async function createWebhook(t: TestApp, f: ContentFixture, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/webhook', headers: bearer(f.access), payload: { organizationID: f.org, projectID: f.project, method: 'POST', trigger: 'create', ...body } });
}

async function logs(t: TestApp, f: ContentFixture, id: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/webhook/${id}/logs`, headers: bearer(f.access) });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ deliveryID: string; attempt: number; statusCode: number | null; responseBody: string | null; error: string | null; state: string; manual: boolean; timeStamp: string }[]>(response);
}

describe.each(databaseKinds)('webhooks on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp(kind, webhookEnv);
    f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts', schema });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('creates, lists, changes and deletes a webhook; the secret is shown once', async () => {
    const created = await createWebhook(t, f, { name: 'Hook', webhookURI: receiver.url('/a'), collections: ['posts'] });
    expect(created.statusCode, created.body).toBe(201);
    const hook = json(created);
    expect(hook).toMatchObject({ name: 'Hook', webhookURI: receiver.url('/a'), method: 'POST', trigger: 'create', collections: ['posts'], enabled: true, projectID: f.project });
    expect(hook.secret).toMatch(/^whsec_/);
    const listed = json(await t.app.inject({ method: 'GET', url: `/api/webhook?organizationID=${f.org}&projectID=${f.project}`, headers: bearer(f.access) }));
    expect(listed.map((w: { id: string }) => w.id)).toContain(hook.id);
    expect(listed.find((w: { id: string }) => w.id === hook.id).secret).toBeUndefined();
    const changed = await t.app.inject({ method: 'PUT', url: `/api/webhook/${hook.id}`, headers: bearer(f.access), payload: { ...hook, secret: undefined, name: 'Renamed', method: 'PUT', trigger: 'update' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json(changed)).toMatchObject({ name: 'Renamed', method: 'PUT', trigger: 'update' });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
    expect(deleted.statusCode).toBe(204);
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/webhook/${hook.id}/logs`, headers: bearer(f.access) }), 404, 'webhook_not_found');
  });

  it('refuses bad input with a clear message', async () => {
    const other = await f.otherProject();
    await createCollection(other, { id: 'secrets', name: 'Secrets', schema });
    const cases: [Record<string, unknown>, string][] = [
      [{ webhookURI: 'ftp://example.com/x' }, 'webhookURI'],
      [{ webhookURI: 'javascript:alert(1)' }, 'webhookURI'],
      [{ webhookURI: 'http://10.0.0.1/hook' }, 'webhookURI'],
      [{ webhookURI: 'http://169.254.169.254/latest' }, 'webhookURI'],
      [{ webhookURI: 'http://[::1]/x' }, 'webhookURI'],
      [{ webhookURI: `https://example.com/${'a'.repeat(2100)}` }, 'webhookURI'],
      [{ method: 'GET' }, 'method'],
      [{ trigger: 'publish' }, 'trigger'],
      [{ collections: ['secrets'] }, 'collections'],
      [{ collections: ['posts.nope'] }, 'collections'],
      [{ name: '   ' }, 'name'],
    ];
    for (const [change, field] of cases) {
      const response = await createWebhook(t, f, { name: 'Bad', webhookURI: receiver.url(), collections: ['posts'], ...change });
      const problem = expectProblem(response, 400, 'invalid_webhook') as unknown as { errors: { path: string; message: string }[] };
      expect(problem.errors.map((e) => e.path), JSON.stringify(change).slice(0, 80)).toEqual([field]);
    }
    // Another organization's member cannot see or change the webhook.
    const list = await t.app.inject({ method: 'GET', url: `/api/webhook?organizationID=${f.org}&projectID=${f.project}` });
    expect(list.statusCode).toBe(401);
  });

  it('delivers a signed body the receiver can verify, for top-level and nested items, each trigger to its webhooks', async () => {
    receiver.received.length = 0;
    const top = json(await createWebhook(t, f, { name: 'Top', webhookURI: receiver.url('/top'), collections: ['posts'] }));
    const nested = json(await createWebhook(t, f, { name: 'Nested', webhookURI: receiver.url('/nested'), method: 'PUT', collections: ['posts.comments'] }));
    const updates = json(await createWebhook(t, f, { name: 'Updates', webhookURI: receiver.url('/updates'), trigger: 'update', collections: [] }));
    const post = await createItem(f, 'posts', { title: 'Hello' });
    const comment = await createItem(f, 'posts', { text: 'Nice' }, { item: post._id, nestedID: 'comments' });
    const updated = await f.call('PUT', `collection/posts/item/${post._id}`, { title: 'Hello again' });
    expect(updated.statusCode, updated.body).toBe(200);
    // Arrivals wait long (a loaded CI machine); what must not arrive is checked after fixed pauses.
    await waitFor(() => receiver.received.length >= 3, 30_000);
    const byPath = (p: string) => receiver.received.filter((r) => r.url === p);
    const [topCall] = byPath('/top');
    expect(byPath('/top')).toHaveLength(1);
    expect(topCall!.method).toBe('POST');
    expect(verify(top.secret, topCall!)).toBe(true);
    expect(verify(nested.secret, topCall!)).toBe(false);
    expect(JSON.parse(topCall!.body)).toEqual({ collectionID: 'posts', itemID: post._id, nestedID: null, trigger: 'create', item: expect.objectContaining({ _id: post._id, title: 'Hello' }) });
    const [nestedCall] = byPath('/nested');
    expect(nestedCall!.method).toBe('PUT');
    expect(verify(nested.secret, nestedCall!)).toBe(true);
    expect(JSON.parse(nestedCall!.body)).toMatchObject({ collectionID: 'posts', itemID: post._id, nestedID: `comments.${comment._id}`, trigger: 'create', item: { text: 'Nice' } });
    const [updateCall] = byPath('/updates');
    expect(verify(updates.secret, updateCall!)).toBe(true);
    expect(JSON.parse(updateCall!.body)).toMatchObject({ trigger: 'update', itemID: post._id, item: { title: 'Hello again' } });
    expect(updateCall!.headers[webhookHeaders.trigger]).toBe('update');
    // The log says delivered, with the receiver's answer.
    const [entry] = await waitFor(async () => {
      const l = await logs(t, f, top.id);
      return l.length ? l : undefined;
    }, 15_000);
    expect(entry).toMatchObject({ attempt: 1, statusCode: 200, responseBody: 'ok', error: null, state: 'delivered', manual: false });
    // Nothing more arrives: each event once.
    await new Promise((r) => setTimeout(r, 1200));
    expect(receiver.received).toHaveLength(3);
    for (const hook of [top, nested, updates]) await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
  });

  it('retries with growing delays, logs every attempt, redelivers on request and disables a webhook that keeps failing', async () => {
    receiver.received.length = 0;
    receiver.respond = (_r, response) => {
      response.statusCode = 500;
      response.end('broken');
    };
    const hook = json(await createWebhook(t, f, { name: 'Failing', webhookURI: receiver.url('/fail'), collections: ['posts'] }));
    const first = await createItem(f, 'posts', { title: 'One' });
    await waitFor(() => receiver.received.length >= 3, 30_000);
    const log = await waitFor(async () => {
      const l = await logs(t, f, hook.id);
      return l.length >= 3 && l[0]!.state === 'failed' ? l : undefined;
    }, 15_000);
    expect(log.map((e) => e.attempt)).toEqual([3, 2, 1]);
    expect(log.every((e) => e.statusCode === 500 && e.responseBody === 'broken' && /500/.test(e.error ?? ''))).toBe(true);
    const at = receiver.received.map((r) => r.at);
    // 300 ms ± 20 % then 600 ms ± 20 % (plus the queue's polling): the second gap is the longer.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(240);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(480);
    expect(JSON.parse(receiver.received[2]!.body).itemID).toBe(first._id);
    expect(receiver.received.map((r) => r.headers[webhookHeaders.attempt])).toEqual(['1', '2', '3']);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received).toHaveLength(3);

    // Redelivery: one more attempt now, which succeeds.
    receiver.respond = (_r, response) => response.end('fixed');
    const deliveryID = log[0]!.deliveryID;
    const redeliver = await t.app.inject({ method: 'POST', url: `/api/webhook/${hook.id}/logs/${deliveryID}/redeliver`, headers: bearer(f.access) });
    expect(redeliver.statusCode, redeliver.body).toBe(202);
    await waitFor(() => receiver.received.length >= 4, 15_000);
    expect(receiver.received[3]!.body).toBe(receiver.received[0]!.body);
    expect(verify(hook.secret, receiver.received[3]!)).toBe(true);
    const after = await waitFor(async () => {
      const l = await logs(t, f, hook.id);
      return l.length >= 4 ? l : undefined;
    });
    expect(after[0]).toMatchObject({ attempt: 4, manual: true, statusCode: 200, responseBody: 'fixed', state: 'delivered' });
    expectProblem(await t.app.inject({ method: 'POST', url: `/api/webhook/${hook.id}/logs/${'0'.repeat(24)}/redeliver`, headers: bearer(f.access) }), 404);

    // Two deliveries in a row that fail every attempt disable the webhook, with a reason.
    receiver.respond = (_r, response) => {
      response.statusCode = 503;
      response.end();
    };
    receiver.received.length = 0;
    await createItem(f, 'posts', { title: 'Two' });
    await createItem(f, 'posts', { title: 'Three' });
    const disabled = await waitFor(async () => {
      const list = json(await t.app.inject({ method: 'GET', url: `/api/webhook?organizationID=${f.org}&projectID=${f.project}`, headers: bearer(f.access) }));
      const row = list.find((w: { id: string }) => w.id === hook.id);
      return row.enabled ? undefined : row;
    }, 15_000);
    expect(disabled.disabledReason).toMatch(/Disabled after 2 deliveries/);
    expect(receiver.received).toHaveLength(6);
    // A disabled webhook gets no new deliveries.
    await createItem(f, 'posts', { title: 'Four' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received).toHaveLength(6);
    // Turned back on, it delivers again.
    receiver.respond = (_r, response) => response.end('ok');
    const enabled = await t.app.inject({ method: 'PUT', url: `/api/webhook/${hook.id}`, headers: bearer(f.access), payload: { ...disabled, enabled: true } });
    expect(json(enabled)).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
    await createItem(f, 'posts', { title: 'Five' });
    await waitFor(() => receiver.received.some((r) => JSON.parse(r.body).item.title === 'Five'), 15_000);
    expect(receiver.received.some((r) => JSON.parse(r.body).item.title === 'Four')).toBe(false);
    await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
    receiver.respond = (_r, response) => response.end('ok');
  });

  it('gives a receiver that hangs, answers 10 MB or redirects forever one bounded attempt each', async () => {
    receiver.received.length = 0;
    receiver.respond = (request, response) => {
      if (request.url === '/hang') return; // never answers
      if (request.url === '/huge') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(Buffer.alloc(10 * 1024 * 1024, 'x'));
        return;
      }
      response.writeHead(307, { location: '/loop' });
      response.end();
    };
    const hooks: { id: string }[] = [];
    for (const p of ['/hang', '/huge', '/loop']) hooks.push(json(await createWebhook(t, f, { name: p, webhookURI: receiver.url(p), collections: ['posts'] })));
    const started = Date.now();
    await createItem(f, 'posts', { title: 'Bounded' });
    const entries = await waitFor(async () => {
      const all = await Promise.all(hooks.map((h) => logs(t, f, h.id)));
      return all.every((l) => l.length >= 1) ? all.map((l) => l[l.length - 1]!) : undefined;
    }, 10_000);
    const [hang, huge, loop] = entries;
    expect(hang!.error).toMatch(/^timeout/);
    expect(huge!.statusCode).toBe(200);
    expect(huge!.state).toBe('delivered');
    expect(huge!.responseBody!.length).toBeLessThanOrEqual(2048);
    expect(loop!.statusCode).toBe(307);
    expect(loop!.error).toMatch(/307/);
    // One request per webhook for the first attempt: the redirect is not followed.
    expect(receiver.received.filter((r) => r.url === '/loop' && JSON.parse(r.body).item.title === 'Bounded').length).toBeGreaterThanOrEqual(1);
    expect(receiver.received.filter((r) => r.url === '/loop').map((r) => r.headers[webhookHeaders.attempt])).not.toContain(undefined);
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const hook of hooks) await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
    receiver.respond = (_r, response) => response.end('ok');
  });

  it('queues a first attempt whose lease ran out unlogged (its process died mid-attempt) as a job, and delivers it once', async () => {
    receiver.received.length = 0;
    const hook = json<{ id: string }>(await createWebhook(t, f, { name: 'lost', webhookURI: receiver.url('/lost'), collections: ['posts'] }));
    // A delivery the relay made and whose first attempt was sent from a process that then died:
    // never logged, its lease (next_attempt_at) over. Nothing else knows of it.
    const body = JSON.stringify({ collectionID: 'posts', itemID: 'lost-item', nestedID: null, trigger: 'create', item: { _id: 'lost-item', title: 'Lost' } });
    await t.database.db.execute(sql`insert into webhook_deliveries (id, webhook_id, event_id, trigger, body, next_attempt_at)
                                    values ('lost-delivery', ${hook.id}, -1, 'create', ${body}, now() - interval '1 second')`);
    const log = await waitFor(async () => {
      const l = await logs(t, f, hook.id);
      return l.length && l[0]!.state === 'delivered' ? l : undefined;
    }, 15_000);
    expect(log).toEqual([expect.objectContaining({ deliveryID: 'lost-delivery', attempt: 1, statusCode: 200, state: 'delivered' })]);
    const sent = receiver.received.filter((r) => r.url === '/lost');
    expect(sent.map((r) => r.body)).toEqual([body]);
    expect(verify(String((await t.database.db.execute(sql`select secret from webhooks where id = ${hook.id}`) as unknown as { rows: { secret: string }[] }).rows[0]!.secret), sent[0]!)).toBe(true);
    // The recovery runs every few seconds: a delivered one is not sent again.
    await new Promise((r) => setTimeout(r, 6000));
    expect(receiver.received.filter((r) => r.url === '/lost')).toHaveLength(1);
    await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
  }, 30_000);
});

describe.each(databaseKinds)('webhooks whose first attempts are full on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
    // One first attempt in flight from the relay at most.
    t = await createTestApp(kind, { ...webhookEnv, WEBHOOK_DIRECT_MAX: '1' });
    f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts', schema });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('queues the first attempts past WEBHOOK_DIRECT_MAX as jobs, and delivers every one once', async () => {
    // A slow receiver: each answer takes 800 ms, so the first attempt keeps the one place.
    receiver.respond = (_r, response) => void setTimeout(() => response.end('slow ok'), 800);
    const hook = json<{ id: string }>(await createWebhook(t, f, { name: 'slow', webhookURI: receiver.url('/slow'), collections: ['posts'] }));
    const items = [];
    for (const title of ['one', 'two', 'three']) items.push(await createItem(f, 'posts', { title }));
    const log = await waitFor(async () => {
      const l = await logs(t, f, hook.id);
      return l.length === 3 && l.every((e) => e.state === 'delivered') ? l : undefined;
    }, 15_000);
    expect(log.map((e) => [e.attempt, e.statusCode])).toEqual([
      [1, 200],
      [1, 200],
      [1, 200],
    ]);
    const bodies = receiver.received.filter((r) => r.url === '/slow').map((r) => (JSON.parse(r.body) as { itemID: string }).itemID);
    expect(bodies.sort()).toEqual(items.map((item) => item._id).sort());
    // The ones past the first went through the job queue.
    const jobs = ((await t.database.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = ${webhookQueue} and (data->>'attempt')::int = 1`,
    )) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    expect(jobs).toBeGreaterThanOrEqual(2);
    receiver.respond = (_r, response) => response.end('ok');
  }, 30_000);
});

describe('webhooks across a restart on PGlite', () => {
  const receiver = new Receiver();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-webhooks-'));
  beforeAll(() => receiver.start());
  afterAll(async () => {
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async () => {
    const config = loadConfig({ ...testEnv, ...webhookEnv, WEBHOOK_RETRY_SCHEDULE: '1500ms', DATA_DIR: dataDir });
    const database = await openDatabase({ dataDir });
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    return { app, config, database, close: async () => (await app.close(), await database.close()) } as TestApp;
  };

  it('loses nothing over a clean stop and restart: a pending retry and an event written while stopped are delivered after it', async () => {
    let t = await open();
    const f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts', schema });
    const hook = json(await createWebhook(t, f, { name: 'Restart', webhookURI: receiver.url('/restart'), collections: ['posts'] }));
    receiver.respond = (_r, response) => {
      response.statusCode = 500;
      response.end();
    };
    const first = await createItem(f, 'posts', { title: 'Before the stop' });
    await waitFor(() => receiver.received.length === 1, 10_000);
    await waitFor(async () => (await logs(t, f, hook.id)).length === 1);
    await t.close();

    // While no server runs, a write reaches the outbox (as one that committed just before a stop would).
    const database = await openDatabase({ dataDir });
    const [collection] = ((await database.db.execute(sql`select id from content_collections where slug = 'posts' and project_id = ${f.project}`)) as unknown as { rows: { id: string }[] }).rows;
    await database.db.transaction(async (tx) => {
      await recordContentEvent(tx, { projectId: f.project, collectionId: collection!.id, trigger: 'create', itemId: 'offline', rootItemId: null, nestedPath: '', item: { _id: 'offline', title: 'While stopped' } });
    });
    await database.close();

    receiver.respond = (_r, response) => response.end('ok');
    t = await open();
    try {
      await waitFor(() => receiver.received.length >= 3, 15_000);
      const bodies = receiver.received.map((r) => JSON.parse(r.body) as { itemID: string });
      expect(bodies.map((b) => b.itemID).sort()).toEqual([first._id, first._id, 'offline'].sort());
      const log = await waitFor(async () => {
        const l = await logs(t, f, hook.id);
        return l.length === 3 && l.every((e) => e.state === 'delivered') ? l : undefined;
      });
      expect(log.filter((e) => e.statusCode === 200)).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.received).toHaveLength(3);
    } finally {
      await t.close();
    }
  });
});

describe.runIf(databaseKinds.includes('postgres'))('webhooks when a server process is killed on PostgreSQL', () => {
  const receiver = new Receiver();
  const children: ChildProcess[] = [];
  let t: TestApp;
  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp('postgres', webhookEnv);
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await t?.close();
    await receiver.stop();
  });

  function start(port: number) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      env: { ...process.env, ...testEnv, ...webhookEnv, WEBHOOK_MAINTENANCE_S: '1', DATABASE_URL: t.database.url!, LOG_LEVEL: 'error', PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.resume();
    child.stderr!.resume();
    children.push(child);
    return child;
  }

  async function healthy(port: number) {
    await waitFor(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
      } catch {
        return false;
      }
    }, 60_000);
  }

  it('delivers and logs an event whose server was killed (kill -9) after the write, mid-delivery', async () => {
    const f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts', schema });
    const hook = json(await createWebhook(t, f, { name: 'Killed', webhookURI: receiver.url('/killed'), collections: ['posts'] }));
    // Only the child processes deliver from here on.
    await t.app.close();

    const port = await freePort();
    const child = start(port);
    await healthy(port);
    receiver.respond = () => undefined; // the first request hangs: the delivery is under way when the process dies
    const written = await fetch(`http://127.0.0.1:${port}/api/organization/${f.org}/project/${f.project}/collection/posts/item`, {
      method: 'POST',
      headers: { ...bearer(f.access), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Survives' }),
    });
    expect(written.status).toBe(201);
    const item = (await written.json()) as { _id: string };
    await waitFor(() => receiver.received.length === 1, 15_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    receiver.respond = (_r, response) => response.end('after the crash');

    const next = await freePort();
    start(next);
    await healthy(next);
    await waitFor(() => receiver.received.length >= 2, 60_000);
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ itemID: item._id, trigger: 'create' });
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const database = await openDatabase({ databaseUrl: t.database.url!, skipMigrations: true, poolSize: 1 });
    try {
      const rows = await waitFor(async () => {
        const result = (await database.db.execute(
          sql`select a.attempt, a.status_code, a.response_body, d.state from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where a.webhook_id = ${hook.id}`,
        )) as unknown as { rows: { attempt: number; status_code: number; response_body: string; state: string }[] };
        const r = result.rows;
        return r.length ? r : undefined;
      }, 10_000);
      expect(rows).toEqual([{ attempt: 1, status_code: 200, response_body: 'after the crash', state: 'delivered' }]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
