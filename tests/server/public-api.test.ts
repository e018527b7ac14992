import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

type Op = 'create' | 'read' | 'update' | 'delete';
const ops: Op[] = ['create', 'read', 'update', 'delete'];

interface Rights {
  powerCreate?: boolean;
  powerRead?: boolean;
  powerUpdate?: boolean;
  powerDelete?: boolean;
  powerWrite?: boolean;
  roles?: { collection: string; create: boolean; read: boolean; update: boolean; delete: boolean }[];
}

/** What a token's rights allow, computed independently of the server. */
function expected(rights: Rights, collection: string, op: Op): boolean {
  const power = { create: rights.powerCreate || rights.powerWrite, read: rights.powerRead, update: rights.powerUpdate || rights.powerWrite, delete: rights.powerDelete || rights.powerWrite }[op];
  return Boolean(power) || Boolean(rights.roles?.some((r) => r.collection === collection && r[op]));
}

const role = (collection: string, allowed: Op[]) => ({ collection, create: allowed.includes('create'), read: allowed.includes('read'), update: allowed.includes('update'), delete: allowed.includes('delete') });

const tokenKinds: Record<string, Rights> = {
  none: {},
  power: { powerCreate: true, powerRead: true, powerUpdate: true, powerDelete: true },
  powerWrite: { powerWrite: true },
  powerRead: { powerRead: true },
  articlesRead: { roles: [role('articles', ['read'])] },
  articlesWriteOnly: { roles: [role('articles', ['create', 'update', 'delete'])] },
  articlesAllSecretRead: { roles: [role('articles', ['create', 'read', 'update', 'delete']), role('secret', ['read'])] },
  mixed: { powerRead: true, roles: [role('secret', ['delete'])] },
};

describe.each(databaseKinds)('public content API on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const tokens: Record<string, string> = {};
  let full: string;
  let authorA: string;
  let authorB: string;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS', path: string, token: string | undefined, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url: `/api/public/${path}`,
      headers: { ...(token ? bearer(token) : {}), 'accept-version': 'v1', ...headers },
      ...(payload === undefined ? {} : typeof payload === 'string' ? { payload } : { payload: payload as object }),
    });

  async function mint(fixture: ContentFixture, rights: Rights & { userAdmin?: boolean }) {
    const minted = await t.app.inject({
      method: 'POST',
      url: '/api/apiTokens',
      headers: bearer(fixture.access),
      payload: { name: 'app', projectID: fixture.project, organizationID: fixture.org, ...rights },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    return json(minted) as { id: string; jwtToken: string };
  }

  const ok = (response: LightMyRequestResponse, status = 200) => {
    expect(response.statusCode, response.body).toBe(status);
    return response.body ? json(response) : undefined;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'authors', name: 'Authors', schema: [{ name: 'Name', slug: 'name', type: 1, primaryField: true }] });
    await createCollection(f, {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Views', slug: 'views', type: 3 },
        { name: 'Author', slug: 'author', type: 6, referenceCollectionID: 'authors' },
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
    await createCollection(f, { id: 'secret', name: 'Secret', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
    authorA = (await createItem(f, 'authors', { name: 'Ada' }))._id;
    authorB = (await createItem(f, 'authors', { name: 'Brian' }))._id;
    for (const [name, rights] of Object.entries(tokenKinds)) tokens[name] = (await mint(f, rights)).jwtToken;
    full = tokens.power!;
  });
  afterAll(() => t.close());

  describe('token × collection × operation matrix', () => {
    for (const [name, rights] of Object.entries(tokenKinds)) {
      for (const collection of ['articles', 'secret']) {
        it(`${name} on ${collection}`, async () => {
          const token = tokens[name]!;
          const seed = (await createItem(f, collection, { title: 'seed' }))._id as string;
          const statuses: Record<Op, number> = {
            read: (await api('GET', `collection/${collection}/items/${seed}`, token)).statusCode,
            create: (await api('POST', `collection/${collection}/items`, token, { title: 'made' })).statusCode,
            update: (await api('PUT', `collection/${collection}/items/${seed}`, token, JSON.stringify({ title: 'changed' }), { 'content-type': 'application/x-www-form-urlencoded' })).statusCode,
            delete: (await api('DELETE', `collection/${collection}/items/${seed}`, token)).statusCode,
          };
          const listStatus = (await api('GET', `collection/${collection}/items?pageNumber=1&perPage=100`, token)).statusCode;
          for (const op of ops) expect(statuses[op], `${name} ${op} ${collection}`).toBe(expected(rights, collection, op) ? (op === 'create' ? 201 : 200) : 403);
          expect(listStatus).toBe(expected(rights, collection, 'read') ? 200 : 403);
          // A denied write changed nothing.
          const after = await f.call('GET', `collection/${collection}/item/${seed}`);
          if (!expected(rights, collection, 'delete')) {
            expect(after.statusCode).toBe(200);
            expect(json(after).title).toBe(expected(rights, collection, 'update') ? 'changed' : 'seed');
          } else expect(after.statusCode).toBe(404);
        });
      }
    }
  });

  describe('401 only for a bad bearer', () => {
    it('refuses missing, garbage, tampered, alg:none, console and deleted tokens with 401', async () => {
      const [header, payload, signature] = full.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, proj: 'x' })).toString('base64url')}.${signature}`;
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      const foreignKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(32)));
      const minted = await mint(f, { powerRead: true });
      expect((await t.app.inject({ method: 'DELETE', url: `/api/apiTokens/${minted.id}`, headers: bearer(f.access) })).statusCode).toBe(204);
      for (const token of [undefined, 'garbage', tampered, none, foreignKey, f.access, minted.jwtToken]) {
        const response = await api('GET', 'collection/articles/items', token);
        expect(response.statusCode, String(token)).toBe(401);
        expect(response.headers['content-type']).toContain('application/problem+json');
      }
    });

    it('answers a denial 403, an unknown item 404, bad input 400 — never 401', async () => {
      expect((await api('GET', 'collection/secret/items', tokens.articlesRead)).statusCode).toBe(403);
      expect((await api('GET', `collection/articles/items/${'0'.repeat(24)}`, full)).statusCode).toBe(404);
      expect((await api('GET', 'collection/nope/items', full)).statusCode).toBe(404);
      expect((await api('GET', 'collection/nope/schema', full)).statusCode).toBe(404);
      expect((await api('POST', 'collection/articles/items', full, '{not json', { 'content-type': 'application/json' })).statusCode).toBe(400);
      expect((await api('POST', 'collection/articles/items', full, { nope: 1 })).statusCode).toBe(400);
    });

    it('keeps a token inside its project', async () => {
      const other = await f.otherProject();
      await createCollection(other, { id: 'articles', name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
      const foreign = (await mint(other, { powerRead: true, powerWrite: true })).jwtToken;
      const mine = (await createItem(f, 'articles', { title: 'mine' }))._id;
      expect((await api('GET', `collection/articles/items/${mine}`, foreign)).statusCode).toBe(404);
      expect((await api('PUT', `collection/articles/items/${mine}`, foreign, { title: 'stolen' })).statusCode).toBe(404);
      expect((await api('DELETE', `collection/articles/items/${mine}`, foreign)).statusCode).toBe(404);
      expect((await api('GET', 'collection/authors/items', foreign)).statusCode).toBe(404);
      expect(json(await f.call('GET', `collection/articles/item/${mine}`)).title).toBe('mine');
      const list = ok(await api('GET', 'collection/articles/items', foreign)) as unknown[];
      expect(list).toEqual([]);
    });
  });

  describe('reads', () => {
    let ids: string[];
    beforeAll(async () => {
      await createCollection(f, { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }, { name: 'Views', slug: 'views', type: 3 }, { name: 'Author', slug: 'author', type: 6, referenceCollectionID: 'authors' }] });
      ids = [];
      for (const [title, views, author] of [['alpha one', 5, authorA], ['beta: two', 20, authorB], ['gamma', 10, authorA]] as const) {
        ids.push((ok(await api('POST', 'collection/posts/items', full, { title, views, author: [{ itemRefID: author }] }), 201) as { id: string }).id);
      }
    });

    it('lists with paging, sort/order in any case, perPage=0 counts, item-count is the total', async () => {
      const page = await api('GET', 'collection/posts/items?pageNumber=2&sort=views&order=DESC&perPage=1', full);
      expect(page.headers['item-count']).toBe('3');
      expect((json(page) as { title: string }[]).map((p) => p.title)).toEqual(['gamma']);
      const asc = json(await api('GET', 'collection/posts/items?pageNumber=1&sort=views&order=asc&perPage=100', full)) as { views: number }[];
      expect(asc.map((p) => p.views)).toEqual([5, 10, 20]);
      const count = await api('GET', 'collection/posts/items?pageNumber=1&perPage=0', full);
      expect(json(count)).toEqual([]);
      expect(count.headers['item-count']).toBe('3');
      expect(count.headers['access-control-expose-headers']).toContain('item-count');
    });

    it('filters with query terms (+ joined, split at the first two colons), find and projections', async () => {
      const q = `${encodeURIComponent('views:>:6')}%2B${encodeURIComponent('title:=:beta: two')}`;
      const found = await api('GET', `collection/posts/items?pageNumber=1&perPage=100&query=${q}`, full);
      expect((json(found) as { title: string }[]).map((p) => p.title)).toEqual(['beta: two']);
      expect(found.headers['item-count']).toBe('1');
      const refs = json(await api('GET', `collection/posts/items?pageNumber=1&perPage=100&query=${encodeURIComponent(`author.itemRefID:=:${authorA}`)}`, full)) as { title: string }[];
      expect(refs.map((p) => p.title).sort()).toEqual(['alpha one', 'gamma']);
      const find = new URLSearchParams({ find: JSON.stringify({ title: { $regex: 'ALPHA', $options: 'i' } }) });
      expect((json(await api('GET', `collection/posts/items?pageNumber=1&perPage=100&${find}`, full)) as { title: string }[]).map((p) => p.title)).toEqual(['alpha one']);
      const projected = json(await api('GET', `collection/posts/items?pageNumber=1&perPage=1&projectOn=${encodeURIComponent('title')}`, full)) as Record<string, unknown>[];
      expect(Object.keys(projected[0]!).sort()).toEqual(['_id', 'title']);
      const pipeline = new URLSearchParams({ aggregationPipeline: JSON.stringify([{ $match: { views: { $gt: 6 } } }, { $count: 'n' }]) });
      expect(json(await api('GET', `collection/posts/items?pageNumber=1&perPage=100&${pipeline}`, full))).toEqual([{ n: 2 }]);
    });

    it('expands ItemRefs with everything=true, on lists and single items', async () => {
      const plain = json(await api('GET', `collection/posts/items/${ids[0]}?pageNumber=1&perPage=100`, full));
      expect(plain.author).toEqual([{ itemRefID: authorA, value: 'Ada' }]);
      const single = json(await api('GET', `collection/posts/items/${ids[0]}?pageNumber=1&perPage=100&everything=true`, full));
      expect(single.author[0].item).toMatchObject({ _id: authorA, name: 'Ada' });
      const list = json(await api('GET', 'collection/posts/items?pageNumber=1&sort=views&order=asc&perPage=100&everything=true', full)) as { author: { item: { name: string } }[] }[];
      expect(list.map((p) => p.author[0]!.item.name)).toEqual(['Ada', 'Ada', 'Brian']);
      // A token that cannot read the linked collection gets the links without the items.
      const limited = (await mint(f, { roles: [role('posts', ['read'])] })).jwtToken;
      const hidden = json(await api('GET', `collection/posts/items/${ids[0]}?pageNumber=1&perPage=100&everything=true`, limited));
      expect(hidden.author).toEqual([{ itemRefID: authorA, value: 'Ada' }]);
    });

    it('answers the schema with Metadata, and the project with schemas only on request', async () => {
      const schema = json(await api('GET', 'collection/posts/schema', full)) as { slug: string; type: number }[];
      expect(schema.map((s) => [s.slug, s.type])).toEqual([
        ['title', 1],
        ['views', 3],
        ['author', 6],
        ['_metadata', 100],
      ]);
      const project = json(await api('GET', 'project', tokens.articlesRead));
      expect(project.collections.map((c: { id: string }) => c.id)).toEqual(['articles']);
      expect(project.collections[0].schema).toBeUndefined();
      const withSchemas = json(await api('GET', 'project?withSchemas=true', tokens.articlesRead));
      expect(withSchemas.collections[0].schema.map((s: { slug: string }) => s.slug)).toContain('chapters');
    });
  });

  describe('writes', () => {
    it('creates, updates partially (JSON whatever the Content-Type) and deletes, answering {id}', async () => {
      const { id } = ok(await api('POST', 'collection/articles/items', full, { title: 'Hello', views: 1 }), 201) as { id: string };
      for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
        expect(ok(await api('PUT', `collection/articles/items/${id}`, full, JSON.stringify({ views: 2 }), { 'content-type': type }))).toEqual({ id });
      }
      const item = json(await api('GET', `collection/articles/items/${id}?pageNumber=1&perPage=100`, full));
      expect(item).toMatchObject({ _id: id, title: 'Hello', views: 2 });
      expect(typeof item._createdDate).toBe('string');
      expect(ok(await api('DELETE', `collection/articles/items/${id}`, full))).toEqual({ id });
      expect((await api('GET', `collection/articles/items/${id}`, full)).statusCode).toBe(404);
    });

    it('drops prototype-polluting keys of a body (__proto__, constructor.prototype, escaped or not) and keeps the rest', async () => {
      for (const body of [
        '{"title": "Proto", "__proto__": {"views": 5}}',
        '{"title": "Proto", "\\u005f_proto__": {"views": 5}}',
        '{"title": "Proto", "constructor": {"prototype": {"views": 6}}}',
        '{"title": "Proto", "__proto__": {"polluted": true, "__proto__": {"polluted": true}}}',
      ]) {
        const { id } = ok(await api('POST', 'collection/articles/items', full, body, { 'content-type': 'application/json' }), 201) as { id: string };
        const item = json(await api('GET', `collection/articles/items/${id}`, full)) as Record<string, unknown>;
        expect(item.title, body).toBe('Proto');
        expect(item.views, body).toBeUndefined();
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    });

    it('upserts with set=true and the caller’s id, and refuses server-owned keys', async () => {
      const id = 'abcdef0123456789abcdef01';
      expect(ok(await api('PUT', `collection/articles/items/${id}?set=true`, full, JSON.stringify({ _id: id, title: 'Set', views: 3 }), { 'content-type': 'application/x-www-form-urlencoded' }), 201)).toEqual({ id });
      expect(ok(await api('PUT', `collection/articles/items/${id}?set=true`, full, JSON.stringify({ views: 4 })))).toEqual({ id });
      expect(json(await api('GET', `collection/articles/items/${id}`, full))).toMatchObject({ _id: id, title: 'Set', views: 4 });
      // A read-only... an update-only token cannot create through set.
      const updateOnly = (await mint(f, { roles: [role('articles', ['update'])] })).jwtToken;
      expect((await api('PUT', `collection/articles/items/${'b'.repeat(24)}?set=true`, updateOnly, { title: 'x' })).statusCode).toBe(403);
      expect((await api('PUT', `collection/articles/items/${'c'.repeat(24)}?set=true`, full, { _id: 'd'.repeat(24), title: 'x' })).statusCode).toBe(400);
      expect((await api('POST', 'collection/articles/items', full, { _id: 'e'.repeat(24), title: 'x' })).statusCode).toBe(400);
      expect((await api('POST', 'collection/articles/items', full, { _createdDate: '2001-01-01T00:00:00.000Z', title: 'x' })).statusCode).toBe(400);
      const before = json(await api('GET', `collection/articles/items/${id}`, full));
      expect((await api('PUT', `collection/articles/items/${id}`, full, { _lastUpdatedDate: '2001-01-01T00:00:00.000Z', views: 99 })).statusCode).toBe(400);
      expect(json(await api('GET', `collection/articles/items/${id}`, full))).toEqual(before);
    });

    it('appends, unsets, values, increments and decrements fields', async () => {
      const { id } = ok(await api('POST', 'collection/articles/items', full, { title: 'Ops', views: 10 }), 201) as { id: string };
      const base = `collection/articles/items/${id}/field`;
      ok(await api('PUT', `${base}/author`, full, JSON.stringify({ value: authorA }), { 'content-type': 'application/x-www-form-urlencoded' }));
      ok(await api('PUT', `${base}/author`, full, { value: authorB }));
      ok(await api('PUT', `${base}/author`, full, { value: authorB }));
      expect(json(await api('GET', `collection/articles/items/${id}`, full)).author).toEqual([
        { itemRefID: authorA, value: 'Ada' },
        { itemRefID: authorB, value: 'Brian' },
      ]);
      ok(await api('DELETE', `${base}/author`, full, { value: authorA }));
      expect(json(await api('GET', `collection/articles/items/${id}`, full)).author).toEqual([{ itemRefID: authorB, value: 'Brian' }]);
      ok(await api('PUT', `${base}/views?increment=5`, full, undefined, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' }));
      ok(await api('PUT', `${base}/views?increment=1.5`, full));
      ok(await api('PUT', `${base}/views?increment=-2`, full));
      expect(json(await api('GET', `collection/articles/items/${id}`, full)).views).toBe(14.5);
      // Concurrent increments all land.
      await Promise.all(Array.from({ length: 8 }, () => api('PUT', `${base}/views?increment=1`, full)));
      expect(json(await api('GET', `collection/articles/items/${id}`, full)).views).toBe(22.5);
      expect((await api('PUT', `${base}/title?increment=1`, full)).statusCode).toBe(400);
      expect((await api('PUT', `${base}/views?increment=abc`, full)).statusCode).toBe(400);
      ok(await api('DELETE', `${base}/views`, full, { value: 22.5 }));
      expect(json(await api('GET', `collection/articles/items/${id}`, full)).views).toBeUndefined();
      // A required field cannot be emptied this way either.
      expect((await api('DELETE', `${base}/title`, full, { value: 'Ops' })).statusCode).toBe(400);
      expect((await api('PUT', `${base}/views?increment=1`, tokens.articlesRead)).statusCode).toBe(403);
    });

    it('follows nestedID chains of any depth', async () => {
      const { id } = ok(await api('POST', 'collection/articles/items', full, { title: 'Book' }), 201) as { id: string };
      const { id: chapter } = ok(await api('POST', `collection/articles/items/${id}?nestedID=chapters`, full, { heading: 'One' }), 201) as { id: string };
      const { id: paragraph } = ok(await api('POST', `collection/articles/items/${id}?nestedID=chapters.${chapter}.paragraphs`, full, { text: 'First' }), 201) as { id: string };
      const chapters = await api('GET', `collection/articles/items/${id}?pageNumber=1&perPage=100&nestedID=chapters`, full);
      expect(chapters.headers['item-count']).toBe('1');
      expect(json(chapters)).toEqual([expect.objectContaining({ _id: chapter, heading: 'One' })]);
      expect(json(await api('GET', `collection/articles/items/${id}?pageNumber=1&perPage=100&nestedID=chapters.${chapter}.paragraphs.${paragraph}`, full))).toMatchObject({ _id: paragraph, text: 'First' });
      ok(await api('PUT', `collection/articles/items/${id}?nestedID=chapters.${chapter}.paragraphs.${paragraph}`, full, JSON.stringify({ text: 'Changed' }), { 'content-type': 'text/plain' }));
      const setId = 'f'.repeat(24);
      ok(await api('PUT', `collection/articles/items/${id}?set=true&nestedID=chapters.${chapter}.paragraphs.${setId}`, full, JSON.stringify({ text: 'Upserted' })), 201);
      const paragraphs = json(await api('GET', `collection/articles/items/${id}?pageNumber=1&perPage=100&nestedID=chapters.${chapter}.paragraphs`, full)) as { _id: string; text: string }[];
      expect(paragraphs.map((p) => [p._id, p.text])).toEqual([
        [paragraph, 'Changed'],
        [setId, 'Upserted'],
      ]);
      ok(await api('DELETE', `collection/articles/items/${id}/field/text?nestedID=chapters.${chapter}.paragraphs.${paragraph}`, full, { value: 'Changed' }));
      ok(await api('DELETE', `collection/articles/items/${id}?nestedID=chapters.${chapter}.paragraphs.${setId}`, full));
      expect(json(await api('GET', `collection/articles/items/${id}?pageNumber=1&perPage=100&nestedID=chapters.${chapter}.paragraphs`, full))).toEqual([
        expect.not.objectContaining({ text: expect.anything() }),
      ]);
      expect((await api('GET', `collection/articles/items/${id}?nestedID=chapters.${'0'.repeat(24)}`, full)).statusCode).toBe(404);
      // Rights on the collection cover its nested collections.
      expect((await api('POST', `collection/articles/items/${id}?nestedID=chapters`, tokens.articlesRead, { heading: 'x' })).statusCode).toBe(403);
    });
  });

  describe('end users and metering (the end-user, group, item-user and usage services as contracted, faked here)', () => {
    const links = new Map<string, string[]>();
    const counted: [string, string, number][] = [];
    let mine: string;
    let theirs: string;
    const saved: Record<string, unknown> = {};
    const faked = ['endUsers', 'userGroups', 'itemUsers', 'usage'];
    beforeAll(async () => {
      const ctx = t.app.ctx as unknown as Record<string, unknown>;
      for (const key of faked) saved[key] = ctx[key];
      const users: Record<string, { userId: string; groupIds: string[] }> = { 'user-one': { userId: 'u1', groupIds: ['editors'] }, 'user-two': { userId: 'u2', groupIds: ['own'] } };
      ctx.endUsers = { verifyAccessToken: async (jwt: string) => (users[jwt] ? { projectId: f.project, ...users[jwt] } : null) };
      ctx.userGroups = {
        rights: async (_projectId: string, groupIds: string[], slug: string) => {
          if (slug === 'articles' && groupIds.includes('editors')) return { create: true, read: true, update: true, delete: false, associatedOnly: false };
          if (slug === 'articles' && groupIds.includes('own')) return { create: false, read: true, update: true, delete: false, associatedOnly: true };
          return { create: false, read: false, update: false, delete: false, associatedOnly: false };
        },
      };
      ctx.itemUsers = {
        list: async (_p: string, _c: string, itemId: string) => links.get(itemId) ?? [],
        itemsOf: async (_p: string, _c: string, userId: string) => [...links].filter(([, ids]) => ids.includes(userId)).map(([id]) => id),
      };
      ctx.usage = { add: (org: string, metric: string, amount: number) => counted.push([org, metric, amount]) };
      mine = (await createItem(f, 'articles', { title: 'mine', views: 1 }))._id;
      theirs = (await createItem(f, 'articles', { title: 'theirs', views: 1 }))._id;
      links.set(mine, ['u2']);
    });
    afterAll(() => {
      const ctx = t.app.ctx as unknown as Record<string, unknown>;
      for (const key of faked) ctx[key] = saved[key];
    });

    it('gives an end user their groups’ rights, 403 beyond them, 401 only for a bad token', async () => {
      expect((await api('GET', 'collection/articles/items', 'user-one')).statusCode).toBe(200);
      expect((await api('POST', 'collection/articles/items', 'user-one', { title: 'by user' })).statusCode).toBe(201);
      expect((await api('DELETE', `collection/articles/items/${theirs}`, 'user-one')).statusCode).toBe(403);
      expect((await api('GET', 'collection/secret/items', 'user-one')).statusCode).toBe(403);
      expect((await api('GET', 'collection/articles/items', 'user-three')).statusCode).toBe(401);
    });

    it('keeps "associated items only" users to the items that list them', async () => {
      const list = await api('GET', 'collection/articles/items?pageNumber=1&perPage=100', 'user-two');
      expect(list.statusCode, list.body).toBe(200);
      expect((json(list) as { _id: string }[]).map((i) => i._id)).toEqual([mine]);
      expect(list.headers['item-count']).toBe('1');
      const find = new URLSearchParams({ find: JSON.stringify({ title: 'theirs' }) });
      expect(json(await api('GET', `collection/articles/items?pageNumber=1&perPage=100&${find}`, 'user-two'))).toEqual([]);
      expect((await api('GET', `collection/articles/items/${mine}`, 'user-two')).statusCode).toBe(200);
      expect((await api('GET', `collection/articles/items/${theirs}`, 'user-two')).statusCode).toBe(403);
      expect((await api('PUT', `collection/articles/items/${mine}`, 'user-two', { views: 7 })).statusCode).toBe(200);
      expect((await api('PUT', `collection/articles/items/${theirs}`, 'user-two', { views: 7 })).statusCode).toBe(403);
      expect(json(await f.call('GET', `collection/articles/item/${theirs}`)).views).toBe(1);
    });

    it('counts one ApiCalls per answered call of an authenticated caller', async () => {
      counted.length = 0;
      await api('GET', 'collection/articles/items', full);
      await api('GET', 'collection/secret/items', tokens.articlesRead);
      await api('GET', 'collection/articles/items', 'garbage');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(counted).toEqual([
        [f.org, 'ApiCalls', 1],
        [f.org, 'ApiCalls', 1],
      ]);
    });
  });

  it('answers CORS preflights with the client’s headers and methods', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/public/collection/articles/items',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,accept-version,content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) expect(preflight.headers['access-control-allow-methods']).toContain(method);
    for (const header of ['Authorization', 'Accept-Version', 'Content-Type']) expect(preflight.headers['access-control-allow-headers']).toContain(header);
  });
});
