import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { addField, contentFixture, createCollection, type ContentFixture } from './support/content.ts';

describe.each(databaseKinds)('public GET /api/public/project on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'posts', name: 'Posts' });
    await addField(f, 'posts', { name: 'Title', slug: 'title', type: 1 });
    const minted = await t.app.inject({
      method: 'POST',
      url: '/api/apiTokens',
      headers: bearer(f.access),
      payload: { name: 'site', projectID: f.project, organizationID: f.org, powerRead: true },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    token = json(minted).jwtToken;
  });
  afterAll(() => t.close());

  it('lists the collections without their schemas unless withSchemas=true', async () => {
    const plain = json(await t.app.inject({ method: 'GET', url: '/api/public/project', headers: bearer(token) }));
    expect(plain.collections).toEqual([expect.objectContaining({ id: 'posts', name: 'Posts' })]);
    expect(plain.collections[0].schema).toBeUndefined();
    const withSchemas = json(await t.app.inject({ method: 'GET', url: '/api/public/project?withSchemas=true', headers: bearer(token) }));
    expect(withSchemas.collections[0].schema.map((field: { slug: string }) => field.slug)).toContain('title');
  });

  it('refuses a console access token and a missing token with 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/public/project', headers: bearer(f.access) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/public/project' })).statusCode).toBe(401);
  });
});
