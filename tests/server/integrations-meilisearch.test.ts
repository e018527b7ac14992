/**
 * The Meilisearch sync (docs/integrations.md "Meilisearch sync") against a loopback stand-in that
 * answers the calls the official client makes as Meilisearch's HTTP API does (indexes, documents,
 * tasks that are enqueued, then processing, then succeeded or failed; `Authorization: Bearer`
 * checked) and keeps the documents in memory: items created, changed and deleted through the
 * public API are followed by the index; "send a test" rebuilds it whole (created when missing); a
 * 500 is retried; a refused API key fails at once; the key is in no answer, log line or run row.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { integrationInstances, integrationRuns } from '../../server/db/schema.ts';
import { meilisearchHandler } from '../../server/integrations/handlers/meilisearch.ts';
import { databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';

const API_KEY = 'MeIlI-SeCrEt-KeY-never-logged';

interface StandInTask {
  uid: number;
  indexUid: string;
  type: string;
  status: 'enqueued' | 'processing' | 'succeeded' | 'failed';
  error: { message: string; code: string; type: string; link: string } | null;
  polls: number;
}

function startMeilisearch() {
  const state = {
    mode: 'ok' as 'ok' | 'error500',
    indexes: new Map<string, { primaryKey: string | null; documents: Map<string, Record<string, unknown>> }>(),
    tasks: [] as StandInTask[],
    calls: [] as string[],
  };
  const now = () => new Date().toISOString();
  const failure = (code: string, message: string) => ({ message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` });
  /** A task done at once (the documents changed now), reported as enqueued, then processing, then its end. */
  const task = (indexUid: string, type: string, work: () => StandInTask['error']) => {
    const t: StandInTask = { uid: state.tasks.length, indexUid, type, status: 'enqueued', error: null, polls: 0 };
    t.error = work();
    state.tasks.push(t);
    return { taskUid: t.uid, indexUid, status: 'enqueued', type, enqueuedAt: now() };
  };
  const indexOf = (uid: string, primaryKey?: string | null) => {
    let index = state.indexes.get(uid);
    if (!index) state.indexes.set(uid, (index = { primaryKey: primaryKey ?? null, documents: new Map() }));
    return index;
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://x');
      const method = request.method ?? 'GET';
      state.calls.push(`${method} ${url.pathname}`);
      const send = (status: number, answer: unknown) => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      if (!request.headers.authorization) return send(401, { ...failure('missing_authorization_header', 'The Authorization header is missing.'), type: 'auth' });
      if (request.headers.authorization !== `Bearer ${API_KEY}`) return send(403, { ...failure('invalid_api_key', 'The provided API key is invalid.'), type: 'auth' });
      if (state.mode === 'error500') return send(500, { ...failure('internal', 'Something went wrong.'), type: 'internal' });
      const parts = url.pathname.split('/').filter(Boolean);
      const parsed = body ? (JSON.parse(body) as unknown) : undefined;
      if (parts[0] === 'tasks' && parts.length === 2 && method === 'GET') {
        const t = state.tasks[Number(parts[1])];
        if (!t) return send(404, failure('task_not_found', 'Task not found.'));
        t.polls++;
        const status = t.polls === 1 ? 'processing' : t.error ? 'failed' : 'succeeded';
        return send(200, { uid: t.uid, batchUid: t.uid, indexUid: t.indexUid, status, type: t.type, canceledBy: null, details: {}, error: status === 'failed' ? t.error : null, duration: 'PT0.001S', enqueuedAt: now(), startedAt: now(), finishedAt: status === 'processing' ? null : now() });
      }
      if (parts[0] !== 'indexes') return send(404, failure('not_found', 'Not found.'));
      const uid = parts[1];
      if (!uid && method === 'POST') {
        const { uid: newUid, primaryKey } = parsed as { uid: string; primaryKey?: string };
        return send(202, task(newUid, 'indexCreation', () => (state.indexes.has(newUid) ? failure('index_already_exists', 'Index already exists.') : (indexOf(newUid, primaryKey), null))));
      }
      if (!uid) return send(404, failure('not_found', 'Not found.'));
      if (parts.length === 2 && method === 'GET') {
        const index = state.indexes.get(uid);
        if (!index) return send(404, failure('index_not_found', `Index \`${uid}\` not found.`));
        return send(200, { uid, primaryKey: index.primaryKey, createdAt: now(), updatedAt: now() });
      }
      if (parts[2] === 'documents' && parts.length === 3 && (method === 'POST' || method === 'PUT')) {
        const primaryKey = url.searchParams.get('primaryKey');
        return send(
          202,
          task(uid, 'documentAdditionOrUpdate', () => {
            const index = indexOf(uid, primaryKey);
            if (primaryKey && index.primaryKey && index.primaryKey !== primaryKey) return failure('index_primary_key_already_exists', 'Index already has a primary key.');
            index.primaryKey ??= primaryKey;
            for (const document of parsed as Record<string, unknown>[]) {
              const id = String(document[index.primaryKey ?? 'id']);
              index.documents.set(id, method === 'PUT' ? { ...index.documents.get(id), ...document } : document);
            }
            return null;
          }),
        );
      }
      if (parts[2] === 'documents' && parts.length === 4 && method === 'DELETE') {
        return send(202, task(uid, 'documentDeletion', () => (state.indexes.get(uid) ? (state.indexes.get(uid)!.documents.delete(decodeURIComponent(parts[3]!)), null) : failure('index_not_found', `Index \`${uid}\` not found.`))));
      }
      if (parts[2] === 'documents' && parts.length === 3 && method === 'DELETE') {
        return send(202, task(uid, 'documentDeletion', () => (state.indexes.get(uid) ? (state.indexes.get(uid)!.documents.clear(), null) : failure('index_not_found', `Index \`${uid}\` not found.`))));
      }
      if (parts[2] === 'documents' && parts[3] === 'delete-batch' && method === 'POST') {
        return send(202, task(uid, 'documentDeletion', () => (state.indexes.get(uid) ? ((parsed as string[]).forEach((id) => state.indexes.get(uid)!.documents.delete(String(id))), null) : failure('index_not_found', `Index \`${uid}\` not found.`))));
      }
      return send(404, failure('not_found', 'Not found.'));
    });
  });
  return new Promise<{ state: typeof state; url: string; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ state, url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) });
    }),
  );
}

describe.each(databaseKinds)('the Meilisearch sync on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let apiToken: string;
  let meili: Awaited<ReturnType<typeof startMeilisearch>>;
  const logs: string[] = [];
  const answers: string[] = [];

  beforeAll(async () => {
    meili = await startMeilisearch();
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8', INTEGRATION_RETRY_SCHEDULE: '1s,1s' });
    const database = await openTestDatabase(kind);
    const app = await buildApp({ config, database, logger: { level: 'trace', stream: { write: (line: string) => void logs.push(line) } } as never });
    await app.ready();
    t = { app, config, database, close: async () => (await app.close(), await database.close()) };
    f = await contentFixture(t);
    await createCollection(f, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }, { name: 'Views', slug: 'views', type: 3 }] });
    apiToken = await mintToken(t, f, { powerRead: true, powerWrite: true });
  });
  afterAll(async () => {
    await t?.close();
    await meili?.close();
  });

  const call = async (...args: Parameters<ContentFixture['call']>) => {
    const response = await f.call(...args);
    answers.push(response.body);
    return response;
  };
  const publicCall = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const response = await t.app.inject({
      method,
      url: `/api/public/collection/articles/items${url}`,
      headers: { authorization: `Bearer ${apiToken}`, 'accept-version': 'v1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.body ? json(response) : undefined;
  };
  const publicItems = async () =>
    json(await t.app.inject({ method: 'GET', url: '/api/public/collection/articles/items?perPage=100', headers: { authorization: `Bearer ${apiToken}`, 'accept-version': 'v1' } })) as Record<string, unknown>[];
  const runsOf = (instanceId: string) => t.database.db.select().from(integrationRuns).where(eq(integrationRuns.instanceId, instanceId));
  const documents = (uid: string) => Object.fromEntries([...(meili.state.indexes.get(uid)?.documents ?? new Map()).entries()]);
  const allDone = async (instanceId: string, count: number) =>
    waitFor(async () => {
      await t.app.ctx.integrationRunner!.settled();
      const runs = await runsOf(instanceId);
      return runs.length >= count && runs.every((run) => run.status !== 'pending') ? runs : undefined;
    }, 20_000);
  const make = async (name: string, settings: Record<string, unknown>) => {
    const made = await call('POST', 'integrations', { integration: 'meilisearch', name, collections: ['articles'], events: ['create', 'update', 'delete'], settings: { host: meili.url, apiKey: API_KEY, ...settings } });
    expect(made.statusCode, made.body).toBe(201);
    return json(made) as { id: string };
  };

  it('follows items created, changed and deleted through the public API', async () => {
    const instance = await make('Search', { indexUid: 'articles' });
    const first = { _id: ((await publicCall('POST', '', { title: 'First post', views: 3 })) as { id: string }).id };
    const second = { _id: ((await publicCall('POST', '', { title: 'Second post', views: 5 })) as { id: string }).id };
    await allDone(instance.id, 2);
    expect(meili.state.indexes.get('articles')?.primaryKey).toBe('id');
    expect(documents('articles')).toMatchObject({ [first._id]: { id: first._id, _id: first._id, title: 'First post', views: 3 }, [second._id]: { id: second._id, title: 'Second post', views: 5 } });

    await publicCall('PUT', `/${first._id}`, { views: 4 });
    await allDone(instance.id, 3);
    expect(documents('articles')[first._id]).toMatchObject({ id: first._id, title: 'First post', views: 4 });

    await publicCall('DELETE', `/${second._id}`);
    const runs = await allDone(instance.id, 4);
    expect(Object.keys(documents('articles'))).toEqual([first._id]);
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const deleted = runs.find((run) => run.trigger === 'delete')!;
    expect(deleted.detail).toMatchObject({ result: { deleted: second._id } });
    // The client waited for each task to end: every task was asked after it was enqueued.
    expect(meili.state.tasks.every((task) => task.polls >= 2)).toBe(true);
    await call('PUT', `integrations/${instance.id}`, { enabled: false });
  });

  it('rebuilds the whole index on "send a test", creating it when missing', async () => {
    const instance = await make('Rebuild', { indexUid: 'rebuilt' });
    // The index does not exist yet: created with the primary key, then filled.
    expect(meili.state.indexes.has('rebuilt')).toBe(false);
    let runId = json(await call('POST', `integrations/${instance.id}/test`)).runID as string;
    let run = await waitFor(async () => (await runsOf(instance.id)).find((r) => r.id === runId && r.status !== 'pending'), 20_000);
    expect(run, JSON.stringify(run)).toMatchObject({ trigger: 'test', status: 'succeeded' });
    const items = await publicItems();
    expect(run.detail).toMatchObject({ result: { rebuilt: true, documents: items.length } });
    expect(meili.state.indexes.get('rebuilt')?.primaryKey).toBe('id');
    expect(documents('rebuilt')).toEqual(Object.fromEntries(items.map((item) => [item._id, { ...item, id: item._id }])));

    // A document that is no item's goes with the next rebuild.
    meili.state.indexes.get('rebuilt')!.documents.set('stray', { id: 'stray', title: 'Not an item' });
    runId = json(await call('POST', `integrations/${instance.id}/test`)).runID as string;
    run = await waitFor(async () => (await runsOf(instance.id)).find((r) => r.id === runId && r.status !== 'pending'), 20_000);
    expect(run.status).toBe('succeeded');
    expect(Object.keys(documents('rebuilt')).sort()).toEqual(items.map((item) => String(item._id)).sort());
    await call('PUT', `integrations/${instance.id}`, { enabled: false });
  });

  it('retries while Meilisearch answers 500, and fails at once when it refuses the API key', async () => {
    const instance = await make('Flaky', { indexUid: 'flaky' });
    meili.state.mode = 'error500';
    const item = { _id: ((await publicCall('POST', '', { title: 'Retried', views: 1 })) as { id: string }).id };
    const failing = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.attempts === 1 && run.status === 'pending'), 20_000);
    expect(failing.error).toBe('Meilisearch answered 500: Something went wrong.');
    meili.state.mode = 'ok';
    const done = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.status === 'succeeded'), 20_000);
    expect(done.attempts).toBe(2);
    expect(documents('flaky')[item._id]).toMatchObject({ title: 'Retried' });

    // Always 500: the first attempt and the schedule's two retries, then failed.
    meili.state.mode = 'error500';
    await publicCall('POST', '', { title: 'Never indexed', views: 2 });
    const failed = await waitFor(async () => (await runsOf(instance.id)).find((run) => run.status === 'failed'), 20_000);
    expect(failed).toMatchObject({ attempts: 3, error: 'Meilisearch answered 500: Something went wrong.' });
    meili.state.mode = 'ok';
    await call('PUT', `integrations/${instance.id}`, { enabled: false });

    const wrong = await make('Wrong key', { indexUid: 'wrong', apiKey: 'not-the-key' });
    const runId = json(await call('POST', `integrations/${wrong.id}/test`)).runID as string;
    const refused = await waitFor(async () => (await runsOf(wrong.id)).find((r) => r.id === runId && r.status !== 'pending'), 20_000);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(refused.error).toMatch(/^Meilisearch refused the API key \(403 invalid_api_key\)/);
    expect(meili.state.indexes.has('wrong')).toBe(false);
  });

  it('leaves nested items out of the index', async () => {
    // The relay hands a one-collection instance only its top-level events; a nested one is skipped all the same.
    const calls = meili.state.calls.length;
    const input = {
      trigger: 'create',
      event: { collectionID: 'articles', collectionSlug: 'articles', itemID: 'n1', rootItemID: 'top', nestedPath: 'comments.n1', trigger: 'create', item: { text: 'nested' } },
      instance: { id: 'i', projectId: f.project, organizationId: f.org, name: 'n', collections: ['articles'] },
      settings: { host: meili.url, apiKey: API_KEY, indexUid: 'articles' },
    };
    const context = { db: t.database.db, outbound: t.app.ctx.outbound, timeoutMs: 2000, publicUrl: '', log: t.app.log };
    expect(await meilisearchHandler.run(context, input as never)).toEqual({ skipped: 'nested' });
    expect(meili.state.calls.length).toBe(calls);
  });

  it('refuses a host inside the network that is not allowed: when saved, and at once when a run meets one', async () => {
    const saved = await call('POST', 'integrations', { integration: 'meilisearch', name: 'Inside', collections: ['articles'], events: ['create'], settings: { host: 'http://10.2.3.4:7700', indexUid: 'inside' } });
    expect(saved.statusCode).toBe(400);
    expect(json(saved).errors).toEqual([{ path: 'settings/host', message: expect.stringMatching(/^must be a public http or https address/) }]);
    // A host that became one since it was saved (a name now answering an inside address) is refused by the run.
    const inside = await make('Inside', { indexUid: 'inside' });
    const [row] = await t.database.db.select().from(integrationInstances).where(eq(integrationInstances.id, inside.id));
    await t.database.db.update(integrationInstances).set({ settings: { ...row!.settings, host: 'http://10.2.3.4:7700' } }).where(eq(integrationInstances.id, inside.id));
    const runId = json(await call('POST', `integrations/${inside.id}/test`)).runID as string;
    const refused = await waitFor(async () => (await runsOf(inside.id)).find((r) => r.id === runId && r.status !== 'pending'), 20_000);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(refused.error).toMatch(/^The Meilisearch address is refused: /);
  });

  it('never writes the API key into an answer, a log line or a run row', async () => {
    await t.app.ctx.integrationRunner!.settled();
    expect(logs.length).toBeGreaterThan(10);
    expect(logs.filter((line) => line.includes(API_KEY))).toEqual([]);
    expect(answers.filter((body) => body.includes(API_KEY))).toEqual([]);
    const runs = await t.database.db.select().from(integrationRuns);
    expect(runs.filter((r) => JSON.stringify(r).includes(API_KEY))).toEqual([]);
    const instances = await t.database.db.select().from(integrationInstances);
    expect(instances.filter((r) => JSON.stringify(r).includes(API_KEY))).toEqual([]);
  });
});
