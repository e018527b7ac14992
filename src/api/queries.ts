/** TanStack Query hooks over the account calls: thin wrappers, the calls live in auth.ts. */
import { createContext, useContext } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuestionnairePayload, SignupPayload } from '../../definitions/schemas/account.ts';
import { getAuthApi, type AuthApi } from './auth.ts';
import { isApiError } from './errors.ts';

export const queryKeys = {
  config: ['config'] as const,
  me: ['user', 'me'] as const,
  devMailbox: (to?: string) => ['devMailbox', to ?? null] as const,
};

const AuthApiContext = createContext<AuthApi | null>(null);

/** Overrides the account calls for a subtree (tests, stories); without it the page's client is used. */
export const AuthApiProvider = AuthApiContext.Provider;

export function useAuthApi(): AuthApi {
  return useContext(AuthApiContext) ?? getAuthApi();
}

/** Retry policy for queries: never a 4xx (asking again changes nothing), at most twice otherwise. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function useConfig() {
  const api = useAuthApi();
  return useQuery({ queryKey: queryKeys.config, queryFn: () => api.config(), staleTime: Infinity, retry: shouldRetry });
}

export function useMe(options: { enabled?: boolean } = {}) {
  const api = useAuthApi();
  return useQuery({ queryKey: queryKeys.me, queryFn: () => api.me(), enabled: options.enabled ?? true, retry: shouldRetry });
}

export function useDevMailbox(options: { to?: string; enabled?: boolean; refetchInterval?: number | false } = {}) {
  const api = useAuthApi();
  return useQuery({
    queryKey: queryKeys.devMailbox(options.to),
    queryFn: () => api.devMailbox(options.to ? { to: options.to } : {}),
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval ?? false,
    retry: shouldRetry,
  });
}

export function useSignUp() {
  const api = useAuthApi();
  return useMutation({ mutationFn: ({ payload, inviteID }: { payload: SignupPayload; inviteID?: string }) => api.signUp(payload, inviteID) });
}

export function useConfirmEmail() {
  const api = useAuthApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmID: string) => api.confirmEmail(confirmID),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

export function useSaveQuestionnaire() {
  const api = useAuthApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: QuestionnairePayload) => api.saveQuestionnaire(payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

export function useResendConfirmation() {
  const api = useAuthApi();
  return useMutation({ mutationFn: () => api.resendConfirmation() });
}

export function useRequestResetMail() {
  const api = useAuthApi();
  return useMutation({ mutationFn: (email: string) => api.requestResetMail(email) });
}

export function useResetPassword() {
  const api = useAuthApi();
  return useMutation({ mutationFn: ({ token, password }: { token: string; password: string }) => api.resetPassword(token, password) });
}

export function useGoogleSignIn() {
  const api = useAuthApi();
  return useMutation({ mutationFn: ({ idToken, signup }: { idToken: string; signup?: boolean }) => api.googleToken(idToken, { signup: signup ?? false }) });
}

/** Signs out and drops every cached answer, which belonged to the user who left. */
export function useLogout() {
  const api = useAuthApi();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => api.logout(), onSettled: () => queryClient.clear() });
}
