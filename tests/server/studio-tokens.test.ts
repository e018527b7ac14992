/**
 * Studio's temporary tokens (docs/studio.md "Tokens in the workbench"): a preview token only
 * reads, a token `from` a project token carries its rights unless they exceed the member's, an
 * expired or deleted one is refused by the public API, they never show in the project's token
 * list or its editor, only their minter ends them, and a member keeps only a handful alive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { studioTokens } from '../../definitions/studio.ts';
import { apiTokens, memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';

const schema = [{ name: 'Title', slug: 'title', type: 1, primaryField: true }];
interface Minted {
  id: string;
  jwtToken: string;
  expiresDate: string;
  powerRead: boolean;
  powerWrite: boolean;
  roles: { collection: string; read: boolean; create: boolean }[];
}

describe.each(databaseKinds)('Studio tokens on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let writer: { id: string; jwtToken: string };
  let reader: { access: string; userId: string };

  const publicCall = (method: 'GET' | 'POST', path: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/public/${path}`, headers: { ...bearer(token), 'accept-version': 'v1' }, ...(payload ? { payload } : {}) });
  const mint = (body: unknown, access = f.access) => f.call('POST', 'studio/tokens', body, { access });

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'notes', name: 'Notes', schema });
    await createCollection(f, { id: 'salaries', name: 'Salaries', schema });
    await createItem(f, 'notes', { title: 'first' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/apiTokens',
      headers: bearer(f.access),
      payload: { name: 'writer', projectID: f.project, organizationID: f.org, powerRead: true, powerWrite: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    writer = json(created);
    // A member who may only read.
    const { tokens } = await verifiedUser(t.app, 'reader');
    const me = json<{ _id: string }>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    reader = { access: tokens.access_token, userId: me._id };
  });
  afterAll(() => t?.close());

  it('mints a preview token that reads every collection and writes nothing, for 30 minutes', async () => {
    const before = Date.now();
    const response = await mint({ preview: true });
    expect(response.statusCode, response.body).toBe(201);
    const token = json<Minted>(response);
    expect(token.powerRead).toBe(true);
    expect(token.powerWrite).toBe(false);
    const expires = Date.parse(token.expiresDate);
    expect(expires).toBeGreaterThanOrEqual(before + studioTokens.lifetimeMinutes * 60_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + studioTokens.lifetimeMinutes * 60_000 + 1000);
    const list = await publicCall('GET', 'collection/notes/items', token.jwtToken);
    expect(list.statusCode, list.body).toBe(200);
    expect(json<{ title: string }[]>(list).map((item) => item.title)).toEqual(['first']);
    expect((await publicCall('GET', 'collection/salaries/items', token.jwtToken)).statusCode).toBe(200);
    expectProblem(await publicCall('POST', 'collection/notes/items', token.jwtToken, { title: 'no' }), 403, 'not_permitted');
  });

  it('mints a token from a project token with its rights, and refuses one beyond the member’s rights', async () => {
    const response = await mint({ from: writer.id });
    expect(response.statusCode, response.body).toBe(201);
    const token = json<Minted>(response);
    expect(token.powerWrite).toBe(true);
    const created = await publicCall('POST', 'collection/notes/items', token.jwtToken, { title: 'from studio' });
    expect(created.statusCode, created.body).toBe(201);
    // The reader holds no write: a token that writes is refused, nothing minted.
    const count = async () => (await t.database.db.select().from(apiTokens).where(eq(apiTokens.projectId, f.project))).length;
    const before = await count();
    const refused = await mint({ from: writer.id }, reader.access);
    expectProblem(refused, 403, 'token_exceeds_permissions');
    expect(json<{ detail: string }>(refused).detail).toContain('powerWrite');
    expect(await count()).toBe(before);
    // A preview is theirs to have.
    expect((await mint({ preview: true }, reader.access)).statusCode).toBe(201);
  });

  it('refuses unknown tokens, other projects’ tokens and bad bodies', async () => {
    expectProblem(await mint({ from: 'a'.repeat(24) }), 404, 'token_not_found');
    const other = await f.otherProject();
    const foreign = json<{ id: string }>(
      await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(f.access), payload: { name: 'x', projectID: other.project, organizationID: f.org, powerRead: true } }),
    );
    expectProblem(await mint({ from: foreign.id }), 404, 'token_not_found');
    expectProblem(await mint({ preview: false }), 400);
    expectProblem(await mint({ preview: true, from: writer.id }), 400);
    expectProblem(await mint({}), 400);
    // Not a member of the organization: refused before anything.
    const { tokens } = await verifiedUser(t.app, 'stranger');
    expectProblem(await mint({ preview: true }, tokens.access_token), 403);
  });

  it('never lists a Studio token with the project’s tokens, nor lets it be edited or deleted there', async () => {
    const token = json<Minted>(await mint({ preview: true }));
    const list = await t.app.inject({ method: 'GET', url: `/api/apiTokens?projectID=${f.project}&organizationID=${f.org}`, headers: bearer(f.access) });
    expect(list.statusCode).toBe(200);
    const ids = json<{ id: string }[]>(list).map((row) => row.id);
    expect(ids).toContain(writer.id);
    expect(ids).not.toContain(token.id);
    expectProblem(
      await t.app.inject({ method: 'PUT', url: `/api/apiTokens/${token.id}`, headers: bearer(f.access), payload: { name: 'kept', powerWrite: true } }),
      404,
      'token_not_found',
    );
    expectProblem(await t.app.inject({ method: 'DELETE', url: `/api/apiTokens/${token.id}`, headers: bearer(f.access) }), 404, 'token_not_found');
    expect((await publicCall('GET', 'collection/notes/items', token.jwtToken)).statusCode).toBe(200);
  });

  it('refuses an expired token with 401', async () => {
    const token = json<Minted>(await mint({ preview: true }));
    expect((await publicCall('GET', 'collection/notes/items', token.jwtToken)).statusCode).toBe(200);
    // Its row ended (the signature's own expiry is 30 minutes away): the cached row is dropped at commit.
    await t.database.db.update(apiTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(apiTokens.id, token.id));
    await t.app.ctx.caches.settle();
    expectProblem(await publicCall('GET', 'collection/notes/items', token.jwtToken), 401, 'token_expired');
  });

  it('ends a token for its minter only; a deleted token is refused with 401', async () => {
    const token = json<Minted>(await mint({ preview: true }));
    expectProblem(await f.call('DELETE', `studio/tokens/${token.id}`, undefined, { access: reader.access }), 404, 'token_not_found');
    expectProblem(await f.call('DELETE', `studio/tokens/${writer.id}`), 404, 'token_not_found');
    expect((await publicCall('GET', 'collection/notes/items', token.jwtToken)).statusCode).toBe(200);
    const deleted = await f.call('DELETE', `studio/tokens/${token.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectProblem(await publicCall('GET', 'collection/notes/items', token.jwtToken), 401, 'invalid_token');
    expectProblem(await f.call('DELETE', `studio/tokens/${token.id}`), 404, 'token_not_found');
  });

  it(`keeps at most ${studioTokens.perMemberMax} alive per member and project, ending the oldest`, async () => {
    const minted: Minted[] = [];
    for (let i = 0; i < studioTokens.perMemberMax + 2; i++) minted.push(json<Minted>(await mint({ preview: true })));
    const owner = (await t.database.db.select({ createdBy: apiTokens.createdBy }).from(apiTokens).where(eq(apiTokens.id, minted.at(-1)!.id)))[0]!.createdBy!;
    const alive = await t.database.db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(and(eq(apiTokens.projectId, f.project), eq(apiTokens.temporaryFor, owner)));
    expect(alive.map((row) => row.id).sort()).toEqual(minted.slice(2).map((token) => token.id).sort());
    expectProblem(await publicCall('GET', 'collection/notes/items', minted[0]!.jwtToken), 401, 'invalid_token');
    expect((await publicCall('GET', 'collection/notes/items', minted.at(-1)!.jwtToken)).statusCode).toBe(200);
    // The reader's token of the earlier test is theirs and untouched.
    const readers = await t.database.db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.temporaryFor, reader.userId));
    expect(readers).toHaveLength(1);
  });

  it('gives a member of a restricted view a preview of their collections only, and refuses power tokens', async () => {
    const { account, tokens } = await verifiedUser(t.app, 'narrow');
    const me = json<{ _id: string }>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true, write: true } });
    const view = await t.app.inject({
      method: 'PUT',
      url: `/api/organization/${f.org}/project/${f.project}`,
      headers: bearer(f.access),
      payload: { settings: { restrictedView: { members: [account.email], collections: ['notes'] } } },
    });
    expect(view.statusCode, view.body).toBe(200);
    const token = json<Minted>(await mint({ preview: true }, tokens.access_token));
    expect(token.powerRead).toBe(false);
    expect((await publicCall('GET', 'collection/notes/items', token.jwtToken)).statusCode).toBe(200);
    expectProblem(await publicCall('GET', 'collection/salaries/items', token.jwtToken), 403, 'not_permitted');
    expectProblem(await mint({ from: writer.id }, tokens.access_token), 403, 'token_exceeds_permissions');
    await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}`, headers: bearer(f.access), payload: { settings: { restrictedView: null } } });
  });
  it('is refused by the app users’ auth calls (sign-up, sign-in, codes and reset mails): a read-only member cannot act for the app with one', async () => {
    // A read-only member's preview, and the owner's token from a project token.
    for (const [body, access] of [[{ preview: true }, reader.access], [{ from: writer.id }, f.access]] as const) {
      const minted = await mint(body, access);
      expect(minted.statusCode, minted.body).toBe(201);
      const token = json<Minted>(minted).jwtToken;
      const email = `studio-auth-${Date.now()}@example.test`;
      const auth = (path: string, payload: object) =>
        t.app.inject({ method: 'POST', url: `/auth/public${path}`, headers: { ...bearer(token), 'accept-version': 'v1' }, payload });
      for (const [path, payload] of [
        ['/user', { email, password: 'correct horse 1' }],
        ['/user/otp', { emailOrPhone: email }],
        ['/user/resetpassword', { email }],
      ] as const) {
        expectProblem(await auth(path, payload), 403, 'studio_token_not_allowed');
      }
      // The collections it may read still answer.
      expect((await publicCall('GET', 'collection/notes/items', token)).statusCode).toBe(200);
    }
    // The project's own token still signs users up.
    const signUp = await t.app.inject({ method: 'POST', url: '/auth/public/user', headers: { ...bearer(writer.jwtToken), 'accept-version': 'v1' }, payload: { email: `app-${Date.now()}@example.test`, password: 'correct horse 1' } });
    expect(signUp.statusCode, signUp.body).toBe(201);
  });
});
