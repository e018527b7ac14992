/**
 * TanStack Query hooks over the Integrations calls (src/api/integrations.ts), keys in
 * `integrationKeys`. Every call is an organization admin's, so the screens pass `enabled: false`
 * for other members instead of asking. A change refreshes the list and the instance; a test run,
 * the run log, which polls while a run is pending.
 */
import { createContext, useContext } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getIntegrationsApi, type IntegrationInstanceInput, type IntegrationInstanceUpdate, type IntegrationScope, type IntegrationsApi } from './integrations.ts';
import { shouldRetry } from './queries.ts';

export const integrationKeys = {
  all: (scope: IntegrationScope) => ['integrations', scope.organizationID, scope.projectID] as const,
  list: (scope: IntegrationScope) => ['integrations', scope.organizationID, scope.projectID, 'list'] as const,
  instance: (scope: IntegrationScope, id: string) => ['integrations', scope.organizationID, scope.projectID, 'instance', id] as const,
  runs: (scope: IntegrationScope, id: string) => ['integrations', scope.organizationID, scope.projectID, 'runs', id] as const,
  runPage: (scope: IntegrationScope, id: string, page: number) => ['integrations', scope.organizationID, scope.projectID, 'runs', id, page] as const,
};

const IntegrationsApiContext = createContext<IntegrationsApi | null>(null);

/** Overrides the Integrations calls for a subtree (tests); without it the page's client is used. */
export const IntegrationsApiProvider = IntegrationsApiContext.Provider;

export function useIntegrationsApi(): IntegrationsApi {
  return useContext(IntegrationsApiContext) ?? getIntegrationsApi();
}

/** The list, asked again whenever it is shown and polled slowly, so each last run stays current. */
export function useIntegrationInstances(scope: IntegrationScope, enabled: boolean) {
  const api = useIntegrationsApi();
  return useQuery({ queryKey: integrationKeys.list(scope), queryFn: () => api.list(scope), enabled, retry: shouldRetry, refetchOnMount: 'always', refetchInterval: 15_000 });
}

export function useIntegrationInstance(scope: IntegrationScope, id: string, enabled: boolean) {
  const api = useIntegrationsApi();
  return useQuery({ queryKey: integrationKeys.instance(scope, id), queryFn: () => api.get(scope, id), enabled, retry: shouldRetry, refetchOnMount: 'always' });
}

export function useCreateIntegration(scope: IntegrationScope) {
  const api = useIntegrationsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: IntegrationInstanceInput) => api.create(scope, input),
    onSuccess: (instance) => {
      queryClient.setQueryData(integrationKeys.instance(scope, instance.id), instance);
      return queryClient.invalidateQueries({ queryKey: integrationKeys.list(scope) });
    },
  });
}

export function useUpdateIntegration(scope: IntegrationScope, id: string) {
  const api = useIntegrationsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: IntegrationInstanceUpdate) => api.update(scope, id, input),
    onSuccess: (instance) => {
      queryClient.setQueryData(integrationKeys.instance(scope, id), instance);
      return queryClient.invalidateQueries({ queryKey: integrationKeys.list(scope) });
    },
  });
}

export function useDeleteIntegration(scope: IntegrationScope) {
  const api = useIntegrationsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.remove(scope, id),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: integrationKeys.instance(scope, id) });
      return queryClient.invalidateQueries({ queryKey: integrationKeys.list(scope) });
    },
  });
}

export function useTestIntegration(scope: IntegrationScope, id: string) {
  const api = useIntegrationsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.test(scope, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.runs(scope, id) }),
  });
}

/** A page of the run log: every 2 s while a run on it is pending, else every 15 s. */
export function useIntegrationRuns(scope: IntegrationScope, id: string, page: number, enabled: boolean) {
  const api = useIntegrationsApi();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: integrationKeys.runPage(scope, id, page),
    queryFn: async () => {
      const result = await api.runs(scope, id, page);
      // The instance's last run (status, time, error) changes with its runs.
      void queryClient.invalidateQueries({ queryKey: integrationKeys.instance(scope, id) });
      return result;
    },
    enabled,
    placeholderData: keepPreviousData,
    retry: shouldRetry,
    refetchInterval: (current) => (current.state.data?.runs.some((run) => run.status === 'pending') ? 2000 : 15_000),
  });
}
