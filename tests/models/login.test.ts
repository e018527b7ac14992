/**
 * Model-based test of the login flow. The model says, for each way of opening /login
 * and each answer of the server, where the flow must be and what it must show; every shortest
 * path is replayed against the real loginMachine whose actors the test answers by hand.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { loginMachine, type LoginCredentials, type LoginError, type LoginInput, type LoginOutput, type LoginUser } from '../../machines/login.ts';
import type { TokenPair } from '../../machines/token-refresh.ts';
import { deferred, problemError, settle, type Deferred } from '../unit/support/deferred.ts';

type Variant = 'plain' | 'returnUrl' | 'unsafeReturnUrl' | 'confirmation' | 'invite';

const inputs: Record<Variant, LoginInput> = {
  plain: {},
  returnUrl: { returnUrl: '/organization/org-2/settings' },
  unsafeReturnUrl: { returnUrl: '//evil.example/steal' },
  confirmation: { confirmID: 'confirm-1' },
  invite: { inviteID: 'invite-1' },
};

const THROTTLE_DETAIL = 'Too many attempts. Try again in 60 seconds.';
const CONFIRM_DETAIL = 'This confirmation link has expired. Ask for a new one.';
const USERNAME = 'ada';
const PASSWORD = 'correct horse battery';

interface ModelContext {
  variant: Variant | null;
  /** The form has been submitted once: from then on it must show the typed values. */
  typed: boolean;
  error: LoginError | null;
  outcome: LoginOutput | null;
}

function landing(variant: Variant | null, organizations: boolean): LoginOutput {
  if (variant === 'invite') return { navigate: null };
  if (!organizations) return { navigate: '/' };
  return { navigate: variant === 'returnUrl' ? '/organization/org-2/settings' : '/organization/org-1' };
}

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'OPEN_PLAIN' }
      | { type: 'OPEN_WITH_RETURN_URL' }
      | { type: 'OPEN_WITH_UNSAFE_RETURN_URL' }
      | { type: 'OPEN_WITH_CONFIRMATION' }
      | { type: 'OPEN_WITH_INVITE' }
      | { type: 'SUBMIT' }
      | { type: 'SUBMIT_BLANK' }
      | { type: 'RESET_ERROR' }
      | { type: 'TOKEN_ISSUED' }
      | { type: 'TOKEN_REFUSED' }
      | { type: 'TOKEN_THROTTLED' }
      | { type: 'TOKEN_FAILED' }
      | { type: 'USER_VERIFIED_WITH_ORGANIZATIONS' }
      | { type: 'USER_VERIFIED_WITHOUT_ORGANIZATIONS' }
      | { type: 'USER_UNVERIFIED' }
      | { type: 'USER_LOAD_FAILED' }
      | { type: 'CONFIRMED' }
      | { type: 'CONFIRM_FAILED' }
      | { type: 'LOGGED_OUT' }
      | { type: 'LOGOUT_FAILED' },
  },
  guards: {
    hasConfirmation: ({ context }) => context.variant === 'confirmation',
  },
  actions: {
    showError: assign({ error: (_, params: LoginError) => params }),
  },
}).createMachine({
  id: 'loginModel',
  context: { variant: null, typed: false, error: null, outcome: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_PLAIN: { target: 'form', actions: assign({ variant: 'plain' }) },
        OPEN_WITH_RETURN_URL: { target: 'form', actions: assign({ variant: 'returnUrl' }) },
        OPEN_WITH_UNSAFE_RETURN_URL: { target: 'form', actions: assign({ variant: 'unsafeReturnUrl' }) },
        OPEN_WITH_CONFIRMATION: { target: 'form', actions: assign({ variant: 'confirmation' }) },
        OPEN_WITH_INVITE: { target: 'form', actions: assign({ variant: 'invite' }) },
      },
    },
    form: {
      on: {
        SUBMIT: { target: 'authenticating', actions: assign({ typed: true, error: null }) },
        SUBMIT_BLANK: { target: 'form' },
        RESET_ERROR: { target: 'form', actions: assign({ error: null }) },
      },
    },
    authenticating: {
      on: {
        TOKEN_ISSUED: 'loadingUser',
        TOKEN_REFUSED: { target: 'form', actions: { type: 'showError', params: { key: 'login.invalidCredentials' } } },
        TOKEN_THROTTLED: { target: 'form', actions: { type: 'showError', params: { key: 'login.throttled', values: { detail: THROTTLE_DETAIL } } } },
        TOKEN_FAILED: { target: 'form', actions: { type: 'showError', params: { key: 'login.failed' } } },
      },
    },
    loadingUser: {
      on: {
        USER_VERIFIED_WITH_ORGANIZATIONS: { target: 'done', actions: assign({ outcome: ({ context }) => landing(context.variant, true) }) },
        USER_VERIFIED_WITHOUT_ORGANIZATIONS: { target: 'done', actions: assign({ outcome: ({ context }) => landing(context.variant, false) }) },
        USER_UNVERIFIED: [
          { guard: 'hasConfirmation', target: 'confirming' },
          { target: 'loggingOut', actions: { type: 'showError', params: { key: 'login.unverified' } } },
        ],
        USER_LOAD_FAILED: { target: 'loggingOut', actions: { type: 'showError', params: { key: 'user.loadFailed' } } },
      },
    },
    confirming: {
      on: {
        CONFIRMED: { target: 'done', actions: assign({ outcome: { navigate: '/questionnaire', toast: 'confirm.done' } }) },
        CONFIRM_FAILED: { target: 'loggingOut', actions: { type: 'showError', params: { key: 'confirm.failed', values: { detail: CONFIRM_DETAIL } } } },
      },
    },
    loggingOut: {
      on: { LOGGED_OUT: 'form', LOGOUT_FAILED: 'form' },
    },
    done: { type: 'final' },
  },
});

/** The system under test: the real machine, its four actors answered by the test. */
function createHarness() {
  const pending = {
    requestToken: [] as { input: LoginCredentials; answer: Deferred<TokenPair> }[],
    loadUser: [] as Deferred<LoginUser>[],
    confirmEmail: [] as { confirmID: string; answer: Deferred<unknown> }[],
    logout: [] as Deferred<unknown>[],
  };
  const machine = loginMachine.provide({
    actors: {
      requestToken: fromPromise<TokenPair, LoginCredentials>(({ input }) => {
        const answer = deferred<TokenPair>();
        pending.requestToken.push({ input, answer });
        return answer.promise;
      }),
      loadUser: fromPromise<LoginUser, void>(() => {
        const answer = deferred<LoginUser>();
        pending.loadUser.push(answer);
        return answer.promise;
      }),
      confirmEmail: fromPromise<unknown, { confirmID: string }>(({ input }) => {
        const answer = deferred<unknown>();
        pending.confirmEmail.push({ confirmID: input.confirmID, answer });
        return answer.promise;
      }),
      logout: fromPromise<unknown, void>(() => {
        const answer = deferred<unknown>();
        pending.logout.push(answer);
        return answer.promise;
      }),
    },
  });
  let actor: Actor<typeof machine> | null = null;
  const take = <T>(queue: T[], name: string): T => {
    const next = queue.shift();
    if (next === undefined) throw new Error(`${name} was not called`);
    return next;
  };
  const after = async (action: () => void) => {
    action();
    await settle();
  };
  return {
    pending,
    get actor() {
      if (!actor) throw new Error('the login page is not open');
      return actor;
    },
    open: (variant: Variant) => {
      actor = createActor(machine, { input: inputs[variant] }).start();
    },
    answerToken: (answer: (deferred: Deferred<TokenPair>) => void) => after(() => answer(take(pending.requestToken, 'requestToken').answer)),
    answerUser: (answer: (deferred: Deferred<LoginUser>) => void) => after(() => answer(take(pending.loadUser, 'loadUser'))),
    answerConfirm: (answer: (deferred: Deferred<unknown>) => void) => after(() => answer(take(pending.confirmEmail, 'confirmEmail').answer)),
    answerLogout: (answer: (deferred: Deferred<unknown>) => void) => after(() => answer(take(pending.logout, 'logout'))),
  };
}

const tokens: TokenPair = { accessToken: 'access', refreshToken: 'refresh' };

describe('login model', () => {
  // Guarded-out events would otherwise appear as steps that change nothing in the model.
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every state of the model', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...reached].sort()).toEqual(['authenticating', 'closed', 'confirming', 'done', 'form', 'loadingUser', 'loggingOut']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const harness = createHarness();
      const noActorWaiting = () => {
        expect(harness.pending.requestToken).toHaveLength(0);
        expect(harness.pending.loadUser).toHaveLength(0);
        expect(harness.pending.confirmEmail).toHaveLength(0);
        expect(harness.pending.logout).toHaveLength(0);
      };
      await path.test({
        events: {
          OPEN_PLAIN: () => harness.open('plain'),
          OPEN_WITH_RETURN_URL: () => harness.open('returnUrl'),
          OPEN_WITH_UNSAFE_RETURN_URL: () => harness.open('unsafeReturnUrl'),
          OPEN_WITH_CONFIRMATION: () => harness.open('confirmation'),
          OPEN_WITH_INVITE: () => harness.open('invite'),
          SUBMIT: () => harness.actor.send({ type: 'SUBMIT', username: USERNAME, password: PASSWORD }),
          SUBMIT_BLANK: () => harness.actor.send({ type: 'SUBMIT', username: '', password: '' }),
          RESET_ERROR: () => harness.actor.send({ type: 'RESET_ERROR' }),
          TOKEN_ISSUED: () => harness.answerToken((answer) => answer.resolve(tokens)),
          TOKEN_REFUSED: () => harness.answerToken((answer) => answer.reject(problemError(400, 'invalid_grant'))),
          TOKEN_THROTTLED: () => harness.answerToken((answer) => answer.reject(problemError(429, 'rate_limited', THROTTLE_DETAIL))),
          TOKEN_FAILED: () => harness.answerToken((answer) => answer.reject(problemError(500, 'internal'))),
          USER_VERIFIED_WITH_ORGANIZATIONS: () => harness.answerUser((answer) => answer.resolve({ verified: true, organizations: ['org-1', 'org-2'] })),
          USER_VERIFIED_WITHOUT_ORGANIZATIONS: () => harness.answerUser((answer) => answer.resolve({ verified: true, organizations: [] })),
          USER_UNVERIFIED: () => harness.answerUser((answer) => answer.resolve({ verified: false, organizations: [] })),
          USER_LOAD_FAILED: () => harness.answerUser((answer) => answer.reject(problemError(500, 'internal'))),
          CONFIRMED: () => harness.answerConfirm((answer) => answer.resolve({ ok: true })),
          CONFIRM_FAILED: () => harness.answerConfirm((answer) => answer.reject(problemError(400, 'confirmation_expired', CONFIRM_DETAIL))),
          LOGGED_OUT: () => harness.answerLogout((answer) => answer.resolve(undefined)),
          LOGOUT_FAILED: () => harness.answerLogout((answer) => answer.reject(new TypeError('Failed to fetch'))),
        },
        states: {
          form: (state) => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('idle');
            expect(snapshot.hasTag('busy')).toBe(false);
            expect(snapshot.context.error).toEqual(state.context.error);
            // The typed values survive every way back to the form.
            expect(snapshot.context.username).toBe(state.context.typed ? USERNAME : '');
            expect(snapshot.context.password).toBe(state.context.typed ? PASSWORD : '');
            noActorWaiting();
          },
          authenticating: () => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('authenticating');
            expect(snapshot.hasTag('busy')).toBe(true);
            expect(snapshot.context.error).toBeNull();
            expect(harness.pending.requestToken.map((call) => call.input)).toEqual([{ username: USERNAME, password: PASSWORD }]);
          },
          loadingUser: () => {
            expect(harness.actor.getSnapshot().value).toBe('loadingUser');
            expect(harness.pending.loadUser).toHaveLength(1);
            expect(harness.pending.requestToken).toHaveLength(0);
          },
          confirming: () => {
            expect(harness.actor.getSnapshot().value).toBe('confirming');
            expect(harness.pending.confirmEmail.map((call) => call.confirmID)).toEqual(['confirm-1']);
          },
          loggingOut: (state) => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('loggingOut');
            expect(snapshot.context.error).toEqual(state.context.error);
            expect(harness.pending.logout).toHaveLength(1);
          },
          done: (state) => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.status).toBe('done');
            expect(snapshot.output).toEqual(state.context.outcome);
            noActorWaiting();
          },
        },
      });
    });
  }
});
