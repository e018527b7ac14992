/**
 * Model-based test of live data: the model says, after each thing the person or
 * the server does (turn on/off, start, a create or update message, stop, a failed stream, the
 * back-off elapsing, Load New Items, changing collection, retry after giving up), whether live data
 * is on, whether a stream is open and with which request id it was opened, whether new items are
 * announced, and what the list's sort is. Every shortest path is replayed against the real
 * machine with a simulated clock and a fake stream.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, setup, SimulatedClock, type Actor, type AnyEventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { liveDataMachine, maxFailures, retryDelayMs, type LiveStreamInput } from '../../machines/live-data.ts';

interface ModelContext {
  /** The request id the server gave last (the model's server hands out r1, r2, …). */
  requestID: string | null;
  starts: number;
  newItems: boolean;
  failures: number;
  /** The sort the list shows: live data sorts by _createdDate descending. */
  sort: 'none' | 'createdDesc';
}

const initial: ModelContext = { requestID: null, starts: 0, newItems: false, failures: 0, sort: 'none' };

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'TURN_ON' }
      | { type: 'TURN_OFF' }
      | { type: 'START' }
      | { type: 'CREATE' }
      | { type: 'UPDATE' }
      | { type: 'STOP' }
      | { type: 'FAIL' }
      | { type: 'BACKOFF_ELAPSED' }
      | { type: 'LOAD_NEW' }
      | { type: 'CHANGE_COLLECTION' }
      | { type: 'RETRY' },
  },
  guards: {
    fewStarts: ({ context }) => context.starts < 2,
    givesUp: ({ context }) => context.failures + 1 >= maxFailures,
  },
}).createMachine({
  id: 'liveModel',
  context: initial,
  initial: 'off',
  states: {
    off: {
      on: { TURN_ON: { target: 'connecting', actions: assign({ sort: 'createdDesc' }) } },
    },
    connecting: {
      on: {
        START: { guard: 'fewStarts', target: 'open', actions: assign({ starts: ({ context }) => context.starts + 1, requestID: ({ context }) => `r${context.starts + 1}`, failures: 0 }) },
        FAIL: [{ guard: 'givesUp', target: 'failed', actions: assign({ failures: ({ context }) => context.failures + 1 }) }, { target: 'waiting', actions: assign({ failures: ({ context }) => context.failures + 1 }) }],
        STOP: 'connecting',
        CREATE: { actions: assign({ newItems: true }) },
        TURN_OFF: { target: 'off', actions: assign(initial) },
        CHANGE_COLLECTION: { target: 'off', actions: assign(initial) },
        LOAD_NEW: { actions: assign({ newItems: false }) },
      },
    },
    open: {
      on: {
        CREATE: { actions: assign({ newItems: true }) },
        UPDATE: {},
        STOP: 'connecting',
        FAIL: [{ guard: 'givesUp', target: 'failed', actions: assign({ failures: ({ context }) => context.failures + 1 }) }, { target: 'waiting', actions: assign({ failures: ({ context }) => context.failures + 1 }) }],
        LOAD_NEW: { actions: assign({ newItems: false }) },
        TURN_OFF: { target: 'off', actions: assign(initial) },
        CHANGE_COLLECTION: { target: 'off', actions: assign(initial) },
      },
    },
    waiting: {
      on: {
        BACKOFF_ELAPSED: 'connecting',
        LOAD_NEW: { actions: assign({ newItems: false }) },
        TURN_OFF: { target: 'off', actions: assign(initial) },
        CHANGE_COLLECTION: { target: 'off', actions: assign(initial) },
      },
    },
    failed: {
      on: {
        RETRY: { target: 'connecting', actions: assign({ failures: 0 }) },
        TURN_OFF: { target: 'off', actions: assign(initial) },
        CHANGE_COLLECTION: { target: 'off', actions: assign(initial) },
      },
    },
  },
});

/** The world the real machine runs in: a fake server stream, a simulated clock, the list's sort. */
class World {
  readonly clock = new SimulatedClock();
  /** Every stream opened: the request id it resumed with, and whether it is still open. */
  readonly connections: { requestID: string | null; open: boolean; send: (event: AnyEventObject) => void }[] = [];
  sort: 'none' | 'createdDesc' = 'none';
  reloads = 0;
  refreshes = 0;
  served = 0;
  readonly actor: Actor<typeof liveDataMachine>;

  constructor() {
    const machine = liveDataMachine.provide({
      actors: {
        stream: fromCallback<AnyEventObject, LiveStreamInput>(({ sendBack, input }) => {
          const connection = { requestID: input.requestID, open: true, send: sendBack };
          this.connections.push(connection);
          return () => {
            connection.open = false;
          };
        }),
        refreshToken: fromPromise<void>(async () => {
          this.refreshes += 1;
        }),
      },
      actions: {
        applyLiveSort: () => (this.sort = 'createdDesc'),
        clearLiveSort: () => (this.sort = 'none'),
        reloadItems: () => (this.reloads += 1),
      },
    });
    this.actor = createActor(machine, { clock: this.clock }).start();
  }

  get current() {
    return this.connections.at(-1);
  }

  /** The open stream sends an event to the machine, as the EventSource would. */
  fromServer(event: AnyEventObject) {
    const connection = this.current;
    expect(connection?.open).toBe(true);
    connection!.send(event);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('live data model', () => {
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers on, off, open, waiting, failed and the announcements', () => {
    const values = new Set(paths.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...values].sort()).toEqual(['connecting', 'failed', 'off', 'open', 'waiting']);
    // Paths that are the start of a longer one are left out, so look at every state along the steps.
    const ends = paths.flatMap((path) => path.steps.map((step) => step.state));
    expect(ends.some((state) => state.context.newItems)).toBe(true);
    expect(ends.some((state) => state.value === 'failed' && state.context.failures === maxFailures)).toBe(true);
    expect(ends.some((state) => state.value === 'connecting' && state.context.requestID === 'r2')).toBe(true);
  });

  for (const path of paths) {
    it(path.description, async () => {
      let world: World | null = null;
      const w = () => (world ??= new World());
      await path.test({
        events: {
          TURN_ON: () => w().actor.send({ type: 'TURN_ON' }),
          TURN_OFF: () => w().actor.send({ type: 'TURN_OFF' }),
          START: () => {
            w().served += 1;
            w().fromServer({ type: 'STREAM.START', requestID: `r${w().served}` });
          },
          CREATE: () => w().fromServer({ type: 'STREAM.MESSAGE', trigger: 'create', itemID: 'a' }),
          UPDATE: () => w().fromServer({ type: 'STREAM.MESSAGE', trigger: 'update', itemID: 'a' }),
          STOP: () => w().fromServer({ type: 'STREAM.STOP' }),
          FAIL: async () => {
            w().fromServer({ type: 'STREAM.ERROR' });
            await settle();
          },
          BACKOFF_ELAPSED: async () => {
            const failures = w().actor.getSnapshot().context.failures;
            w().clock.increment(retryDelayMs(failures) - 1);
            // Not a moment before the back-off.
            expect(w().actor.getSnapshot().matches({ on: 'waiting' })).toBe(true);
            w().clock.increment(1);
            await settle();
          },
          LOAD_NEW: () => w().actor.send({ type: 'LOAD_NEW_ITEMS' }),
          CHANGE_COLLECTION: () => w().actor.send({ type: 'COLLECTION_CHANGED' }),
          RETRY: () => w().actor.send({ type: 'RETRY' }),
        },
        states: {
          off: () => {
            const snapshot = w().actor.getSnapshot();
            expect(snapshot.matches('off')).toBe(true);
            expect(w().connections.every((c) => !c.open)).toBe(true);
            expect(w().sort).toBe('none');
            expect(snapshot.context.newItemsAvailable).toBe(false);
          },
          connecting: (state) => {
            const snapshot = w().actor.getSnapshot();
            expect(snapshot.matches({ on: { connected: 'connecting' } })).toBe(true);
            // Exactly one stream is open, resuming after the request id the last start gave.
            expect(w().connections.filter((c) => c.open)).toHaveLength(1);
            expect(w().current!.requestID).toBe(state.context.requestID);
            expect(w().sort).toBe('createdDesc');
            expect(snapshot.context.newItemsAvailable).toBe(state.context.newItems);
          },
          open: (state) => {
            const snapshot = w().actor.getSnapshot();
            expect(snapshot.matches({ on: { connected: 'open' } })).toBe(true);
            expect(w().connections.filter((c) => c.open)).toHaveLength(1);
            expect(snapshot.context.requestID).toBe(state.context.requestID);
            expect(snapshot.context.newItemsAvailable).toBe(state.context.newItems);
            expect(w().sort).toBe('createdDesc');
          },
          waiting: (state) => {
            const snapshot = w().actor.getSnapshot();
            expect(snapshot.matches({ on: 'waiting' })).toBe(true);
            expect(w().connections.every((c) => !c.open)).toBe(true);
            // Each failure refreshed the token once before waiting.
            expect(w().refreshes).toBeGreaterThanOrEqual(state.context.failures);
            expect(snapshot.context.failures).toBe(state.context.failures);
          },
          failed: () => {
            const snapshot = w().actor.getSnapshot();
            expect(snapshot.matches({ on: 'failed' })).toBe(true);
            expect(w().connections.every((c) => !c.open)).toBe(true);
          },
        },
      });
    });
  }
});

describe('live data, Load New Items', () => {
  it('clears the announcement and reloads the list once', () => {
    const world = new World();
    world.actor.send({ type: 'TURN_ON' });
    world.fromServer({ type: 'STREAM.START', requestID: 'r1' });
    world.fromServer({ type: 'STREAM.MESSAGE', trigger: 'create', itemID: 'x' });
    expect(world.actor.getSnapshot().context.newItemsAvailable).toBe(true);
    world.actor.send({ type: 'LOAD_NEW_ITEMS' });
    expect(world.actor.getSnapshot().context.newItemsAvailable).toBe(false);
    expect(world.reloads).toBe(1);
  });

  it('announces an import batch as new items, and not an update', () => {
    const world = new World();
    world.actor.send({ type: 'TURN_ON' });
    world.fromServer({ type: 'STREAM.START', requestID: 'r1' });
    world.fromServer({ type: 'STREAM.MESSAGE', trigger: 'update', itemID: 'x' });
    expect(world.actor.getSnapshot().context.newItemsAvailable).toBe(false);
    world.fromServer({ type: 'STREAM.MESSAGE', trigger: 'import', itemID: '' });
    expect(world.actor.getSnapshot().context.newItemsAvailable).toBe(true);
  });

  it('back-off doubles and is capped', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
  });
});
