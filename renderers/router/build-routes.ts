/**
 * Builds react-router's data routes from the route table: one route per row, grouped under the
 * layout each top-level row names; real screens load lazily (a bundle chunk each), placeholder rows
 * render the placeholder; guards run in the root loader by the names the rows carry.
 */
import { createElement } from 'react';
import type { RouteObject, ShouldRevalidateFunctionArgs } from 'react-router';
import { reservedParamValues, type LayoutName, type RouteDefinition } from '../../definitions/routes.ts';
import { createGuardLoader } from './guard-loader.ts';
import { routerPath } from './router-path.ts';
import type { RouteHandle, RouterParts } from './types.ts';

function buildRoute(definition: RouteDefinition, depth: number, parts: RouterParts): RouteObject {
  const handle: RouteHandle = {
    name: definition.name,
    aliases: definition.aliases ?? [],
    title: definition.title,
    guards: definition.guards ?? [],
    placeholder: definition.placeholder === true,
  };
  const children = definition.children?.map((child) => buildRoute(child, depth + 1, parts));
  const screen: Pick<RouteObject, 'Component' | 'lazy'> = definition.outlet
    ? {}
    : definition.placeholder
    ? {
        Component: () =>
          createElement(parts.placeholder, { title: definition.title, depth, hasChildren: Boolean(children?.length) }),
      }
    : {
        lazy: async () => {
          const module = await parts.screens[definition.screen!]();
          return { Component: module.default };
        },
      };
  const path = definition.path === undefined ? '' : routerPath(definition.path);
  if (path === '' && !children?.length) return { id: definition.name, index: true, handle, ...screen };
  return { id: definition.name, path: path || undefined, handle, children, ...screen };
}

/** Revalidate the guards on every change of path or query, not only when params change. */
function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname || currentUrl.search !== nextUrl.search || defaultShouldRevalidate;
}

export function buildRoutes(table: readonly RouteDefinition[], parts: RouterParts): RouteObject[] {
  const groups = new Map<LayoutName, RouteObject[]>();
  for (const definition of table) {
    const layout = definition.layout ?? 'console';
    const group = groups.get(layout) ?? [];
    group.push(buildRoute(definition, 1, parts));
    groups.set(layout, group);
  }
  const routes: RouteObject[] = [
    {
      id: 'root',
      path: '/',
      Component: parts.root,
      HydrateFallback: parts.fallback,
      ErrorBoundary: parts.error,
      loader: createGuardLoader(() => routes, parts.guards, reservedParamValues),
      shouldRevalidate,
      children: [...groups].map(([layout, children]) => ({
        id: `layout:${layout}`,
        lazy: async () => ({ Component: (await parts.layouts[layout]()).default }),
        children,
      })),
    },
  ];
  return routes;
}
