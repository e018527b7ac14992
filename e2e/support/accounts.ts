/** Accounts for the browser tests, made over HTTP where the UI itself is not what a test checks. */
import type { APIRequestContext } from '@playwright/test';

export interface Account {
  username: string;
  email: string;
  password: string;
}

let counter = 0;

/** A fresh account's details; names are unique per run and per call. */
export function newAccount(prefix = 'user'): Account {
  counter += 1;
  const id = `${prefix}${Date.now().toString(36)}${counter}`;
  return { username: id, email: `${id}@example.test`, password: `pw-${id}-secret` };
}

export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  kind: string;
  createdAt: string;
}

/** The newest mail of a kind to an address, waiting for it to arrive. */
export async function latestMail(request: APIRequestContext, to: string, kind: string, timeoutMs = 10_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await request.get('/api/dev/mailbox', { params: { to } });
    const { mails } = (await response.json()) as { mails: Mail[] };
    const mail = mails.find((m) => m.kind === kind);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No ${kind} mail to ${to}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function passwordGrant(request: APIRequestContext, account: Account): Promise<string> {
  const config = (await (await request.get('/api/config')).json()) as { consoleClient: { id: string; secret: string } };
  const response = await request.post('/auth/token', {
    form: {
      grant_type: 'password',
      username: account.username,
      password: account.password,
      client_id: config.consoleClient.id,
      client_secret: config.consoleClient.secret,
    },
  });
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Signs up over the API; the account stays unverified. */
export async function signUpOverApi(request: APIRequestContext, account: Account): Promise<void> {
  const response = await request.post('/api/user', { data: account });
  if (response.status() !== 201) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
}

/** Signs up and confirms the e-mail over the API, as if the user had followed the mail's link. */
export async function createVerifiedAccount(request: APIRequestContext, prefix = 'verified'): Promise<Account> {
  const account = newAccount(prefix);
  await signUpOverApi(request, account);
  const mail = await latestMail(request, account.email, 'confirm');
  const confirmID = new URL(mail.link!).pathname.split('/').pop()!;
  const token = await passwordGrant(request, account);
  const confirmed = await request.post(`/api/user/${confirmID}/confirm`, { headers: { authorization: `Bearer ${token}` } });
  if (!confirmed.ok()) throw new Error(`confirm failed: ${confirmed.status()}`);
  // Leave the console's sessions to the browser: this one is not needed any more.
  await request.post('/auth/logout', { headers: { authorization: `Bearer ${token}` } });
  return account;
}
