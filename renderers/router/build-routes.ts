/**
 * Builds react-router's data routes from the route table: one route per row, grouped under the
 * layout each top-level row names; real screens load lazily (a bundle chunk each), placeholder rows
 * render the placeholder; guards run in the root loader by the names the rows carry.
 *
 * Screens and layouts are not react-router `lazy` routes: the router starts every matched route's
 * `lazy` at once, in parallel with the guards, so opening `/` signed out would download the home
 * screen and the console frame only to redirect to /login. Instead the root loader loads the
 * matched modules after the guards let the navigation through (docs/console-delivery.md).
 */
import { createElement, use, type ComponentType } from 'react';
import type { RouteObject, ShouldRevalidateFunctionArgs } from 'react-router';
import { reservedParamValues, type LayoutName, type RouteDefinition } from '../../definitions/routes.ts';
import { createGuardLoader } from './guard-loader.ts';
import { routerPath } from './router-path.ts';
import type { RouteHandle, RouterParts, ScreenLoader } from './types.ts';

/**
 * The modules of one built route table: loaded once each, then drawn synchronously. Routes that
 * draw the same module share one component, so moving between them (an organization's tabs)
 * keeps the screen mounted and the focus where it was, as react-router's own lazy routes did.
 */
class RouteModules {
  private readonly loaders = new Map<string, ScreenLoader>();
  private readonly slots = new Map<ScreenLoader, ComponentType>();
  private readonly pending = new Map<ScreenLoader, Promise<ComponentType>>();
  private readonly loaded = new Map<ScreenLoader, ComponentType>();

  /** The route's component: draws the module once loaded (the root loader loads it before the route shows). */
  slot(id: string, load: ScreenLoader): ComponentType {
    this.loaders.set(id, load);
    let RouteModule = this.slots.get(load);
    if (!RouteModule) {
      const Slot = () => createElement(this.loaded.get(load) ?? use(this.load(load)));
      Slot.displayName = `RouteModule(${id})`;
      RouteModule = Slot;
      this.slots.set(load, RouteModule);
    }
    return RouteModule;
  }

  private load(load: ScreenLoader): Promise<ComponentType> {
    let promise = this.pending.get(load);
    if (!promise) {
      promise = load().then((module) => {
        this.loaded.set(load, module.default);
        return module.default;
      });
      // A failed download is retried on the next navigation.
      promise.catch(() => this.pending.delete(load));
      this.pending.set(load, promise);
    }
    return promise;
  }

  /** Loads the modules of these routes (those that have one), all at once. */
  async preload(ids: readonly string[]): Promise<void> {
    const loads = ids.map((id) => this.loaders.get(id)).filter((load): load is ScreenLoader => load !== undefined && !this.loaded.has(load));
    await Promise.all(loads.map((load) => this.load(load)));
  }
}

function buildRoute(definition: RouteDefinition, depth: number, parts: RouterParts, modules: RouteModules): RouteObject {
  const handle: RouteHandle = {
    name: definition.name,
    aliases: definition.aliases ?? [],
    title: definition.title,
    guards: definition.guards ?? [],
    placeholder: definition.placeholder === true,
  };
  const children = definition.children?.map((child) => buildRoute(child, depth + 1, parts, modules));
  const screen: Pick<RouteObject, 'Component'> = definition.outlet
    ? {}
    : definition.placeholder
    ? {
        Component: () =>
          createElement(parts.placeholder, { title: definition.title, depth, hasChildren: Boolean(children?.length) }),
      }
    : { Component: modules.slot(definition.name, parts.screens[definition.screen!]) };
  const path = definition.path === undefined ? '' : routerPath(definition.path);
  if (path === '' && !children?.length) return { id: definition.name, index: true, handle, ...screen };
  return { id: definition.name, path: path || undefined, handle, children, ...screen };
}

/** Revalidate the guards on every change of path or query, not only when params change. */
function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname || currentUrl.search !== nextUrl.search || defaultShouldRevalidate;
}

export function buildRoutes(table: readonly RouteDefinition[], parts: RouterParts): RouteObject[] {
  const modules = new RouteModules();
  const groups = new Map<LayoutName, RouteObject[]>();
  for (const definition of table) {
    const layout = definition.layout ?? 'console';
    const group = groups.get(layout) ?? [];
    group.push(buildRoute(definition, 1, parts, modules));
    groups.set(layout, group);
  }
  const routes: RouteObject[] = [
    {
      id: 'root',
      path: '/',
      Component: parts.root,
      HydrateFallback: parts.fallback,
      ErrorBoundary: parts.error,
      loader: createGuardLoader(() => routes, parts.guards, reservedParamValues, (ids) => modules.preload(ids)),
      shouldRevalidate,
      children: [...groups].map(([layout, children]) => ({
        id: `layout:${layout}`,
        Component: modules.slot(`layout:${layout}`, parts.layouts[layout]),
        children,
      })),
    },
  ];
  return routes;
}
