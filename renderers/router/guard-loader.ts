/**
 * The loader that runs the guards of every route matching a URL, from the outermost route inward,
 * one after the other (react-router runs route loaders in parallel, and a guard may depend on the
 * one before it: no token, no organization check). The first guard that names a path redirects.
 * Only once every guard has let the navigation through does `load` fetch the matched routes'
 * modules, so a redirect never downloads the screens it leaves.
 */
import { data, matchRoutes, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { GuardName } from '../../definitions/routes.ts';
import type { Guard, RouteHandle } from './types.ts';

export function createGuardLoader(
  routes: () => RouteObject[],
  guards: Readonly<Record<GuardName, Guard>>,
  reserved: Readonly<Record<string, readonly string[]>>,
  load: (routeIds: readonly string[]) => Promise<void> = async () => undefined,
) {
  return async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const matches = matchRoutes(routes(), url.pathname) ?? [];
    for (const match of matches) {
      for (const [param, value] of Object.entries(match.params)) {
        if (value !== undefined && reserved[param]?.includes(value)) throw data(null, { status: 404 });
      }
    }
    const ran = new Set<GuardName>();
    for (const match of matches) {
      const handle = match.route.handle as RouteHandle | undefined;
      for (const name of handle?.guards ?? []) {
        if (ran.has(name)) continue;
        ran.add(name);
        const target = await guards[name]({ url, params: match.params, signal: request.signal });
        if (target && target !== url.pathname + url.search) throw redirect(target);
      }
    }
    await load(matches.map((match) => match.route.id!));
    return null;
  };
}
