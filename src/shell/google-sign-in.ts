/** The browser side of the Google redirect (see definitions/third-party-sign-in.ts). */
import { googleSignIn } from '../../definitions/third-party-sign-in.ts';

export interface GoogleSignInIntent {
  signup: boolean;
  returnUrl?: string;
  inviteID?: string;
}

interface Pending extends GoogleSignInIntent {
  state: string;
}

const randomId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

export function startGoogleSignIn(clientId: string, intent: GoogleSignInIntent) {
  const pending: Pending = { ...intent, state: randomId() };
  sessionStorage.setItem(googleSignIn.pendingKey, JSON.stringify(pending));
  const url = new URL(googleSignIn.authorizationEndpoint);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'id_token',
    scope: googleSignIn.scope,
    redirect_uri: `${window.location.origin}${googleSignIn.returnPath}`,
    state: pending.state,
    nonce: randomId(),
    prompt: 'select_account',
  }).toString();
  window.location.assign(url.toString());
}

/**
 * The ID token Google sent back in the URL fragment, when its state matches the request this tab
 * made; `error` when the fragment is a refusal or a mismatch. The fragment is removed either way.
 */
export function takeGoogleReturn(): ({ idToken: string } & GoogleSignInIntent) | { error: true } | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  if (!fragment.has('id_token') && !fragment.has('error')) return null;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  const raw = sessionStorage.getItem(googleSignIn.pendingKey);
  sessionStorage.removeItem(googleSignIn.pendingKey);
  const idToken = fragment.get('id_token');
  if (!raw || !idToken) return { error: true };
  try {
    const pending = JSON.parse(raw) as Pending;
    if (pending.state !== fragment.get('state')) return { error: true };
    return { idToken, signup: pending.signup, returnUrl: pending.returnUrl, inviteID: pending.inviteID };
  } catch {
    return { error: true };
  }
}
