/**
 * Stand-ins for the app-user and user-group calls (src/api/project-users.ts): by default a project
 * without users or groups, so screens that show the token form or the item page draw without
 * touching the network; a test overrides the calls it answers.
 */
import { vi } from 'vitest';
import type { ProjectUsersApi } from '../../../src/api/project-users.ts';

export type FakeProjectUsersApi = ProjectUsersApi & { [K in keyof ProjectUsersApi]: ReturnType<typeof vi.fn> };

export function fakeProjectUsersApi(overrides: Partial<ProjectUsersApi> = {}): FakeProjectUsersApi {
  const unexpected = (name: string) =>
    vi.fn(async () => {
      throw new Error(`${name} was not expected`);
    });
  const api = {
    users: vi.fn(async () => ({ users: [], total: 0 })),
    user: unexpected('user'),
    deleteUser: unexpected('deleteUser'),
    addUser: unexpected('addUser'),
    setUserGroups: unexpected('setUserGroups'),
    sendPasswordReset: unexpected('sendPasswordReset'),
    groups: vi.fn(async () => []),
    createGroup: unexpected('createGroup'),
    updateGroup: unexpected('updateGroup'),
    deleteGroup: unexpected('deleteGroup'),
    itemUsers: vi.fn(async () => []),
    addItemUser: unexpected('addItemUser'),
    removeItemUser: unexpected('removeItemUser'),
    resetAppUserPassword: unexpected('resetAppUserPassword'),
    ...overrides,
  };
  return api as never;
}
