import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../../definitions/permissions.ts';
import { createTestApp, json, type TestApp } from './support/test-app.ts';

type Operation = { 'x-required-action'?: string };
const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;
const actions: readonly Action[] = ['read', 'create', 'update', 'delete', 'admin'];

/**
 * Billing routes that reach no one organization: the plans and status windows (any signed-in
 * user), the run (super-admins); and the admin area's billing calls, for platform super-admins
 * whatever their memberships (server/admin/billing-routes.ts, guarded by server/admin/guard.ts).
 */
const billingOutsideOrganizations = new Set([
  '/billing/plans',
  '/billing/getBillingStatuses',
  '/billing/admin/run',
  '/billing/adminBillingDetails',
  '/billing/billingDetails/plan',
  '/billing/softLaunch',
  '/billing/softLaunch/whitelistOrgs',
]);

/** Member routes reach one organization's data: each must say which right it needs (docs/security.md). */
const memberRoute = (path: string) =>
  /^\/(api|auth)\/organization\/\{org\}/.test(path) ||
  /^\/api\/(apiTokens|webhook)\//.test(path) ||
  (path.startsWith('/billing/') && !billingOutsideOrganizations.has(path));

// The OpenAPI document is built from the route declarations alone; one database is enough.
describe('OpenAPI: every member route names the action it needs', () => {
  let t: TestApp;
  let operations: { method: string; path: string; action: string | undefined }[];
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const spec = json<{ paths: Record<string, Partial<Record<(typeof methods)[number], Operation>>> }>(await t.app.inject({ method: 'GET', url: '/api/docs/json' }));
    operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      methods.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, action: item[m]!['x-required-action'] })),
    );
  });
  afterAll(() => t.close());

  const action = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path)?.action;

  it('declares a known action on each member route, and none on the others', () => {
    const members = operations.filter((o) => memberRoute(o.path));
    expect(members.length).toBeGreaterThan(50);
    expect(members.filter((o) => !actions.includes(o.action as Action))).toEqual([]);
    // Signing in, one's own account, the public API (API tokens) and the health check need no member right.
    expect(operations.filter((o) => !memberRoute(o.path) && o.action !== undefined)).toEqual([]);
  });

  it('asks for the right that the permission model gives each kind of call', () => {
    const items = '/api/organization/{org}/project/{proj}/collection/{collection}/item';
    expect(action('GET', items)).toBe('read');
    expect(action('POST', items)).toBe('create');
    expect(action('PUT', `${items}/{item}`)).toBe('update');
    expect(action('DELETE', `${items}/{item}`)).toBe('delete');
    expect(action('PUT', '/api/organization/{org}')).toBe('admin');
    expect(action('PUT', '/api/organization/{org}/users')).toBe('admin');
    expect(action('GET', '/api/organization/{org}/usage')).toBe('admin');
    expect(action('GET', '/api/organization/{org}/project/{proj}/restricted-view')).toBe('admin');
    expect(action('DELETE', '/api/webhook/{id}')).toBe('delete');
  });
});
