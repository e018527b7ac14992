/** The I/O of the login machine, over the account calls: `loginMachine.provide({ actors: createLoginActors(auth) })`. */
import { fromPromise } from 'xstate';
import type { LoginCredentials, LoginUser } from '../../machines/login.ts';
import type { TokenPair } from '../../machines/token-refresh.ts';
import type { AuthApi, Me } from './auth.ts';

export interface LoginActorOptions {
  /** Receives the loaded user, e.g. to seed the query cache (`queryClient.setQueryData(queryKeys.me, user)`). */
  onUser?: (user: Me) => void;
}

export function createLoginActors(auth: AuthApi, options: LoginActorOptions = {}) {
  return {
    requestToken: fromPromise<TokenPair, LoginCredentials>(({ input }) => auth.passwordGrant(input.username, input.password)),
    loadUser: fromPromise<LoginUser, void>(async () => {
      const user = await auth.me();
      options.onUser?.(user);
      return user;
    }),
    confirmEmail: fromPromise<unknown, { confirmID: string }>(({ input }) => auth.confirmEmail(input.confirmID)),
    logout: fromPromise<unknown, void>(() => auth.logout()),
  };
}
