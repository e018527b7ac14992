import { getApiClient } from '../api/client.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { routePath } from '../../definitions/route-path.ts';

/** Login while already signed in goes to `/`. */
export const signedOut: Guard = () => (getApiClient().session.read() ? routePath('home') : undefined);
