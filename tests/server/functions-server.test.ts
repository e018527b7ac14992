/**
 * Functions on the server (docs/functions.md "Functions and versions", "The HTTP trigger", "The
 * data client", "The invocation log"): save (compiled first), deploy and roll back, the HTTP
 * trigger's callers, ctx.data with the rights of the function's token, the concurrency cap, the
 * log and the project's secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { functionInvocations, functionVersions, memberships, projectFunctionSecrets } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { newEmail, signUpEndUser } from './support/end-users.ts';

const SECRET = 'sk-live-TOPSECRET-4711';

describe.each(databaseKinds)('functions on the server on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let other: ContentFixture;
  let writer: { id: string; jwt: string };
  let readOnly: { id: string; jwt: string };
  let otherToken: { id: string; jwt: string };

  const mint = async (fixture: ContentFixture, rights: Record<string, boolean>) => {
    const minted = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(fixture.access), payload: { name: 'fn', projectID: fixture.project, organizationID: fixture.org, ...rights } });
    expect(minted.statusCode, minted.body).toBe(201);
    return { id: json(minted).id as string, jwt: json(minted).jwtToken as string };
  };
  const posts = { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] };

  /** Makes a function, saves its source and deploys it. */
  async function deployed(name: string, source: string, options: Record<string, unknown> = {}, fixture = f) {
    const made = await fixture.call('POST', 'functions', { name, language: 'ts', ...options });
    expect(made.statusCode, made.body).toBe(201);
    const saved = await fixture.call('PUT', `functions/${name}/source`, { source });
    expect(saved.statusCode, saved.body).toBe(201);
    const deploy = await fixture.call('POST', `functions/${name}/deploy`, { versionID: json(saved).id });
    expect(deploy.statusCode, deploy.body).toBe(200);
    return json(saved).id as string;
  }
  const call = (project: string, name: string, options: { token?: string; method?: 'GET' | 'POST'; payload?: unknown; path?: string } = {}) =>
    t.app.inject({
      method: options.method ?? 'POST',
      url: `/functions/v1/${project}/${name}${options.path ?? ''}`,
      headers: options.token ? bearer(options.token) : {},
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });

  beforeAll(async () => {
    t = await createTestApp(kind, { FUNCTION_TIMEOUT_MS: '1500', FUNCTION_CONCURRENCY_PER_PROJECT: '2' });
    f = await contentFixture(t);
    other = await f.otherProject();
    await createCollection(f, posts);
    await createCollection(other, posts);
    writer = await mint(f, { powerRead: true, powerWrite: true });
    readOnly = await mint(f, { powerRead: true });
    otherToken = await mint(other, { powerRead: true, powerWrite: true });
  });
  afterAll(() => t?.close());

  it('refuses a source that does not compile with each line and column, saving nothing; the deployed version keeps serving', async () => {
    await deployed('hello', 'export default async () => ({ greeting: "v1" });');
    const bad = await f.call('PUT', 'functions/hello/source', { source: 'export default async () => {\n  const x = ;\n};' });
    const problem = expectProblem(bad, 400, 'function_compile_failed') as unknown as { errors: { path: string; params: { line: number; column: number } }[] };
    expect(problem.errors[0]).toMatchObject({ path: 'source', params: { line: 2 } });
    expect(problem.errors[0]!.params.column).toBeGreaterThan(0);
    const fn = json(await f.call('GET', 'functions/hello'));
    expect(await t.database.db.select().from(functionVersions).where(eq(functionVersions.functionId, fn.id))).toHaveLength(1);
    const answer = await call(f.project, 'hello', { token: writer.jwt });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(json(answer)).toEqual({ greeting: 'v1' });
  });

  it('saves versions, deploys a newer one and rolls back to an older one', async () => {
    const v1 = await deployed('versions', 'export default async () => "one";');
    expect(json(await call(f.project, 'versions', { token: writer.jwt }))).toBe('one');
    const v2 = json(await f.call('PUT', 'functions/versions/source', { source: 'export default async () => "two";' }));
    expect(v2.number).toBe(2);
    // Saved is not deployed.
    expect(json(await call(f.project, 'versions', { token: writer.jwt }))).toBe('one');
    expect(json(await f.call('POST', 'functions/versions/deploy', { versionID: v2.id }))).toMatchObject({ deployedVersion: 2, latestVersion: 2 });
    expect(json(await call(f.project, 'versions', { token: writer.jwt }))).toBe('two');
    expect(json(await f.call('POST', 'functions/versions/deploy', { versionID: v1 }))).toMatchObject({ deployedVersion: 1 });
    expect(json(await call(f.project, 'versions', { token: writer.jwt }))).toBe('one');
    const versions = json(await f.call('GET', 'functions/versions/versions'));
    expect(versions.map((v: { number: number; deployed: boolean }) => [v.number, v.deployed])).toEqual([[2, false], [1, true]]);
    // Another project's version cannot be deployed here.
    expectProblem(await f.call('POST', 'functions/hello/deploy', { versionID: v2.id }), 404, 'function_version_not_found');
  });

  it('answers the caller: API token, public, none, another project’s token; the event it sees; its own status and body', async () => {
    await deployed('echo', 'export default async (event) => ({ status: 201, headers: { "x-echo": "yes" }, body: { method: event.method, path: event.path, query: event.query, body: event.body, caller: event.caller, auth: event.headers.authorization ?? null } });');
    const answered = await call(f.project, 'echo', { token: writer.jwt, payload: { a: 1 }, path: '/deep/er?x=1' });
    expect(answered.statusCode, answered.body).toBe(201);
    expect(answered.headers['x-echo']).toBe('yes');
    expect(json(answered)).toEqual({ method: 'POST', path: '/deep/er', query: { x: '1' }, body: { a: 1 }, caller: { kind: 'apiToken', id: writer.id }, auth: null });
    // One of the project's app users.
    const appUser = await signUpEndUser(t, writer.jwt, newEmail('fncaller'));
    const asUser = await call(f.project, 'echo', { token: appUser.access_token });
    expect(asUser.statusCode, asUser.body).toBe(201);
    expect(json(asUser).caller).toEqual({ kind: 'appUser', id: appUser.user_id });
    // Another project's credentials are refused before any name is looked at: nothing tells which names exist.
    expectProblem(await call(other.project, 'echo', { token: appUser.access_token }), 403, 'not_permitted');
    expectProblem(await call(f.project, 'nope'), 401, 'missing_token');
    expectProblem(await call(f.project, 'nope', { token: otherToken.jwt }), 403);
    expectProblem(await call(f.project, 'echo'), 401, 'missing_token');
    expectProblem(await call(f.project, 'echo', { token: 'not-a-token' }), 401);
    expectProblem(await call(f.project, 'echo', { token: otherToken.jwt }), 403);
    expectProblem(await call(f.project, 'nope', { token: writer.jwt }), 404, 'function_not_found');

    await deployed('open', 'export default async (event) => ({ status: 200, body: "hi " + event.caller.kind });', { public: true });
    const open = await call(f.project, 'open', { method: 'GET' });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.body).toBe('hi public');
    expect(open.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('ctx.data works with the rights of the function’s token: creates, refuses what the token may not, stays in its project', async () => {
    await deployed('stamp', 'export default async (event, ctx) => { const made = await ctx.data.create("posts", { title: event.body.title }); return made; };', { apiTokenID: writer.id });
    const made = await call(f.project, 'stamp', { token: writer.jwt, payload: { title: 'From a function' } });
    expect(made.statusCode, made.body).toBe(200);
    const id = json(made)._id ?? json(made).id;
    const read = await t.app.inject({ method: 'GET', url: `/api/public/collection/posts/items/${id}`, headers: bearer(writer.jwt) });
    expect(read.statusCode, read.body).toBe(200);
    expect(json(read).title).toBe('From a function');

    await deployed(
      'readonly',
      'export default async (event, ctx) => { try { await ctx.data.create("posts", { title: "no" }); return "created"; } catch (e) { console.warn("refused:", e.message); return "refused"; } };',
      { apiTokenID: readOnly.id },
    );
    expect(json(await call(f.project, 'readonly', { token: writer.jwt }))).toBe('refused');
    const log = json(await f.call('GET', 'functions/readonly/invocations'));
    expect(log.invocations[0].logs[0]).toMatchObject({ level: 'warn', text: expect.stringContaining('refused: 403 not_permitted') });

    // Uncaught, the refusal is the function's error.
    await deployed('uncaught', 'export default async (event, ctx) => ctx.data.create("posts", { title: "no" });', { apiTokenID: readOnly.id });
    const failed = await call(f.project, 'uncaught', { token: writer.jwt });
    const problem = expectProblem(failed, 500, 'function_failed') as unknown as { detail: string; params: { invocationID: string } };
    expect(problem.detail).toContain('403 not_permitted');
    expect(problem.params.invocationID).toBe(failed.headers['function-invocation-id']);

    // Another project's item is not found from this project's function; its own list has its own items only.
    const theirs = await t.app.inject({ method: 'POST', url: '/api/public/collection/posts/items', headers: bearer(otherToken.jwt), payload: { title: 'Theirs' } });
    expect(theirs.statusCode, theirs.body).toBe(201);
    await deployed('peek', 'export default async (event, ctx) => { const list = await ctx.data.list("posts", { perPage: 50 }); let other = null; try { await ctx.data.get("posts", event.query.id); other = "read"; } catch (e) { other = e.message; } return { titles: list.items.map((i) => i.title), other }; };', { apiTokenID: writer.id });
    const peek = json(await call(f.project, 'peek', { method: 'GET', token: writer.jwt, path: `?id=${json(theirs)._id ?? json(theirs).id}` }));
    expect(peek.titles).toEqual(['From a function']);
    expect(peek.other).toMatch(/^404 /);

    // Without a token, no data access.
    await deployed('notoken', 'export default async (event, ctx) => ctx.data.list("posts");');
    expect(json(await call(f.project, 'notoken', { token: writer.jwt })).detail).toContain('has no API token');
  });

  it('caps the runs of a project at once (429 function_busy) and stops a run at its deadline (504)', async () => {
    await deployed('busy', 'export default async () => { const end = Date.now() + 700; while (Date.now() < end) {} return "done"; };');
    const answers = await Promise.all([0, 1, 2].map(() => call(f.project, 'busy', { token: writer.jwt })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 429]);
    expectProblem(answers.find((a) => a.statusCode === 429)!, 429, 'function_busy');

    await deployed('forever', 'export default async () => { for (;;) {} };');
    const stopped = await call(f.project, 'forever', { token: writer.jwt });
    const problem = expectProblem(stopped, 504, 'function_timeout');
    expect(problem.detail).toMatch(/ran longer than 1\.5 s/);
  });

  it('logs each run with its logs, duration, memory and the error’s stack in the function’s own source; searches and sweeps the log', async () => {
    await deployed('thrower', 'function check(value: number) {\n  console.log("checking", value);\n  throw new Error("value " + value + " is too big");\n}\nexport default async (event) => check(event.query.n ? Number(event.query.n) : 7);');
    expectProblem(await call(f.project, 'thrower', { method: 'GET', token: writer.jwt }), 500, 'function_failed');
    const tested = await f.call('POST', 'functions/thrower/test', { event: { query: { n: 3 } } });
    expect(tested.statusCode, tested.body).toBe(200);
    const page = json(await f.call('GET', 'functions/thrower/invocations'));
    expect(page.invocations).toHaveLength(2);
    const [test, http] = page.invocations;
    expect(test).toMatchObject({ trigger: 'test', status: 'error', error: { name: 'Error', message: 'value 3 is too big' } });
    expect(http).toMatchObject({ trigger: 'http', status: 'error', logs: [{ level: 'log', text: 'checking 7' }] });
    expect(http.durationMs).toBeGreaterThanOrEqual(0);
    expect(http.memoryBytes).toBeGreaterThan(0);
    expect(http.error.stack).toContain('at check (function:3:');
    const found = json(await f.call('GET', 'functions/thrower/invocations?search=value%207'));
    expect(found.invocations.map((i: { id: string }) => i.id)).toEqual([http.id]);
    expect(json(await f.call('GET', 'functions/thrower/invocations?search=nothing-like-this')).invocations).toEqual([]);

    // Older than FUNCTION_LOG_RETENTION_DAYS (14): swept.
    await t.database.db.update(functionInvocations).set({ createdAt: new Date(Date.now() - 15 * 86_400_000) }).where(eq(functionInvocations.id, http.id));
    expect(await t.app.ctx.functions!.sweep(new Date(), 1)).toBeGreaterThanOrEqual(1);
    expect(json(await f.call('GET', 'functions/thrower/invocations')).invocations.map((i: { id: string }) => i.id)).toEqual([test.id]);
  });

  it('gives functions the project’s secrets as ctx.secrets and never answers or logs them', async () => {
    const put = await f.call('PUT', 'functions/secrets', { name: 'API_KEY', value: SECRET });
    expect(put.statusCode, put.body).toBe(204);
    const names = await f.call('GET', 'functions/secrets');
    expect(json(names).map((s: { name: string }) => s.name)).toEqual(['API_KEY']);
    expect(names.body).not.toContain(SECRET);
    const [row] = await t.database.db.select().from(projectFunctionSecrets).where(eq(projectFunctionSecrets.projectId, f.project));
    expect(JSON.stringify(row)).not.toContain(SECRET);

    await deployed('secretive', 'export default async (event, ctx) => { console.log("key is", ctx.secrets.API_KEY); if (event.query && event.query.fail) throw new Error("bad key " + ctx.secrets.API_KEY); return { length: ctx.secrets.API_KEY.length, key: ctx.secrets.API_KEY }; };');
    const ok = await call(f.project, 'secretive', { method: 'GET', token: writer.jwt });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok).length).toBe(SECRET.length);
    const failed = await call(f.project, 'secretive', { method: 'GET', token: writer.jwt, path: '?fail=1' });
    expectProblem(failed, 500, 'function_failed');
    expect(failed.body).not.toContain(SECRET);
    const tested = await f.call('POST', 'functions/secretive/test', { event: {} });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.body).not.toContain(SECRET);
    expect(json(tested).result).toMatchObject({ length: SECRET.length, key: '[secret]' });
    const log = await f.call('GET', 'functions/secretive/invocations');
    expect(log.body).not.toContain(SECRET);
    expect(json(log).invocations[0].logs[0].text).toBe('key is [secret]');
    const rows = await t.database.db.select().from(functionInvocations);
    expect(JSON.stringify(rows)).not.toContain(SECRET);

    // A changed value reaches the very next call (the per-process cache is dropped at commit).
    expect((await f.call('PUT', 'functions/secrets', { name: 'API_KEY', value: 'a-changed-value' })).statusCode).toBe(204);
    expect(json(await call(f.project, 'secretive', { method: 'GET', token: writer.jwt })).length).toBe('a-changed-value'.length);
    expect((await f.call('DELETE', 'functions/secrets/API_KEY')).statusCode).toBe(204);
    expectProblem(await f.call('DELETE', 'functions/secrets/API_KEY'), 404, 'function_secret_not_found');
    expectProblem(await call(f.project, 'secretive', { method: 'GET', token: writer.jwt }), 500, 'function_failed');
  });

  it('lets members who may read see functions and their log, and only admins change them', async () => {
    const list = json(await f.call('GET', 'functions'));
    expect(list.map((fn: { name: string }) => fn.name)).toContain('hello');
    const { tokens } = await verifiedUser(t.app, 'fnreader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true, write: true, create: true, update: true, delete: true } });
    const reader = { access: tokens.access_token };
    expect((await f.call('GET', 'functions', undefined, reader)).statusCode).toBe(200);
    expect((await f.call('GET', 'functions/hello/versions', undefined, reader)).statusCode).toBe(200);
    expect((await f.call('GET', 'functions/hello/invocations', undefined, reader)).statusCode).toBe(200);
    expectProblem(await f.call('PUT', 'functions/hello/source', { source: 'export default async () => 1;' }, reader), 403);
    expectProblem(await f.call('POST', 'functions/hello/test', { event: {} }, reader), 403);
    expectProblem(await f.call('GET', 'functions/secrets', undefined, reader), 403);
    expectProblem(await f.call('DELETE', 'functions/hello', undefined, reader), 403);
    expectProblem(await f.call('POST', 'functions', { name: 'hello' }), 409, 'function_exists');
    expectProblem(await f.call('POST', 'functions', { name: 'secrets' }), 400, 'function_invalid');
    expectProblem(await f.call('POST', 'functions', { name: 'x', apiTokenID: otherToken.id }), 400, 'function_invalid');
    expect((await f.call('POST', 'functions', { name: 'Bad Name' })).statusCode).toBe(400);
    // Another project's functions are not this one's.
    expectProblem(await other.call('GET', 'functions/hello'), 404, 'function_not_found');
    // Made public, it answers without a token at once; deleted, its address is gone at once.
    expect((await call(f.project, 'hello', { token: writer.jwt })).statusCode).toBe(200);
    expect((await f.call('PUT', 'functions/hello', { public: true })).statusCode).toBe(200);
    expect((await call(f.project, 'hello')).statusCode).toBe(200);
    expect((await f.call('DELETE', 'functions/hello')).statusCode).toBe(204);
    expectProblem(await call(f.project, 'hello', { token: writer.jwt }), 404, 'function_not_found');
  });

  it('counts each HTTP call as an app call (ApiCalls, BandWidth) and refuses it under a billing BLOCK with 402, as /api/public', async () => {
    await deployed('metered', 'export default async () => ({ padding: "x".repeat(1000) });');
    const amount = async (metric: string) => {
      await t.app.ctx.usage.flush();
      return Number((await t.app.ctx.usage.read(f.org)).usage.find((u: { name: string }) => u.name === metric)?.amount ?? 0);
    };
    const [calls, bytes] = [await amount('ApiCalls'), await amount('BandWidth')];
    expect((await call(f.project, 'metered', { token: writer.jwt })).statusCode).toBe(200);
    expect(await amount('ApiCalls')).toBe(calls + 1);
    expect(await amount('BandWidth')).toBeGreaterThanOrEqual(bytes + 1000);

    // 20 days after a failed charge: BLOCK (docs/billing.md "Billing status"); the call is refused, not run and not counted.
    const setFailedDate = (date: Date | null) =>
      t.database.db.execute(sql`update billing_accounts set initial_billing_failed_date = ${date ? date.toISOString() : null}::timestamptz where organization_id = ${f.org}`);
    await t.app.inject({ method: 'GET', url: `/billing/billingDetails?organizationID=${f.org}`, headers: bearer(f.access) });
    await setFailedDate(new Date(Date.now() - 20 * 86_400_000));
    await t.app.ctx.caches.settle();
    const runs = (await t.database.db.select().from(functionInvocations)).length;
    expectProblem(await call(f.project, 'metered', { token: writer.jwt }), 402, 'billing_blocked');
    expect((await t.database.db.select().from(functionInvocations)).length).toBe(runs);
    expect(await amount('ApiCalls')).toBe(calls + 1);
    await setFailedDate(null);
    await t.app.ctx.caches.settle();
    expect((await call(f.project, 'metered', { token: writer.jwt })).statusCode).toBe(200);
  });
});
