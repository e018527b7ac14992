/** The OAuth token endpoint (`POST /auth/token`): its wire format and the two grants. */
import type { KyInstance } from 'ky';
import type { TokenPair } from '../../machines/token-refresh.ts';
import type { TokenResponse } from '../../definitions/schemas/token-response.ts';
import { requestJson } from './request-json.ts';

/** The token endpoint's answer. */
export type { TokenResponse };

export const toTokenPair = (wire: TokenResponse): TokenPair => ({ accessToken: wire.access_token, refreshToken: wire.refresh_token });

/** ky context flag: send no bearer token and never refresh on 401 (sign-in calls, the refresh itself). */
export const anonymous = { anonymous: true } as const;

export async function passwordGrant(
  http: KyInstance,
  client: { id: string; secret: string },
  username: string,
  password: string,
): Promise<TokenPair> {
  const body = new URLSearchParams({ grant_type: 'password', username, password, client_id: client.id, client_secret: client.secret });
  return toTokenPair(await requestJson<TokenResponse>(http.post('auth/token', { body, context: anonymous })));
}

/**
 * Rotates the pair. The refresh token goes in the form body rather than the query string the
 * server also accepts, so it never lands in access logs.
 */
export async function refreshGrant(http: KyInstance, refreshToken: string): Promise<TokenPair> {
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  return toTokenPair(await requestJson<TokenResponse>(http.post('auth/token', { body, context: anonymous })));
}
