import { afterEach, describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { loginMachine } from '../../machines/login.ts';
import { createAuthApi } from '../../src/api/auth.ts';
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import { createLoginActors } from '../../src/api/login-actors.ts';
import { createSession } from '../../src/api/session.ts';
import { fakeFetch, json, problem, tokenAnswer, type Handler } from './support/fake-fetch.ts';

const config = { consoleClient: { id: 'larder-console', secret: 'console-secret' }, googleClientId: null, devMailbox: true };
const me = {
  _id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  organizations: ['org-1'],
  verified: true,
  superAdmin: false,
  questionnaireCompleted: false,
  createdDate: '2025-01-01T00:00:00.000Z',
  lastLoggedIn: null,
};
const mail = { id: 'm1', to: 'ada@example.com', from: 'Larder <no-reply@larder.local>', subject: 'Confirm', text: 't', link: 'http://localhost/confirm/c1', kind: 'confirm', createdAt: '2025-01-01T00:00:00.000Z' };

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

/** A small stand-in for the server's account routes. */
const accountServer: Handler = (_request, sent) => {
  const route = `${sent.method} ${sent.url.split('?')[0]}`;
  switch (route) {
    case 'GET /api/config':
      return json(200, config);
    case 'POST /auth/token': {
      const form = Object.fromEntries(new URLSearchParams(sent.body));
      if (form.grant_type === 'refresh_token') return tokenAnswer(2);
      return form.password === 'right' ? tokenAnswer(1) : problem(400, 'invalid_grant', 'The username or password is not correct.');
    }
    case 'GET /api/user/me':
      return sent.authorization ? json(200, me) : problem(401, 'missing_token');
    case 'POST /auth/logout':
    case 'POST /api/user/me/confirmation':
      return json(sent.url.includes('logout') ? 204 : 202, { ok: true });
    case 'POST /auth/googleToken':
      return tokenAnswer(3);
    case 'GET /api/dev/mailbox':
      return json(200, { mails: [mail] });
    case 'POST /api/user':
      return json(201, { status: 'accepted' });
    default:
      return json(200, { ok: true });
  }
};

function start(handler: Handler = accountServer) {
  const fake = fakeFetch(handler);
  const session = createSession({ events: null });
  const client = createApiClient({ session, prefixUrl: 'http://localhost/', fetch: fake.fetch });
  clients.push(client);
  return { auth: createAuthApi(client), session, fake };
}

describe('auth api', () => {
  it('signs in with the password grant: client id and secret from /api/config, form-encoded, pair stored', async () => {
    const { auth, session, fake } = start();
    expect(await auth.passwordGrant('ada', 'right')).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(session.read()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    const grant = fake.to('/auth/token')[0]!;
    expect(grant.contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(grant.body))).toEqual({
      grant_type: 'password',
      username: 'ada',
      password: 'right',
      client_id: 'larder-console',
      client_secret: 'console-secret',
    });
    await auth.passwordGrant('ada', 'right');
    expect(fake.to('/api/config')).toHaveLength(1);
  });

  it('rejects bad credentials with invalid_grant and stores nothing', async () => {
    const { auth, session } = start();
    await expect(auth.passwordGrant('ada', 'wrong')).rejects.toMatchObject({ status: 400, code: 'invalid_grant' });
    expect(session.read()).toBeNull();
  });

  it('asks for /api/config again after a failure instead of keeping it', async () => {
    let fail = true;
    const { auth } = start((request, sent) => (sent.url === '/api/config' && fail ? problem(503, 'unavailable') : accountServer(request, sent)));
    await expect(auth.config()).rejects.toMatchObject({ status: 503 });
    fail = false;
    expect(await auth.config()).toEqual(config);
  });

  it('refreshes without storing (the coordinator stores)', async () => {
    const { auth, session } = start();
    expect(await auth.refreshGrant('refresh-1')).toEqual({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(session.read()).toBeNull();
  });

  it('signs out by the refresh token alone and clears the pair, even when the server cannot be reached', async () => {
    const { auth, session, fake } = start();
    session.write({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    await auth.logout();
    const [sent] = fake.to('/auth/logout');
    expect(sent!.authorization).toBeNull();
    expect(JSON.parse(sent!.body)).toEqual({ refresh_token: 'refresh-1' });
    expect(session.read()).toBeNull();

    const offline = start(() => {
      throw new TypeError('Failed to fetch');
    });
    offline.session.write({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    await expect(offline.auth.logout()).resolves.toBeUndefined();
    expect(offline.session.read()).toBeNull();
  });

  it('sends each account call to its route', async () => {
    const { auth, session, fake } = start();
    session.write({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(await auth.me()).toEqual(me);
    expect(await auth.signUp({ username: 'ada', password: 'long enough', email: 'ada@example.com' }, 'inv 1')).toEqual({ status: 'accepted' });
    await auth.confirmEmail('c/1');
    await auth.saveQuestionnaire({ role: 'developer', teamSize: '2-10' });
    await auth.requestResetMail('ada@example.com');
    await auth.resetPassword('reset-token', 'new password');
    await auth.resendConfirmation();
    expect(await auth.devMailbox({ to: 'ada@example.com', limit: 5 })).toEqual([mail]);

    expect(fake.sent.map((entry) => `${entry.method} ${entry.url} ${entry.authorization ? 'bearer' : 'anonymous'}`)).toEqual([
      'GET /api/user/me bearer',
      'POST /api/user?inviteID=inv+1 anonymous',
      'POST /api/user/c%2F1/confirm bearer',
      'PUT /api/user/questionnaire bearer',
      'POST /auth/resetPasswordEmail anonymous',
      'POST /auth/resetPassword anonymous',
      'POST /api/user/me/confirmation bearer',
      'GET /api/dev/mailbox?to=ada%40example.com&limit=5 anonymous',
    ]);
    expect(JSON.parse(fake.to('/auth/resetPassword')[0]!.body)).toEqual({ password: 'new password', token: 'reset-token' });
    expect(JSON.parse(fake.to('/api/user/questionnaire')[0]!.body)).toEqual({ role: 'developer', teamSize: '2-10' });
  });

  it('signs in (or up) with a third-party token and stores the pair', async () => {
    const { auth, session, fake } = start();
    expect(await auth.googleToken('id-token', { signup: true })).toEqual({ accessToken: 'access-3', refreshToken: 'refresh-3' });
    await auth.googleToken('id-token');
    expect(fake.sent.map((entry) => entry.url)).toEqual(['/auth/googleToken?signup=true', '/auth/googleToken']);
    expect(JSON.parse(fake.sent[0]!.body)).toEqual({ token: 'id-token' });
    expect(session.read()).toEqual({ accessToken: 'access-3', refreshToken: 'refresh-3' });
  });
});

describe('login actors over the auth api', () => {
  it('runs the login machine end to end against the account routes', async () => {
    const { auth, session } = start();
    const seen: string[] = [];
    const machine = loginMachine.provide({ actors: createLoginActors(auth, { onUser: (user) => seen.push(user.username) }) });
    const actor = createActor(machine, { input: {} }).start();
    actor.send({ type: 'SUBMIT', username: 'ada', password: 'right' });
    const snapshot = await waitFor(actor, (state) => state.status === 'done');
    expect(snapshot.output).toEqual({ navigate: '/organization/org-1' });
    expect(seen).toEqual(['ada']);
    expect(session.read()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  });

  it('signs an unverified user out again and leaves no tokens behind', async () => {
    const { auth, session, fake } = start((request, sent) =>
      sent.url === '/api/user/me' ? json(200, { ...me, verified: false }) : accountServer(request, sent),
    );
    const actor = createActor(loginMachine.provide({ actors: createLoginActors(auth) }), { input: {} }).start();
    actor.send({ type: 'SUBMIT', username: 'ada', password: 'right' });
    const snapshot = await waitFor(actor, (state) => state.matches('idle'));
    expect(snapshot.context.error).toEqual({ key: 'login.unverified' });
    expect(fake.to('/auth/logout')).toHaveLength(1);
    expect(session.read()).toBeNull();
  });
});
