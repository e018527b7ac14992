/**
 * Model-based test of the refresh coordinator: the model below says what may happen (calls
 * failing with 401, the one refresh call answering, another tab refreshing or signing in) and
 * what must hold in each state; every shortest path through it is replayed against the real
 * createTokenRefresher.
 */
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { createTokenRefresher, SessionEndedError, type TokenPair } from '../../machines/token-refresh.ts';
import { deferred, memoryTokenStorage, problemError, settle, type Deferred } from '../unit/support/deferred.ts';

/** How the calls that were waiting ended in the last step. */
type Settled = { count: number; how: 'none' | 'resolved' | 'rejectedSessionEnded' | 'rejectedByRefresh' };

interface ModelContext {
  /** Calls waiting for the refresh in flight. */
  queued: number;
  /** Whether the token calls were first made with has since been replaced (by a refresh or another tab). */
  replaced: boolean;
  settled: Settled;
  sessionEndedNow: boolean;
}

const MAX_QUEUED = 3;
const none: Settled = { count: 0, how: 'none' };

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'CALL_FAILS_WITH_CURRENT_TOKEN' }
      | { type: 'CALL_FAILS_WITH_REPLACED_TOKEN' }
      | { type: 'OTHER_TAB_REFRESHES' }
      | { type: 'REFRESH_SUCCEEDS' }
      | { type: 'REFRESH_REFUSED' }
      | { type: 'REFRESH_FAILS_ON_NETWORK' }
      | { type: 'SIGNED_IN_AGAIN' },
  },
  guards: {
    hasRoomInQueue: ({ context }) => context.queued < MAX_QUEUED,
    hasReplacedToken: ({ context }) => context.replaced,
  },
}).createMachine({
  id: 'tokenRefreshModel',
  context: { queued: 0, replaced: false, settled: none, sessionEndedNow: false },
  initial: 'idle',
  states: {
    idle: {
      on: {
        CALL_FAILS_WITH_CURRENT_TOKEN: {
          target: 'refreshing',
          actions: assign({ queued: 1, settled: none, sessionEndedNow: false }),
        },
        CALL_FAILS_WITH_REPLACED_TOKEN: {
          guard: 'hasReplacedToken',
          target: 'idle',
          actions: assign({ settled: { count: 1, how: 'resolved' }, sessionEndedNow: false }),
        },
        OTHER_TAB_REFRESHES: { target: 'idle', actions: assign({ replaced: true, settled: none, sessionEndedNow: false }) },
      },
    },
    refreshing: {
      on: {
        CALL_FAILS_WITH_CURRENT_TOKEN: {
          guard: 'hasRoomInQueue',
          target: 'refreshing',
          actions: assign({ queued: ({ context }) => context.queued + 1, settled: none }),
        },
        OTHER_TAB_REFRESHES: { target: 'refreshing', actions: assign({ replaced: true, settled: none }) },
        REFRESH_SUCCEEDS: {
          target: 'idle',
          actions: assign({ settled: ({ context }) => ({ count: context.queued, how: 'resolved' as const }), queued: 0, replaced: true }),
        },
        REFRESH_FAILS_ON_NETWORK: {
          target: 'idle',
          actions: assign({ settled: ({ context }) => ({ count: context.queued, how: 'rejectedByRefresh' as const }), queued: 0 }),
        },
        REFRESH_REFUSED: {
          target: 'signedOut',
          actions: assign({
            settled: ({ context }) => ({ count: context.queued, how: 'rejectedByRefresh' as const }),
            queued: 0,
            sessionEndedNow: true,
          }),
        },
      },
    },
    signedOut: {
      on: {
        CALL_FAILS_WITH_CURRENT_TOKEN: {
          target: 'signedOut',
          actions: assign({ settled: { count: 1, how: 'rejectedSessionEnded' }, sessionEndedNow: false }),
        },
        SIGNED_IN_AGAIN: { target: 'idle', actions: assign({ replaced: false, settled: none, sessionEndedNow: false }) },
      },
    },
  },
});

type Outcome = { ok: true; value: string } | { ok: false; error: unknown };

/** The system under test: the real coordinator over a memory storage and a hand-driven refresh call. */
function createHarness() {
  let generation = 1;
  const pair = (n: number): TokenPair => ({ accessToken: `access-${n}`, refreshToken: `refresh-${n}` });
  const storage = memoryTokenStorage(pair(1));
  const inFlight: { refreshToken: string; answer: Deferred<TokenPair> }[] = [];
  let sessionEnded = 0;
  let firstToken = 'access-1';
  let outcomes: Outcome[] = [];
  let pending = 0;
  const refresher = createTokenRefresher({
    refresh: (refreshToken) => {
      const answer = deferred<TokenPair>();
      inFlight.push({ refreshToken, answer });
      return answer.promise;
    },
    storage,
  });
  refresher.onSessionEnded(() => (sessionEnded += 1));
  let sessionEndedBefore = 0;

  const failWith = (token: string) => {
    pending += 1;
    refresher.refreshAfter401(token).then(
      (value) => {
        pending -= 1;
        outcomes.push({ ok: true, value });
      },
      (error: unknown) => {
        pending -= 1;
        outcomes.push({ ok: false, error });
      },
    );
  };
  /** Every event starts a fresh step: what settles is what this step caused. */
  const step = async (action: () => void) => {
    outcomes = [];
    sessionEndedBefore = sessionEnded;
    action();
    await settle();
  };
  const answerRefresh = (how: (answer: Deferred<TokenPair>) => void) => {
    const call = inFlight.shift();
    if (!call) throw new Error('no refresh call is in flight');
    how(call.answer);
  };

  return {
    refresher,
    storage,
    get inFlight() {
      return inFlight.length;
    },
    get pending() {
      return pending;
    },
    get outcomes() {
      return outcomes;
    },
    get sessionEndedThisStep() {
      return sessionEnded - sessionEndedBefore;
    },
    failWithCurrent: () => step(() => failWith(storage.read()?.accessToken ?? firstToken)),
    failWithReplaced: () => step(() => failWith(firstToken)),
    otherTabRefreshes: () => step(() => storage.external(pair(++generation))),
    refreshSucceeds: () => step(() => answerRefresh((answer) => answer.resolve(pair(++generation)))),
    refreshRefused: () => step(() => answerRefresh((answer) => answer.reject(problemError(401, 'invalid_refresh_token')))),
    refreshFailsOnNetwork: () => step(() => answerRefresh((answer) => answer.reject(new TypeError('Failed to fetch')))),
    signInAgain: () =>
      step(() => {
        generation += 1;
        firstToken = `access-${generation}`;
        storage.write(pair(generation));
      }),
  };
}

type Harness = ReturnType<typeof createHarness>;

function expectSettled(harness: Harness, settled: Settled) {
  expect(harness.outcomes).toHaveLength(settled.count);
  for (const outcome of harness.outcomes) {
    if (settled.how === 'resolved') {
      // Resolved with whatever is stored now: the refreshed pair or another tab's.
      expect(outcome).toEqual({ ok: true, value: harness.storage.read()?.accessToken });
    } else if (settled.how === 'rejectedSessionEnded') {
      expect(outcome.ok).toBe(false);
      expect((outcome as { error: unknown }).error).toBeInstanceOf(SessionEndedError);
    } else {
      expect(outcome.ok).toBe(false);
    }
  }
}

describe('token refresh model', () => {
  // Guarded-out events would otherwise appear as steps that change nothing in the model.
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every state of the model', () => {
    const reached = new Set(paths.map((path) => String(path.state.value)));
    expect([...reached].sort()).toEqual(['idle', 'refreshing', 'signedOut']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const harness = createHarness();
      await path.test({
        events: {
          CALL_FAILS_WITH_CURRENT_TOKEN: () => harness.failWithCurrent(),
          CALL_FAILS_WITH_REPLACED_TOKEN: () => harness.failWithReplaced(),
          OTHER_TAB_REFRESHES: () => harness.otherTabRefreshes(),
          REFRESH_SUCCEEDS: () => harness.refreshSucceeds(),
          REFRESH_REFUSED: () => harness.refreshRefused(),
          REFRESH_FAILS_ON_NETWORK: () => harness.refreshFailsOnNetwork(),
          SIGNED_IN_AGAIN: () => harness.signInAgain(),
        },
        states: {
          idle: (state) => {
            expect(harness.refresher.status()).toBe('idle');
            expect(harness.inFlight).toBe(0);
            expect(harness.pending).toBe(0);
            expect(harness.storage.read()).not.toBeNull();
            expect(harness.sessionEndedThisStep).toBe(0);
            expectSettled(harness, state.context.settled);
          },
          refreshing: (state) => {
            expect(harness.refresher.status()).toBe('refreshing');
            // Exactly one refresh call, however many calls wait for it.
            expect(harness.inFlight).toBe(1);
            expect(harness.pending).toBe(state.context.queued);
            expectSettled(harness, state.context.settled);
          },
          signedOut: (state) => {
            expect(harness.refresher.status()).toBe('signedOut');
            expect(harness.storage.read()).toBeNull();
            expect(harness.refresher.getAccessToken()).toBeNull();
            expect(harness.inFlight).toBe(0);
            expect(harness.pending).toBe(0);
            expect(harness.sessionEndedThisStep).toBe(state.context.sessionEndedNow ? 1 : 0);
            expectSettled(harness, state.context.settled);
          },
        },
      });
    });
  }
});
