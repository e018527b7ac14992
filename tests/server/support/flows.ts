/** Account flows the server suites share: sign up, read the outbox, sign in. */
import type { App } from '../../../server/app.ts';
import { json } from './test-app.ts';

export const CONSOLE = { client_id: 'larder-console', client_secret: 'larder-console' };

let counter = 0;
export function newAccount(prefix = 'user') {
  counter += 1;
  const tag = `${prefix}${counter}${Math.random().toString(36).slice(2, 7)}`;
  return { username: tag, email: `${tag}@example.com`, password: 'correct horse battery' };
}

export async function signUp(app: App, account: { username: string; email: string; password: string }, inviteID?: string) {
  return app.inject({
    method: 'POST',
    url: `/api/user${inviteID ? `?inviteID=${encodeURIComponent(inviteID)}` : ''}`,
    payload: account,
  });
}

export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  kind: string;
}

export async function mailsTo(app: App, to: string): Promise<Mail[]> {
  const response = await app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(to)}` });
  return json<{ mails: Mail[] }>(response).mails;
}

export async function lastMailTo(app: App, to: string, kind?: string): Promise<Mail> {
  const mails = (await mailsTo(app, to)).filter((m) => !kind || m.kind === kind);
  if (!mails[0]) throw new Error(`no ${kind ?? ''} mail to ${to}`);
  return mails[0];
}

export function passwordGrant(app: App, username: string, password: string, extra: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/auth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password, ...CONSOLE, ...extra }).toString(),
  });
}

export function refreshGrant(app: App, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: `/auth/token?grant_type=refresh_token&refresh_token=${encodeURIComponent(refreshToken)}`,
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
}

export async function signIn(app: App, username: string, password: string): Promise<Tokens> {
  const response = await passwordGrant(app, username, password);
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return json<Tokens>(response);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Signs up, confirms the e-mail through the mailed link and signs in. */
export async function verifiedUser(app: App, prefix?: string) {
  const account = newAccount(prefix);
  const created = await signUp(app, account);
  if (created.statusCode !== 201) throw new Error(`sign-up failed: ${created.body}`);
  const tokens = await signIn(app, account.username, account.password);
  const mail = await lastMailTo(app, account.email, 'confirm');
  const id = mail.link!.split('/confirm/')[1]!;
  const confirmed = await app.inject({ method: 'POST', url: `/api/user/${id}/confirm`, headers: bearer(tokens.access_token) });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  return { account, tokens };
}
