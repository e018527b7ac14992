/** Typed calls of the account side: configuration, sign-in, sign-up, e-mail, password reset, Dev mailbox. */
import type { PublicUser } from '../../definitions/schemas/account.ts';
import type { QuestionnairePayload, SignupPayload } from '../../definitions/schemas/account.ts';
import type { TokenPair } from '../../machines/token-refresh.ts';
import { getApiClient, type ApiClient } from './client.ts';
import { anonymous, passwordGrant, refreshGrant, toTokenPair, type TokenResponse } from './token-grants.ts';

/** GET /api/config: what the console needs before sign-in. */
export interface ConsoleConfig {
  consoleClient: { id: string; secret: string };
  googleClientId: string | null;
  devMailbox: boolean;
  /** A tile layer for maps; null (or absent): the offline world layer. */
  mapTiles?: { url: string; attribution: string | null } | null;
  /** False with BILLING=0: no billing screens, dialogs or diversions (absent: on). */
  billing?: boolean;
}

/** GET /api/user/me. */
export type Me = PublicUser;

/** A mail kept by the outbox transport (GET /api/dev/mailbox). */
export interface DevMail {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  link: string | null;
  kind: string;
  createdAt: string;
}

/** Every account call. All reject with ApiError. */
export interface AuthApi {
  /** Fetched once and kept (a failure is not kept). */
  config(): Promise<ConsoleConfig>;
  /** Password grant with the console's client id/secret; stores the pair in the session. */
  passwordGrant(username: string, password: string): Promise<TokenPair>;
  /** Refresh grant; does not store the pair (the refresh coordinator does). */
  refreshGrant(refreshToken: string): Promise<TokenPair>;
  /** Ends the session on the server (best effort, never rejects) and clears the tokens. */
  logout(): Promise<void>;
  signUp(payload: SignupPayload, inviteID?: string): Promise<{ status: 'accepted' }>;
  confirmEmail(confirmID: string): Promise<void>;
  me(): Promise<Me>;
  saveQuestionnaire(payload: QuestionnairePayload): Promise<void>;
  requestResetMail(email: string): Promise<void>;
  resetPassword(token: string, password: string): Promise<void>;
  /** Third-party sign-in (or sign-up with `signup`); stores the pair in the session. */
  googleToken(idToken: string, options?: { signup?: boolean }): Promise<TokenPair>;
  resendConfirmation(): Promise<void>;
  devMailbox(query?: { to?: string; limit?: number }): Promise<DevMail[]>;
}

export function createAuthApi(client: ApiClient): AuthApi {
  const { http, session } = client;
  let config: Promise<ConsoleConfig> | null = null;

  const loadConfig = () => {
    config ??= client.json<ConsoleConfig>('api/config', { context: anonymous }).catch((error: unknown) => {
      config = null;
      throw error;
    });
    return config;
  };

  return {
    config: loadConfig,
    async passwordGrant(username, password) {
      const { consoleClient } = await loadConfig();
      const tokens = await passwordGrant(http, consoleClient, username, password);
      session.write(tokens);
      return tokens;
    },
    refreshGrant: (refreshToken) => refreshGrant(http, refreshToken),
    async logout() {
      const tokens = session.read();
      try {
        // Only the refresh token: revoking by it ends the session even when the access token has expired.
        if (tokens) await client.json('auth/logout', { method: 'post', json: { refresh_token: tokens.refreshToken }, context: anonymous });
      } catch {
        // The local sign-out below is what the user asked for; a server that cannot be reached changes nothing.
      } finally {
        session.clear();
      }
    },
    signUp: (payload, inviteID) =>
      client.json('api/user', { method: 'post', json: payload, context: anonymous, ...(inviteID ? { searchParams: { inviteID } } : {}) }),
    confirmEmail: (confirmID) => client.json(`api/user/${encodeURIComponent(confirmID)}/confirm`, { method: 'post' }),
    me: () => client.json<Me>('api/user/me'),
    saveQuestionnaire: (payload) => client.json('api/user/questionnaire', { method: 'put', json: payload }),
    requestResetMail: (email) => client.json('auth/resetPasswordEmail', { method: 'post', json: { email }, context: anonymous }),
    resetPassword: (token, password) => client.json('auth/resetPassword', { method: 'post', json: { password, token }, context: anonymous }),
    async googleToken(idToken, options = {}) {
      const wire = await client.json<TokenResponse>('auth/googleToken', {
        method: 'post',
        json: { token: idToken },
        context: anonymous,
        ...(options.signup ? { searchParams: { signup: 'true' } } : {}),
      });
      const tokens = toTokenPair(wire);
      session.write(tokens);
      return tokens;
    },
    resendConfirmation: () => client.json('api/user/me/confirmation', { method: 'post' }),
    async devMailbox(query = {}) {
      const searchParams: Record<string, string | number> = {};
      if (query.to) searchParams.to = query.to;
      if (query.limit !== undefined) searchParams.limit = query.limit;
      const { mails } = await client.json<{ mails: DevMail[] }>('api/dev/mailbox', { searchParams, context: anonymous });
      return mails;
    },
  };
}

let browserAuthApi: AuthApi | null = null;

/** The account calls over the page's client. */
export function getAuthApi(): AuthApi {
  browserAuthApi ??= createAuthApi(getApiClient());
  return browserAuthApi;
}
