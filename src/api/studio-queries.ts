/**
 * Studio's hooks: the generated document (for the reference), and the workbench's token, minted
 * from the rights chosen and revoked when another is minted or the screen is left (docs/studio.md
 * "The workbench").
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { shouldRetry } from './queries.ts';
import { studioApi, type StudioToken, type StudioTokenInput } from './studio.ts';

export const studioKeys = {
  document: (organizationID: string, projectID: string) => ['studioDocument', organizationID, projectID] as const,
};

export function useStudioDocument(organizationID: string, projectID: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: studioKeys.document(organizationID, projectID),
    queryFn: () => studioApi.document(organizationID, projectID),
    enabled: options.enabled ?? true,
    retry: shouldRetry,
  });
}

/** The rights a Studio token is minted with: read-only preview, or one of the project's tokens. */
export type TokenChoice = { kind: 'preview' } | { kind: 'from'; tokenID: string };

export const choiceKey = (choice: TokenChoice | null) => (choice === null ? '' : choice.kind === 'preview' ? 'preview' : `from:${choice.tokenID}`);
const inputOf = (choice: TokenChoice): StudioTokenInput => (choice.kind === 'preview' ? { preview: true } : { from: choice.tokenID });

/** A token closer than this to its end is replaced before a call. */
const renewBeforeMs = 60_000;

export interface StudioTokenState {
  token: StudioToken | null;
  pending: boolean;
  error: unknown;
  /** A token of the current choice that lives long enough for a call: minted again when needed. */
  ensure: () => Promise<StudioToken>;
}

export function useStudioToken(organizationID: string, projectID: string, choice: TokenChoice | null, api = studioApi): StudioTokenState {
  const key = choiceKey(choice);
  const [state, setState] = useState<{ key: string; token: StudioToken | null; pending: boolean; error: unknown }>({ key: '', token: null, pending: false, error: null });
  const minted = useRef<StudioToken[]>([]);
  const current = useRef<{ key: string; promise: Promise<StudioToken> | null; token: StudioToken | null }>({ key: '', promise: null, token: null });
  const ids = useRef({ organizationID, projectID });
  ids.current = { organizationID, projectID };

  const mint = useCallback(
    (forKey: string, forChoice: TokenChoice): Promise<StudioToken> => {
      const promise = api.mintToken(organizationID, projectID, inputOf(forChoice)).then(
        (token) => {
          // Older tokens are no longer needed: revoke them now rather than at the end.
          const older = minted.current;
          minted.current = [token];
          for (const old of older) void api.revokeToken(organizationID, projectID, old.id).catch(() => undefined);
          if (current.current.key === forKey) {
            current.current = { key: forKey, promise: null, token };
            setState({ key: forKey, token, pending: false, error: null });
          }
          return token;
        },
        (error: unknown) => {
          if (current.current.key === forKey) {
            current.current = { key: forKey, promise: null, token: null };
            setState({ key: forKey, token: null, pending: false, error });
          }
          throw error;
        },
      );
      current.current = { key: forKey, promise, token: null };
      setState({ key: forKey, token: null, pending: true, error: null });
      return promise;
    },
    [api, organizationID, projectID],
  );

  useEffect(() => {
    if (!choice) {
      current.current = { key: '', promise: null, token: null };
      setState({ key: '', token: null, pending: false, error: null });
      return;
    }
    mint(key, choice).catch(() => undefined);
    // The choice is read through its key.
  }, [key, mint]);

  // Leaving the screen revokes every token it minted; so does closing or reloading the page.
  useEffect(() => {
    const leave = () => {
      for (const token of minted.current) api.revokeOnLeave(ids.current.organizationID, ids.current.projectID, token.id);
      minted.current = [];
    };
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      for (const token of minted.current) void api.revokeToken(ids.current.organizationID, ids.current.projectID, token.id).catch(() => undefined);
      minted.current = [];
    };
  }, [api]);

  const ensure = useCallback(async () => {
    if (!choice) throw new Error('No rights chosen');
    const now = current.current;
    if (now.key === key && now.promise) return now.promise;
    if (now.key === key && now.token && Date.parse(now.token.expiresDate) - Date.now() > renewBeforeMs) return now.token;
    return mint(key, choice);
  }, [key, mint]);

  const mine = state.key === key;
  return { token: mine ? state.token : null, pending: mine ? state.pending : choice !== null, error: mine ? state.error : null, ensure };
}
