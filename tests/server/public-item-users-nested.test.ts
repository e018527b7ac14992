/**
 * An item's users on nested items through the public API: `GET|PUT|DELETE
 * …/items/{id}/bagelUsers?nestedID=chapters.{c}` act on the nested item's own list, never the
 * parent's; what does not exist is 404; a nested item's users go with it. Driven with raw
 * requests shaped as the official client sends them, and with the client itself.
 */
import { createRequire } from 'node:module';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemUsers } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

const require = createRequire(import.meta.url);

describe.each(databaseKinds)('item users on nested items through the public API on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let admin: string;
  let ann: string;
  let ben: string;
  let foreignUser: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        {
          name: 'Chapters',
          slug: 'chapters',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Heading', slug: 'heading', type: 1 },
            { name: 'Paragraphs', slug: 'paragraphs', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
          ],
        },
      ],
    });
    admin = await mintToken(t, f, { userAdmin: true, powerRead: true, powerWrite: true });
    const plain = await mintToken(t, f);
    ann = (await signUpEndUser(t, plain, newEmail('ann'))).user_id;
    ben = (await signUpEndUser(t, plain, newEmail('ben'))).user_id;
    const other = await f.otherProject();
    foreignUser = (await signUpEndUser(t, await mintToken(t, other), newEmail('foreign'))).user_id;
  });
  afterAll(() => t.close());

  /** A request as the client's axios sends it: Accept-Version, the bearer, JSON bodies (DELETE too). */
  const call = (method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown, token = admin) =>
    t.app.inject({
      method,
      url: `/api/public/${path}`,
      headers: {
        accept: 'application/json, text/plain, */*',
        'accept-version': 'v1',
        authorization: `Bearer ${token}`,
        'user-agent': 'axios/0.28.1',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const usersOf = async (path: string) => {
    const response = await call('GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return json(response) as { userID: string }[];
  };

  async function book() {
    const top = (await createItem(f, 'books', { title: 'A book' }))._id as string;
    const c1 = (await createItem(f, 'books', { heading: 'One' }, { item: top, nestedID: 'chapters' }))._id as string;
    const c2 = (await createItem(f, 'books', { heading: 'Two' }, { item: top, nestedID: 'chapters' }))._id as string;
    const p1 = (await createItem(f, 'books', { text: 'First' }, { item: top, nestedID: `chapters.${c1}.paragraphs` }))._id as string;
    return { top, c1, c2, p1, at: (nestedID = '') => `collection/books/items/${top}/bagelUsers${nestedID ? `?nestedID=${nestedID}` : ''}` };
  }

  it('a nested item has its own users: adding, listing and removing never touch the parent or a sibling', async () => {
    const b = await book();
    expect((await call('PUT', b.at(), { userID: ben })).statusCode).toBe(200);

    const added = await call('PUT', b.at(`chapters.${b.c1}`), { userID: ann });
    expect(added.statusCode, added.body).toBe(200);
    expect(json(added)).toEqual([{ userID: ann }]);
    expect(await usersOf(b.at(`chapters.${b.c1}`))).toEqual([{ userID: ann }]);
    expect(await usersOf(b.at())).toEqual([{ userID: ben }]);
    expect(await usersOf(b.at(`chapters.${b.c2}`))).toEqual([]);
    // Deeper chains too.
    expect(json(await call('PUT', b.at(`chapters.${b.c1}.paragraphs.${b.p1}`), { userID: ben }))).toEqual([{ userID: ben }]);
    expect(await usersOf(b.at(`chapters.${b.c1}`))).toEqual([{ userID: ann }]);

    // A nested link does not make the user one of the top-level item's (associated items only).
    expect(await t.app.ctx.itemUsers.isAssociated(f.project, 'books', b.top, ann)).toBe(false);
    expect(await t.app.ctx.itemUsers.itemIdsFor(f.project, 'books', ann)).not.toContain(b.top);

    const removed = await call('DELETE', b.at(`chapters.${b.c1}`), { userID: ann });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(removed)).toEqual([]);
    expect(await usersOf(b.at())).toEqual([{ userID: ben }]);
    const fromTop = await call('DELETE', b.at(), { userID: ben });
    expect(json(fromTop)).toEqual([]);
    expect(await usersOf(b.at(`chapters.${b.c1}.paragraphs.${b.p1}`))).toEqual([{ userID: ben }]);
  });

  it('what does not exist is 404: the item, the nested collection, the nested item, the user; a chain ending in a list is 400', async () => {
    const b = await book();
    const ghost = '0123456789abcdef01234567';
    expectProblem(await call('GET', `collection/books/items/${ghost}/bagelUsers?nestedID=chapters.${b.c1}`), 404);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const body = method === 'GET' ? undefined : { userID: ann };
      expectProblem(await call(method, b.at(`chapters.${ghost}`), body), 404);
      expectProblem(await call(method, b.at(`nope.${b.c1}`), body), 404);
      expectProblem(await call(method, b.at(`chapters.${b.c1}.paragraphs.${ghost}`), body), 404);
      // A chapter of another book is not under this one.
      const other = await book();
      expectProblem(await call(method, b.at(`chapters.${other.c1}`), body), 404);
      expectProblem(await call(method, b.at('chapters'), body), 400);
    }
    expectProblem(await call('PUT', b.at(`chapters.${b.c1}`), { userID: ghost }), 404, 'project_user_not_found');
    expectProblem(await call('PUT', b.at(`chapters.${b.c1}`), { userID: foreignUser }), 404, 'project_user_not_found');
    expectProblem(await call('DELETE', b.at(`chapters.${b.c1}`), { userID: ghost }), 404, 'project_user_not_found');
    expectProblem(await call('PUT', b.at(), { userID: ghost }), 404, 'project_user_not_found');
    expectProblem(await call('PUT', b.at(`chapters.${b.c1}`), { userID: '' }), 400);
    expect(await usersOf(b.at(`chapters.${b.c1}`))).toEqual([]);
    // Still User Admin only.
    expectProblem(await call('GET', b.at(`chapters.${b.c1}`), undefined, await mintToken(t, f, { powerRead: true, powerWrite: true })), 403, 'user_admin_required');
  });

  it('deleting a nested item takes its users and those of the items nested in it; an item made again with its id starts with none', async () => {
    const b = await book();
    await call('PUT', b.at(`chapters.${b.c1}`), { userID: ann });
    await call('PUT', b.at(`chapters.${b.c1}.paragraphs.${b.p1}`), { userID: ann });
    await call('PUT', b.at(`chapters.${b.c2}`), { userID: ben });
    await call('PUT', b.at(), { userID: ben });

    const deleted = await call('DELETE', `collection/books/items/${b.top}?nestedID=chapters.${b.c1}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const rows = await t.database.db
      .select({ path: itemUsers.nestedPath, user: itemUsers.userId })
      .from(itemUsers)
      .where(and(eq(itemUsers.projectId, f.project), eq(itemUsers.itemId, b.top)));
    expect(rows.map((r) => `${r.path}:${r.user}`).sort()).toEqual([`:${ben}`, `chapters.${b.c2}:${ben}`].sort());

    const again = await t.app.inject({
      method: 'PUT',
      url: `/api/public/collection/books/items/${b.top}?set=true&nestedID=chapters.${b.c1}`,
      headers: { 'accept-version': 'v1', authorization: `Bearer ${admin}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: JSON.stringify({ heading: 'One again' }),
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(await usersOf(b.at(`chapters.${b.c1}`))).toEqual([]);

    expect((await call('DELETE', `collection/books/items/${b.top}`)).statusCode).toBe(200);
    expect(await t.database.db.select().from(itemUsers).where(and(eq(itemUsers.projectId, f.project), eq(itemUsers.itemId, b.top)))).toEqual([]);
  });

  it('the official client’s users(), addUser() and removeUser() on a nested item', async () => {
    const saved = globalThis.FormData;
    (globalThis as any).FormData = require('form-data');
    try {
      const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
      const { BagelDB } = require('@bageldb/bagel-db/dist/serverSpread.cjs');
      const db = new BagelDB(admin, { baseEndpoint: `${base}/api/public`, authEndpoint: `${base}/auth/public`, isServer: true });
      const b = await book();
      const chapter = () => db.collection('books').item(b.top).collection('chapters').item(b.c1);

      expect((await chapter().addUser(ann)).status).toBe(200);
      expect((await chapter().users()).data).toEqual([{ userID: ann }]);
      expect((await db.collection('books').item(b.top).users()).data).toEqual([]);
      expect((await db.collection('books').item(b.top).collection('chapters').item(b.c2).users()).data).toEqual([]);
      expect((await chapter().removeUser(ann)).status).toBe(200);
      expect((await chapter().users()).data).toEqual([]);

      const missing = await db.collection('books').item(b.top).collection('chapters').item('0123456789abcdef01234567').users().catch((error: any) => error);
      expect(missing.response.status).toBe(404);
      const unknownUser = await chapter().addUser('0123456789abcdef01234567').catch((error: any) => error);
      expect(unknownUser.response.status).toBe(404);
      const list = await db.collection('books').item(b.top).collection('chapters').users().catch((error: any) => error);
      expect(list.response.status).toBe(400);
    } finally {
      (globalThis as any).FormData = saved;
    }
  });
});
