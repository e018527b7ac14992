/**
 * TanStack Query hooks over the Functions calls (src/api/functions.ts), keys in `functionKeys`.
 * Reading needs the organization's read right, changing its admin right; the secrets are read by
 * admins only, so the screens pass `enabled: false` for other members. A change refreshes the list
 * and the function; a save, deploy or test refreshes its versions and its log.
 */
import { createContext, useContext } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getFunctionsApi, type FunctionInput, type FunctionScope, type FunctionsApi, type FunctionUpdate, type FunctionView } from './functions.ts';
import { shouldRetry } from './queries.ts';

export const functionKeys = {
  all: (scope: FunctionScope) => ['functions', scope.organizationID, scope.projectID] as const,
  list: (scope: FunctionScope) => ['functions', scope.organizationID, scope.projectID, 'list'] as const,
  one: (scope: FunctionScope, name: string) => ['functions', scope.organizationID, scope.projectID, 'function', name] as const,
  versions: (scope: FunctionScope, name: string) => ['functions', scope.organizationID, scope.projectID, 'versions', name] as const,
  invocations: (scope: FunctionScope, name: string) => ['functions', scope.organizationID, scope.projectID, 'invocations', name] as const,
  invocationPage: (scope: FunctionScope, name: string, page: number, search: string) =>
    ['functions', scope.organizationID, scope.projectID, 'invocations', name, page, search] as const,
  secrets: (scope: FunctionScope) => ['functions', scope.organizationID, scope.projectID, 'secrets'] as const,
};

const FunctionsApiContext = createContext<FunctionsApi | null>(null);

/** Overrides the Functions calls for a subtree (tests); without it the page's client is used. */
export const FunctionsApiProvider = FunctionsApiContext.Provider;

export function useFunctionsApi(): FunctionsApi {
  return useContext(FunctionsApiContext) ?? getFunctionsApi();
}

export function useFunctions(scope: FunctionScope, enabled = true) {
  const api = useFunctionsApi();
  return useQuery({ queryKey: functionKeys.list(scope), queryFn: () => api.list(scope), enabled, retry: shouldRetry, refetchOnMount: 'always' });
}

/** One function; asked again whenever shown, and every 30 s for a schedule's next run. */
export function useFunction(scope: FunctionScope, name: string, enabled = true) {
  const api = useFunctionsApi();
  return useQuery({ queryKey: functionKeys.one(scope, name), queryFn: () => api.get(scope, name), enabled, retry: shouldRetry, refetchOnMount: 'always', refetchInterval: 30_000 });
}

export function useFunctionVersions(scope: FunctionScope, name: string, enabled = true) {
  const api = useFunctionsApi();
  return useQuery({ queryKey: functionKeys.versions(scope, name), queryFn: () => api.versions(scope, name), enabled, retry: shouldRetry });
}

/** A page of the invocation log, polled every 5 s so runs on events and schedules show up. */
export function useFunctionInvocations(scope: FunctionScope, name: string, page: number, search: string, enabled = true) {
  const api = useFunctionsApi();
  return useQuery({
    queryKey: functionKeys.invocationPage(scope, name, page, search),
    queryFn: () => api.invocations(scope, name, page, search),
    enabled,
    placeholderData: keepPreviousData,
    retry: shouldRetry,
    refetchInterval: 5_000,
  });
}

export function useFunctionSecrets(scope: FunctionScope, enabled: boolean) {
  const api = useFunctionsApi();
  return useQuery({ queryKey: functionKeys.secrets(scope), queryFn: () => api.secrets(scope), enabled, retry: shouldRetry });
}

/** Puts a changed function where the screens read it: its own entry, and the list asked again. */
function useStoreFunction(scope: FunctionScope) {
  const queryClient = useQueryClient();
  return (fn: FunctionView) => {
    queryClient.setQueryData(functionKeys.one(scope, fn.name), fn);
    return queryClient.invalidateQueries({ queryKey: functionKeys.list(scope) });
  };
}

export function useCreateFunction(scope: FunctionScope) {
  const api = useFunctionsApi();
  const store = useStoreFunction(scope);
  return useMutation({ mutationFn: (input: FunctionInput) => api.create(scope, input), onSuccess: store });
}

export function useUpdateFunction(scope: FunctionScope, name: string) {
  const api = useFunctionsApi();
  const store = useStoreFunction(scope);
  return useMutation({ mutationFn: (input: FunctionUpdate) => api.update(scope, name, input), onSuccess: store });
}

export function useDeleteFunction(scope: FunctionScope) {
  const api = useFunctionsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.remove(scope, name),
    onSuccess: (_result, name) => {
      for (const key of [functionKeys.one(scope, name), functionKeys.versions(scope, name), functionKeys.invocations(scope, name)]) queryClient.removeQueries({ queryKey: key });
      return queryClient.invalidateQueries({ queryKey: functionKeys.list(scope) });
    },
  });
}

/** Saves a new version: the versions and the function (its latest number) are asked again. */
export function useSaveFunctionSource(scope: FunctionScope, name: string) {
  const api = useFunctionsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (source: string) => api.saveSource(scope, name, source),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: functionKeys.versions(scope, name) }),
        queryClient.invalidateQueries({ queryKey: functionKeys.one(scope, name) }),
        queryClient.invalidateQueries({ queryKey: functionKeys.list(scope) }),
      ]),
  });
}

export function useDeployFunction(scope: FunctionScope, name: string) {
  const api = useFunctionsApi();
  const queryClient = useQueryClient();
  const store = useStoreFunction(scope);
  return useMutation({
    mutationFn: (versionID: string) => api.deploy(scope, name, versionID),
    onSuccess: (fn) => Promise.all([store(fn), queryClient.invalidateQueries({ queryKey: functionKeys.versions(scope, name) })]),
  });
}

export function useTestFunction(scope: FunctionScope, name: string) {
  const api = useFunctionsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (event: unknown) => api.test(scope, name, event),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: functionKeys.invocations(scope, name) }),
  });
}

export function usePutFunctionSecret(scope: FunctionScope) {
  const api = useFunctionsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, value }: { name: string; value: string }) => api.putSecret(scope, name, value),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: functionKeys.secrets(scope) }),
  });
}

export function useDeleteFunctionSecret(scope: FunctionScope) {
  const api = useFunctionsApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.deleteSecret(scope, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: functionKeys.secrets(scope) }),
  });
}
