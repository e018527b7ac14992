import { getApiClient } from '../api/client.ts';
import { loginRedirect } from '../shell/login-redirect.ts';
import type { Guard } from '../../renderers/router/types.ts';

/** Every route but the public ones needs a token; without one, login with returnUrl. */
export const signedIn: Guard = ({ url }) => (getApiClient().session.read() ? undefined : loginRedirect(url));
