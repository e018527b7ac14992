/** The router renderer: the route table becomes react-router's data routes, guards run by name, in order. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { guardNames, layoutNames, routes, screenNames, type GuardName, type ScreenName } from '../../definitions/routes.ts';
import { buildRoutes } from '../../renderers/router/build-routes.ts';
import { Placeholder } from '../../renderers/router/Placeholder.tsx';
import type { Guard, RouteHandle, RouterParts } from '../../renderers/router/types.ts';

afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

/** A record with one entry per name, typed by the names. */
function each<K extends string, V>(names: readonly K[], make: (name: K) => V): Record<K, V> {
  return Object.fromEntries(names.map((name) => [name, make(name)])) as Record<K, V>;
}

function parts(guards: Partial<Record<GuardName, Guard>> = {}): RouterParts {
  const pass: Guard = () => undefined;
  return {
    // A screen may frame child routes (the project shell does), so each stand-in draws its outlet.
    screens: each(screenNames, (name) => async () => ({
      default: () => (
        <>
          <h1>{`screen:${name}`}</h1>
          <Outlet />
        </>
      ),
    })),
    layouts: each(layoutNames, (name) => async () => ({
      default: () => (
        <div data-layout={name}>
          <Outlet />
        </div>
      ),
    })),
    guards: { ...each(guardNames, () => pass), ...guards },
    placeholder: Placeholder,
    root: () => (
      <>
        <Outlet />
        <Where />
      </>
    ),
    fallback: () => <p>loading</p>,
    error: () => <p>route error</p>,
  };
}

function open(path: string, routeParts = parts()) {
  const router = createMemoryRouter(buildRoutes(routes, routeParts), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

function allRoutes(list: RouteObject[]): RouteObject[] {
  return list.flatMap((route) => [route, ...allRoutes(route.children ?? [])]);
}

describe('buildRoutes', () => {
  it('makes one route per row of the table, named by it, under one route per layout', () => {
    const built = buildRoutes(routes, parts());
    const handles = allRoutes(built)
      .map((route) => route.handle as RouteHandle | undefined)
      .filter(Boolean);
    const count = (list: typeof routes): number => list.reduce((sum, route) => sum + 1 + count(route.children ?? []), 0);
    expect(handles).toHaveLength(count(routes));
    expect(built[0]!.children!.map((route) => route.id).sort()).toEqual(layoutNames.map((name) => `layout:${name}`).sort());
  });

  it('draws a real screen lazily in its layout', async () => {
    open('/login');
    expect(await screen.findByRole('heading', { name: 'screen:login' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'screen:login' }).closest('[data-layout]')).toHaveAttribute('data-layout', 'auth');
  });

  it('draws a placeholder, marked so, for a route whose screen comes later, inside its layout', async () => {
    // The one route of the table still without a screen of its own.
    open('/confirm/c1');
    expect(await screen.findByRole('heading', { name: 'Confirm e-mail address' })).toBeInTheDocument();
    expect(document.querySelectorAll('[data-placeholder="true"]')).toHaveLength(1);
    expect(document.querySelector('[data-placeholder="true"]')!.closest('[data-layout]')).toHaveAttribute('data-layout', 'auth');
  });

  it('shows list and single item on one {collectionID} route, keeps `new` for createCollection, and draws nothing for the grouping row', async () => {
    open('/organization/o1/project/p1/collection/posts');
    expect(await screen.findByRole('heading', { level: 1, name: 'screen:itemList' })).toBeInTheDocument();
    // `collection` only groups its children (`outlet`): no placeholder, no heading of its own.
    expect(screen.queryByRole('heading', { name: 'Collections' })).not.toBeInTheDocument();
    expect(document.querySelectorAll('[data-placeholder="true"]')).toHaveLength(0);
    cleanup();
    open('/organization/o1/project/p1/collection/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'screen:collectionSettings' })).toBeInTheDocument();
  });

  it('answers 404 when a parameter takes a reserved value', async () => {
    open('/organization/o1/project/p1/collection/new/edit');
    expect(await screen.findByText('route error')).toBeInTheDocument();
  });

  it('runs the guards of every matching route, outermost first, each once, and follows the first redirect', async () => {
    const calls: string[] = [];
    const record =
      (name: string, target?: string): Guard =>
      ({ params }) => {
        calls.push(`${name}:${params.organizationID ?? ''}`);
        return target;
      };
    open(
      '/organization/o1/project/p1/settings',
      parts({
        signedIn: record('signedIn'),
        organizationMember: record('organizationMember'),
        billingStatus: record('billingStatus', '/organization/o1/settings'),
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'screen:organization' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/organization/o1/settings');
    // The redirect ran the guards of the new route too (organization settings has no billing guard).
    expect(calls).toEqual(['signedIn:o1', 'organizationMember:o1', 'billingStatus:o1', 'signedIn:o1', 'organizationMember:o1']);
  });

  it('waits for an asynchronous guard before drawing, and gives it the URL', async () => {
    const seen: string[] = [];
    open(
      '/login?returnUrl=%2Fdovs',
      parts({
        signedOut: async ({ url }) => {
          seen.push(url.pathname + url.search);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return '/';
        },
        home: () => undefined,
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'screen:home' })).toBeInTheDocument();
    expect(seen).toEqual(['/login?returnUrl=%2Fdovs']);
  });

  it('loads neither the screen nor the layout of a route its guards leave (the first page loads only what it draws)', async () => {
    const base = parts({ signedIn: () => '/login' });
    const loaded: string[] = [];
    const spy = <K extends string>(record: Record<K, RouterParts['screens'][ScreenName]>, kind: string) =>
      Object.fromEntries(
        Object.entries(record).map(([name, load]) => [name, () => (loaded.push(`${kind}:${name}`), (load as RouterParts['screens'][ScreenName])())]),
      ) as Record<K, RouterParts['screens'][ScreenName]>;
    open('/', { ...base, screens: spy(base.screens, 'screen'), layouts: spy(base.layouts, 'layout') });
    expect(await screen.findByRole('heading', { level: 1, name: 'screen:login' })).toBeInTheDocument();
    expect(loaded.sort()).toEqual(['layout:auth', 'screen:login']);
  });

  it('catches every other path with notFound', async () => {
    open('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'screen:notFound' })).toBeInTheDocument();
  });

  it('reruns the guards when only the query changes', async () => {
    const guard = vi.fn<Guard>(() => undefined);
    const router = open('/login', parts({ signedOut: guard }));
    await screen.findByRole('heading', { name: 'screen:login' });
    await router.navigate('/login?confirmID=abc');
    await vi.waitFor(() => expect(guard).toHaveBeenCalledTimes(2));
  });
});

describe('routes that draw one screen', () => {
  it('share one component, so moving between them keeps the screen mounted (and the focus in it)', () => {
    const built = buildRoutes(routes, parts());
    const components = new Map<string, unknown[]>();
    const walk = (list: readonly RouteObject[]) => {
      for (const route of list) {
        const definition = (route.handle as RouteHandle | undefined)?.name;
        const row = definition ? findRow(routes, definition) : undefined;
        if (row?.screen && route.Component) components.set(row.screen, [...(components.get(row.screen) ?? []), route.Component]);
        if (route.children) walk(route.children);
      }
    };
    walk(built);
    const shared = [...components.values()].filter((list) => list.length > 1);
    expect(shared.length).toBeGreaterThan(0);
    for (const list of shared) expect(new Set(list).size).toBe(1);
  });
});

function findRow(table: typeof routes, name: string): (typeof routes)[number] | undefined {
  for (const row of table) {
    if (row.name === name) return row;
    const inner = row.children ? findRow(row.children as typeof routes, name) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
