/**
 * The role matrix of the organizations issue: every member flag, a stranger and a member of
 * another organization, against every endpoint. Each case runs on a fresh organization; a
 * refused call must answer 403 and leave the database exactly as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import type { Action } from '../../definitions/permissions.ts';
import { apiTokens, billingAccounts, invites, memberships, organizations, projects } from '../../server/db/schema.ts';
import { newId } from '../../server/lib/ids.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { plans } from '../../definitions/billing/plans.ts';
import { includedSeats } from '../../server/billing/pricing.ts';
import { bearer, verifiedUser } from './support/flows.ts';

const roomyPlan = plans.reduce((a, b) => (includedSeats(b) > includedSeats(a) ? b : a));

const actors = ['admin', 'read', 'create', 'update', 'delete', 'write', 'stranger', 'otherOrganization'] as const;
type Actor = (typeof actors)[number];

const flagsOf: Record<Exclude<Actor, 'stranger' | 'otherOrganization'>, Record<string, boolean>> = {
  admin: { admin: true, read: true, create: true, update: true, delete: true, write: true },
  read: { read: true },
  create: { read: true, create: true },
  update: { read: true, update: true },
  delete: { read: true, delete: true },
  // Stored unexpanded on purpose: write must grant create, update and delete when checked.
  write: { read: true, write: true },
};

function allowed(actor: Actor, action: Action): boolean {
  if (actor === 'stranger' || actor === 'otherOrganization') return false;
  const f = flagsOf[actor];
  if (action === 'read') return true;
  if (action === 'admin') return Boolean(f.admin);
  return Boolean(f.admin || f.write || f[action]);
}

interface Fixture {
  org: string;
  project: string;
  token: string;
  targetEmail: string;
  invitedEmail: string;
}

interface Case {
  name: string;
  action: Action;
  request: (f: Fixture) => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown };
  okStatus: number;
}

const cases: Case[] = [
  { name: 'read the organization', action: 'read', okStatus: 200, request: (f) => ({ method: 'GET', url: `/api/organization/${f.org}` }) },
  { name: 'rename the organization', action: 'admin', okStatus: 200, request: (f) => ({ method: 'PUT', url: `/api/organization/${f.org}`, payload: { name: 'Renamed' } }) },
  { name: 'delete the organization', action: 'admin', okStatus: 204, request: (f) => ({ method: 'DELETE', url: `/api/organization/${f.org}` }) },
  {
    name: 'invite people',
    action: 'admin',
    okStatus: 200,
    request: (f) => ({ method: 'PUT', url: `/api/organization/${f.org}/users`, payload: [{ email: `new-${newId()}@example.com`, permissions: { create: true } }] }),
  },
  {
    name: 'edit a member',
    action: 'admin',
    okStatus: 200,
    request: (f) => ({ method: 'PUT', url: `/api/organization/${f.org}/users/${f.targetEmail}`, payload: { email: f.targetEmail, read: true, write: true } }),
  },
  { name: 'remove a member', action: 'admin', okStatus: 200, request: (f) => ({ method: 'DELETE', url: `/api/organization/${f.org}/users/${f.targetEmail}` }) },
  { name: 'withdraw an invitation', action: 'admin', okStatus: 200, request: (f) => ({ method: 'DELETE', url: `/api/organization/${f.org}/users/${f.invitedEmail}` }) },
  { name: 'add seats', action: 'admin', okStatus: 200, request: (f) => ({ method: 'PUT', url: `/billing/billingDetails/seats?organizationID=${f.org}`, payload: { numberOfSeats: 2 } }) },
  { name: 'create a project', action: 'create', okStatus: 201, request: (f) => ({ method: 'POST', url: `/api/organization/${f.org}/project`, payload: { name: 'New one' } }) },
  { name: 'read a project', action: 'read', okStatus: 200, request: (f) => ({ method: 'GET', url: `/api/organization/${f.org}/project/${f.project}` }) },
  { name: 'change a project', action: 'update', okStatus: 200, request: (f) => ({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}`, payload: { description: 'changed' } }) },
  { name: 'delete a project', action: 'delete', okStatus: 204, request: (f) => ({ method: 'DELETE', url: `/api/organization/${f.org}/project/${f.project}` }) },
  { name: 'list tokens', action: 'read', okStatus: 200, request: (f) => ({ method: 'GET', url: `/api/apiTokens?projectID=${f.project}&organizationID=${f.org}` }) },
  {
    name: 'mint a token',
    action: 'create',
    okStatus: 201,
    request: (f) => ({ method: 'POST', url: '/api/apiTokens', payload: { name: 'minted', projectID: f.project, organizationID: f.org } }),
  },
  { name: 'edit a token', action: 'update', okStatus: 200, request: (f) => ({ method: 'PUT', url: `/api/apiTokens/${f.token}`, payload: { name: 'renamed' } }) },
  { name: 'delete a token', action: 'delete', okStatus: 204, request: (f) => ({ method: 'DELETE', url: `/api/apiTokens/${f.token}` }) },
];

describe.each(databaseKinds)('organization role matrix on %s', (kind) => {
  let t: TestApp;
  const people = {} as Record<Actor, { id: string; email: string; access: string }>;
  let otherOrg: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const actor of [...actors, 'target' as const]) {
      const { account, tokens } = await verifiedUser(t.app, actor.slice(0, 6));
      const me = json((await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) })));
      people[actor as Actor] = { id: me._id, email: account.email, access: tokens.access_token };
    }
    otherOrg = newId();
    await t.database.db.insert(organizations).values({ id: otherOrg, name: 'Elsewhere' });
    await t.database.db.insert(memberships).values({ organizationId: otherOrg, userId: people.otherOrganization.id, permissions: flagsOf.admin });
  });
  afterAll(() => t.close());

  async function fixture(): Promise<Fixture> {
    const { db } = t.database;
    const org = newId();
    const project = newId();
    const token = newId();
    const invitedEmail = `invited-${newId()}@example.com`;
    await db.insert(organizations).values({ id: org, name: 'Matrix' });
    // On the plan with the most included seats, so adding seats stays free (docs/billing.md "Plan changes and seats").
    await db.insert(billingAccounts).values({ organizationId: org, seats: 50, planId: roomyPlan.id });
    for (const actor of Object.keys(flagsOf) as (keyof typeof flagsOf)[]) {
      await db.insert(memberships).values({ organizationId: org, userId: people[actor].id, permissions: flagsOf[actor] });
    }
    const target = (people as Record<string, { id: string; email: string }>).target!;
    await db.insert(memberships).values({ organizationId: org, userId: target.id, permissions: { read: true } });
    await db.insert(invites).values({ id: newId(), organizationId: org, email: invitedEmail, permissions: { read: true }, expiresAt: new Date(Date.now() + 86_400_000) });
    await db.insert(projects).values({ id: project, organizationId: org, name: 'Matrix project' });
    await db.insert(apiTokens).values({ id: token, projectId: project, organizationId: org, name: 'fixture', tokenHash: `hash-${token}` });
    return { org, project, token, targetEmail: target.email, invitedEmail };
  }

  async function snapshot() {
    const { db } = t.database;
    return {
      organizations: await db.select().from(organizations).orderBy(asc(organizations.id)),
      memberships: await db.select().from(memberships).orderBy(asc(memberships.organizationId), asc(memberships.userId)),
      invites: await db.select().from(invites).orderBy(asc(invites.id)),
      billing: await db.select().from(billingAccounts).orderBy(asc(billingAccounts.organizationId)),
      projects: await db.select().from(projects).orderBy(asc(projects.id)),
      tokens: await db.select().from(apiTokens).orderBy(asc(apiTokens.id)),
    };
  }

  for (const c of cases) {
    for (const actor of actors) {
      const expectAllowed = allowed(actor, c.action);
      it(`${actor} ${expectAllowed ? 'may' : 'may not'} ${c.name}`, async () => {
        const f = await fixture();
        const before = expectAllowed ? undefined : await snapshot();
        const { method, url, payload } = c.request(f);
        const response = await t.app.inject({ method, url, headers: bearer(people[actor].access), ...(payload === undefined ? {} : { payload: payload as object }) });
        if (expectAllowed) {
          expect(response.statusCode, response.body).toBe(c.okStatus);
        } else {
          expect(response.statusCode, response.body).toBe(403);
          expect(json(response).code).toMatch(/^(not_a_member|insufficient_permissions)$/);
          expect(await snapshot()).toEqual(before);
        }
      });
    }
  }

  it('lists only the organizations one belongs to, whatever ids are asked for', async () => {
    const f = await fixture();
    const asked = `/api/organizations?organizations=${f.org},${otherOrg}&projectOn=true`;
    const mine = json(await t.app.inject({ method: 'GET', url: asked, headers: bearer(people.read.access) }));
    expect(mine.map((o: { id: string }) => o.id)).toEqual([f.org]);
    expect(mine[0].projects.map((p: { id: string }) => p.id)).toEqual([f.project]);
    const strangers = json(await t.app.inject({ method: 'GET', url: asked, headers: bearer(people.stranger.access) }));
    expect(strangers).toEqual([]);
  });
});
