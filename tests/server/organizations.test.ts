/**
 * Organizations, invitations, members, seats, projects and API tokens through the API:
 * the flows of the organizations issue and its bad-input list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { memberships, organizations, projects } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, lastMailTo, newAccount, signIn, signUp, verifiedUser } from './support/flows.ts';

describe.each(databaseKinds)('organizations on %s', (kind) => {
  let t: TestApp;
  let admin: { access: string; email: string; id: string };

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, access: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(access), ...(payload === undefined ? {} : { payload: payload as object }) });

  async function newOrganization(name = 'Acme') {
    const response = await call('POST', '/api/organization', admin.access, { name });
    expect(response.statusCode).toBe(201);
    return json(response) as { id: string; name: string; seats: number; users: { email: string; status: string; permissions: Record<string, boolean> }[] };
  }

  beforeAll(async () => {
    // Without billing, seats cost nothing (docs/billing.md "Self-hosting without billing"); paid seats: tests/server/billing-accounts.test.ts.
    t = await createTestApp(kind, { BILLING: '0' });
    const { account, tokens } = await verifiedUser(t.app, 'owner');
    const me = json(await call('GET', '/api/user/me', tokens.access_token));
    admin = { access: tokens.access_token, email: account.email, id: me._id };
  });
  afterAll(() => t.close());

  it('makes its creator an admin member and lists it in /api/user/me', async () => {
    const org = await newOrganization('  Acme Foods  ');
    expect(org.name).toBe('Acme Foods');
    expect(org.users).toEqual([
      expect.objectContaining({ email: admin.email, status: 'active', permissions: expect.objectContaining({ admin: true, write: true }) }),
    ]);
    const me = json(await call('GET', '/api/user/me', admin.access));
    expect(me.organizations).toContain(org.id);
  });

  it('invites by mail; the invitee signs up with the invite, is verified, accepts once and becomes a member with the chosen flags', async () => {
    const org = await newOrganization();
    const colleague = newAccount('colleague');
    const invited = await call('PUT', `/api/organization/${org.id}/users`, admin.access, [
      { email: colleague.email.toUpperCase(), permissions: { update: true, write: true } },
    ]);
    expect(invited.statusCode).toBe(200);
    const pending = json(invited).find((m: { email: string }) => m.email === colleague.email);
    // Invites send read true, the chosen flags and write false.
    expect(pending).toMatchObject({ status: 'invited', permissions: { read: true, update: true, write: false, admin: false } });

    const mail = await lastMailTo(t.app, colleague.email, 'invite');
    expect(mail.link).toMatch(/^http:\/\/larder\.test\/join\//);
    const inviteID = mail.link!.split('/join/')[1]!;

    const read = await t.app.inject({ method: 'GET', url: `/api/user/invite/${inviteID}` });
    expect(json(read)).toMatchObject({ email: colleague.email, verified: false, organizationID: org.id });

    expect((await signUp(t.app, colleague, inviteID)).statusCode).toBe(201);
    const tokens = await signIn(t.app, colleague.username, colleague.password);
    const me = json(await call('GET', '/api/user/me', tokens.access_token));
    expect(me.verified).toBe(true);

    const accepted = await call('POST', `/api/user/invite/${inviteID}/accept`, tokens.access_token);
    expect(accepted.statusCode).toBe(200);
    expect(json(accepted)).toEqual({ organizationID: org.id });
    const again = await call('POST', `/api/user/invite/${inviteID}/accept`, tokens.access_token);
    expect(again.statusCode).toBe(404);
    expect(json(again).detail).toBe('Invitation can not be found');

    const view = json(await call('GET', `/api/organization/${org.id}`, tokens.access_token));
    expect(view.users.find((m: { email: string }) => m.email === colleague.email)).toMatchObject({ status: 'active', permissions: { update: true, write: false } });
  });

  it('refuses an invitation meant for another e-mail and creates no membership', async () => {
    const org = await newOrganization();
    const intended = newAccount('intended');
    await call('PUT', `/api/organization/${org.id}/users`, admin.access, [{ email: intended.email, permissions: {} }]);
    const inviteID = (await lastMailTo(t.app, intended.email, 'invite')).link!.split('/join/')[1]!;
    const other = await verifiedUser(t.app, 'other');
    const refused = await call('POST', `/api/user/invite/${inviteID}/accept`, other.tokens.access_token);
    expect(refused.statusCode).toBe(403);
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.organizationId, org.id));
    expect(rows).toHaveLength(1);
  });

  it('counts members and pending invitations against seats, all or nothing, until seats are added', async () => {
    const org = await newOrganization();
    expect(org.seats).toBe(3);
    const emails = [newAccount('s').email, newAccount('s').email, newAccount('s').email];
    const tooMany = await call('PUT', `/api/organization/${org.id}/users`, admin.access, emails.map((email) => ({ email, permissions: {} })));
    expect(tooMany.statusCode).toBe(409);
    expect(json(tooMany)).toMatchObject({ code: 'no_seats', detail: 'No more seats available' });
    expect(json(await call('GET', `/api/organization/${org.id}`, admin.access)).users).toHaveLength(1);

    const two = await call('PUT', `/api/organization/${org.id}/users`, admin.access, emails.slice(0, 2).map((email) => ({ email, permissions: {} })));
    expect(two.statusCode).toBe(200);
    // Renewing a pending invitation takes no new seat.
    expect((await call('PUT', `/api/organization/${org.id}/users`, admin.access, [{ email: emails[0], permissions: { create: true } }])).statusCode).toBe(200);

    for (const bad of [0, -1, 1.5, 1e9, '2', null]) {
      const response = await call('PUT', `/billing/billingDetails/seats?organizationID=${org.id}`, admin.access, { numberOfSeats: bad });
      expect(response.statusCode, String(bad)).toBe(400);
    }
    const added = await call('PUT', `/billing/billingDetails/seats?organizationID=${org.id}`, admin.access, { numberOfSeats: 2 });
    expect(json(added)).toEqual({ seats: 5 });
    expect((await call('PUT', `/api/organization/${org.id}/users`, admin.access, [{ email: emails[2], permissions: {} }])).statusCode).toBe(200);
  });

  it('edits flags (write expands) and removes members, but never oneself', async () => {
    const org = await newOrganization();
    const member = await verifiedUser(t.app, 'member');
    const me = json(await call('GET', '/api/user/me', member.tokens.access_token));
    await t.database.db.insert(memberships).values({ organizationId: org.id, userId: me._id, permissions: { read: true } });

    const edited = await call('PUT', `/api/organization/${org.id}/users/${member.account.email}`, admin.access, { email: member.account.email, read: true, write: true });
    expect(edited.statusCode).toBe(200);
    expect(json(edited).find((m: { email: string }) => m.email === member.account.email).permissions).toMatchObject({ write: true, create: true, update: true, delete: true });

    expect((await call('PUT', `/api/organization/${org.id}/users/${admin.email}`, admin.access, { read: true })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/organization/${org.id}/users/${admin.email}`, admin.access)).statusCode).toBe(403);
    for (const flags of [{ superuser: true }, { admin: 'yes' }, { read: 1 }]) {
      expect((await call('PUT', `/api/organization/${org.id}/users/${member.account.email}`, admin.access, flags)).statusCode).toBe(400);
    }

    const removed = await call('DELETE', `/api/organization/${org.id}/users/${member.account.email}`, admin.access);
    expect(json(removed)).toEqual({ removed: member.account.username });
    expect((await call('GET', `/api/organization/${org.id}`, member.tokens.access_token)).statusCode).toBe(403);
  });

  it('creates, reads, renames and deletes projects; a template must belong to the organization', async () => {
    const org = await newOrganization();
    const empty = await call('POST', `/api/organization/${org.id}/project`, admin.access, { name: '   ' });
    expect(empty.statusCode).toBe(400);
    const created = await call('POST', `/api/organization/${org.id}/project`, admin.access, { name: ' Shop ', description: 'Our shop' });
    expect(created.statusCode).toBe(201);
    const project = json(created);
    expect(project).toMatchObject({ name: 'Shop', description: 'Our shop', organizationID: org.id, collections: [] });

    const other = await newOrganization('Other');
    const foreignTemplate = await call('POST', `/api/organization/${other.id}/project?templateID=${project.id}`, admin.access, { name: 'Copy' });
    expect(foreignTemplate.statusCode).toBe(400);
    expect((await call('POST', `/api/organization/${org.id}/project?templateID=${project.id}`, admin.access, { name: 'Copy' })).statusCode).toBe(201);

    // A project is reached only through its own organization.
    expect((await call('GET', `/api/organization/${other.id}/project/${project.id}`, admin.access)).statusCode).toBe(404);
    expect(json(await call('PUT', `/api/organization/${org.id}/project/${project.id}`, admin.access, { name: 'Store' })).name).toBe('Store');
    expect((await call('DELETE', `/api/organization/${org.id}/project/${project.id}`, admin.access)).statusCode).toBe(204);
    expect(await t.database.db.select().from(projects).where(eq(projects.id, project.id))).toEqual([]);
  });

  it('renames and deletes an organization with everything in it', async () => {
    const org = await newOrganization();
    expect(json(await call('PUT', `/api/organization/${org.id}`, admin.access, { name: 'New name' })).name).toBe('New name');
    await call('POST', `/api/organization/${org.id}/project`, admin.access, { name: 'Doomed' });
    expect((await call('DELETE', `/api/organization/${org.id}`, admin.access)).statusCode).toBe(204);
    expect(await t.database.db.select().from(organizations).where(eq(organizations.id, org.id))).toEqual([]);
    expect(await t.database.db.select().from(projects).where(eq(projects.organizationId, org.id))).toEqual([]);
    expect((await call('GET', `/api/organization/${org.id}`, admin.access)).statusCode).toBe(404);
  });

  it('mints a token shown once, lists, edits and deletes it; a deleted token is refused at once', async () => {
    const org = await newOrganization();
    const project = json(await call('POST', `/api/organization/${org.id}/project`, admin.access, { name: 'App' }));
    const minted = await call('POST', '/api/apiTokens', admin.access, {
      name: 'Website',
      projectID: project.id,
      organizationID: org.id,
      userAdmin: true,
      userGroupID: 'editors',
      powerRead: true,
      roles: [{ collection: 'posts', create: true }],
    });
    expect(minted.statusCode).toBe(201);
    const token = json(minted);
    // User Admin puts the token in the admin group.
    expect(token).toMatchObject({ name: 'Website', userAdmin: true, userGroupID: 'admin', powerRead: true, roles: [{ collection: 'posts', create: true, read: false }] });
    expect(token.jwtToken).toMatch(/^ey/);

    const publicProject = await t.app.inject({ method: 'GET', url: '/api/public/project', headers: bearer(token.jwtToken) });
    expect(publicProject.statusCode).toBe(200);
    expect(json(publicProject)).toMatchObject({ id: project.id, name: 'App' });

    const listed = json(await call('GET', `/api/apiTokens?projectID=${project.id}&organizationID=${org.id}`, admin.access));
    expect(listed.map((x: { id: string }) => x.id)).toEqual([token.id]);
    expect(listed[0].jwtToken).toBeUndefined();

    const edited = await call('PUT', `/api/apiTokens/${token.id}`, admin.access, { ...listed[0], name: 'Website v2', userAdmin: false, userGroupID: 'editors' });
    expect(edited.statusCode).toBe(200);
    expect(json(edited)).toMatchObject({ name: 'Website v2', userAdmin: false, userGroupID: 'editors' });

    expect((await call('DELETE', `/api/apiTokens/${token.id}`, admin.access)).statusCode).toBe(204);
    const refused = await t.app.inject({ method: 'GET', url: '/api/public/project', headers: bearer(token.jwtToken) });
    expect(refused.statusCode).toBe(401);
    const forged = await t.app.inject({ method: 'GET', url: '/api/public/project', headers: bearer(`${token.jwtToken.slice(0, -4)}AAAA`) });
    expect(forged.statusCode).toBe(401);
  });

  it('refuses to mint or edit a token beyond the member’s own flags', async () => {
    const org = await newOrganization();
    const project = json(await call('POST', `/api/organization/${org.id}/project`, admin.access, { name: 'App' }));
    const creator = await verifiedUser(t.app, 'creator');
    const me = json(await call('GET', '/api/user/me', creator.tokens.access_token));
    await t.database.db.insert(memberships).values({ organizationId: org.id, userId: me._id, permissions: { read: true, create: true, update: true } });
    const base = { name: 'mine', projectID: project.id, organizationID: org.id };

    expect((await call('POST', '/api/apiTokens', creator.tokens.access_token, { ...base, powerCreate: true, powerRead: true, roles: [{ collection: 'a', read: true, create: true }] })).statusCode).toBe(201);
    for (const beyond of [{ powerDelete: true }, { powerWrite: true }, { userAdmin: true }, { roles: [{ collection: 'a', delete: true }] }]) {
      const response = await call('POST', '/api/apiTokens', creator.tokens.access_token, { ...base, ...beyond });
      expect(response.statusCode, JSON.stringify(beyond)).toBe(403);
      expect(json(response).code).toBe('token_exceeds_permissions');
    }
    const mine = json(await call('GET', `/api/apiTokens?projectID=${project.id}&organizationID=${org.id}`, creator.tokens.access_token));
    expect(mine).toHaveLength(1);
    expect((await call('PUT', `/api/apiTokens/${mine[0].id}`, creator.tokens.access_token, { name: 'mine', powerDelete: true })).statusCode).toBe(403);
    expect(json(await call('GET', `/api/apiTokens?projectID=${project.id}&organizationID=${org.id}`, admin.access))[0].powerDelete).toBe(false);
  });

  it('answers bad ids, names and e-mails with problem details and changes nothing', async () => {
    const org = await newOrganization();
    const before = await t.database.db.select().from(memberships).where(eq(memberships.organizationId, org.id));
    const badCalls: [string, string, unknown?][] = [
      ['GET', '/api/organization/not-an-id'],
      ['GET', `/api/organization/${'f'.repeat(24)}`],
      ['POST', '/api/organization', { name: '' }],
      ['POST', '/api/organization', { name: 'x'.repeat(101) }],
      ['POST', '/api/organization', { name: 'ok', id: 'chosen' }],
      ['PUT', `/api/organization/${org.id}/users`, []],
      ['PUT', `/api/organization/${org.id}/users`, [{ email: 'not-an-email', permissions: {} }]],
      ['PUT', `/api/organization/${org.id}/users`, [{ email: 'a@example.com', permissions: { owner: true } }]],
      ['PUT', `/api/organization/${org.id}/users`, { email: 'a@example.com' }],
      ['DELETE', `/api/organization/${org.id}/users/nobody@example.com`],
      ['GET', '/api/apiTokens?projectID=x&organizationID=y'],
      ['PUT', `/api/apiTokens/${'a'.repeat(24)}`, { name: 'x' }],
      ['GET', '/api/user/invite/short'],
      ['GET', `/api/user/invite/${'A'.repeat(43)}`],
    ];
    for (const [method, url, payload] of badCalls) {
      const response = await call(method as 'GET', url, admin.access, payload);
      expect(response.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    expect(await t.database.db.select().from(memberships).where(and(eq(memberships.organizationId, org.id)))).toEqual(before);
  });
});
