import { routePath } from '../../definitions/route-path.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { loadMe } from './load-me.ts';

/** Only platform super-admins enter the admin area; everyone else goes home. */
export const platformAdmin: Guard = async ({ url }) => {
  const result = await loadMe(url);
  if (!result.ok) return result.redirect;
  const { me } = result;
  return me.superAdmin ? undefined : routePath('home');
};
