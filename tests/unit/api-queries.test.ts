// @vitest-environment jsdom
import { createElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AuthApi, Me } from '../../src/api/auth.ts';
import { ApiError } from '../../src/api/errors.ts';
import { AuthApiProvider, queryKeys, shouldRetry, useConfig, useDevMailbox, useLogout, useMe, useSaveQuestionnaire } from '../../src/api/queries.ts';

const me: Me = {
  _id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  organizations: [],
  verified: true,
  superAdmin: false,
  questionnaireCompleted: false,
  createdDate: '2025-01-01T00:00:00.000Z',
  lastLoggedIn: null,
};

function fakeAuth(overrides: Partial<AuthApi> = {}): AuthApi {
  const missing = () => Promise.reject(new Error('not stubbed'));
  return {
    config: vi.fn(async () => ({ consoleClient: { id: 'c', secret: 's' }, googleClientId: null, devMailbox: true })),
    passwordGrant: missing,
    refreshGrant: missing,
    logout: vi.fn(async () => undefined),
    signUp: missing,
    confirmEmail: missing,
    me: vi.fn(async () => me),
    saveQuestionnaire: vi.fn(async () => undefined),
    requestResetMail: missing,
    resetPassword: missing,
    googleToken: missing,
    resendConfirmation: missing,
    devMailbox: vi.fn(async () => []),
    ...overrides,
  };
}

function wrapperFor(auth: AuthApi) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: queryClient }, createElement(AuthApiProvider, { value: auth }, children));
  return { queryClient, wrapper };
}

describe('query hooks', () => {
  it('useConfig and useMe read through the provided auth api', async () => {
    const auth = fakeAuth();
    const { wrapper } = wrapperFor(auth);
    const { result } = renderHook(() => ({ config: useConfig(), me: useMe() }), { wrapper });
    await waitFor(() => expect(result.current.me.isSuccess && result.current.config.isSuccess).toBe(true));
    expect(result.current.me.data).toEqual(me);
    expect(result.current.config.data?.devMailbox).toBe(true);
  });

  it('useMe waits while disabled; useDevMailbox passes the address', async () => {
    const auth = fakeAuth();
    const { wrapper } = wrapperFor(auth);
    const { result } = renderHook(() => ({ me: useMe({ enabled: false }), mailbox: useDevMailbox({ to: 'ada@example.com' }) }), { wrapper });
    await waitFor(() => expect(result.current.mailbox.isSuccess).toBe(true));
    expect(auth.devMailbox).toHaveBeenCalledWith({ to: 'ada@example.com' });
    expect(auth.me).not.toHaveBeenCalled();
    expect(result.current.me.fetchStatus).toBe('idle');
  });

  it('saving the questionnaire reloads the user', async () => {
    const auth = fakeAuth();
    const { wrapper } = wrapperFor(auth);
    const { result } = renderHook(() => ({ me: useMe(), save: useSaveQuestionnaire() }), { wrapper });
    await waitFor(() => expect(result.current.me.isSuccess).toBe(true));

    await act(() => result.current.save.mutateAsync({ role: 'founder', teamSize: '1' }));
    expect(auth.saveQuestionnaire).toHaveBeenCalledWith({ role: 'founder', teamSize: '1' });
    await waitFor(() => expect(auth.me).toHaveBeenCalledTimes(2));
  });

  it('logging out drops every cached answer of the user who left', async () => {
    const auth = fakeAuth();
    const { wrapper, queryClient } = wrapperFor(auth);
    queryClient.setQueryData(queryKeys.me, me);
    queryClient.setQueryData(queryKeys.devMailbox(), []);
    const { result } = renderHook(() => useLogout(), { wrapper });

    await act(() => result.current.mutateAsync());
    expect(auth.logout).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(queryKeys.me)).toBeUndefined();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});

describe('shouldRetry', () => {
  it('never retries a 4xx, retries other failures twice', () => {
    expect(shouldRetry(0, new ApiError({ status: 404, code: 'not_found', detail: '' }))).toBe(false);
    expect(shouldRetry(0, new ApiError({ status: 503, code: 'unavailable', detail: '' }))).toBe(true);
    expect(shouldRetry(1, new ApiError({ status: 0, code: 'network_error', detail: '' }))).toBe(true);
    expect(shouldRetry(2, new ApiError({ status: 0, code: 'network_error', detail: '' }))).toBe(false);
  });
});
