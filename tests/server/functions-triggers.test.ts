/**
 * A function's item-event and schedule triggers (docs/functions.md "Event and schedule
 * triggers"): a deployed function runs after the writes it listens to — top-level and nested,
 * only its events and lists, never an event from before it listened — with the item as its event
 * and its own token's rights; every attempt is logged; a failed run is tried again on the schedule
 * and succeeds once the cause is gone, or fails when no attempt is left; a schedule runs it and
 * moves on; a bad schedule or list is refused and changes nothing.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { query } from '../../server/content/storage.ts';
import { functionInvocations, functionRuns, functions } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem, sleep, waitFor } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { bearer } from './support/flows.ts';

describe.each(databaseKinds)('function triggers on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: { id: string; jwt: string };

  const posts = {
    id: 'posts',
    name: 'Posts',
    schema: [
      { name: 'Title', slug: 'title', type: 1, primaryField: true },
      { name: 'Stamp', slug: 'stamp', type: 1 },
      { name: 'Comments', slug: 'comments', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
    ],
  };

  async function deployed(name: string, source: string, options: Record<string, unknown> = {}) {
    const made = await f.call('POST', 'functions', { name, language: 'ts', apiTokenID: token.id, ...options });
    expect(made.statusCode, made.body).toBe(201);
    const saved = await f.call('PUT', `functions/${name}/source`, { source });
    expect(saved.statusCode, saved.body).toBe(201);
    const deploy = await f.call('POST', `functions/${name}/deploy`, { versionID: json(saved).id });
    expect(deploy.statusCode, deploy.body).toBe(200);
    return json(made).id as string;
  }
  const runsOf = (functionId: string) => t.database.db.select().from(functionRuns).where(eq(functionRuns.functionId, functionId));
  const invocationsOf = (functionId: string) => t.database.db.select().from(functionInvocations).where(eq(functionInvocations.functionId, functionId)).orderBy(functionInvocations.createdAt);
  const item = async (id: string) => json(await f.call('GET', `collection/posts/item/${id}`));

  beforeAll(async () => {
    t = await createTestApp(kind, { FUNCTION_RETRY_SCHEDULE: '300ms,300ms' });
    f = await contentFixture(t);
    await createCollection(f, posts);
    await createCollection(f, { id: 'notes', name: 'Notes', schema: [{ name: 'Text', slug: 'text', type: 1, primaryField: true }] });
    const minted = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'fn', projectID: f.project, organizationID: f.org, powerRead: true, powerWrite: true } });
    expect(minted.statusCode, minted.body).toBe(201);
    token = { id: json(minted).id, jwt: json(minted).jwtToken };
  });
  afterAll(() => t?.close());

  it('stamps each created post once, after the write, with its own token; other lists, events and older writes do not run it', async () => {
    const before = await createItem(f, 'posts', { title: 'Before' });
    const id = await deployed(
      'stamp',
      `export default async (event: any, ctx: any) => {
        console.log('stamping', event.kind, event.trigger, event.collectionSlug, event.item.title);
        await ctx.data.update(event.collectionSlug, event.itemID, { stamp: 'stamped:' + event.item.title });
        return { stamped: event.itemID };
      };`,
    );
    const set = await f.call('PUT', 'functions/stamp', { events: ['create'], collections: ['posts'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set)).toMatchObject({ events: ['create'], collections: ['posts'], schedule: null, nextRunDate: null });

    const post = await createItem(f, 'posts', { title: 'Hello' });
    await createItem(f, 'notes', { text: 'not listened to' });
    await waitFor(async () => (await item(post._id)).stamp === 'stamped:Hello', 15_000);
    const run = await waitFor(async () => (await runsOf(id)).find((r) => r.status !== 'pending'), 15_000);
    expect(run).toMatchObject({ trigger: 'create', status: 'succeeded', attempts: 1, error: null });
    const [logged] = await invocationsOf(id);
    expect(logged).toMatchObject({ trigger: 'event', status: 'ok', runId: run.id, attempt: 1, logs: [{ level: 'log', text: 'stamping item create posts Hello' }] });
    expect(JSON.parse(logged!.resultPreview!)).toEqual({ stamped: post._id });

    // The function's own update is an update, which it does not listen to; nothing older ran.
    await t.app.ctx.functionTriggers!.settled();
    expect(await runsOf(id)).toHaveLength(1);
    expect((await item(before._id)).stamp ?? null).toBeNull();
    // The log answers it as an event run.
    const page = json(await f.call('GET', 'functions/stamp/invocations'));
    expect(page.invocations[0]).toMatchObject({ trigger: 'event', runID: run.id, attempt: 1, status: 'ok' });
  });

  it('runs on nested lists it names, on updates and deletes, and only while deployed', async () => {
    const id = await deployed('nested', 'export default async (event: any) => ({ path: event.nestedPath, trigger: event.trigger, text: event.item.text ?? null });', {
      events: ['update', 'delete'],
      collections: ['posts.comments'],
    });
    const post = await createItem(f, 'posts', { title: 'With comments' });
    const comment = await createItem(f, 'posts', { text: 'First' }, { item: post._id, nestedID: 'comments' });
    const updated = await f.call('PUT', `collection/posts/item/${post._id}?nestedID=comments.${comment._id}`, { text: 'Changed' });
    expect(updated.statusCode, updated.body).toBe(200);
    await waitFor(async () => (await runsOf(id)).some((r) => r.status === 'succeeded'), 15_000);
    const runs = await runsOf(id);
    // The create is not listened to, the top-level post is not a comment.
    expect(runs.map((r) => r.trigger)).toEqual(['update']);
    const [logged] = await invocationsOf(id);
    expect(JSON.parse(logged!.resultPreview!)).toEqual({ path: 'comments', trigger: 'update', text: 'Changed' });
  });

  it('tries a failed run again on the schedule, each attempt logged, until it succeeds or no attempt is left', async () => {
    // Fails while the post's title starts with "fail"; the test changes it between attempts.
    const id = await deployed(
      'picky',
      `export default async (event: any, ctx: any) => {
        const post = await ctx.data.get('posts', event.itemID);
        if (String(post.title).startsWith('fail')) throw new Error('not yet: ' + post.title);
        return 'done';
      };`,
      { events: ['create'], collections: ['posts'] },
    );
    const post = await createItem(f, 'posts', { title: 'fail once' });
    const first = await waitFor(async () => (await invocationsOf(id))[0], 15_000);
    expect(first).toMatchObject({ trigger: 'event', status: 'error', attempt: 1, error: { name: 'Error', message: 'not yet: fail once' } });
    expect(first.error!.stack).toMatch(/function:\d+:\d+/);
    expect((await f.call('PUT', `collection/posts/item/${post._id}`, { title: 'fine now' })).statusCode).toBe(200);
    const done = await waitFor(async () => (await runsOf(id)).find((r) => r.status === 'succeeded'), 15_000);
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    expect((await invocationsOf(id)).at(-1)).toMatchObject({ status: 'ok', attempt: done.attempts });

    const hopeless = await createItem(f, 'posts', { title: 'fail always' });
    const failed = await waitFor(async () => (await runsOf(id)).find((r) => r.status === 'failed'), 20_000);
    expect(failed.attempts).toBe(3);
    expect(failed.error).toBe('Error: not yet: fail always');
    const attempts = (await invocationsOf(id)).filter((i) => i.runId === failed.id);
    expect(attempts.map((i) => i.attempt)).toEqual([1, 2, 3]);
    expect((await item(hopeless._id)).title).toBe('fail always');
  });

  it('runs on its schedule and moves to the next time; refuses a schedule that is not cron or too often, and lists the project has not', async () => {
    const id = await deployed('nightly', 'export default async (event: any) => event;');
    const bad = await f.call('PUT', 'functions/nightly', { schedule: 'every night', events: ['create'] });
    const problem = expectProblem(bad, 400, 'function_invalid') as unknown as { errors: { path: string; message: string }[] };
    expect(problem.errors).toEqual([{ path: 'schedule', message: expect.stringMatching(/^is not a cron expression/) }]);
    expect(expectProblem(await f.call('PUT', 'functions/nightly', { schedule: '* * * * *' }), 400, 'function_invalid').detail).toBe('schedule: must run at most every 5 minutes');
    expect(expectProblem(await f.call('PUT', 'functions/nightly', { collections: ['nope'] }), 400, 'function_invalid').detail).toBe('collections: "nope" is not a collection of this project');
    // Nothing of the refused changes was kept.
    expect(json(await f.call('GET', 'functions/nightly'))).toMatchObject({ events: [], schedule: null, collections: [] });

    const set = json(await f.call('PUT', 'functions/nightly', { schedule: ' 0 3 * * * ' }));
    expect(set.schedule).toBe('0 3 * * *');
    expect(new Date(set.nextRunDate).getUTCHours()).toBe(3);
    // Its time comes.
    await t.database.db.update(functions).set({ nextRunAt: new Date(Date.now() - 1000) }).where(eq(functions.id, id));
    expect(await t.app.ctx.functionTriggers!.scheduleDue()).toBe(1);
    const run = await waitFor(async () => (await runsOf(id)).find((r) => r.status === 'succeeded'), 15_000);
    expect(run.trigger).toBe('schedule');
    const [logged] = await invocationsOf(id);
    expect(logged).toMatchObject({ trigger: 'schedule', status: 'ok' });
    expect(JSON.parse(logged!.resultPreview!)).toMatchObject({ kind: 'schedule', scheduledFor: expect.any(String) });
    const [row] = await t.database.db.select().from(functions).where(eq(functions.id, id));
    expect(row!.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await t.app.ctx.functionTriggers!.scheduleDue()).toBe(0);
    // Removing the schedule stops it.
    expect(json(await f.call('PUT', 'functions/nightly', { schedule: null }))).toMatchObject({ schedule: null, nextRunDate: null });
  });

  it('makes once, as a queued job, a first attempt whose process died before making it (its lease ran out)', async () => {
    const id = await deployed('lease', 'export default async (event: any) => ({ seen: event.itemID });');
    // What a relay's process leaves when it dies between its commit and the first attempt: a pending
    // run, no attempt, its lease (next_attempt_at) past. Another on a lease still running waits.
    const event = { collectionID: 'posts', collectionSlug: 'posts', itemID: 'orphan', rootItemID: null, nestedPath: '', trigger: 'create', item: { title: 'Orphan' } };
    await query(
      t.database.db,
      sql`insert into function_runs (id, function_id, project_id, trigger, detail, next_attempt_at) values
            ('run-orphan', ${id}, ${f.project}, 'create', ${JSON.stringify({ event })}::jsonb, now() - interval '1 second'),
            ('run-leased', ${id}, ${f.project}, 'create', ${JSON.stringify({ event: { ...event, itemID: 'leased' } })}::jsonb, now() + interval '1 hour')`,
    );
    const run = await waitFor(async () => (await runsOf(id)).find((r) => r.id === 'run-orphan' && r.status !== 'pending'), 20_000);
    expect(run).toMatchObject({ status: 'succeeded', attempts: 1, error: null });
    const logged = await invocationsOf(id);
    expect(logged.map((row) => [row.runId, row.attempt, row.status])).toEqual([['run-orphan', 1, 'ok']]);
    expect(JSON.parse(logged[0]!.resultPreview!)).toEqual({ seen: 'orphan' });
    expect((await runsOf(id)).find((r) => r.id === 'run-leased')).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await f.call('DELETE', 'functions/lease')).statusCode).toBe(204);
  });

  it('does not run a function with nothing deployed, and a deleted function takes its runs with it', async () => {
    const made = await f.call('POST', 'functions', { name: 'draft', language: 'js', events: ['create'], collections: ['posts'] });
    expect(made.statusCode, made.body).toBe(201);
    const draft = json(made).id as string;
    await createItem(f, 'posts', { title: 'no draft run' });
    await waitFor(async () => {
      await t.app.ctx.functionTriggers!.settled();
      const [place] = await query(t.database.db, sql`select event_id from event_relays where name = 'functions'`);
      const [last] = await query(t.database.db, sql`select max(id) as id from item_events`);
      if (!place || !last) return false;
      return Number(place.event_id) >= Number(last.id);
    }, 15_000);
    expect(await runsOf(draft)).toEqual([]);
    const stampId = json(await f.call('GET', 'functions/stamp')).id as string;
    expect((await runsOf(stampId)).length).toBeGreaterThan(0);
    expect((await f.call('DELETE', 'functions/stamp')).statusCode).toBe(204);
    expect(await runsOf(stampId)).toEqual([]);
  });

  it('gives way to a request from outside in flight: a run on create waits for it, for 2 s at most, and then runs at once', async () => {
    const id = await deployed('quiet', 'export default async (event: any) => ({ seen: event.item.text });', { events: ['create'], collections: ['notes'] });
    const address = t.app.server.listening ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}` : await t.app.listen({ port: 0, host: '127.0.0.1' });
    // A request whose body never ends stays in flight until the test ends it.
    const held = httpRequest(`${address}/api/public/collection/notes/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.jwt}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const answered = new Promise<number>((resolve, reject) => {
      held.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      held.on('error', reject);
    });
    held.write('{"text":');
    await waitFor(() => t.app.ctx.foreground.busy === 1, 5000);

    // The create comes from inside the process (inject): its own request does not count.
    const createdAt = Date.now();
    await createItem(f, 'notes', { text: 'while busy' });
    await sleep(1000);
    expect((await runsOf(id)).filter((run) => run.status !== 'pending')).toEqual([]);
    const made = await waitFor(async () => (await runsOf(id)).find((run) => run.status === 'succeeded'), 15_000);
    expect(Date.now() - createdAt).toBeGreaterThanOrEqual(1900);
    expect(made.attempts).toBe(1);

    held.end('"sent at last"}');
    expect(await answered).toBe(201);
    await waitFor(() => t.app.ctx.foreground.busy === 0, 5000);
    // Quiet again: the next create's run is made without waiting out the 2 s.
    const quietAt = Date.now();
    await createItem(f, 'notes', { text: 'while quiet' });
    await waitFor(async () => (await runsOf(id)).filter((run) => run.status === 'succeeded').length === 3, 15_000);
    expect(Date.now() - quietAt).toBeLessThan(1900);
  });
});
