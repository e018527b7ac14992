/**
 * Who may call the content API: every endpoint against members holding one permission each, an
 * administrator and a stranger. Reading needs read, creating create, changing update, removing
 * delete. A refused call answers 403 and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../../definitions/permissions.ts';
import { memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { contentFixture, createCollection, createItem, type ContentFixture, type Method } from './support/content.ts';

const actors = ['admin', 'read', 'create', 'update', 'delete', 'stranger'] as const;
type Actor = (typeof actors)[number];
const flagsOf: Record<Exclude<Actor, 'stranger'>, Record<string, boolean>> = {
  admin: { admin: true, read: true, create: true, update: true, delete: true, write: true },
  read: { read: true },
  create: { read: true, create: true },
  update: { read: true, update: true },
  delete: { read: true, delete: true },
};
const allowed = (actor: Actor, action: Action) => actor !== 'stranger' && (action === 'read' || actor === 'admin' || actor === action);

interface Target {
  collection: string;
  item: string;
  chapter: string;
  titleField: { id: string };
  chaptersField: { id: string };
  schema: { id: string }[];
}

interface Case {
  name: string;
  action: Action;
  ok: number;
  request: (x: Target) => { method: Method; path: string; payload?: unknown };
}

const cases: Case[] = [
  { name: 'list collections', action: 'read', ok: 200, request: () => ({ method: 'GET', path: 'collection' }) },
  { name: 'read a collection', action: 'read', ok: 200, request: (x) => ({ method: 'GET', path: `collection/${x.collection}` }) },
  { name: 'read a schema', action: 'read', ok: 200, request: (x) => ({ method: 'GET', path: `collection/${x.collection}/schema?nestedID=chapters` }) },
  { name: 'list items', action: 'read', ok: 200, request: (x) => ({ method: 'GET', path: `collection/${x.collection}/item` }) },
  { name: 'read an item', action: 'read', ok: 200, request: (x) => ({ method: 'GET', path: `collection/${x.collection}/item/${x.item}` }) },
  { name: 'list nested items', action: 'read', ok: 200, request: (x) => ({ method: 'GET', path: `collection/${x.collection}/item/${x.item}?nestedID=chapters` }) },
  { name: 'create a collection', action: 'create', ok: 201, request: (x) => ({ method: 'POST', path: 'collection', payload: { id: `${x.collection}x`, name: 'New' } }) },
  { name: 'add a field', action: 'create', ok: 201, request: (x) => ({ method: 'POST', path: `collection/${x.collection}/field`, payload: { name: 'N', slug: 'n', type: 3 } }) },
  {
    name: 'add a nested field',
    action: 'create',
    ok: 201,
    request: (x) => ({ method: 'POST', path: `collection/${x.collection}/field/${x.chaptersField.id}`, payload: { name: 'N', slug: 'n', type: 3 } }),
  },
  { name: 'create an item', action: 'create', ok: 201, request: (x) => ({ method: 'POST', path: `collection/${x.collection}/item`, payload: { title: 'new' } }) },
  {
    name: 'create a nested item',
    action: 'create',
    ok: 201,
    request: (x) => ({ method: 'POST', path: `collection/${x.collection}/item/${x.item}?nestedID=chapters`, payload: { heading: 'new' } }),
  },
  { name: 'change a collection', action: 'update', ok: 200, request: (x) => ({ method: 'PUT', path: `collection/${x.collection}`, payload: { name: 'Renamed' } }) },
  { name: 'save a schema', action: 'update', ok: 200, request: (x) => ({ method: 'PUT', path: `collection/${x.collection}/schema`, payload: [...x.schema].reverse() }) },
  {
    name: 'reorder a schema',
    action: 'update',
    ok: 200,
    request: (x) => ({ method: 'PUT', path: `collection/${x.collection}/schema/order`, payload: { collectionSchema: x.schema.map((s) => s.id).reverse() } }),
  },
  { name: 'change a field', action: 'update', ok: 200, request: (x) => ({ method: 'PUT', path: `collection/${x.collection}/field/${x.titleField.id}`, payload: { name: 'Name' } }) },
  { name: 'change an item', action: 'update', ok: 200, request: (x) => ({ method: 'PUT', path: `collection/${x.collection}/item/${x.item}`, payload: { title: 'changed' } }) },
  {
    name: 'change a nested item',
    action: 'update',
    ok: 200,
    request: (x) => ({ method: 'PUT', path: `collection/${x.collection}/item/${x.item}?nestedID=chapters.${x.chapter}`, payload: { heading: 'changed' } }),
  },
  { name: 'delete a collection', action: 'delete', ok: 204, request: (x) => ({ method: 'DELETE', path: `collection/${x.collection}` }) },
  { name: 'delete a field', action: 'delete', ok: 204, request: (x) => ({ method: 'DELETE', path: `collection/${x.collection}/field/${x.titleField.id}` }) },
  { name: 'delete an item', action: 'delete', ok: 204, request: (x) => ({ method: 'DELETE', path: `collection/${x.collection}/item/${x.item}` }) },
  {
    name: 'delete a nested item',
    action: 'delete',
    ok: 204,
    request: (x) => ({ method: 'DELETE', path: `collection/${x.collection}/item/${x.item}?nestedID=chapters.${x.chapter}` }),
  },
];

describe.each(databaseKinds)('content role matrix on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const access = {} as Record<Actor, string>;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    for (const actor of actors) {
      if (actor === 'admin') {
        access.admin = f.access;
        continue;
      }
      const { tokens } = await verifiedUser(t.app, actor.slice(0, 6));
      access[actor] = tokens.access_token;
      if (actor === 'stranger') continue;
      const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
      await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: flagsOf[actor] });
    }
  });
  afterAll(() => t.close());

  async function target(): Promise<Target> {
    const collection = `matrix${++n}`;
    const created = await createCollection(f, {
      id: collection,
      name: 'Matrix',
      schema: [
        { name: 'Title', slug: 'title', type: 1 },
        { name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: 1 }] },
      ],
    });
    const item = await createItem(f, collection, { title: 'first' });
    const chapter = await createItem(f, collection, { heading: 'one' }, { item: item._id, nestedID: 'chapters' });
    return { collection, item: item._id, chapter: chapter._id, titleField: created.schema[0], chaptersField: created.schema[1], schema: created.schema };
  }

  /** The content of the project as its owner sees it. */
  async function snapshot(x: Target) {
    return {
      collections: json(await f.call('GET', 'collection')),
      items: json(await f.call('GET', `collection/${x.collection}/item`)),
      chapters: json(await f.call('GET', `collection/${x.collection}/item/${x.item}?nestedID=chapters`)),
    };
  }

  for (const c of cases) {
    for (const actor of actors) {
      const expectAllowed = allowed(actor, c.action);
      it(`${actor} ${expectAllowed ? 'may' : 'may not'} ${c.name}`, async () => {
        const x = await target();
        const before = expectAllowed ? undefined : await snapshot(x);
        const { method, path, payload } = c.request(x);
        const response = await f.call(method, path, payload, { access: access[actor] });
        if (expectAllowed) {
          expect(response.statusCode, response.body).toBe(c.ok);
        } else {
          expect(response.statusCode, response.body).toBe(403);
          expect(json(response).code).toMatch(/^(not_a_member|insufficient_permissions)$/);
          expect(await snapshot(x)).toEqual(before);
        }
      });
    }
  }

  it('refuses every call without a bearer token with 401', async () => {
    const x = await target();
    const response = await t.app.inject({ method: 'GET', url: `/api/organization/${f.org}/project/${f.project}/collection/${x.collection}` });
    expect(response.statusCode).toBe(401);
  });
});
