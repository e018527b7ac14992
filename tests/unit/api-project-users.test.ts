/** The app-user and user-group calls (src/api/project-users.ts) on the wire, and the group-rights rules (definitions/user-groups.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import { createProjectUsersApi } from '../../src/api/project-users.ts';
import { createSession } from '../../src/api/session.ts';
import { permissionOf, samePermissions, togglePermission } from '../../definitions/user-groups.ts';
import { fakeFetch, json, type Handler } from './support/fake-fetch.ts';

const ORG = '0123456789abcdef01234567';
const PROJ = 'fedcba9876543210fedcba98';
const scope = { organizationID: ORG, projectID: PROJ };
const base = `/api/organization/${ORG}/project/${PROJ}`;

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

function start(handler: Handler) {
  const fake = fakeFetch(handler);
  const client = createApiClient({ session: createSession({ events: null }), prefixUrl: 'http://localhost/', fetch: fake.fetch });
  clients.push(client);
  return { api: createProjectUsersApi(client), fake };
}

describe('project users API', () => {
  it('reads a page of users with search, as {users, total}', async () => {
    const { api, fake } = start(() =>
      json(200, { users: [{ userID: 'u1', email: 'a@example.com', phone: null, verified: true, createdDate: '2026-01-01T00:00:00.000Z', lastLoggedIn: null, userGroups: ['g1'] }], total: 7 }),
    );
    const page = await api.users(scope, { pageNumber: 2, perPage: 50, search: ' a@ ' });
    expect(fake.sent[0]!.url).toBe(`${base}/user?pageNumber=2&perPage=50&search=a%40`);
    expect(page).toEqual({ users: [{ userID: 'u1', email: 'a@example.com', phone: null, verified: true, createdDate: '2026-01-01T00:00:00.000Z', lastLoggedIn: null, userGroups: ['g1'] }], total: 7 });
  });

  it('also reads a bare list with the item-count header', async () => {
    const { api } = start(() => json(200, [{ _id: 'u2', email: 'b@example.com' }], { 'item-count': '12' }));
    expect(await api.users(scope)).toMatchObject({ users: [{ userID: 'u2', email: 'b@example.com' }], total: 12 });
  });

  it('deletes a user, mails a reset under /auth, and sends a group back with PUT userGroups/{groupID}', async () => {
    const { api, fake } = start((request) => (request.method === 'DELETE' ? new Response(null, { status: 204 }) : json(200, { groupID: 'g1', name: 'Editors', permissions: [] })));
    await api.deleteUser(scope, 'u1');
    await api.sendPasswordReset(scope, 'a@example.com');
    const group = { groupID: 'g1', name: 'Editors', permissions: [{ collection: 'posts', create: false, read: true, update: false, delete: false, associatedOnly: true }] };
    await api.updateGroup(scope, group);
    expect(fake.sent.map((entry) => [entry.method, entry.url, entry.body ? JSON.parse(entry.body) : undefined])).toEqual([
      ['DELETE', `${base}/user/u1`, undefined],
      ['POST', `/auth/organization/${ORG}/project/${PROJ}/resetPassword`, { email: 'a@example.com' }],
      ['PUT', `${base}/userGroups/g1`, group],
    ]);
  });

  it('adds and removes item users with a {userID} body, and resets an app user’s password without a bearer', async () => {
    const { api, fake } = start(() => json(200, []));
    clients.at(-1)!.session.write({ accessToken: 'console-access', refreshToken: 'console-refresh' });
    const place = { ...scope, collectionID: 'posts', itemID: 'i1' };
    await api.addItemUser(place, 'u1');
    await api.removeItemUser(place, 'u1');
    await api.resetAppUserPassword('reset id', 'new password 42');
    expect(fake.sent.map((entry) => [entry.method, entry.url, JSON.parse(entry.body)])).toEqual([
      ['PUT', `${base}/collection/posts/item/i1/bagelUsers`, { userID: 'u1' }],
      ['DELETE', `${base}/collection/posts/item/i1/bagelUsers`, { userID: 'u1' }],
      ['POST', '/auth/public/bagel-auth-reset-password/reset%20id', { password: 'new password 42' }],
    ]);
    // The console's bearer goes with the console's calls, never with the public reset.
    expect(fake.sent.map((entry) => entry.authorization)).toEqual(['Bearer console-access', 'Bearer console-access', null]);
  });
});

describe('group rights', () => {
  it('adds a collection’s entry on the first tick and drops it when it grants nothing', () => {
    const once = togglePermission([], 'posts', 'read');
    expect(once).toEqual([{ collection: 'posts', create: false, read: true, update: false, delete: false, associatedOnly: false }]);
    expect(permissionOf(once, 'authors').read).toBe(false);
    expect(togglePermission(once, 'posts', 'read')).toEqual([]);
  });

  it('compares rights regardless of order and of empty entries', () => {
    const a = togglePermission(togglePermission([], 'posts', 'read'), 'authors', 'update');
    const b = togglePermission(togglePermission([], 'authors', 'update'), 'posts', 'read');
    expect(samePermissions(a, b)).toBe(true);
    expect(samePermissions(a, [...b, { collection: 'x', create: false, read: false, update: false, delete: false, associatedOnly: false }])).toBe(true);
    expect(samePermissions(a, togglePermission(b, 'posts', 'associatedOnly'))).toBe(false);
  });
});
