/**
 * The console's one HTTP client. It sends the session's bearer token, answers a 401 through the
 * refresh coordinator and replays the call once, and reports what the shell must react to
 * (403, API limits, the end of the session) as app-level events.
 */
import ky, { type KyInstance, type Options } from 'ky';
import { createTokenRefresher, type TokenRefresher } from '../../machines/token-refresh.ts';
import { requestJson } from './request-json.ts';
import { createSession, type Session } from './session.ts';
import { refreshGrant } from './token-grants.ts';

/** What the shell subscribes to. `url` is the path and query of the call. */
export type ApiEvent =
  /** A 403: the shell sends page loads (GET) home and shows "Insufficient permissions" for writes. */
  | { type: 'forbidden'; method: string; url: string }
  /** A 429 of a non-sign-in call, or any answer carrying a `warning` header: the API-limit dialog. */
  | { type: 'rateLimited'; method: string; url: string; status: number; warning: string | null }
  /** The server refused the refresh token; tokens are cleared. The shell goes to /login with returnUrl. */
  | { type: 'sessionEnded' };

export interface ApiClientOptions {
  session: Session;
  /** Base of every path; '/' in the browser, an absolute URL where there is no document (tests). */
  prefixUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** Milliseconds per attempt. */
  timeout?: number;
}

export interface ApiClient {
  /**
   * The ky instance: bearer, refresh-and-replay and events built in. The bearer of the session
   * replaces any Authorization header; pass `context: { anonymous: true }` to send your own or none,
   * and `context: { ownsForbidden: true }` for a call whose 403 the caller explains itself.
   */
  readonly http: KyInstance;
  readonly session: Session;
  readonly refresher: TokenRefresher;
  /** Calls `path` (relative, no leading '/') and parses the JSON answer; rejects with ApiError. */
  json<T>(path: string, options?: Options): Promise<T>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
  dispose(): void;
}

const BEARER = /^Bearer\s+(.+)$/i;

/** Calls whose 429 belongs to a form (sign-in, sign-up, reset mail), not to the API-limit dialog. */
export function isSignInCall(method: string, pathname: string): boolean {
  if (/\/auth\/[^/]+$/.test(pathname)) return true;
  return method.toUpperCase() === 'POST' && /\/api\/user\/?$/.test(pathname);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { session } = options;
  const listeners = new Set<(event: ApiEvent) => void>();
  const publish = (event: ApiEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const base = ky.create({
    prefixUrl: options.prefixUrl ?? '/',
    timeout: options.timeout ?? 30_000,
    // No automatic retries (a 429 is the user's business); the limit of 1 leaves room for the replay after a refresh.
    retry: { limit: 1, methods: [], statusCodes: [], afterStatusCodes: [] },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  const refresher = createTokenRefresher({ refresh: (refreshToken) => refreshGrant(base, refreshToken), storage: session });
  const stopSessionEnded = refresher.onSessionEnded(() => publish({ type: 'sessionEnded' }));

  const http = base.extend({
    hooks: {
      beforeRequest: [
        (request, requestOptions) => {
          if (requestOptions.context.anonymous) return;
          // Read on every attempt, so the replay after a refresh carries the new token.
          const token = refresher.getAccessToken();
          if (token) request.headers.set('authorization', `Bearer ${token}`);
          else request.headers.delete('authorization');
        },
      ],
      afterResponse: [
        async (request, requestOptions, response, { retryCount }) => {
          if (response.status === 401 && retryCount === 0 && !requestOptions.context.anonymous) {
            const failedToken = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
            if (failedToken) {
              try {
                await refresher.refreshAfter401(failedToken);
              } catch {
                return; // no new token: this call's 401 stands
              }
              return ky.retry({ delay: 0, code: 'TOKEN_REFRESHED' });
            }
          }
          const { pathname, search } = new URL(request.url);
          const url = pathname + search;
          // A call that answers its own 403 (`context: { ownsForbidden: true }`) shows its own message.
          if (response.status === 403 && !requestOptions.context.ownsForbidden) publish({ type: 'forbidden', method: request.method, url });
          const warning = response.headers.get('warning');
          if ((response.status === 429 && !isSignInCall(request.method, pathname)) || warning !== null) {
            publish({ type: 'rateLimited', method: request.method, url, status: response.status, warning });
          }
        },
      ],
    },
  });

  return {
    http,
    session,
    refresher,
    json: <T>(path: string, callOptions?: Options) => requestJson<T>(http(path, callOptions)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      stopSessionEnded();
      refresher.stop();
      listeners.clear();
    },
  };
}

let browserClient: ApiClient | null = null;

/** The page's client over localStorage, made on first use so importing this module costs nothing. */
export function getApiClient(): ApiClient {
  browserClient ??= createApiClient({ session: createSession() });
  return browserClient;
}
