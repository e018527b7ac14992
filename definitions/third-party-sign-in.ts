/**
 * Sign-in with Google: the console sends the browser to Google's authorization endpoint (OpenID
 * Connect implicit flow, an ID token in the URL fragment) and back to the login page, which hands
 * the token to `POST /auth/googleToken`. No third-party script runs in the console (its CSP allows
 * none).
 */
export const googleSignIn = {
  authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  scope: 'openid email profile',
  /** The page Google sends the browser back to. */
  returnPath: '/login',
  /** sessionStorage key of the pending request (state, and where to go afterwards). */
  pendingKey: 'larder.googleSignIn',
} as const;
