/**
 * Layout settings through the API on both databases: saved per nested
 * path and shared by the team, merged key by key with null removing a key, end and duration
 * exclusive, keys checked against the fields of the list's level (type by type), readers read and
 * only those who may update save.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { memberships } from '../../server/db/schema.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('layout settings on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let parent: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'events',
      name: 'Events',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Start', slug: 'start', type: code('Date') },
        { name: 'End', slug: 'end', type: code('Date') },
        { name: 'Minutes', slug: 'minutes', type: code('Number') },
        { name: 'Status', slug: 'status', type: code('Option'), options: [{ value: 'Todo' }, { value: 'Done' }] },
        { name: 'Place', slug: 'place', type: code('GeoPoint') },
        {
          name: 'Steps',
          slug: 'steps',
          type: code('NestedCollection'),
          nestedCollectionSchema: [
            { name: 'Text', slug: 'text', type: code('PlainText') },
            { name: 'Stage', slug: 'stage', type: code('Option'), options: [{ value: 'A' }] },
          ],
        },
      ],
    });
    parent = (await createItem(f, 'events', { title: 'P' }))._id;
  });
  afterAll(() => t.close());

  const put = (body: unknown, nested = '', access?: string) =>
    f.call('PUT', `collection/events/layout${nested ? `?nestedID=${nested}` : ''}`, body, access ? { access } : {});
  const get = async (nested = '', access?: string) => {
    const response = await f.call('GET', `collection/events/layout${nested ? `?nestedID=${nested}` : ''}`, undefined, access ? { access } : {});
    expect(response.statusCode, response.body).toBe(200);
    return json(response);
  };

  it('starts empty, saves and merges settings, null removing a key', async () => {
    expect(await get()).toEqual({});
    const saved = await put({ layout: 'calendar', startKey: 'start', endKey: 'end', titleKeys: ['title'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json(saved)).toEqual({ layout: 'calendar', startKey: 'start', endKey: 'end', titleKeys: ['title'] });
    const merged = json(await put({ layout: 'map', activeField: 'place', center: { lat: 48.2, lng: 16.37, zoom: 7 } }));
    expect(merged).toMatchObject({ layout: 'map', startKey: 'start', endKey: 'end', activeField: 'place', center: { lat: 48.2, lng: 16.37, zoom: 7 } });
    const removed = json(await put({ center: null }));
    expect(removed.center).toBeUndefined();
    expect(await get()).toEqual(removed);
  });

  it('keeps end and duration exclusive: setting one removes the other', async () => {
    expect(json(await put({ durationKey: 'minutes' }))).toMatchObject({ startKey: 'start', durationKey: 'minutes' });
    expect((await get()).endKey).toBeUndefined();
    const back = json(await put({ endKey: 'end' }));
    expect(back.endKey).toBe('end');
    expect(back.durationKey).toBeUndefined();
    expectInvalid(await put({ endKey: 'end', durationKey: 'minutes' }), ['durationKey']);
  });

  it('keeps nested paths apart, the same for every parent item', async () => {
    expect(await get('steps')).toEqual({});
    const saved = await put({ layout: 'kanban', activeField: 'stage', titleKeys: ['text'] }, 'steps');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await get('steps')).toEqual({ layout: 'kanban', activeField: 'stage', titleKeys: ['text'] });
    // Item ids in the chain are skipped: every parent item's list of the nested collection shares them.
    expect(await get(`steps.${parent}`)).toEqual({ layout: 'kanban', activeField: 'stage', titleKeys: ['text'] });
    expect((await get()).layout).toBe('map');
    // A top-level field does not fit the nested level.
    expectInvalid(await put({ activeField: 'status' }, 'steps'), ['activeField']);
    expectProblem(await put({ layout: 'kanban' }, 'nope'), 404);
  });

  it('refuses keys naming missing fields or fields of another type, and changes nothing', async () => {
    const before = await get();
    expectInvalid(await put({ startKey: 'title', endKey: 'minutes', durationKey: 'nope' }), ['startKey', 'endKey', 'durationKey', 'durationKey']);
    expectInvalid(await put({ activeField: 'title', titleKeys: ['title', 'missing'] }), ['activeField', 'titleKeys.1']);
    expect((await put({ layout: 'grid' })).statusCode).toBe(400);
    expect((await put({ center: { lat: 91, lng: 0 } })).statusCode).toBe(400);
    expect((await put({ center: { lat: 0, lng: 0, zoom: 30 } })).statusCode).toBe(400);
    expect((await put({ other: 1 })).statusCode).toBe(400);
    expect(await get()).toEqual(before);
  });

  it('serves the kanban columns’ lists: a choice by query, Unset by a find for no option or one not offered', async () => {
    const statuses = json<{ schema: { slug: string; options?: { _id: string; value: string }[] }[] }>(await f.call('GET', 'collection/events')).schema.find((x) => x.slug === 'status')!.options!;
    const [todo, done] = statuses.map((o) => o._id) as [string, string];
    const a = (await createItem(f, 'events', { title: 'A', status: { _id: todo } }))._id;
    const b = (await createItem(f, 'events', { title: 'B', status: { _id: done } }))._id;
    const list = async (params: string) => {
      const response = await f.call('GET', `collection/events/item?${params}`);
      expect(response.statusCode, response.body).toBe(200);
      return { ids: json<{ _id: string }[]>(response).map((i) => i._id).sort(), total: Number(response.headers['item-count']) };
    };
    expect(await list(`query=${encodeURIComponent(`status:=:${todo}`)}&search=A`)).toEqual({ ids: [a], total: 1 });
    const unset = (offered: string[]) => encodeURIComponent(JSON.stringify({ $or: [{ status: { $exists: false } }, { 'status._id': { $nin: offered } }] }));
    // Every choice offered: only the items with no status (the parent made first, and nothing else).
    expect((await list(`find=${unset([todo, done])}`)).ids).toEqual([parent]);
    // A choice no longer offered counts as unset.
    expect((await list(`find=${unset([todo])}`)).ids).toEqual([b, parent].sort());
    expect((await list(`find=${unset([todo])}&search=B`)).total).toBe(1);
  });

  it('lets readers read and only those who may update save', async () => {
    expect((await f.call('GET', 'collection/events/layout', undefined, { access: 'nope' })).statusCode).toBe(401);
    const member = async (name: string, permissions: Record<string, boolean>) => {
      const { tokens } = await verifiedUser(t.app, name);
      const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
      await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions });
      return tokens.access_token as string;
    };
    const reader = await member('layout-reader', { read: true });
    const updater = await member('layout-updater', { read: true, update: true });
    const before = await get();
    expect(await get('', reader)).toEqual(before);
    expectProblem(await put({ layout: 'table' }, '', reader), 403);
    expect(await get()).toEqual(before);
    const saved = await put({ layout: 'table' }, '', updater);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get('', reader)).layout).toBe('table');
    const elsewhere = await f.otherProject();
    expectProblem(await elsewhere.call('GET', 'collection/events/layout'), 404);
  });
});
