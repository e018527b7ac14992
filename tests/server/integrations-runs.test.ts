/**
 * Integration runs (docs/integrations.md "Runs") with the chat integration against a loopback
 * stand-in that answers as Slack's incoming webhooks do: an item written through the public API
 * reaches the channel once, laid out; a 500 is retried on the schedule until it is accepted, or
 * until no attempt is left; a 4xx fails at once; events before the instance was switched on, of
 * other collections or other triggers are not sent; the secret URL is in no answer and no log line.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { integrationInstances, integrationRuns } from '../../server/db/schema.ts';
import { databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';
import { bearer } from './support/flows.ts';

type Mode = 'ok' | 'error500' | 'error404';

function startSlack() {
  const state = { mode: 'ok' as Mode, received: [] as { path: string; body: Record<string, unknown> }[], hits: 0 };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      state.hits++;
      if (state.mode === 'error500') return void response.writeHead(500, { 'content-type': 'text/plain' }).end('internal_error');
      if (state.mode === 'error404') return void response.writeHead(404, { 'content-type': 'text/plain' }).end('no_service');
      // Slack checks the payload and answers "ok" as text/plain.
      const parsed = JSON.parse(body) as Record<string, unknown>;
      if (typeof parsed.text !== 'string' || !Array.isArray(parsed.blocks)) return void response.writeHead(400).end('invalid_payload');
      state.received.push({ path: request.url ?? '', body: parsed });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return new Promise<{ state: typeof state; url: string; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ state, url: `http://127.0.0.1:${port}/services/T000/B000/SeCrEtHoOk`, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

describe.each(databaseKinds)('integration runs of the chat integration on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let apiToken: string;
  let slack: Awaited<ReturnType<typeof startSlack>>;
  const logs: string[] = [];
  const answers: string[] = [];

  beforeAll(async () => {
    slack = await startSlack();
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8', INTEGRATION_RETRY_SCHEDULE: '1s,1s' });
    const database = await openTestDatabase(kind);
    const app = await buildApp({ config, database, logger: { level: 'trace', stream: { write: (line: string) => void logs.push(line) } } as never });
    await app.ready();
    t = { app, config, database, close: async () => (await app.close(), await database.close()) };
    f = await contentFixture(t);
    await createCollection(f, { id: 'orders', name: 'Orders', schema: [{ name: 'Customer', slug: 'customer', type: 1, primaryField: true }, { name: 'Total', slug: 'total', type: 3 }] });
    await createCollection(f, { id: 'notes', name: 'Notes', schema: [{ name: 'Text', slug: 'text', type: 1 }] });
    apiToken = await mintToken(t, f, { powerRead: true, powerWrite: true });
  });
  afterAll(async () => {
    await t?.close();
    await slack?.close();
  });

  const call = async (...args: Parameters<ContentFixture['call']>) => {
    const response = await f.call(...args);
    answers.push(response.body);
    return response;
  };
  const publicCreate = async (collection: string, body: unknown) => {
    const response = await t.app.inject({ method: 'POST', url: `/api/public/collection/${collection}/items`, headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect(response.statusCode, response.body).toBe(201);
    return json(response).id as string;
  };
  const runsOf = (instanceId: string) => t.database.db.select().from(integrationRuns).where(eq(integrationRuns.instanceId, instanceId));

  it('sends each created order once, laid out, and logs the run; other collections and triggers are not sent', async () => {
    // Written before the instance exists: never its own.
    await publicCreate('orders', { customer: 'Before', total: 1 });
    const made = await call('POST', 'integrations', { integration: 'slack', name: 'Orders chat', collections: ['orders'], events: ['create'], settings: { webhookUrl: slack.url } });
    expect(made.statusCode, made.body).toBe(201);
    const instance = json(made);
    const id = await publicCreate('orders', { customer: 'Ada <!channel>', total: 12.5 });
    await publicCreate('notes', { text: 'not for the channel' });
    await waitFor(async () => (await runsOf(instance.id)).find((run) => run.status === 'succeeded'), 15_000);
    expect(slack.state.received).toHaveLength(1);
    const message = slack.state.received[0]!;
    expect(message.path).toBe('/services/T000/B000/SeCrEtHoOk');
    expect(message.body.text).toBe(`Content · Orders: item created (${id})`);
    const fields = (message.body.blocks as { type: string; fields?: { text: string }[] }[]).find((b) => b.type === 'section')!.fields!.map((x) => x.text);
    expect(fields).toEqual(['*Customer*\nAda &lt;!channel&gt;', '*Total*\n12.5']);
    expect(JSON.stringify(message.body.blocks)).toContain(`/collection/orders/item/${id}|Open in Larder>`);

    // An update is not a trigger of this instance.
    await t.app.inject({ method: 'PUT', url: `/api/public/collection/orders/items/${id}`, headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' }, payload: JSON.stringify({ total: 13 }) });
    await t.app.ctx.integrationRunner!.settled();
    const log = json(await call('GET', `integrations/${instance.id}/runs`));
    expect(log.total).toBe(1);
    expect(log.runs[0]).toMatchObject({ trigger: 'create', status: 'succeeded', attempts: 1, error: null, detail: { event: { itemID: id, trigger: 'create' }, result: { status: 200, fields: 2 } } });
    expect(json(await call('GET', `integrations/${instance.id}`))).toMatchObject({ lastStatus: 'succeeded', lastError: null });
    await call('PUT', `integrations/${instance.id}`, { enabled: false });
  });

  it('retries a 500 on the schedule until the channel accepts; gives up when no attempt is left; a 404 fails at once', async () => {
    const instance = json(await call('POST', 'integrations', { integration: 'slack', name: 'Flaky', collections: ['notes'], events: ['create'], settings: { webhookUrl: slack.url } }));
    slack.state.mode = 'error500';
    const hitsBefore = slack.state.hits;
    await publicCreate('notes', { text: 'retry me' });
    const failing = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.attempts === 1 && run.status === 'pending'), 15_000);
    expect(failing.error).toBe('The chat service answered 500: internal_error');
    expect(failing.nextAttemptAt).not.toBeNull();
    slack.state.mode = 'ok';
    const done = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.status === 'succeeded'), 15_000);
    expect(done.attempts).toBe(2);
    expect(done.error).toBeNull();
    expect(slack.state.hits - hitsBefore).toBe(2);

    // Always 500: three attempts (1 + the two retries of the schedule), then failed.
    slack.state.mode = 'error500';
    await publicCreate('notes', { text: 'never accepted' });
    const failed = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.status === 'failed'), 20_000);
    expect(failed).toMatchObject({ attempts: 3, error: 'The chat service answered 500: internal_error' });
    expect(failed.finishedAt).not.toBeNull();
    expect(json(await call('GET', `integrations/${instance.id}`))).toMatchObject({ lastStatus: 'failed' });

    // A 4xx other than 429: the address or the message is wrong, no retry.
    slack.state.mode = 'error404';
    await publicCreate('notes', { text: 'wrong address' });
    const refused = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.status === 'failed' && run.attempts === 1), 15_000);
    expect(refused.error).toBe('The chat service answered 404: no_service');
    slack.state.mode = 'ok';
  });

  it('sends a test message on request, and refuses to save an address inside the network when that is not allowed', async () => {
    const instance = json(await call('POST', 'integrations', { integration: 'slack', name: 'Test', collections: ['orders'], events: ['create'], settings: { webhookUrl: slack.url, heading: 'Hello from Larder' } }));
    const before = slack.state.received.length;
    const test = await call('POST', `integrations/${instance.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    const run = await waitFor(async () => (await runsOf(instance.id)).find((r) => r.id === json(test).runID && r.status !== 'pending'), 15_000);
    expect(run).toMatchObject({ trigger: 'test', status: 'succeeded' });
    const sample = slack.state.received.slice(before)[0]!;
    expect(sample.body.text).toBe('Hello from Larder (sample)');
    expect(JSON.stringify(sample.body.blocks)).toContain('Sample customer');

    // 10.0.0.0/8 is not among the addresses this installation allows (OUTBOUND_ALLOW_PRIVATE): refused when saved, nothing stored.
    const instancesBefore = (await t.database.db.select().from(integrationInstances)).length;
    const inside = await call('POST', 'integrations', { integration: 'slack', name: 'Inside', collections: ['orders'], events: ['create'], settings: { webhookUrl: 'http://10.1.2.3/hook' } });
    expect(inside.statusCode).toBe(400);
    expect(json(inside).errors).toEqual([{ path: 'settings/webhookUrl', message: 'must be a public http or https address (the address is not public)' }]);
    expect((await t.database.db.select().from(integrationInstances)).length).toBe(instancesBefore);
  });

  it('does not run while billing suspends the organization (BLOCK): the run fails with the reason, nothing is sent', async () => {
    const instance = json(await call('POST', 'integrations', { integration: 'slack', name: 'Blocked', collections: ['orders'], events: ['create'], settings: { webhookUrl: slack.url } }));
    const setFailedDate = (date: Date | null) =>
      t.database.db.execute(sql`update billing_accounts set initial_billing_failed_date = ${date ? date.toISOString() : null}::timestamptz where organization_id = ${f.org}`);
    await t.app.inject({ method: 'GET', url: `/billing/billingDetails?organizationID=${f.org}`, headers: bearer(f.access) });
    // 20 days after a failed charge: BLOCK (docs/billing.md "Billing status").
    await setFailedDate(new Date(Date.now() - 20 * 86_400_000));
    await t.app.ctx.caches.settle();
    const received = slack.state.received.length;
    const test = json(await call('POST', `integrations/${instance.id}/test`)).runID as string;
    const run = await waitFor(async () => (await runsOf(instance.id)).find((r) => r.id === test && r.status !== 'pending'), 15_000);
    expect(run).toMatchObject({ status: 'failed', attempts: 1, error: 'Not run: the organization’s API services are suspended (billing account unpaid).' });
    expect(slack.state.received.length).toBe(received);
    await setFailedDate(null);
    await t.app.ctx.caches.settle();
    const again = json(await call('POST', `integrations/${instance.id}/test`)).runID as string;
    expect(await waitFor(async () => (await runsOf(instance.id)).find((r) => r.id === again && r.status !== 'pending'), 15_000)).toMatchObject({ status: 'succeeded' });
    await call('PUT', `integrations/${instance.id}`, { enabled: false });
  });

  it('never writes the secret webhook address into an answer or a log line', async () => {
    await t.app.ctx.integrationRunner!.settled();
    expect(logs.length).toBeGreaterThan(10);
    for (const form of ['SeCrEtHoOk', encodeURIComponent(slack.url)]) {
      expect(logs.filter((line) => line.includes(form))).toEqual([]);
      expect(answers.filter((body) => body.includes(form))).toEqual([]);
      const runs = await t.database.db.select().from(integrationRuns);
      expect(runs.filter((r) => JSON.stringify(r).includes(form))).toEqual([]);
    }
  });
});
