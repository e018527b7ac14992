/**
 * Every call of the platform admin area is for super-admins only (docs/admin.md "Access"): each
 * route registered under `/api/admin/` and each admin call of the billing service, found from
 * the router rather than listed here (routes added later are covered), is called with a plausible
 * body as a signed-in user who owns an organization (403) and without a token (401) — and with a
 * super-admin's expired access token, a project API token or a project user's token (401) — and
 * nothing in the database changes: no audit entry, no mail, no row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { App } from '../../server/app.ts';
import { query } from '../../server/content/storage.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, newAccount, signUp, verifiedUser } from './support/flows.ts';

type Route = { method: string; path: string };

/** Every route of the router with its methods (HEAD, which GET brings, left out), from `printRoutes`' tree. */
function routesOf(app: App): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth > 0 ? stack[depth - 1]! : '') + match[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push({ method, path });
  }
  return routes;
}

/** The platform admin area's calls: its own plugin, and the billing service's calls for super-admins. */
const isAdminCall = (path: string) =>
  path.startsWith('/api/admin/') || /^\/billing\/(softLaunch|admin)/.test(path) || /^\/billing\/billingDetails\/(plan|credit|addOn|billingDate)$/.test(path);

/** The admin calls there are now; the enumeration must find at least these. */
const known = [
  'GET /api/admin/users',
  'PUT /api/admin/users/:userID/disabled',
  'PUT /api/admin/users/:userID/superAdmin',
  'POST /api/admin/users/:userID/resendVerification',
  'GET /api/admin/organizations',
  'GET /api/admin/metrics',
  'GET /api/admin/audit',
  'GET /billing/softLaunch',
  'PUT /billing/softLaunch',
  'GET /billing/softLaunch/whitelistOrgs',
  'PUT /billing/softLaunch/whitelistOrgs',
  'GET /billing/adminBillingDetails',
  'PUT /billing/billingDetails/plan',
  'PUT /billing/billingDetails/credit',
  'POST /billing/billingDetails/addOn',
  'PUT /billing/billingDetails/addOn',
  'PUT /billing/billingDetails/billingDate',
];

/** Tables that calls write whatever their answer (rate limits, usage) or that jobs fill on their own. */
const unwatched = new Set(['rate_limits', 'usage_counters', 'usage_live_processes', 'platform_daily', 'live_requests']);

describe.each(databaseKinds)('admin calls refused to everyone but super-admins on %s', (kind) => {
  let t: TestApp;
  let calls: Route[];
  let member: { access: string; org: string };
  let victim: string;

  /** A digest of every watched table's rows. */
  async function snapshot(): Promise<Record<string, string>> {
    const tables = (
      await query<{ name: string }>(t.database.db, sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`)
    )
      .map((r) => r.name)
      .filter((name) => !unwatched.has(name));
    const digests: Record<string, string> = {};
    for (const name of tables) {
      const [row] = await query<{ digest: string }>(t.database.db, sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.identifier(name)} t`);
      digests[name] = row!.digest;
    }
    return digests;
  }

  /** The call with plausible parameters: real ids in the path and query, a body its schema accepts. */
  function plausible({ method, path }: Route, headers: Record<string, string>) {
    const url = path.replace(/:userID/g, victim).replace(/:[A-Za-z]+/g, member.org);
    const query = path.startsWith('/billing/') ? `?${path.endsWith('/adminBillingDetails') ? 'organizationIDs' : 'organizationID'}=${member.org}` : '';
    const addOn = { title: 'Support', amount: 1000, nisAmount: 3500 };
    const bodies: Record<string, unknown> = {
      disabled: { disabled: true },
      superAdmin: { superAdmin: true },
      softLaunch: { enabled: true },
      whitelistOrgs: { organizationIDs: [member.org] },
      credit: { amount: 10_000, nisAmount: 0 },
      addOn: method === 'POST' ? addOn : [addOn],
      billingDate: { nextBillingDate: '2031-01-15' },
      plan: { planID: null },
    };
    const payload = method === 'GET' || method === 'DELETE' ? undefined : (bodies[path.split('/').at(-1)!] ?? {});
    return t.app.inject({ method: method as 'GET', url: url + query, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    calls = routesOf(t.app).filter((r) => isAdminCall(r.path));
    // The caller owns an organization: organization admins are refused these calls too.
    const { tokens } = await verifiedUser(t.app, 'orgowner');
    const created = await t.app.inject({ method: 'POST', url: '/api/organization', headers: bearer(tokens.access_token), payload: { name: 'Own organization' } });
    expect(created.statusCode, created.body).toBe(201);
    member = { access: tokens.access_token, org: json(created).id as string };
    // An unverified user the user calls would act on.
    const other = newAccount('target');
    expect((await signUp(t.app, other)).statusCode).toBe(201);
    victim = (await query<{ id: string }>(t.database.db, sql`select id from users where email = ${other.email}`))[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds every admin call from the router', () => {
    const found = calls.map((c) => `${c.method} ${c.path}`);
    expect(found).toEqual(expect.arrayContaining(known));
    // The parse found the rest of the router too (a broken parse would find nothing to refuse).
    expect(routesOf(t.app).length).toBeGreaterThan(100);
  });

  it('answers 403 to a signed-in user and 401 without a token, on every admin call, and changes nothing', async () => {
    const before = await snapshot();
    const wrong: string[] = [];
    for (const route of calls) {
      const signedIn = await plausible(route, bearer(member.access));
      if (signedIn.statusCode !== 403) wrong.push(`${route.method} ${route.path} signed in: ${signedIn.statusCode} ${signedIn.body}`);
      const anonymous = await plausible(route, {});
      if (anonymous.statusCode !== 401) wrong.push(`${route.method} ${route.path} without a token: ${anonymous.statusCode} ${anonymous.body}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
    const [audit] = await query<{ n: number }>(t.database.db, sql`select count(*)::int as n from admin_audit`);
    expect(Number(audit!.n)).toBe(0);
  });

  it('lets a super-admin through the same check', async () => {
    await t.database.db.execute(sql`update users set super_admin = true where id = (select user_id from memberships where organization_id = ${member.org})`);
    await t.app.ctx.caches.settle();
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(member.access) });
    expect(response.statusCode, response.body).toBe(200);
  });

  it("answers 401 to a super-admin's expired access token, a project API token they made and a project user's token, on every admin call, and changes nothing", async () => {
    // The caller is a super-admin now (above): none of these tokens is their console session.
    const project = json(await t.app.inject({ method: 'POST', url: `/api/organization/${member.org}/project`, headers: bearer(member.access), payload: { name: 'App' } })).id as string;
    const minted = await t.app.inject({ method: 'POST', url: '/api/apiTokens', headers: bearer(member.access), payload: { name: 'app', projectID: project, organizationID: member.org } });
    expect(minted.statusCode, minted.body).toBe(201);
    const apiToken = json(minted).jwtToken as string;
    const endUser = await t.app.inject({
      method: 'POST',
      url: '/auth/public/user',
      headers: { ...bearer(apiToken), 'accept-version': 'v1' },
      payload: { email: 'app-user@example.test', password: 'correct horse 1' },
    });
    expect(endUser.statusCode, endUser.body).toBe(201);
    const { sub, sid } = JSON.parse(Buffer.from(member.access.split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };
    // Signed with the server's own key for the live session, issued long enough ago to have expired.
    const signAccess = (t.app.ctx.tokens as unknown as { signAccess(u: string, s: string, at: number, jti: string): Promise<string> }).signAccess.bind(t.app.ctx.tokens);
    const expired = await signAccess(sub, sid, Math.floor(Date.now() / 1000) - t.config.accessTokenTtlS - 60, 'expired');
    const tokens = { expired, apiToken, endUser: json(endUser).access_token as string };
    // The sign-up's address verification mail is written after the answer (docs/mail.md).
    await t.app.ctx.background.settled();

    const before = await snapshot();
    const wrong: string[] = [];
    for (const route of calls) {
      for (const [kind, token] of Object.entries(tokens)) {
        const response = await plausible(route, bearer(token));
        if (response.statusCode !== 401 || !JSON.parse(response.body).code) wrong.push(`${route.method} ${route.path} ${kind}: ${response.statusCode} ${response.body}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
    const [audit] = await query<{ n: number }>(t.database.db, sql`select count(*)::int as n from admin_audit`);
    expect(Number(audit!.n)).toBe(0);
  });
});
