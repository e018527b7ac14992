import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  loginMachine,
  routeAfterLogin,
  safeReturnUrl,
  type LoginCredentials,
  type LoginInput,
  type LoginUser,
} from '../../machines/login.ts';
import type { TokenPair } from '../../machines/token-refresh.ts';
import { problemError, settle } from './support/deferred.ts';

const tokens: TokenPair = { accessToken: 'access', refreshToken: 'refresh' };
const verified: LoginUser = { verified: true, organizations: ['org-1', 'org-2'] };
const unverified: LoginUser = { verified: false, organizations: [] };

interface Stubs {
  requestToken?: (credentials: LoginCredentials) => Promise<TokenPair>;
  loadUser?: () => Promise<LoginUser>;
  confirmEmail?: (confirmID: string) => Promise<unknown>;
  logout?: () => Promise<unknown>;
}

function start(input: LoginInput = {}, stubs: Stubs = {}) {
  const requestToken = vi.fn(stubs.requestToken ?? (async () => tokens));
  const loadUser = vi.fn(stubs.loadUser ?? (async () => verified));
  const confirmEmail = vi.fn(stubs.confirmEmail ?? (async () => ({ ok: true })));
  const logout = vi.fn(stubs.logout ?? (async () => undefined));
  const machine = loginMachine.provide({
    actors: {
      requestToken: fromPromise<TokenPair, LoginCredentials>(({ input: credentials }) => requestToken(credentials)),
      loadUser: fromPromise<LoginUser, void>(() => loadUser()),
      confirmEmail: fromPromise<unknown, { confirmID: string }>(({ input: confirm }) => confirmEmail(confirm.confirmID)),
      logout: fromPromise<unknown, void>(() => logout()),
    },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, requestToken, loadUser, confirmEmail, logout };
}

async function submit(actor: ReturnType<typeof start>['actor'], username = 'ada', password = 'correct horse') {
  actor.send({ type: 'SUBMIT', username, password });
  return waitFor(actor, (snapshot) => !snapshot.hasTag('busy'));
}

describe('login machine: where a signed-in user goes', () => {
  it('goes to the first organization of a verified user', async () => {
    const { actor, requestToken, confirmEmail, logout } = start();
    const snapshot = await submit(actor);
    expect(snapshot.status).toBe('done');
    expect(snapshot.output).toEqual({ navigate: '/organization/org-1' });
    expect(requestToken).toHaveBeenCalledWith({ username: 'ada', password: 'correct horse' });
    expect(confirmEmail).not.toHaveBeenCalled();
    expect(logout).not.toHaveBeenCalled();
  });

  it('goes to a same-origin returnUrl, query included', async () => {
    const { actor } = start({ returnUrl: '/organization/org-2/settings?view=plans' });
    expect((await submit(actor)).output).toEqual({ navigate: '/organization/org-2/settings?view=plans' });
  });

  it.each(['//evil.example/path', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', 'organization/org-2', '', '/ org', '/a\nb'])(
    'ignores the unsafe returnUrl %j and goes to the first organization',
    async (returnUrl) => {
      const { actor } = start({ returnUrl });
      expect((await submit(actor)).output).toEqual({ navigate: '/organization/org-1' });
    },
  );

  it('goes home when the user has no organization, returnUrl or not', async () => {
    const { actor } = start({ returnUrl: '/admin' }, { loadUser: async () => ({ verified: true, organizations: [] }) });
    expect((await submit(actor)).output).toEqual({ navigate: '/' });
  });

  it('stays (navigate null) when an invite is being accepted', async () => {
    const { actor } = start({ inviteID: 'inv-1', returnUrl: '/organization/org-2' });
    expect((await submit(actor)).output).toEqual({ navigate: null });
  });

  it('encodes the organization id into the path', async () => {
    const { actor } = start({}, { loadUser: async () => ({ verified: true, organizations: ['a/b?c'] }) });
    expect((await submit(actor)).output).toEqual({ navigate: '/organization/a%2Fb%3Fc' });
  });
});

describe('login machine: e-mail verification', () => {
  it('refuses an unverified user without confirmID: message, logout, back to the form with the typed values', async () => {
    const { actor, logout, confirmEmail } = start({}, { loadUser: async () => unverified });
    const snapshot = await submit(actor, 'ada', 'pw-typed');
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.error).toEqual({ key: 'login.unverified' });
    expect(snapshot.context.username).toBe('ada');
    expect(snapshot.context.password).toBe('pw-typed');
    expect(logout).toHaveBeenCalledTimes(1);
    expect(confirmEmail).not.toHaveBeenCalled();
  });

  it('confirms the e-mail with confirmID, then goes to the questionnaire with a toast', async () => {
    const { actor, confirmEmail, logout } = start({ confirmID: 'conf-1' }, { loadUser: async () => unverified });
    const snapshot = await submit(actor);
    expect(confirmEmail).toHaveBeenCalledWith('conf-1');
    expect(snapshot.output).toEqual({ navigate: '/questionnaire', toast: 'confirm.done' });
    expect(logout).not.toHaveBeenCalled();
  });

  it('confirms but stays when an invite is being accepted too', async () => {
    const { actor } = start({ confirmID: 'conf-1', inviteID: 'inv-1' }, { loadUser: async () => unverified });
    expect((await submit(actor)).output).toEqual({ navigate: null, toast: 'confirm.done' });
  });

  it('does not confirm an already verified account again and routes it as usual', async () => {
    const { actor, confirmEmail } = start({ confirmID: 'conf-1' });
    expect((await submit(actor)).output).toEqual({ navigate: '/organization/org-1' });
    expect(confirmEmail).not.toHaveBeenCalled();
  });

  it('shows the server detail and signs out when the confirmation fails', async () => {
    const { actor, logout } = start(
      { confirmID: 'conf-1' },
      {
        loadUser: async () => unverified,
        confirmEmail: async () => Promise.reject(problemError(400, 'confirmation_expired', 'This confirmation link has expired.')),
      },
    );
    const snapshot = await submit(actor);
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.error).toEqual({ key: 'confirm.failed', values: { detail: 'This confirmation link has expired.' } });
    expect(logout).toHaveBeenCalledTimes(1);
  });
});

describe('login machine: failures', () => {
  it('maps invalid_grant to login.invalidCredentials without loading the user or signing out', async () => {
    const { actor, loadUser, logout } = start(
      {},
      { requestToken: async () => Promise.reject(problemError(400, 'invalid_grant', 'The username or password is not correct.')) },
    );
    const snapshot = await submit(actor);
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.error).toEqual({ key: 'login.invalidCredentials' });
    expect(loadUser).not.toHaveBeenCalled();
    expect(logout).not.toHaveBeenCalled();
  });

  it('maps 429 to login.throttled with the server detail', async () => {
    const { actor } = start({}, { requestToken: async () => Promise.reject(problemError(429, 'rate_limited', 'Too many attempts. Try again in 60 seconds.')) });
    const snapshot = await submit(actor);
    expect(snapshot.context.error).toEqual({ key: 'login.throttled', values: { detail: 'Too many attempts. Try again in 60 seconds.' } });
  });

  it.each([
    ['a server error', problemError(500, 'internal')],
    ['an unknown client', problemError(400, 'invalid_client')],
    ['a network failure', new TypeError('Failed to fetch')],
    ['a thrown string', 'boom'],
  ])('maps %s to login.failed', async (_name, error) => {
    const { actor, logout } = start({}, { requestToken: async () => Promise.reject(error) });
    const snapshot = await submit(actor);
    expect(snapshot.context.error).toEqual({ key: 'login.failed' });
    expect(logout).not.toHaveBeenCalled();
  });

  it('signs out with user.loadFailed when the user cannot be loaded', async () => {
    const { actor, logout } = start({}, { loadUser: async () => Promise.reject(problemError(500, 'internal')) });
    const snapshot = await submit(actor);
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.error).toEqual({ key: 'user.loadFailed' });
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('returns to the form even when signing out fails', async () => {
    const { actor } = start({}, { loadUser: async () => unverified, logout: async () => Promise.reject(new TypeError('offline')) });
    const snapshot = await submit(actor);
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.error).toEqual({ key: 'login.unverified' });
  });
});

describe('login machine: the form', () => {
  it('ignores SUBMIT without a username or password', async () => {
    const { actor, requestToken } = start();
    actor.send({ type: 'SUBMIT', username: '  ', password: 'pw' });
    actor.send({ type: 'SUBMIT', username: 'ada', password: '' });
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(requestToken).not.toHaveBeenCalled();
  });

  it('is busy while working and ignores another SUBMIT meanwhile', async () => {
    const { actor, requestToken } = start();
    actor.send({ type: 'SUBMIT', username: 'ada', password: 'pw' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'SUBMIT', username: 'bob', password: 'pw' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(requestToken).toHaveBeenCalledTimes(1);
  });

  it('clears the error on RESET_ERROR and on a new SUBMIT, and can succeed on a second try', async () => {
    let attempt = 0;
    const { actor } = start({}, {
      requestToken: async () => (++attempt === 1 ? Promise.reject(problemError(400, 'invalid_grant')) : tokens),
    });
    expect((await submit(actor)).context.error).toEqual({ key: 'login.invalidCredentials' });
    actor.send({ type: 'RESET_ERROR' });
    expect(actor.getSnapshot().context.error).toBeNull();

    const snapshot = await submit(actor, 'ada', 'right');
    expect(snapshot.context.error).toBeNull();
    expect(snapshot.output).toEqual({ navigate: '/organization/org-1' });
  });

  it('fails loudly (login.failed) when the console forgot to provide the actors', async () => {
    const actor = createActor(loginMachine, { input: {} }).start();
    actor.send({ type: 'SUBMIT', username: 'ada', password: 'pw' });
    const snapshot = await waitFor(actor, (state) => !state.hasTag('busy'));
    expect(snapshot.context.error).toEqual({ key: 'login.failed' });
  });
});

describe('safeReturnUrl and routeAfterLogin', () => {
  it('keeps same-origin paths and refuses everything else', () => {
    expect(safeReturnUrl('/organization/x?view=plans#top')).toBe('/organization/x?view=plans#top');
    expect(safeReturnUrl('/')).toBe('/');
    for (const unsafe of [undefined, null, '', '//x.example', '/\\x.example', 'http://x.example', 'x', ' /x', '/x\ty']) {
      expect(safeReturnUrl(unsafe)).toBeNull();
    }
  });

  it('routes by invite, organizations and returnUrl', () => {
    expect(routeAfterLogin({ inviteID: 'i' }, verified)).toEqual({ navigate: null });
    expect(routeAfterLogin({}, { verified: true, organizations: [] })).toEqual({ navigate: '/' });
    expect(routeAfterLogin({ returnUrl: '/x' }, verified)).toEqual({ navigate: '/x' });
    expect(routeAfterLogin({ returnUrl: '//x' }, verified)).toEqual({ navigate: '/organization/org-1' });
  });
});
