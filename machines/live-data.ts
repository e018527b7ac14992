/**
 * Live data of an item list: while on, a server-event stream of the
 * collection is open; a `create` message marks new items available until the person loads them;
 * the server's `stop` makes the stream reconnect with the request id its `start` gave, so nothing
 * is missed; a stream that fails refreshes the token and retries with back-off, and gives up
 * after `maxFailures` in a row. Turning it on sorts the list by `_createdDate` descending, off
 * clears the sort; changing collection turns it off.
 *
 * The machine does no I/O. The console provides the `stream` actor (an EventSource that sends
 * back STREAM.* events), `refreshToken`, and the actions `applyLiveSort`, `clearLiveSort` and
 * `reloadItems`.
 */
import { assign, fromCallback, fromPromise, setup, type AnyEventObject } from 'xstate';

export const maxFailures = 5;

/** Back-off before the n-th retry (1-based): 1 s, 2 s, 4 s, 8 s, capped at 15 s. */
export const retryDelayMs = (failures: number) => Math.min(15_000, 1000 * 2 ** Math.max(0, failures - 1));

/** `import`: a batch of an import was written (docs/content-storage.md "Importing items"), as many creates. */
export type LiveTrigger = 'create' | 'update' | 'delete' | 'import';

export interface LiveDataContext {
  /** The id the server's last `start` gave; a reconnect after `stop` sends it to resume. */
  requestID: string | null;
  newItemsAvailable: boolean;
  /** Failures in a row (reset by a `start`). */
  failures: number;
}

export type LiveDataEvent =
  | { type: 'TURN_ON' }
  | { type: 'TURN_OFF' }
  | { type: 'COLLECTION_CHANGED' }
  | { type: 'LOAD_NEW_ITEMS' }
  | { type: 'RETRY' }
  | { type: 'STREAM.START'; requestID: string }
  | { type: 'STREAM.MESSAGE'; trigger: LiveTrigger; itemID: string }
  | { type: 'STREAM.STOP' }
  | { type: 'STREAM.ERROR' };

/** What the stream actor is started with: resume after this request id, if any. */
export interface LiveStreamInput {
  requestID: string | null;
}

const initialContext: LiveDataContext = { requestID: null, newItemsAvailable: false, failures: 0 };

export const liveDataMachine = setup({
  types: {
    context: {} as LiveDataContext,
    events: {} as LiveDataEvent,
  },
  actors: {
    /** Replaced by the console: opens the stream and sends STREAM.* events to its parent. */
    stream: fromCallback<AnyEventObject, LiveStreamInput>(() => () => {}),
    /** Replaced by the console: gets a fresh access token before a retry. */
    refreshToken: fromPromise<void>(async () => {}),
  },
  actions: {
    applyLiveSort: () => {},
    clearLiveSort: () => {},
    reloadItems: () => {},
  },
  delays: {
    retryDelay: ({ context }) => retryDelayMs(context.failures),
  },
  guards: {
    isCreate: ({ event }) => event.type === 'STREAM.MESSAGE' && (event.trigger === 'create' || event.trigger === 'import'),
    failedTooOften: ({ context }) => context.failures + 1 >= maxFailures,
  },
}).createMachine({
  id: 'liveData',
  context: initialContext,
  initial: 'off',
  states: {
    off: {
      on: { TURN_ON: 'on' },
    },
    on: {
      entry: 'applyLiveSort',
      exit: ['clearLiveSort', assign(initialContext)],
      on: {
        TURN_OFF: 'off',
        COLLECTION_CHANGED: 'off',
        LOAD_NEW_ITEMS: { actions: [assign({ newItemsAvailable: false }), 'reloadItems'] },
      },
      initial: 'connected',
      states: {
        connected: {
          invoke: { src: 'stream', input: ({ context }) => ({ requestID: context.requestID }) },
          initial: 'connecting',
          states: {
            connecting: {},
            open: {},
          },
          on: {
            'STREAM.START': { target: '.open', actions: assign({ requestID: ({ event }) => event.requestID, failures: 0 }) },
            'STREAM.MESSAGE': { guard: 'isCreate', actions: assign({ newItemsAvailable: true }) },
            // Leaving and entering `connected` again opens a new stream with the request id.
            'STREAM.STOP': 'reconnecting',
            'STREAM.ERROR': [{ guard: 'failedTooOften', target: 'failed', actions: assign({ failures: ({ context }) => context.failures + 1 }) }, { target: 'refreshing' }],
          },
        },
        reconnecting: {
          always: 'connected',
        },
        refreshing: {
          entry: assign({ failures: ({ context }) => context.failures + 1 }),
          invoke: { src: 'refreshToken', onDone: 'waiting', onError: 'waiting' },
        },
        waiting: {
          after: { retryDelay: 'connected' },
        },
        failed: {
          on: { RETRY: { target: 'connected', actions: assign({ failures: 0 }) } },
        },
      },
    },
  },
});
