/**
 * Layout settings of an item list: the calls (GET/PUT
 * collection/{c}/layout?nestedID, server/content/layout-routes.ts) and their TanStack Query hooks.
 * Settings are per nested path and shared by the team; a save merges the given keys, `null`
 * removing one, and answers the settings as stored, which replace the cached ones.
 */
import { createContext, useContext } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LayoutSettings } from '../../definitions/layout-settings.ts';
import { getApiClient, type ApiClient } from './client.ts';
import { contentKeys } from './content-keys.ts';
import { contentPath, type ProjectScope } from './content.ts';
import { shouldRetry } from './queries.ts';

/** Keys to change: a value sets it, null removes it. */
export type LayoutSettingsPatch = { [K in keyof LayoutSettings]?: LayoutSettings[K] | null };

export interface LayoutApi {
  settings(scope: ProjectScope, collectionID: string, nestedID?: string): Promise<LayoutSettings>;
  save(scope: ProjectScope, collectionID: string, patch: LayoutSettingsPatch, nestedID?: string): Promise<LayoutSettings>;
}

const nestedQuery = (nestedID: string | undefined) => (nestedID ? { searchParams: { nestedID } } : {});

export function createLayoutApi(client: ApiClient): LayoutApi {
  return {
    settings: (scope, collectionID, nestedID) => client.json<LayoutSettings>(contentPath(scope, 'collection', collectionID, 'layout'), nestedQuery(nestedID)),
    save: (scope, collectionID, patch, nestedID) =>
      client.json<LayoutSettings>(contentPath(scope, 'collection', collectionID, 'layout'), { method: 'put', json: patch, ...nestedQuery(nestedID) }),
  };
}

let browserLayoutApi: LayoutApi | null = null;
const LayoutApiContext = createContext<LayoutApi | null>(null);

/** Overrides the layout calls for a subtree (tests); without it the page's client is used. */
export const LayoutApiProvider = LayoutApiContext.Provider;

export function useLayoutApi(): LayoutApi {
  const provided = useContext(LayoutApiContext);
  if (provided) return provided;
  browserLayoutApi ??= createLayoutApi(getApiClient());
  return browserLayoutApi;
}

/** The settings' key: under the collection's, so a schema change refreshes them too. */
export const layoutKey = (scope: ProjectScope, collectionID: string, nestedPath: string) => [...contentKeys.collection(scope, collectionID), 'layout', nestedPath] as const;

/** A list's layout settings; `nestedID` names a nested collection's lists (its slug path is enough). */
export function useLayoutSettings(scope: ProjectScope, collectionID: string, nestedPath: string) {
  const api = useLayoutApi();
  return useQuery({
    queryKey: layoutKey(scope, collectionID, nestedPath),
    queryFn: () => api.settings(scope, collectionID, nestedPath || undefined),
    enabled: collectionID !== '',
    retry: shouldRetry,
  });
}

/** Saves changed settings (merged on the server) and keeps what it answers. */
export function useSaveLayoutSettings(scope: ProjectScope, collectionID: string, nestedPath: string) {
  const api = useLayoutApi();
  const queryClient = useQueryClient();
  const key = layoutKey(scope, collectionID, nestedPath);
  return useMutation({
    mutationFn: (patch: LayoutSettingsPatch) => api.save(scope, collectionID, patch, nestedPath || undefined),
    onMutate: (patch) => {
      // Shown at once; the answer (or a refetch after a failure) settles it.
      const before = queryClient.getQueryData<LayoutSettings>(key);
      const next: Record<string, unknown> = { ...(before ?? {}) };
      for (const [name, value] of Object.entries(patch)) {
        if (value === null) delete next[name];
        else if (value !== undefined) next[name] = value;
      }
      if (patch.endKey) delete next.durationKey;
      if (patch.durationKey) delete next.endKey;
      queryClient.setQueryData(key, next as LayoutSettings);
    },
    onSuccess: (stored) => queryClient.setQueryData(key, stored),
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}
