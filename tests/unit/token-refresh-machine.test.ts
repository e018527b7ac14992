import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  createTokenRefresher,
  SessionEndedError,
  tokenRefreshMachine,
  type TokenPair,
} from '../../machines/token-refresh.ts';
import { deferred, memoryTokenStorage, problemError, settle, type Deferred } from './support/deferred.ts';

const first: TokenPair = { accessToken: 'access-1', refreshToken: 'refresh-1' };
const second: TokenPair = { accessToken: 'access-2', refreshToken: 'refresh-2' };

function setup(initial: TokenPair | null = first) {
  const storage = memoryTokenStorage(initial);
  const calls: { refreshToken: string; answer: Deferred<TokenPair> }[] = [];
  const refresh = vi.fn((refreshToken: string) => {
    const answer = deferred<TokenPair>();
    calls.push({ refreshToken, answer });
    return answer.promise;
  });
  const refresher = createTokenRefresher({ refresh, storage });
  const ended = vi.fn();
  refresher.onSessionEnded(ended);
  return { storage, calls, refresh, refresher, ended };
}

/** Records how a waiting call ended, without an unhandled rejection. */
function track(promise: Promise<string>) {
  const result: { value?: string; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(result, { value, settled: true }),
    (error: unknown) => Object.assign(result, { error, settled: true }),
  );
  return result;
}

describe('token refresh coordinator', () => {
  it('refreshes once with the stored refresh token and answers with the new access token', async () => {
    const { storage, calls, refresher } = setup();
    const waiting = track(refresher.refreshAfter401('access-1'));
    expect(refresher.status()).toBe('refreshing');
    expect(calls.map((call) => call.refreshToken)).toEqual(['refresh-1']);

    calls[0]!.answer.resolve(second);
    await settle();
    expect(waiting).toEqual({ settled: true, value: 'access-2' });
    expect(storage.read()).toEqual(second);
    expect(refresher.getAccessToken()).toBe('access-2');
    expect(refresher.status()).toBe('idle');
  });

  it('makes exactly one refresh call for concurrent 401s and answers all of them', async () => {
    const { calls, refresh, refresher } = setup();
    const waiting = [1, 2, 3].map(() => track(refresher.refreshAfter401('access-1')));
    await settle();
    // A call that started meanwhile with the old token and failed queues as well.
    waiting.push(track(refresher.refreshAfter401('access-1')));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(waiting.every((entry) => !entry.settled)).toBe(true);

    calls[0]!.answer.resolve(second);
    await settle();
    expect(waiting.map((entry) => entry.value)).toEqual(['access-2', 'access-2', 'access-2', 'access-2']);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('answers a late 401 of the replaced token with the stored token instead of refreshing again', async () => {
    const { calls, refresh, refresher } = setup();
    const earlier = track(refresher.refreshAfter401('access-1'));
    calls[0]!.answer.resolve(second);
    await settle();
    expect(earlier.value).toBe('access-2');

    const late = track(refresher.refreshAfter401('access-1'));
    await settle();
    expect(late).toEqual({ settled: true, value: 'access-2' });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('uses a pair another tab already refreshed', async () => {
    const { storage, refresh, refresher } = setup();
    storage.external(second);
    const waiting = track(refresher.refreshAfter401('access-1'));
    await settle();
    expect(waiting.value).toBe('access-2');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('refreshes again when the new token itself is refused later', async () => {
    const { calls, refresh, refresher } = setup();
    track(refresher.refreshAfter401('access-1'));
    calls[0]!.answer.resolve(second);
    await settle();
    const next = track(refresher.refreshAfter401('access-2'));
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(calls[1]!.refreshToken).toBe('refresh-2');
    calls[1]!.answer.resolve({ accessToken: 'access-3', refreshToken: 'refresh-3' });
    await settle();
    expect(next.value).toBe('access-3');
  });

  it('ends the session when the refresh call answers 401: tokens cleared, waiting calls rejected, listeners told once', async () => {
    const { storage, calls, refresher, ended } = setup();
    const waiting = [track(refresher.refreshAfter401('access-1')), track(refresher.refreshAfter401('access-1'))];
    const refused = problemError(401, 'invalid_refresh_token');
    calls[0]!.answer.reject(refused);
    await settle();

    expect(waiting.map((entry) => entry.error)).toEqual([refused, refused]);
    expect(storage.read()).toBeNull();
    expect(refresher.getAccessToken()).toBeNull();
    expect(refresher.status()).toBe('signedOut');
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the refresh call answers 403 account_disabled (an admin disabled the account), not on another 403', async () => {
    const disabled = setup();
    const waiting = track(disabled.refresher.refreshAfter401('access-1'));
    disabled.calls[0]!.answer.reject(problemError(403, 'account_disabled'));
    await settle();
    expect(waiting.error).toEqual(problemError(403, 'account_disabled'));
    expect(disabled.refresher.status()).toBe('signedOut');
    expect(disabled.ended).toHaveBeenCalledTimes(1);

    const other = setup();
    track(other.refresher.refreshAfter401('access-1'));
    other.calls[0]!.answer.reject(problemError(403, 'insufficient_permissions'));
    await settle();
    expect(other.refresher.status()).not.toBe('signedOut');
    expect(other.ended).not.toHaveBeenCalled();
  });

  it('rejects 401s after the session ended at once, without refreshing or announcing again', async () => {
    const { calls, refresh, refresher, ended } = setup();
    track(refresher.refreshAfter401('access-1'));
    calls[0]!.answer.reject(problemError(401, 'invalid_refresh_token'));
    await settle();

    const late = track(refresher.refreshAfter401('access-1'));
    await settle();
    expect(late.error).toBeInstanceOf(SessionEndedError);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('works again once a new pair is stored after the session ended (signing in again)', async () => {
    const { storage, calls, refresher } = setup();
    track(refresher.refreshAfter401('access-1'));
    calls[0]!.answer.reject(problemError(401, 'invalid_refresh_token'));
    await settle();

    storage.write({ accessToken: 'access-9', refreshToken: 'refresh-9' });
    expect(refresher.status()).toBe('idle');
    const waiting = track(refresher.refreshAfter401('access-9'));
    expect(calls[1]!.refreshToken).toBe('refresh-9');
    calls[1]!.answer.resolve(second);
    await settle();
    expect(waiting.value).toBe('access-2');
  });

  it('rejects the waiting calls but keeps the session when the refresh fails on the network', async () => {
    const { storage, calls, refresh, refresher, ended } = setup();
    const waiting = [track(refresher.refreshAfter401('access-1')), track(refresher.refreshAfter401('access-1'))];
    const offline = new TypeError('Failed to fetch');
    calls[0]!.answer.reject(offline);
    await settle();

    expect(waiting.map((entry) => entry.error)).toEqual([offline, offline]);
    expect(storage.read()).toEqual(first);
    expect(refresher.status()).toBe('idle');
    expect(ended).not.toHaveBeenCalled();

    track(refresher.refreshAfter401('access-1'));
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('keeps the session when the refresh call fails with a server error', async () => {
    const { storage, calls, refresher, ended } = setup();
    const waiting = track(refresher.refreshAfter401('access-1'));
    calls[0]!.answer.reject(problemError(500, 'internal'));
    await settle();
    expect((waiting.error as { status: number }).status).toBe(500);
    expect(storage.read()).toEqual(first);
    expect(ended).not.toHaveBeenCalled();
  });

  it('ends the session without a refresh call when there is no refresh token', async () => {
    const { refresh, refresher, ended } = setup(null);
    const waiting = track(refresher.refreshAfter401('access-1'));
    await settle();
    expect(waiting.error).toBeInstanceOf(SessionEndedError);
    expect(refresh).not.toHaveBeenCalled();
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('treats a sign-out in another tab as no session on the next 401', async () => {
    const { storage, refresh, refresher, ended } = setup();
    storage.external(null);
    const waiting = track(refresher.refreshAfter401('access-1'));
    await settle();
    expect(waiting.error).toBeInstanceOf(SessionEndedError);
    expect(refresh).not.toHaveBeenCalled();
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('stops telling a listener that unsubscribed, and stops hearing the storage after stop()', async () => {
    const { storage, calls, refresher, ended } = setup();
    const other = vi.fn();
    const unsubscribe = refresher.onSessionEnded(other);
    unsubscribe();
    track(refresher.refreshAfter401('access-1'));
    calls[0]!.answer.reject(problemError(401, 'invalid_refresh_token'));
    await settle();
    expect(ended).toHaveBeenCalledTimes(1);
    expect(other).not.toHaveBeenCalled();

    refresher.stop();
    storage.write(second);
    expect(refresher.status()).toBe('signedOut');
  });
});

describe('tokenRefreshMachine', () => {
  it('emits SESSION_ENDED and forgets the tokens when the refresh is refused', async () => {
    const machine = tokenRefreshMachine.provide({
      actors: { refreshTokens: fromPromise<TokenPair, { refreshToken: string }>(async () => Promise.reject(problemError(401, 'invalid_refresh_token'))) },
    });
    const actor = createActor(machine, { input: { tokens: first } });
    const emitted = vi.fn();
    actor.on('SESSION_ENDED', emitted);
    actor.start();
    const waiter = { resolve: vi.fn(), reject: vi.fn() };
    actor.send({ type: 'UNAUTHORIZED', failedToken: 'access-1', waiter });
    await settle();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toEqual({ tokens: null, waiters: [] });
    expect(emitted).toHaveBeenCalledTimes(1);
    expect(waiter.reject).toHaveBeenCalledTimes(1);
    expect(waiter.resolve).not.toHaveBeenCalled();
  });

  it('keeps the stored tokens in step while refreshing', () => {
    const never = fromPromise<TokenPair, { refreshToken: string }>(() => new Promise<TokenPair>(() => {}));
    const actor = createActor(tokenRefreshMachine.provide({ actors: { refreshTokens: never } }), { input: { tokens: first } }).start();
    actor.send({ type: 'UNAUTHORIZED', failedToken: 'access-1', waiter: { resolve: () => {}, reject: () => {} } });
    actor.send({ type: 'TOKENS_CHANGED', tokens: second });
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(actor.getSnapshot().context.tokens).toEqual(second);
    expect(actor.getSnapshot().context.waiters).toHaveLength(1);
  });

  it('fails loudly when refreshTokens is not provided', async () => {
    const actor = createActor(tokenRefreshMachine, { input: { tokens: first } }).start();
    const waiter = { resolve: vi.fn(), reject: vi.fn() };
    actor.send({ type: 'UNAUTHORIZED', failedToken: 'access-1', waiter });
    await settle();
    expect(waiter.reject).toHaveBeenCalledWith(new Error('refreshTokens is not provided'));
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
