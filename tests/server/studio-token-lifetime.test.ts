/**
 * A Studio token does not outlive what it was minted under (docs/studio.md "Tokens in the
 * workbench"): a member's tokens end when their permissions are edited, when they are removed from
 * the organization, and when their account is disabled; another member's tokens stay. A project's
 * Studio tokens end when its restricted view changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { memberships, users } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';

const schema = [{ name: 'Title', slug: 'title', type: 1, primaryField: true }];

describe.each(databaseKinds)('Studio tokens end with their member on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;

  const list = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/public/collection/notes/items', headers: { ...bearer(token), 'accept-version': 'v1' } });

  /** A member who may read, with a preview token of their own. */
  async function memberWithToken(prefix: string) {
    const { account, tokens } = await verifiedUser(t.app, prefix);
    const me = json<{ _id: string }>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    const minted = await f.call('POST', 'studio/tokens', { preview: true }, { access: tokens.access_token });
    expect(minted.statusCode, minted.body).toBe(201);
    const token = json<{ jwtToken: string }>(minted).jwtToken;
    expect((await list(token)).statusCode).toBe(200);
    return { email: account.email, userId: me._id, token, access: tokens.access_token };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'notes', name: 'Notes', schema });
    await createItem(f, 'notes', { title: 'first' });
  });
  afterAll(() => t?.close());

  it('ends them when the member’s permissions change, and leaves another member’s', async () => {
    const edited = await memberWithToken('edited');
    const bystander = await memberWithToken('bystander');
    const changed = await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/users/${edited.email}`, headers: bearer(f.access), payload: { read: true, create: true } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await list(edited.token)).statusCode).toBe(401);
    expect((await list(bystander.token)).statusCode).toBe(200);
  });

  it('ends them when the member is removed', async () => {
    const removed = await memberWithToken('removed');
    const answer = await t.app.inject({ method: 'DELETE', url: `/api/organization/${f.org}/users/${removed.email}`, headers: bearer(f.access) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect((await list(removed.token)).statusCode).toBe(401);
  });

  it('ends them when the account is disabled', async () => {
    const disabled = await memberWithToken('disabled');
    // Through the platform admin call, which answers once every process has dropped the token.
    const admin = await verifiedUser(t.app, 'admin');
    await t.database.db.update(users).set({ superAdmin: true }).where(eq(users.email, admin.account.email));
    await t.app.ctx.caches.settle();
    const done = await t.app.inject({ method: 'PUT', url: `/api/admin/users/${disabled.userId}/disabled`, headers: bearer(admin.tokens.access_token), payload: { disabled: true } });
    expect(done.statusCode, done.body).toBe(200);
    expect((await list(disabled.token)).statusCode).toBe(401);
  });

  it('ends the project’s Studio tokens when its restricted view changes (a preview read what the view then showed)', async () => {
    await createCollection(f, { id: 'secrets', name: 'Secrets', schema });
    const viewer = await memberWithToken('viewer');
    const secrets = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/public/collection/secrets/items', headers: { ...bearer(token), 'accept-version': 'v1' } });
    expect((await secrets(viewer.token)).statusCode).toBe(200);
    const project = (restrictedView: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}`, headers: bearer(f.access), payload: { settings: { restrictedView } } });
    const narrowed = await project({ members: [viewer.email], collections: ['notes'] });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect((await secrets(viewer.token)).statusCode).toBe(401);
    // A new preview follows the view; a change of the name alone leaves it be.
    const again = json<{ jwtToken: string }>(await f.call('POST', 'studio/tokens', { preview: true }, { access: viewer.access })).jwtToken;
    expect((await secrets(again)).statusCode).toBe(403);
    expect((await list(again)).statusCode).toBe(200);
    await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}`, headers: bearer(f.access), payload: { name: 'Renamed' } });
    expect((await list(again)).statusCode).toBe(200);
    expect((await project(null)).statusCode).toBe(200);
    expect((await list(again)).statusCode).toBe(401);
  });
});
