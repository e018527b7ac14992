/**
 * The refresh coordinator. Access tokens live 15 minutes; when a call answers 401 exactly one
 * refresh call is made, every other 401 (or call that fails meanwhile) waits for it, and all of
 * them are replayed with the new access token. A refused refresh (401) ends the session; a refresh
 * that fails for any other reason (network, server error) rejects the waiting calls but keeps it.
 */
import { assign, createActor, emit, fromPromise, setup } from 'xstate';

/** An access/refresh token pair as the console keeps it. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** Where the tokens live. `subscribe` reports every change, including those made by other tabs. */
export interface TokenStorage {
  read(): TokenPair | null;
  write(tokens: TokenPair): void;
  clear(): void;
  subscribe(listener: (tokens: TokenPair | null) => void): () => void;
}

/** A call that answered 401 and waits for a usable access token. */
export interface RefreshWaiter {
  resolve(accessToken: string): void;
  reject(error: unknown): void;
}

/** Rejection of calls that wait while no session exists any more. */
export class SessionEndedError extends Error {
  constructor() {
    super('The session has ended. Sign in again.');
    this.name = 'SessionEndedError';
  }
}

export interface TokenRefreshContext {
  tokens: TokenPair | null;
  waiters: RefreshWaiter[];
}

export type TokenRefreshEvent =
  | { type: 'UNAUTHORIZED'; failedToken: string; waiter: RefreshWaiter }
  | { type: 'TOKENS_CHANGED'; tokens: TokenPair | null };

export type TokenRefreshEmitted = { type: 'SESSION_ENDED' };

/** Reads `status` off whatever the refresh actor rejected with (ApiError or any problem-shaped error). */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export const tokenRefreshMachine = setup({
  types: {
    context: {} as TokenRefreshContext,
    events: {} as TokenRefreshEvent,
    input: {} as { tokens: TokenPair | null },
    emitted: {} as TokenRefreshEmitted,
  },
  actors: {
    // Provided by the caller (createTokenRefresher): the refresh grant, which also stores the pair.
    refreshTokens: fromPromise<TokenPair, { refreshToken: string }>(async () => {
      throw new Error('refreshTokens is not provided');
    }),
  },
  guards: {
    hasNewerToken: ({ context }, params: { failedToken: string }) =>
      context.tokens !== null && context.tokens.accessToken !== params.failedToken,
    hasRefreshToken: ({ context }) => context.tokens !== null && context.tokens.refreshToken !== '',
    hasTokens: (_, params: { tokens: TokenPair | null }) => params.tokens !== null,
    // 401: the refresh token is no longer good; 403 account_disabled: a super-admin disabled the
    // account (docs/admin.md "Users"). Either way this session is over.
    isSessionRefused: (_, params: { error: unknown }) =>
      statusOf(params.error) === 401 || (statusOf(params.error) === 403 && codeOf(params.error) === 'account_disabled'),
  },
  actions: {
    rememberTokens: assign({ tokens: (_, params: { tokens: TokenPair | null }) => params.tokens }),
    forgetTokens: assign({ tokens: null }),
    enqueueWaiter: assign({ waiters: ({ context }, params: { waiter: RefreshWaiter }) => [...context.waiters, params.waiter] }),
    resolveWithCurrentToken: ({ context }, params: { waiter: RefreshWaiter }) => {
      if (context.tokens) params.waiter.resolve(context.tokens.accessToken);
    },
    rejectWaiter: (_, params: { waiter: RefreshWaiter }) => params.waiter.reject(new SessionEndedError()),
    resolveWaiters: ({ context }, params: { accessToken: string }) => {
      for (const waiter of context.waiters) waiter.resolve(params.accessToken);
    },
    rejectWaiters: ({ context }, params: { error: unknown }) => {
      for (const waiter of context.waiters) waiter.reject(params.error);
    },
    clearWaiters: assign({ waiters: [] }),
    announceSessionEnded: emit({ type: 'SESSION_ENDED' }),
  },
}).createMachine({
  id: 'tokenRefresh',
  context: ({ input }) => ({ tokens: input.tokens, waiters: [] }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        UNAUTHORIZED: [
          {
            // Another tab (or a refresh that just finished) already replaced the token that failed.
            guard: { type: 'hasNewerToken', params: ({ event }) => ({ failedToken: event.failedToken }) },
            actions: { type: 'resolveWithCurrentToken', params: ({ event }) => ({ waiter: event.waiter }) },
          },
          {
            guard: 'hasRefreshToken',
            target: 'refreshing',
            actions: { type: 'enqueueWaiter', params: ({ event }) => ({ waiter: event.waiter }) },
          },
          {
            target: 'signedOut',
            actions: [{ type: 'rejectWaiter', params: ({ event }) => ({ waiter: event.waiter }) }, 'announceSessionEnded'],
          },
        ],
        TOKENS_CHANGED: { actions: { type: 'rememberTokens', params: ({ event }) => ({ tokens: event.tokens }) } },
      },
    },
    refreshing: {
      invoke: {
        src: 'refreshTokens',
        input: ({ context }) => ({ refreshToken: context.tokens?.refreshToken ?? '' }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'rememberTokens', params: ({ event }) => ({ tokens: event.output }) },
            { type: 'resolveWaiters', params: ({ event }) => ({ accessToken: event.output.accessToken }) },
            'clearWaiters',
          ],
        },
        onError: [
          {
            guard: { type: 'isSessionRefused', params: ({ event }) => ({ error: event.error }) },
            target: 'signedOut',
            actions: [
              { type: 'rejectWaiters', params: ({ event }) => ({ error: event.error }) },
              'clearWaiters',
              'forgetTokens',
              'announceSessionEnded',
            ],
          },
          {
            target: 'idle',
            actions: [{ type: 'rejectWaiters', params: ({ event }) => ({ error: event.error }) }, 'clearWaiters'],
          },
        ],
      },
      on: {
        UNAUTHORIZED: { actions: { type: 'enqueueWaiter', params: ({ event }) => ({ waiter: event.waiter }) } },
        // Kept so the next 401 compares against what is really stored; the running refresh goes on.
        TOKENS_CHANGED: { actions: { type: 'rememberTokens', params: ({ event }) => ({ tokens: event.tokens }) } },
      },
    },
    signedOut: {
      on: {
        UNAUTHORIZED: { actions: { type: 'rejectWaiter', params: ({ event }) => ({ waiter: event.waiter }) } },
        TOKENS_CHANGED: {
          guard: { type: 'hasTokens', params: ({ event }) => ({ tokens: event.tokens }) },
          target: 'idle',
          actions: { type: 'rememberTokens', params: ({ event }) => ({ tokens: event.tokens }) },
        },
      },
    },
  },
});

export type TokenRefreshStatus = 'idle' | 'refreshing' | 'signedOut';

/** What the HTTP client needs from the refresh coordinator. */
export interface TokenRefresher {
  /** The access token to send now, or null when signed out. */
  getAccessToken(): string | null;
  /**
   * Called with the bearer token of a call that answered 401. Resolves with the access token to
   * replay the call with; rejects when no new token can be had (the session ended or the refresh
   * failed), in which case the call's 401 stands.
   */
  refreshAfter401(failedToken: string): Promise<string>;
  /** Called once each time the server refuses the refresh token; the tokens are already cleared. */
  onSessionEnded(listener: () => void): () => void;
  status(): TokenRefreshStatus;
  stop(): void;
}

export interface TokenRefresherOptions {
  /** The refresh grant: resolves with the new pair, rejects with an error carrying `status`. */
  refresh: (refreshToken: string) => Promise<TokenPair>;
  storage: TokenStorage;
}

/** Runs the refresh machine against a token storage; framework-free, used by the HTTP client. */
export function createTokenRefresher({ refresh, storage }: TokenRefresherOptions): TokenRefresher {
  const sessionEndedListeners = new Set<() => void>();
  const machine = tokenRefreshMachine.provide({
    actors: {
      refreshTokens: fromPromise<TokenPair, { refreshToken: string }>(async ({ input }) => {
        const tokens = await refresh(input.refreshToken);
        storage.write(tokens);
        return tokens;
      }),
    },
  });
  const actor = createActor(machine, { input: { tokens: storage.read() } });
  const endedSubscription = actor.on('SESSION_ENDED', () => {
    storage.clear();
    for (const listener of [...sessionEndedListeners]) listener();
  });
  const unsubscribeStorage = storage.subscribe((tokens) => actor.send({ type: 'TOKENS_CHANGED', tokens }));
  actor.start();

  return {
    getAccessToken: () => storage.read()?.accessToken ?? null,
    refreshAfter401: (failedToken) =>
      new Promise<string>((resolve, reject) => actor.send({ type: 'UNAUTHORIZED', failedToken, waiter: { resolve, reject } })),
    onSessionEnded(listener) {
      sessionEndedListeners.add(listener);
      return () => sessionEndedListeners.delete(listener);
    },
    status: () => actor.getSnapshot().value as TokenRefreshStatus,
    stop() {
      unsubscribeStorage();
      endedSubscription.unsubscribe();
      actor.stop();
    },
  };
}
