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
import pg from 'pg';
import { committedBefore, webhookQueue } from '../../server/webhooks/delivery.ts';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { webhookHeaders } from '../../definitions/webhooks.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/index.ts';
import { recordContentEvent } from '../../server/live/events.ts';
import { createTestApp, databaseKinds, json, testEnv, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { memberships } from '../../server/db/schema.ts';
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

/**
 * Fast retries for tests: 3 attempts, 300 ms then 600 ms apart; disabled after 2 failed deliveries.
 * The sender process runs at the server's own priority: at nice 10 on a loaded machine it waits for
 * the CPU past the 2 s attempt deadline and the 9 s lease, and the tests would measure the machine
 * (its priority is tested in webhook-sender.test.ts).
 */
const webhookEnv = {
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32',
  WEBHOOK_SENDER_NICE: '0',
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

const rowsOf = async <T,>(t: TestApp, statement: ReturnType<typeof sql>) => ((await t.database.db.execute(statement)) as unknown as { rows: T[] }).rows;

/**
 * Whether the relay has read past an item's create event: every delivery it makes of it exists by
 * then (deliveries are inserted in the transaction that moves the relay's cursor). Waiting on this
 * instead of a pause holds however slow the machine or the relay (on PostgreSQL it waits for every
 * older transaction of this database to end).
 */
const relayPassed = async (t: TestApp, itemId: string) =>
  (
    await rowsOf<{ passed: boolean }>(
      t,
      sql`select exists (select 1 from webhook_relay r join item_events e on e.item_id = ${itemId} and e.trigger = 'create' where (r.xid, r.event_id) >= (e.xid, e.id)) as passed`,
    )
  )[0]!.passed;

/** Attempts of a delivery still queued or running: none, and nothing more can be sent for it. */
const queuedAttempts = async (t: TestApp, deliveryId: string) =>
  (
    await rowsOf<{ n: number }>(
      t,
      sql`select count(*)::int as n from pgboss.job where name = ${webhookQueue} and data->>'deliveryId' = ${deliveryId} and state in ('created', 'retry', 'active')`,
    )
  )[0]!.n;

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
      // Stored as sent but called as the URL parser reads it (line breaks and tabs dropped): refused.
      [{ webhookURI: `${receiver.url('/a')}\r\nX-Injected: 1` }, 'webhookURI'],
      [{ webhookURI: receiver.url('/a\tb') }, 'webhookURI'],
      [{ webhookURI: receiver.url('/a b') }, 'webhookURI'],
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
    // A log page past any id is a 400, not a failed query.
    const hook = json<{ id: string }>(await createWebhook(t, f, { name: 'Paged', webhookURI: receiver.url('/paged'), collections: ['posts'] }));
    for (const before of ['100000000000000000000', '9223372036854775808', '0']) {
      expectProblem(await t.app.inject({ method: 'GET', url: `/api/webhook/${hook.id}/logs?before=${before}`, headers: bearer(f.access) }), 400, 'validation_failed');
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/webhook/${hook.id}/logs?before=${Number.MAX_SAFE_INTEGER}`, headers: bearer(f.access) })).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
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
    // Failed, with no attempt of it left in the queue: nothing more is sent.
    await waitFor(async () => (await queuedAttempts(t, log[0]!.deliveryID)) === 0, 15_000);
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
    }, 15_000);
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
    }, 30_000);
    expect(disabled.disabledReason).toMatch(/Disabled after 2 deliveries/);
    expect(receiver.received).toHaveLength(6);
    // A disabled webhook gets no new deliveries: once the relay has read past the event, there is none of it.
    const four = await createItem(f, 'posts', { title: 'Four' });
    await waitFor(() => relayPassed(t, four._id), 30_000);
    expect(await rowsOf(t, sql`select d.id from webhook_deliveries d join item_events e on e.id = d.event_id where d.webhook_id = ${hook.id} and e.item_id = ${four._id}`)).toEqual([]);
    expect(receiver.received).toHaveLength(6);
    // Turned back on, it delivers again, and never the event written while it was off (however late
    // the relay reaches it: webhooks on and off, below).
    receiver.respond = (_r, response) => response.end('ok');
    const enabled = await t.app.inject({ method: 'PUT', url: `/api/webhook/${hook.id}`, headers: bearer(f.access), payload: { ...disabled, enabled: true } });
    expect(json(enabled)).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
    await createItem(f, 'posts', { title: 'Five' });
    await waitFor(() => receiver.received.some((r) => JSON.parse(r.body).item.title === 'Five'), 30_000);
    expect(receiver.received.some((r) => JSON.parse(r.body).item.title === 'Four')).toBe(false);
    await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
    receiver.respond = (_r, response) => response.end('ok');
  });

  it('sends a webhook only the events written while it is on: none written before its creation or while it was off, even when the relay reaches them after it is back on', async () => {
    receiver.received.length = 0;
    const dispatcher = t.app.webhooks.dispatcher;
    const eventOf = async (itemId: string) =>
      Number(((await t.database.db.execute(sql`select id from item_events where item_id = ${itemId} and trigger = 'create'`)) as unknown as { rows: { id: string }[] }).rows[0]!.id);
    const deliveredEvents = async (webhookId: string) =>
      ((await t.database.db.execute(sql`select event_id from webhook_deliveries where webhook_id = ${webhookId} order by event_id`)) as unknown as { rows: { event_id: string }[] }).rows.map((r) => Number(r.event_id));
    const change = (hook: { id: string; name: string; webhookURI: string; method: string; trigger: string; collections: string[] }, enabled: boolean, name = hook.name) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/webhook/${hook.id}`,
        headers: bearer(f.access),
        payload: { name, webhookURI: hook.webhookURI, method: hook.method, trigger: hook.trigger, collections: hook.collections, enabled },
      });
    const paused = json(await createWebhook(t, f, { name: 'Paused', webhookURI: receiver.url('/paused'), collections: ['posts'] }));
    const saved = json(await createWebhook(t, f, { name: 'Saved', webhookURI: receiver.url('/saved'), collections: ['posts'] }));
    // The relay is held back, as a busy server's can be, while webhooks are switched and items written.
    await dispatcher.stop();
    let stopped = true;
    let late: { id: string } | undefined;
    try {
      const beforeOff = await createItem(f, 'posts', { title: 'Before off' });
      expect((await change(paused, false)).statusCode).toBe(200);
      const whileOff = await createItem(f, 'posts', { title: 'While off' });
      const on = await change(paused, true);
      expect(json(on)).toMatchObject({ enabled: true });
      // Saving an enabled webhook's settings (the console sends enabled: true back) is no re-enabling.
      expect(json(await change(saved, true, 'Saved again'))).toMatchObject({ name: 'Saved again', enabled: true });
      const lateHook = json<{ id: string }>(await createWebhook(t, f, { name: 'Late', webhookURI: receiver.url('/late'), collections: ['posts'] }));
      late = lateHook;
      const afterOn = await createItem(f, 'posts', { title: 'After on' });
      const [b, w, a] = [await eventOf(beforeOff._id), await eventOf(whileOff._id), await eventOf(afterOn._id)];
      await dispatcher.start();
      stopped = false;
      // The relay reads events in order: once the last is delivered, it has passed the others.
      await waitFor(async () => (await deliveredEvents(lateHook.id)).includes(a) && (await deliveredEvents(paused.id)).includes(a), 30_000);
      expect(await deliveredEvents(paused.id)).toEqual([a]);
      expect(await deliveredEvents(lateHook.id)).toEqual([a]);
      expect(await deliveredEvents(saved.id)).toEqual([b, w, a]);
      await waitFor(() => receiver.received.filter((r) => r.url === '/saved').length === 3, 30_000);
      const titles = (p: string) => receiver.received.filter((r) => r.url === p).map((r) => JSON.parse(r.body).item.title).sort();
      await waitFor(() => titles('/paused').length && titles('/late').length, 30_000);
      expect(titles('/paused')).toEqual(['After on']);
      expect(titles('/late')).toEqual(['After on']);
      expect(titles('/saved')).toEqual(['After on', 'Before off', 'While off']);
    } finally {
      if (stopped) await dispatcher.start();
      for (const hook of [paused, saved, late]) if (hook) await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
    }
  }, 60_000);

  it.runIf(kind === 'postgres')('relays past a transaction left open in another database of the server, and waits for one open in its own until it ends', async () => {
    receiver.received.length = 0;
    const hook = json<{ id: string }>(await createWebhook(t, f, { name: 'Open', webhookURI: receiver.url('/open'), collections: ['posts'] }));
    const elsewhere = new URL(t.database.url!);
    elsewhere.pathname = '/postgres';
    const open = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      // An open transaction with an id, older than every write below.
      await client.query('begin');
      await client.query('select pg_current_xact_id()');
      return client;
    };
    const other = await open(elsewhere.toString());
    try {
      const first = await createItem(f, 'posts', { title: 'Past another database' });
      await waitFor(() => relayPassed(t, first._id), 15_000);
      const own = await open(t.database.url!);
      let ownOpen = true;
      try {
        const second = await createItem(f, 'posts', { title: 'Behind our own' });
        // The relay ran on the write's notice (and runs every 5 s); it stays behind the open transaction.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(await relayPassed(t, second._id)).toBe(false);
        await own.query('commit');
        ownOpen = false;
        await waitFor(() => relayPassed(t, second._id), 15_000);
      } finally {
        if (ownOpen) await own.query('rollback');
        await own.end();
      }
      await waitFor(() => receiver.received.filter((r) => r.url === '/open').length === 2, 15_000);
    } finally {
      await other.query('rollback');
      await other.end();
      await t.app.inject({ method: 'DELETE', url: `/api/webhook/${hook.id}`, headers: bearer(f.access) });
    }
  }, 60_000);

  it('reads an enabling snapshot as PostgreSQL does: the transactions it counts as committed before are the ones pg_visible_in_snapshot sees', async () => {
    const snapshots = ['10:20:12,15,19', '10:10:', '7:9:7,8', '3:30:4,5,6,29'];
    const result = (await t.database.db.execute(
      sql`select s, x, pg_visible_in_snapshot(x::text::xid8, s::pg_snapshot) as v
          from unnest(array[${sql.join(snapshots.map((text) => sql`${text}`), sql`, `)}]::text[]) s cross join generate_series(1, 32) x`,
    )) as unknown as { rows: { s: string; x: number; v: boolean }[] };
    expect(result.rows).toHaveLength(snapshots.length * 32);
    for (const row of result.rows) expect(committedBefore(row.s)(BigInt(row.x)), `${row.x} in ${row.s}`).toBe(row.v);
  });

  it('lets a member who sees a restricted view reach and make only webhooks of the collections they see', async () => {
    const p = await f.otherProject();
    await createCollection(p, { id: 'notes', name: 'Notes', schema });
    await createCollection(p, { id: 'salaries', name: 'Salaries', schema });
    const { account, tokens } = await verifiedUser(t.app, 'narrow');
    const me = json<{ _id: string }>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: p.org, userId: me._id, permissions: { read: true, write: true } });
    const view = await t.app.inject({
      method: 'PUT',
      url: `/api/organization/${p.org}/project/${p.project}`,
      headers: bearer(p.access),
      payload: { settings: { restrictedView: { members: [account.email], collections: ['notes'] } } },
    });
    expect(view.statusCode, view.body).toBe(200);
    const narrow = { ...p, access: tokens.access_token };
    const hidden = json<{ id: string; name: string; webhookURI: string; method: string; trigger: string; collections: string[] }>(
      await createWebhook(t, p, { name: 'Salaries', webhookURI: receiver.url('/salaries'), collections: ['salaries'] }),
    );
    const everything = json<{ id: string }>(await createWebhook(t, p, { name: 'All', webhookURI: receiver.url('/all'), collections: [] }));
    const shown = json<{ id: string }>(await createWebhook(t, p, { name: 'Notes', webhookURI: receiver.url('/notes'), collections: ['notes'] }));
    // Their list holds only the webhook of their view; the others answer as if they did not exist.
    const listed = json<{ id: string }[]>(await t.app.inject({ method: 'GET', url: `/api/webhook?organizationID=${p.org}&projectID=${p.project}`, headers: bearer(narrow.access) }));
    expect(listed.map((w) => w.id)).toEqual([shown.id]);
    for (const id of [hidden.id, everything.id]) {
      expectProblem(await t.app.inject({ method: 'GET', url: `/api/webhook/${id}/logs`, headers: bearer(narrow.access) }), 404, 'webhook_not_found');
      expectProblem(
        await t.app.inject({ method: 'PUT', url: `/api/webhook/${id}`, headers: bearer(narrow.access), payload: { name: 'Mine', webhookURI: receiver.url('/stolen'), method: 'POST', trigger: 'create', collections: ['notes'] } }),
        404,
        'webhook_not_found',
      );
      expectProblem(await t.app.inject({ method: 'DELETE', url: `/api/webhook/${id}`, headers: bearer(narrow.access) }), 404, 'webhook_not_found');
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/webhook/${shown.id}/logs`, headers: bearer(narrow.access) })).statusCode).toBe(200);
    // They cannot make (or turn the one they see into) a webhook that listens to a hidden collection or to all.
    for (const collections of [['salaries'], [], ['notes', 'salaries']]) {
      const made = await createWebhook(t, narrow, { name: 'Leak', webhookURI: receiver.url('/leak'), collections });
      const problem = expectProblem(made, 400, 'invalid_webhook') as unknown as { errors: { path: string }[] };
      expect(problem.errors.map((e) => e.path)).toEqual(['collections']);
      const changed = await t.app.inject({ method: 'PUT', url: `/api/webhook/${shown.id}`, headers: bearer(narrow.access), payload: { name: 'Leak', webhookURI: receiver.url('/leak'), method: 'POST', trigger: 'create', collections } });
      expectProblem(changed, 400, 'invalid_webhook');
    }
    expect((await createWebhook(t, narrow, { name: 'Mine', webhookURI: receiver.url('/mine'), collections: ['notes'] })).statusCode).toBe(201);
    // The webhooks are unchanged, and the administrator still sees every one.
    expect(json<{ id: string; name: string }[]>(await t.app.inject({ method: 'GET', url: `/api/webhook?organizationID=${p.org}&projectID=${p.project}`, headers: bearer(p.access) })).map((w) => w.name)).toEqual(['Salaries', 'All', 'Notes', 'Mine']);
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
