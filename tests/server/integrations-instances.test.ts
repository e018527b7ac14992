/**
 * A project's integration instances (docs/integrations.md "Instances"): made and changed against
 * their catalogue entry, secrets sealed and never answered (nor in the database in clear), kept
 * when an edit leaves them out; schedules and collections checked; admins only; bad input a 400
 * naming each problem, with nothing saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { contentCollections, integrationInstances, memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';

const HOOK = 'https://hooks.slack.com/services/T000/B000/SECRETsecret123';

describe.each(databaseKinds)('integration instances on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let reader: string;
  let posts: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
          id: 'posts',
          name: 'Posts',
          schema: [
            { name: 'Title', slug: 'title', type: 1, primaryField: true },
            { name: 'Comments', slug: 'comments', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
          ],
        });
    // Instances keep collections by their row ids, so a renamed slug does not lose them.
    const [row] = await t.database.db.select({ id: contentCollections.id }).from(contentCollections).where(eq(contentCollections.projectId, f.project));
    posts = row!.id;
    const { tokens } = await verifiedUser(t.app, 'intreader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true, write: true, create: true, update: true, delete: true } });
    reader = tokens.access_token;
  });
  afterAll(() => t?.close());

  const row0 = <T,>(list: T[]) => list[0]!;
  const rows = () => t.database.db.select().from(integrationInstances).where(eq(integrationInstances.projectId, f.project));

  it('switches the chat integration on with its secret sealed, answers which secrets are set, and keeps them through edits', async () => {
    const made = await f.call('POST', 'integrations', { integration: 'slack', name: 'Team chat', collections: ['posts', 'posts.comments'], events: ['create', 'delete'], settings: { webhookUrl: ` ${HOOK} `, heading: 'New post' } });
    expect(made.statusCode, made.body).toBe(201);
    const instance = json(made);
    expect(instance).toMatchObject({ integration: 'slack', name: 'Team chat', enabled: true, events: ['create', 'delete'], settings: { heading: 'New post' }, secretsSet: { webhookUrl: true }, schedule: null, lastRunDate: null });
    // Kept by row id (a renamed slug keeps them), answered by today's slug.
    expect(row0(await rows()).collections).toEqual([posts, `${posts}.comments`]);
    expect(instance.collections).toEqual(['posts', 'posts.comments']);
    expect(made.body).not.toContain('SECRETsecret123');
    const [row] = await rows();
    expect(JSON.stringify(row)).not.toContain('SECRETsecret123');
    expect(row!.enabledSnapshot).toMatch(/^\d+:\d+:/);
    expect(t.app.ctx.integrations!.openSecrets(row!)).toEqual({ webhookUrl: HOOK });

    // An edit that leaves the secret out keeps it; a new value replaces it.
    const renamed = await f.call('PUT', `integrations/${instance.id}`, { name: 'Chat', settings: { heading: '' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json(renamed)).toMatchObject({ name: 'Chat', settings: {}, secretsSet: { webhookUrl: true } });
    expect(t.app.ctx.integrations!.openSecrets((await rows())[0]!)).toEqual({ webhookUrl: HOOK });
    await f.call('PUT', `integrations/${instance.id}`, { settings: { webhookUrl: `${HOOK}2` } });
    expect(t.app.ctx.integrations!.openSecrets((await rows())[0]!)).toEqual({ webhookUrl: `${HOOK}2` });
    // Removing a required secret is refused, and nothing changes.
    const removed = await f.call('PUT', `integrations/${instance.id}`, { settings: { webhookUrl: null } });
    expectProblem(removed, 400, 'integration_invalid');
    expect(json(removed).errors).toEqual([{ path: 'settings/webhookUrl', message: 'must be given' }]);
    expect(t.app.ctx.integrations!.openSecrets((await rows())[0]!)).toEqual({ webhookUrl: `${HOOK}2` });

    // Off and on again: the snapshot moves (events before it are not its own).
    const before = (await rows())[0]!.enabledSnapshot;
    expect(json(await f.call('PUT', `integrations/${instance.id}`, { enabled: false })).enabled).toBe(false);
    expect(json(await f.call('PUT', `integrations/${instance.id}`, { enabled: true })).enabled).toBe(true);
    expect((await rows())[0]!.enabledSnapshot).not.toBe(before);

    const listed = json(await f.call('GET', 'integrations'));
    expect(listed.map((i: { id: string }) => i.id)).toEqual([instance.id]);
    expect(JSON.stringify(listed)).not.toContain('SECRET');
    expect(json(await f.call('GET', `integrations/${instance.id}`)).name).toBe('Chat');
    expect(json(await f.call('GET', `integrations/${instance.id}/runs`))).toEqual({ runs: [], total: 0, page: 1, perPage: 50 });
    expect((await f.call('DELETE', `integrations/${instance.id}`)).statusCode).toBe(204);
    expectProblem(await f.call('GET', `integrations/${instance.id}`), 404, 'integration_not_found');
    expect(await rows()).toEqual([]);
  });

  it('checks a scheduled export: one top-level collection, a cron schedule not more often than every 5 minutes, the next run worked out', async () => {
    const base = { integration: 's3-export', name: 'Nightly', collections: ['posts'], schedule: '0 3 * * *', settings: { region: 'us-east-1', bucket: 'exports', accessKeyId: 'AKIA', secretAccessKey: 'wJalrXUtnFEMI', format: 'csv' } };
    const made = await f.call('POST', 'integrations', base);
    expect(made.statusCode, made.body).toBe(201);
    const next = new Date(json(made).nextRunDate);
    expect(next.getUTCHours()).toBe(3);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(json(made).secretsSet).toEqual({ secretAccessKey: true });
    const count = (await rows()).length;
    for (const [change, path] of [
      [{ schedule: '* * * * *' }, 'schedule'],
      [{ schedule: 'every night' }, 'schedule'],
      [{ schedule: null }, 'schedule'],
      [{ collections: ['posts.comments'] }, 'collections'],
      [{ collections: ['posts', 'nope'] }, 'collections'],
      [{ collections: [] }, 'collections'],
      [{ events: ['create'] }, 'events'],
      [{ settings: { ...base.settings, bucket: 'Not A Bucket' } }, 'settings/bucket'],
      [{ settings: { ...base.settings, format: 'xml' } }, 'settings/format'],
      [{ settings: { ...base.settings, region: undefined } }, 'settings/region'],
      [{ settings: { ...base.settings, extra: 1 } }, 'settings/extra'],
      [{ settings: { ...base.settings, secretAccessKey: undefined } }, 'settings/secretAccessKey'],
    ] as const) {
      const refused = await f.call('POST', 'integrations', JSON.parse(JSON.stringify({ ...base, ...change })));
      expectProblem(refused, 400, 'integration_invalid');
      expect(json(refused).errors.map((e: { path: string }) => e.path), JSON.stringify(change)).toContain(path);
    }
    expect((await rows()).length).toBe(count);
  });

  it('refuses what is not in the catalogue, bad bodies, more than the limit, other projects and non-admins', async () => {
    expectProblem(await f.call('POST', 'integrations', { integration: 'zapier', name: 'x', settings: {} }), 400, 'integration_invalid');
    for (const body of [{}, { integration: 'slack' }, { integration: 'slack', name: '' }, { integration: 'slack', name: 'x', settings: [] }, { integration: 'slack', name: 'x', events: ['explode'] }, { integration: 'slack', name: 'x', unknown: 1 }]) {
      const response = await f.call('POST', 'integrations', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const made = json(await f.call('POST', 'integrations', { integration: 'meilisearch', name: 'Search', collections: ['posts'], events: ['create', 'update', 'delete'], settings: { host: 'https://search.example.com', indexUid: 'posts' } }));
    expect(made.secretsSet).toEqual({ apiKey: false });
    // Another project of the same organization does not see it.
    const other = await f.otherProject();
    expectProblem(await other.call('GET', `integrations/${made.id}`), 404, 'integration_not_found');
    expectProblem(await other.call('PUT', `integrations/${made.id}`, { name: 'stolen' }), 404, 'integration_not_found');
    expectProblem(await other.call('DELETE', `integrations/${made.id}`), 404, 'integration_not_found');
    // A member without the admin right: 403 on every call, nothing changed.
    for (const [method, path, body] of [
      ['GET', 'integrations', undefined],
      ['GET', `integrations/${made.id}`, undefined],
      ['GET', `integrations/${made.id}/runs`, undefined],
      ['POST', 'integrations', { integration: 'slack', name: 'x', events: ['create'], settings: { webhookUrl: HOOK } }],
      ['PUT', `integrations/${made.id}`, { name: 'mine' }],
      ['DELETE', `integrations/${made.id}`, undefined],
    ] as const) {
      expect((await f.call(method, path, body, { access: reader })).statusCode, `${method} ${path}`).toBe(403);
    }
    expect(json(await f.call('GET', `integrations/${made.id}`)).name).toBe('Search');
    // The limit per project.
    const now = (await rows()).length;
    for (let i = now; i < 20; i++) {
      expect((await f.call('POST', 'integrations', { integration: 'slack', name: `c${i}`, events: ['create'], settings: { webhookUrl: HOOK } })).statusCode).toBe(201);
    }
    expectProblem(await f.call('POST', 'integrations', { integration: 'slack', name: 'one too many', events: ['create'], settings: { webhookUrl: HOOK } }), 409, 'integration_limit');
    expect((await rows()).length).toBe(20);
  });
});
