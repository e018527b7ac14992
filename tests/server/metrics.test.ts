/**
 * Metrics, readiness and request ids for operators (docs/monitoring.md): the scrape parses as
 * Prometheus text, request counts match the requests made (by route pattern, unknown addresses
 * included), only allowed clients are answered, readiness follows the database, and the request
 * id goes in and out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../server/config.ts';
import { metricsAccess } from '../../server/metrics/access.ts';
import { query } from '../../server/content/storage.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../server/app.ts';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { expectProblem, waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, createItem } from './support/content.ts';
import { bearer, newAccount } from './support/flows.ts';
import { SMTPServer } from 'smtp-server';
import { createMailer } from '../../server/mail/mailer.ts';

const token = 'metrics-token-for-tests';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, line by line; throws on a line that is neither a comment nor a sample. */
function parseScrape(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]Inf)$/.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

describe.each(databaseKinds)('metrics, readiness and request ids on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { METRICS_TOKEN: token });
  });
  afterAll(() => t.close());

  const scrape = async (options: { remoteAddress?: string; headers?: Record<string, string> } = {}) => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', ...options });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseScrape(response.body);
  };

  it('serves Prometheus text with the figures operators read', async () => {
    const samples = await scrape();
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'larder_database_info',
      'larder_job_queue_waiting',
      'larder_job_queue_due',
      'larder_job_queue_oldest_due_seconds',
      'larder_mail_outbox_pending',
      'larder_mail_outbox_oldest_due_seconds',
      'larder_function_invocations_recent',
      'larder_live_streams',
      'larder_webhook_attempts_total',
      'larder_webhook_deliveries_failed_total',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(valueOf(samples, 'larder_database_info', { kind })).toBe(1);
    // Every queue the app made is listed, waiting or not.
    const queues = samples.filter((s) => s.name === 'larder_job_queue_waiting').map((s) => s.labels.queue);
    expect(queues).toEqual(expect.arrayContaining(['webhook-delivery', 'integration-run', 'billing-run', 'billing-invoice-mail']));
    if (kind === 'postgres') {
      expect(valueOf(samples, 'larder_db_pool_connections', { pool: 'main' })).toBeGreaterThan(0);
      expect(samples.some((s) => s.name === 'larder_db_pool_waiting_clients' && s.labels.pool === 'read')).toBe(true);
    } else {
      expect(names.has('larder_db_pool_connections')).toBe(false);
    }
  });

  it('reads queue depth and outbox from the database at scrape time', async () => {
    const { db } = t.database;
    await db.execute(sql`insert into outbox (id, "to", "from", subject, text, kind, status, next_attempt_at)
                         values ('metricsoutbox000000000001', 'a@example.com', 'b@example.com', 's', 't', 'test', 'pending', now() - interval '90 seconds')`);
    // The scrape reads at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    try {
      const samples = await scrape();
      expect(valueOf(samples, 'larder_mail_outbox_pending', {})).toBe(1);
      expect(valueOf(samples, 'larder_mail_outbox_oldest_due_seconds', {})).toBeGreaterThanOrEqual(89);
    } finally {
      await db.execute(sql`delete from outbox where id = 'metricsoutbox000000000001'`);
    }
  });

  it('counts every answered request by route pattern and status, unknown addresses included', async () => {
    const before = await scrape();
    const n = 7;
    for (let i = 0; i < n; i++) expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url: `/api/no-such-route-${i}` })).statusCode).toBe(404);
    for (let i = 0; i < 4; i++) expect((await t.app.inject({ method: 'GET', url: `/api/webhook/${'x'.repeat(20)}${i}/logs` })).statusCode).toBe(401);
    const after = await scrape();
    const delta = (labels: Record<string, string>) => valueOf(after, 'larder_http_requests_total', labels) - valueOf(before, 'larder_http_requests_total', labels);
    expect(delta({ method: 'GET', route: '/api/health', status: '200' })).toBe(n);
    expect(delta({ method: 'GET', route: 'unmatched', status: '404' })).toBe(3);
    // The pattern, never the address: one series however many ids.
    expect(delta({ method: 'GET', route: '/api/webhook/:id/logs', status: '401' })).toBe(4);
    expect(after.some((s) => s.labels.route?.includes('xxxx'))).toBe(false);
    // The scrape before this one was counted too, once answered.
    expect(delta({ method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    const histogramCount = (samples: Sample[]) => valueOf(samples, 'larder_http_request_duration_seconds_count', { route: '/api/health', status_class: '2xx' });
    expect(histogramCount(after) - histogramCount(before)).toBe(n);
  });

  it('answers only loopback or the token; anyone else gets the 404 of an unknown route', async () => {
    const outside = '203.0.113.9';
    const refused = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: outside });
    expectProblem(refused, 404, 'not_found');
    expect(refused.body).not.toContain('larder_');
    expectProblem(await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: outside, headers: { authorization: 'Bearer wrong-token' } }), 404, 'not_found');
    // Through a proxy on the same machine the socket is loopback, but the client is not.
    expectProblem(await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': outside } }), 404, 'not_found');
    const samples = await scrape({ remoteAddress: outside, headers: { authorization: `Bearer ${token}` } });
    expect(samples.length).toBeGreaterThan(10);
    await scrape({ remoteAddress: '::ffff:127.0.0.1' });
  });

  it('is ready when the database answers with every migration, and 503 not_ready otherwise', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(json(ready)).toMatchObject({ status: 'ready', db: kind });
    expect(json(ready).migrations).toBeGreaterThan(30);

    // A migration missing (a database of an older version).
    const { db } = t.database;
    const [row] = await query<{ id: number; hash: string; created_at: string }>(
      db,
      sql`select id, hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    if (!row) throw new Error('no migrations recorded');
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${row.id}`);
    try {
      const lacking = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expectProblem(lacking, 503, 'not_ready');
      expect(json(lacking).detail).toMatch(/migrations/);
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at}::bigint)`);
    }

    // A database handle that no longer answers (closed).
    const closed = await openTestDatabase(kind);
    await closed.close();
    const database = t.app.ctx.database;
    t.app.ctx.database = { ...database, db: closed.db };
    try {
      const down = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expectProblem(down, 503, 'not_ready');
      expect(json(down).detail).toMatch(/does not answer/);
    } finally {
      t.app.ctx.database = database;
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('keeps a sane incoming x-request-id and answers it; replaces anything else', async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'lb-4f2a.9:c_1' } });
    expect(kept.headers['x-request-id']).toBe('lb-4f2a.9:c_1');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const bad of ['has space', 'x'.repeat(129), 'quote"d', 'semi;colon']) {
      const replaced = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
      expect(replaced.headers['x-request-id']).toMatch(uuid);
    }
    const a = await t.app.inject({ method: 'GET', url: '/api/health' });
    const b = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(a.headers['x-request-id']).toMatch(uuid);
    expect(b.headers['x-request-id']).toMatch(uuid);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe.each(databaseKinds)('webhook figures and a redelivery carrying its request id on %s', (kind) => {
  const lines: Record<string, unknown>[] = [];
  let t: TestApp;
  let receiver: Server;
  let answered = 0;
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        answered += 1;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32', WEBHOOK_SENDER: 'inline', WEBHOOK_POLL_S: '0.5' });
    const database = await openTestDatabase(kind);
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    const app = await buildApp({ config, database, logger: { level: 'info', stream } as never });
    await app.ready();
    t = { app, config, database, close: async () => (await app.close(), await database.close()) };
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('counts attempts, and the redelivery job logs the id of the request that queued it', async () => {
    const attempts = async () => valueOf(parseScrape((await t.app.inject({ method: 'GET', url: '/metrics' })).body), 'larder_webhook_attempts_total', { outcome: 'delivered' });
    const before = await attempts();
    const f = await contentFixture(t);
    const code = (name: string) => fieldTypes.find((type) => type.name === name)!.code;
    await createCollection(f, { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true }] });
    const port = (receiver.address() as AddressInfo).port;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/webhook',
      headers: bearer(f.access),
      payload: { organizationID: f.org, projectID: f.project, method: 'POST', trigger: 'create', name: 'Metrics', webhookURI: `http://127.0.0.1:${port}/hook`, collections: ['posts'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const hook = json(created);
    await createItem(f, 'posts', { title: 'One' });
    const logOf = async () => json<{ deliveryID: string; attempt: number; state: string }[]>(await t.app.inject({ method: 'GET', url: `/api/webhook/${hook.id}/logs`, headers: bearer(f.access) }));
    const [first] = await waitFor(async () => {
      const log = await logOf();
      return log.length === 1 && log[0]!.state === 'delivered' ? log : undefined;
    }, 20_000);
    await waitFor(async () => (await attempts()) === before + 1, 10_000);

    const requestId = 'redeliver-metrics-1';
    const redeliver = await t.app.inject({
      method: 'POST',
      url: `/api/webhook/${hook.id}/logs/${first!.deliveryID}/redeliver`,
      headers: { ...bearer(f.access), 'x-request-id': requestId },
    });
    expect(redeliver.statusCode, redeliver.body).toBe(202);
    expect(redeliver.headers['x-request-id']).toBe(requestId);
    const line = await waitFor(() => lines.find((l) => l.msg === 'webhook redelivery attempted'), 20_000);
    expect(line).toMatchObject({ reqId: requestId, deliveryId: first!.deliveryID, attempt: 2, statusCode: 200, error: null });
    await waitFor(async () => (await attempts()) === before + 2, 10_000);
    expect(answered).toBe(2);
  });

  it('the run of an integration test a person asks for logs the id of the request that asked', async () => {
    const f = await contentFixture(t);
    const code = (name: string) => fieldTypes.find((type) => type.name === name)!.code;
    await createCollection(f, { id: 'orders', name: 'Orders', schema: [{ name: 'Customer', slug: 'customer', type: code('PlainText'), primaryField: true }] });
    const port = (receiver.address() as AddressInfo).port;
    const made = await f.call('POST', 'integrations', { integration: 'slack', name: 'Ids', collections: ['orders'], events: ['create'], settings: { webhookUrl: `http://127.0.0.1:${port}/services/T000/B000/ids` } });
    expect(made.statusCode, made.body).toBe(201);
    const requestId = 'integration-test-ids-1';
    const test = await f.call('POST', `integrations/${json(made).id}/test`, undefined, { headers: { 'x-request-id': requestId } });
    expect(test.statusCode, test.body).toBe(202);
    const runId = json(test).runID as string;
    const line = await waitFor(() => lines.find((l) => l.msg === 'integration run attempted' && l.runId === runId), 20_000);
    expect(line).toMatchObject({ reqId: requestId, runId, attempt: 1, status: 'succeeded', error: null });
  });
  it('a mail a request made keeps the request id: in its outbox row and its log line', async () => {
    const account = newAccount('mailids');
    const requestId = 'sign-up-mail-ids-1';
    const made = await t.app.inject({ method: 'POST', url: '/api/user', headers: { 'x-request-id': requestId }, payload: account });
    expect(made.statusCode, made.body).toBe(201);
    const [row] = await query(t.database.db, sql`select request_id, kind from outbox where "to" = ${account.email}`);
    expect(row).toMatchObject({ request_id: requestId });
    expect(lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('outbox:') && l.to === account.email)).toMatchObject({ reqId: requestId });
  });

  it("an SMTP delivery's log lines name the request that made the mail", async () => {
    const received: string[] = [];
    let refuse = true;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        callback(refuse ? Object.assign(new Error('mailbox busy'), { responseCode: 450 }) : undefined);
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(session.envelope.rcptTo.map((r) => r.address).join(','));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const mailer = createMailer({ db: t.database.db, smtpUrl: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}?ignoreTLS=true`, from: 'larder@example.com', log: t.app.log, pollMs: 0 });
    try {
      const to = `ids-${Date.now()}@example.com`;
      await mailer.send({ kind: 'test', to, subject: 'Ids', text: 'Ids', requestId: 'mail-ids-2' });
      await mailer.deliverDue();
      const failed = await waitFor(() => lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('SMTP delivery failed') && l.reqId === 'mail-ids-2'), 10_000);
      expect(failed).toMatchObject({ attempt: 1, gaveUp: false });
      refuse = false;
      await query(t.database.db, sql`update outbox set next_attempt_at = now() where "to" = ${to}`);
      await mailer.deliverDue();
      expect(received).toEqual([to]);
      expect(lines.find((l) => l.msg === 'mail delivered' && l.reqId === 'mail-ids-2')).toMatchObject({ attempt: 2 });
    } finally {
      await mailer.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('metrics access rule', () => {
  it('replaces loopback with METRICS_ALLOW ranges and takes the token from anywhere', () => {
    const loopbackOnly = metricsAccess({ allow: [], token: undefined });
    expect(loopbackOnly('127.0.0.1', {})).toBe(true);
    expect(loopbackOnly('::1', {})).toBe(true);
    expect(loopbackOnly('10.1.2.3', {})).toBe(false);
    expect(loopbackOnly(undefined, {})).toBe(false);
    const ranges = metricsAccess({ allow: loadConfig({ METRICS_ALLOW: '10.0.0.0/8, 2001:db8::/32, 192.0.2.7' }).metrics.allow, token: 't0ken' });
    expect(ranges('10.200.0.1', {})).toBe(true);
    expect(ranges('::ffff:10.200.0.1', {})).toBe(true);
    expect(ranges('2001:db8::5', {})).toBe(true);
    expect(ranges('192.0.2.7', {})).toBe(true);
    expect(ranges('192.0.2.8', {})).toBe(false);
    expect(ranges('127.0.0.1', {})).toBe(false);
    expect(ranges('10.200.0.1', { forwarded: 'for=198.51.100.1' })).toBe(false);
    expect(ranges('198.51.100.1', { authorization: 'Bearer t0ken' })).toBe(true);
    expect(ranges('198.51.100.1', { authorization: 'Bearer t0ke' })).toBe(false);
    expect(ranges('198.51.100.1', { authorization: 't0ken' })).toBe(false);
  });

  it('refuses a METRICS_ALLOW that is not address ranges', () => {
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow(/METRICS_ALLOW must be a comma list of address ranges/);
    expect(() => loadConfig({ METRICS_ALLOW: 'everyone' })).toThrow(/METRICS_ALLOW/);
  });
});
