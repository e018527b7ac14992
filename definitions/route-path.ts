/**
 * Builds a URL from a route's name, so screens link by name and the table stays the one place a
 * path is written.
 */
import { routes, type RouteDefinition } from './routes.ts';

const templates = new Map<string, string>();

function join(parent: string, path: string | undefined): string {
  if (path === undefined) return parent || '/';
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

function collect(list: readonly RouteDefinition[], parent: string) {
  for (const route of list) {
    const full = join(parent, route.path);
    for (const name of [route.name, ...(route.aliases ?? [])]) templates.set(name, full);
    if (route.children) collect(route.children, full);
  }
}
collect(routes, '');

/** The full path template of a route (`{param}` notation), or undefined for an unknown name. */
export function routeTemplate(name: string): string | undefined {
  return templates.get(name);
}

export function routePath(name: string, params: Record<string, string> = {}, query: Record<string, string | undefined> = {}): string {
  const template = templates.get(name);
  if (template === undefined) throw new Error(`No route is called "${name}".`);
  const path = template.replace(/\{(\w+)\}/g, (_match, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Route "${name}" needs the parameter "${key}".`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
