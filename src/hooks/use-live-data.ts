/**
 * Live data for an item list: runs the live-data machine with the browser's
 * EventSource. The list gives what turning it on and off does to its sort, and how it reloads;
 * changing collection (or nested list) turns live data off.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useMachine } from '@xstate/react';
import { liveDataMachine } from '../../machines/live-data.ts';
import { getApiClient, type ApiClient } from '../api/client.ts';
import { liveRefreshActor, liveStreamActor, type EventSourceFactory, type LiveTarget } from '../api/live.ts';

export interface LiveDataHandlers {
  /** Live data on: the list sorts by `_createdDate` descending. */
  applyLiveSort(): void;
  /** Live data off: the list's sort is cleared. */
  clearLiveSort(): void;
  /** "Load New Items": the list reloads (page 1). */
  reloadItems(): void;
}

export type LiveStatus = 'off' | 'connecting' | 'open' | 'retrying' | 'failed';

export function useLiveData(target: LiveTarget, handlers: LiveDataHandlers, options: { client?: ApiClient; openEventSource?: EventSourceFactory } = {}) {
  const client = options.client ?? getApiClient();
  const latest = useRef({ target, handlers });
  latest.current = { target, handlers };
  const machine = useMemo(
    () =>
      liveDataMachine.provide({
        actors: {
          // The target is read when a connection opens, so a changed collection never gets the old stream.
          stream: liveStreamActor(client, () => latest.current.target, options.openEventSource),
          refreshToken: liveRefreshActor(client),
        },
        actions: {
          applyLiveSort: () => latest.current.handlers.applyLiveSort(),
          clearLiveSort: () => latest.current.handlers.clearLiveSort(),
          reloadItems: () => latest.current.handlers.reloadItems(),
        },
      }),
    [client, options.openEventSource],
  );
  const [snapshot, send] = useMachine(machine);

  const key = [target.scope.organizationID, target.scope.projectID, target.collectionID, target.itemID ?? '', target.nestedID ?? ''].join('/');
  const previous = useRef(key);
  useEffect(() => {
    if (previous.current !== key) {
      previous.current = key;
      send({ type: 'COLLECTION_CHANGED' });
    }
  }, [key, send]);

  const status: LiveStatus = snapshot.matches('off')
    ? 'off'
    : snapshot.matches({ on: 'failed' })
      ? 'failed'
      : snapshot.matches({ on: { connected: 'open' } })
        ? 'open'
        : snapshot.matches({ on: 'connected' }) || snapshot.matches({ on: 'reconnecting' })
          ? 'connecting'
          : 'retrying';

  return {
    status,
    on: status !== 'off',
    newItemsAvailable: snapshot.context.newItemsAvailable,
    turnOn: () => send({ type: 'TURN_ON' }),
    turnOff: () => send({ type: 'TURN_OFF' }),
    toggle: () => send({ type: status === 'off' ? 'TURN_ON' : 'TURN_OFF' }),
    loadNewItems: () => send({ type: 'LOAD_NEW_ITEMS' }),
    retry: () => send({ type: 'RETRY' }),
  };
}
