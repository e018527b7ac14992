import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

describe.each(databaseKinds)('system routes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers health with the database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ status: 'ok', db: kind });
  });

  it('serves OpenAPI JSON that lists the auth and user routes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const spec = json(response);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/auth/token', '/api/user/', '/api/user/me', '/api/health']));
  });

  it('answers unknown routes with problem details', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(json(response)).toMatchObject({ status: 404, code: 'not_found', title: 'Not Found' });
  });
});
