/**
 * The sign-in flow: password grant, load the user, then either confirm the e-mail,
 * refuse an unverified account, or decide where to go. The machine does no I/O itself: the
 * console provides `requestToken`, `loadUser`, `confirmEmail` and `logout`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { TokenPair } from './token-refresh.ts';

/** Query parameters of /login that steer the flow. */
export interface LoginInput {
  returnUrl?: string;
  confirmID?: string;
  inviteID?: string;
}

export interface LoginCredentials {
  username: string;
  password: string;
}

/** The part of the signed-in user the flow decides on (GET /api/user/me gives more). */
export interface LoginUser {
  verified: boolean;
  organizations: string[];
}

/** Message keys the flow produces; texts live in definitions/messages/en.json. */
export const loginMessageKeys = {
  unverified: 'login.unverified',
  invalidCredentials: 'login.invalidCredentials',
  throttled: 'login.throttled',
  failed: 'login.failed',
  userLoadFailed: 'user.loadFailed',
  confirmDone: 'confirm.done',
  confirmFailed: 'confirm.failed',
} as const;

export type LoginMessageKey = (typeof loginMessageKeys)[keyof typeof loginMessageKeys];

/** An error to show in the form: a message key and, for some keys, the server's `detail`. */
export interface LoginError {
  key: LoginMessageKey;
  values?: { detail: string };
}

/**
 * Where to go once signed in. `navigate: null` means stay (an invite is being accepted: the
 * caller decides); `toast` is a message key to show on arrival.
 */
export interface LoginOutput {
  navigate: string | null;
  toast?: LoginMessageKey;
}

export interface LoginContext {
  input: LoginInput;
  username: string;
  password: string;
  error: LoginError | null;
  outcome: LoginOutput | null;
}

export type LoginEvent = { type: 'SUBMIT'; username: string; password: string } | { type: 'RESET_ERROR' };

export const QUESTIONNAIRE_PATH = '/questionnaire';

/**
 * A return URL is followed only when it is a path on this origin: one leading '/', not '//' or
 * '/\' (browsers read both as another host), and no control characters or whitespace.
 */
export function safeReturnUrl(url: string | undefined | null): string | null {
  if (!url || !url.startsWith('/')) return null;
  if (url.startsWith('//') || url.startsWith('/\\')) return null;
  if (/[\u0000-\u001f\u007f\s]/.test(url)) return null;
  return url;
}

/** The landing place of a verified user. */
export function routeAfterLogin(input: LoginInput, user: LoginUser): LoginOutput {
  if (input.inviteID) return { navigate: null };
  const [first] = user.organizations;
  if (first === undefined) return { navigate: '/' };
  return { navigate: safeReturnUrl(input.returnUrl) ?? `/organization/${encodeURIComponent(first)}` };
}

interface ProblemLike {
  status?: number;
  code?: string;
  detail?: string;
}

/** Reads the problem fields off whatever an actor rejected with (ApiError or any look-alike). */
function problemOf(error: unknown): ProblemLike {
  if (typeof error !== 'object' || error === null) return {};
  const { status, code, detail } = error as Record<string, unknown>;
  return {
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof detail === 'string' ? { detail } : {}),
  };
}

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
    output: {} as LoginOutput,
  },
  actors: {
    // Each is provided by the console; these defaults fail loudly when one is forgotten.
    requestToken: fromPromise<TokenPair, LoginCredentials>(async () => {
      throw new Error('requestToken is not provided');
    }),
    loadUser: fromPromise<LoginUser, void>(async () => {
      throw new Error('loadUser is not provided');
    }),
    confirmEmail: fromPromise<unknown, { confirmID: string }>(async () => {
      throw new Error('confirmEmail is not provided');
    }),
    logout: fromPromise<unknown, void>(async () => {
      throw new Error('logout is not provided');
    }),
  },
  guards: {
    hasCredentials: (_, params: LoginCredentials) => params.username.trim() !== '' && params.password !== '',
    isInvalidGrant: (_, params: { error: unknown }) => problemOf(params.error).code === 'invalid_grant',
    isThrottled: (_, params: { error: unknown }) => problemOf(params.error).status === 429,
    isUnverifiedWithoutConfirmation: ({ context }, params: { user: LoginUser }) => !params.user.verified && !context.input.confirmID,
    isUnverifiedWithConfirmation: ({ context }, params: { user: LoginUser }) => !params.user.verified && !!context.input.confirmID,
  },
  actions: {
    rememberCredentials: assign((_, params: LoginCredentials) => ({ username: params.username, password: params.password })),
    showError: assign({ error: (_, params: LoginError) => params }),
    clearError: assign({ error: null }),
    finish: assign({ outcome: (_, params: LoginOutput) => params }),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({ input, username: '', password: '', error: null, outcome: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        SUBMIT: {
          guard: { type: 'hasCredentials', params: ({ event }) => ({ username: event.username, password: event.password }) },
          target: 'authenticating',
          actions: [{ type: 'rememberCredentials', params: ({ event }) => ({ username: event.username, password: event.password }) }, 'clearError'],
        },
        RESET_ERROR: { actions: 'clearError' },
      },
    },
    authenticating: {
      tags: ['busy'],
      invoke: {
        src: 'requestToken',
        input: ({ context }) => ({ username: context.username, password: context.password }),
        onDone: { target: 'loadingUser' },
        onError: [
          {
            guard: { type: 'isInvalidGrant', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: { type: 'showError', params: { key: loginMessageKeys.invalidCredentials } },
          },
          {
            guard: { type: 'isThrottled', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: {
              type: 'showError',
              params: ({ event }) => ({ key: loginMessageKeys.throttled, values: { detail: problemOf(event.error).detail ?? '' } }),
            },
          },
          { target: 'idle', actions: { type: 'showError', params: { key: loginMessageKeys.failed } } },
        ],
      },
    },
    loadingUser: {
      tags: ['busy'],
      invoke: {
        src: 'loadUser',
        onDone: [
          {
            guard: { type: 'isUnverifiedWithoutConfirmation', params: ({ event }) => ({ user: event.output }) },
            target: 'loggingOut',
            actions: { type: 'showError', params: { key: loginMessageKeys.unverified } },
          },
          {
            guard: { type: 'isUnverifiedWithConfirmation', params: ({ event }) => ({ user: event.output }) },
            target: 'confirming',
          },
          {
            // Verified: a confirmation link of an already verified account has nothing left to do.
            target: 'done',
            actions: { type: 'finish', params: ({ context, event }) => routeAfterLogin(context.input, event.output) },
          },
        ],
        onError: { target: 'loggingOut', actions: { type: 'showError', params: { key: loginMessageKeys.userLoadFailed } } },
      },
    },
    confirming: {
      tags: ['busy'],
      invoke: {
        src: 'confirmEmail',
        input: ({ context }) => ({ confirmID: context.input.confirmID ?? '' }),
        onDone: {
          target: 'done',
          actions: {
            type: 'finish',
            params: ({ context }) => ({
              navigate: context.input.inviteID ? null : QUESTIONNAIRE_PATH,
              toast: loginMessageKeys.confirmDone,
            }),
          },
        },
        onError: {
          // An unverified account cannot work in the console, so the session it just got is ended.
          target: 'loggingOut',
          actions: {
            type: 'showError',
            params: ({ event }) => ({ key: loginMessageKeys.confirmFailed, values: { detail: problemOf(event.error).detail ?? '' } }),
          },
        },
      },
    },
    loggingOut: {
      tags: ['busy'],
      invoke: {
        src: 'logout',
        // Signing out is best effort: the tokens are dropped locally either way.
        onDone: { target: 'idle' },
        onError: { target: 'idle' },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context.outcome ?? { navigate: null },
});
