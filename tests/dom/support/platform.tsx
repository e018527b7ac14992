/**
 * Renders platform screens over stand-ins for the HTTP calls: a router built from route objects
 * (so `useMatches` names the routes as the real table does), a fresh query cache, and fake
 * account and platform calls the test answers.
 */
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { AuthApi, Me } from '../../../src/api/auth.ts';
import type { Member, Organization, PlatformApi, Project } from '../../../src/api/platform.ts';
import { PlatformApiProvider } from '../../../src/api/platform-queries.ts';
import { AuthApiProvider, queryKeys } from '../../../src/api/queries.ts';
import type { ProjectUsersApi } from '../../../src/api/project-users.ts';
import { ProjectUsersApiProvider } from '../../../src/api/project-users-queries.ts';
import type { BillingApi } from '../../../src/api/billing.ts';
import { BillingApiProvider } from '../../../src/api/billing-queries.ts';
import { fakeProjectUsersApi } from './fake-project-users.ts';
import { normalisePermissions, ownerPermissions, type MemberPermissions } from '../../../definitions/permissions.ts';

// radix measures some parts (the switch's thumb) with ResizeObserver, which jsdom lacks.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

export const ORG = 'a1b2c3d4e5f6a1b2c3d4e5f6';
export const PROJECT = 'f6e5d4c3b2a1f6e5d4c3b2a1';

export const me: Me = {
  _id: 'u1',
  username: 'ana',
  email: 'ana@example.com',
  organizations: [ORG],
  verified: true,
  superAdmin: false,
  questionnaireCompleted: true,
  createdDate: '2025-01-01T00:00:00.000Z',
  lastLoggedIn: null,
};

export function member(username: string, flags: Partial<MemberPermissions>, status: Member['status'] = 'active'): Member {
  return { email: `${username}@example.com`, username: status === 'active' ? username : null, userName: null, status, permissions: normalisePermissions(flags) };
}

export function organization(overrides: Partial<Organization> = {}): Organization {
  return {
    id: ORG,
    name: 'Acme Kitchen',
    createdDate: '2025-03-04T10:05:00.000Z',
    seats: 3,
    initialBillingFailedDate: null,
    projects: [
      { id: PROJECT, name: 'Recipes', description: 'Every recipe of the kitchen' },
      { id: 'b'.repeat(24), name: 'Blog', description: '' },
    ],
    users: [member('ana', ownerPermissions)],
    ...overrides,
  };
}

export function project(overrides: Partial<Project> = {}): Project {
  return {
    id: PROJECT,
    name: 'Recipes',
    description: 'Every recipe of the kitchen',
    organizationID: ORG,
    createdDate: '2025-03-04T10:05:00.000Z',
    collections: [],
    webhooks: [],
    files: [],
    settings: {},
    ...overrides,
  };
}

/** Every platform call as a mock; a test overrides the ones it answers. */
export function fakePlatformApi(overrides: Partial<PlatformApi> = {}): PlatformApi & { [K in keyof PlatformApi]: ReturnType<typeof vi.fn> } {
  const unexpected = (name: string) => vi.fn(async () => {
    throw new Error(`${name} was not expected`);
  });
  const api = {
    organizations: vi.fn(async () => [organization()]),
    organization: vi.fn(async () => organization()),
    createOrganization: unexpected('createOrganization'),
    renameOrganization: unexpected('renameOrganization'),
    deleteOrganization: unexpected('deleteOrganization'),
    invite: unexpected('invite'),
    editMember: unexpected('editMember'),
    removeMember: unexpected('removeMember'),
    addSeats: unexpected('addSeats'),
    readInvite: unexpected('readInvite'),
    acceptInvite: unexpected('acceptInvite'),
    project: vi.fn(async () => project()),
    createProject: unexpected('createProject'),
    updateProject: unexpected('updateProject'),
    restrictedView: vi.fn(async () => ({ restrictedView: null, collections: [] })),
    deleteProject: unexpected('deleteProject'),
    apiTokens: vi.fn(async () => []),
    createApiToken: unexpected('createApiToken'),
    updateApiToken: unexpected('updateApiToken'),
    deleteApiToken: unexpected('deleteApiToken'),
    ...overrides,
  };
  return api as never;
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

/** The project's collection section (ids as in definitions/routes.ts) holding the content routes a test draws. */
export function collectionRoutes(children: RouteObject[]): RouteObject[] {
  return [
    {
      id: 'viewProject',
      path: '/organization/:organizationID/project/:projectID',
      element: <Outlet />,
      children: [{ id: 'collection', path: 'collection', element: <Outlet />, children }],
    },
  ];
}

export interface RenderOptions {
  routes: RouteObject[];
  path: string;
  api: PlatformApi;
  user?: Me;
  /** App users and groups (src/api/project-users.ts); by default a project with none. */
  projectUsers?: ProjectUsersApi;
  /** The billing calls (src/api/billing.ts; tests/dom/support/fake-billing-api.ts); by default the page's client. */
  billing?: BillingApi;
}

/** Draws the routes at `path`; the signed-in user is in the cache already, as the guards leave it. */
export function renderPlatform({ routes, path, api, user = me, projectUsers = fakeProjectUsersApi(), billing }: RenderOptions) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(queryKeys.me, user);
  // The server agrees with what the console last learnt (a new organization is the user's at once).
  const auth = { me: async () => queryClient.getQueryData<Me>(queryKeys.me) ?? user } as AuthApi;
  const withWhere = (list: RouteObject[]): RouteObject[] =>
    list.map((route) => ({
      ...route,
      element: route.element ? (
        <>
          {route.element}
          <Where />
        </>
      ) : undefined,
    }));
  const router = createMemoryRouter(withWhere(routes), { initialEntries: [path] });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <AuthApiProvider value={auth}>
        <PlatformApiProvider value={api}>
          <ProjectUsersApiProvider value={projectUsers}>
            {billing ? <BillingApiProvider value={billing}>{children}</BillingApiProvider> : children}
          </ProjectUsersApiProvider>
        </PlatformApiProvider>
      </AuthApiProvider>
    </QueryClientProvider>
  );
  const view = render(wrap(<RouterProvider router={router} />));
  return { ...view, router, queryClient };
}
