import { routePath } from '../../definitions/route-path.ts';

/** The login page, asked to come back to `url` after signing in. */
export function loginRedirect(url: URL | string): string {
  const target = typeof url === 'string' ? url : url.pathname + url.search;
  return routePath('login', {}, { returnUrl: target === '/' ? undefined : target });
}
