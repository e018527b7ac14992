/** What the project-user suites share: API tokens, sign-ups and calls to `/auth/public`. */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.ts';
import { json } from './test-app.ts';
import { bearer, mailsTo } from './flows.ts';
import type { ContentFixture } from './content.ts';

export interface EndUserTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  user_id: string;
}

/** Mints an API token of the fixture's project with these rights. */
export async function mintToken(t: TestApp, f: ContentFixture, rights: Record<string, unknown> = {}): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/apiTokens',
    headers: bearer(f.access),
    payload: { name: 'app', projectID: f.project, organizationID: f.org, ...rights },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json(response).jwtToken as string;
}

/** A call to `/auth/public` with a bearer. */
export function authCall(t: TestApp, method: 'GET' | 'POST', path: string, token: string | undefined, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url: `/auth/public${path}`,
    headers: { ...(token ? bearer(token) : {}), 'accept-version': 'v1', ...headers },
    ...(payload === undefined ? {} : typeof payload === 'string' ? { payload } : { payload: payload as object }),
  });
}

let counter = 0;
/** A fresh e-mail address. */
export const newEmail = (prefix = 'enduser') => `${prefix}${Date.now().toString(36)}${++counter}@example.test`;

/** Signs up (asserting exactly 201) and returns the tokens. */
export async function signUpEndUser(t: TestApp, apiToken: string, email: string, password = 'correct horse 1'): Promise<EndUserTokens> {
  const response = await authCall(t, 'POST', '/user', apiToken, { email, password });
  expect(response.statusCode, response.body).toBe(201);
  return json<EndUserTokens>(response);
}

/** A multipart/form-data body as the client sends it (form-data package), with its content type. */
export function multipart(fields: Record<string, string>) {
  const boundary = '--------------------------' + '0123456789abcdef01234567';
  const body = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  return { payload: `${body}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** `POST /auth/public/user/token` as the client sends it (multipart, API-token bearer). */
export function refreshEndUser(t: TestApp, apiToken: string, refreshToken: string): Promise<LightMyRequestResponse> {
  const { payload, headers } = multipart({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'project-client' });
  return authCall(t, 'POST', '/user/token', apiToken, payload, headers);
}

/** The payload of a JWT (no check). */
export const jwtPayload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** The one-time code of the last mail or SMS to an address. */
export async function lastCode(t: TestApp, to: string): Promise<string> {
  const [mail] = await mailsTo(t.app, to);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no code sent to ${to}`);
  return code;
}
