/**
 * Model-based tests of the item list machine. Three independent models say what the list must
 * hold after each thing a person or the server does: the query (typing in the search box and the
 * debounce elapsing, a page read, paging, sorting, filtering, live data), the selection with its
 * dialogs and deleting, and the CSV download. Every shortest path of each model is replayed against
 * the real itemListMachine with a simulated clock and actors the test answers by hand.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, not, setup, SimulatedClock, type Actor, type AnyEventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { itemListMachine, liveSort, pageCount, searchDebounceMs, searchMaxLength, type CsvInput } from '../../machines/item-list.ts';
import { deferred, settle, type Deferred } from '../unit/support/deferred.ts';

const PER_PAGE = 50;
const nameSort = { key: 'name', order: 'asc' } as const;

/** The world the real machine runs in: a simulated clock, and the actors and actions it calls. */
class World {
  readonly clock = new SimulatedClock();
  readonly deletes: { ids: string[]; answer: Deferred<string[]> }[] = [];
  readonly downloads: { input: CsvInput; send: (event: AnyEventObject) => void; open: boolean }[] = [];
  readonly announced: { deleted: number; failed: number }[] = [];
  readonly csvFailures: unknown[] = [];
  invalidations = 0;
  readonly actor: Actor<typeof itemListMachine>;

  constructor() {
    const machine = itemListMachine.provide({
      actors: {
        deleteItems: fromPromise<string[], { ids: string[] }>(({ input }) => {
          const answer = deferred<string[]>();
          this.deletes.push({ ids: input.ids, answer });
          return answer.promise;
        }),
        downloadCsv: fromCallback<AnyEventObject, CsvInput>(({ sendBack, input }) => {
          const download = { input, send: sendBack, open: true };
          this.downloads.push(download);
          return () => {
            download.open = false;
          };
        }),
      },
      actions: {
        invalidateItems: () => {
          this.invalidations += 1;
        },
        announceDeleted: (_, params) => {
          this.announced.push(params);
        },
        announceCsvFailed: (_, params) => {
          this.csvFailures.push(params.error);
        },
      },
    });
    this.actor = createActor(machine, { clock: this.clock, input: { perPage: PER_PAGE } }).start();
  }

  get context() {
    return this.actor.getSnapshot().context;
  }

  send(event: Parameters<Actor<typeof itemListMachine>['send']>[0]) {
    this.actor.send(event);
  }

  /** Types into the search box, and the console shows the text. */
  type(text: string) {
    this.send({ type: 'SEARCH_TYPED', text });
    this.send({ type: 'SEARCH_SHOWN' });
  }

  loaded(total: number) {
    this.send({ type: 'PAGE_LOADED', total, rows: Math.min(total, PER_PAGE), hasRanks: false });
  }
}

describe('item list: search, paging, sort, filter and live data', () => {
  interface QueryModel {
    typed: '' | 'ab';
    search: '' | 'ab';
    page: number;
    total: number | null;
    sort: 'none' | 'name' | 'live';
    filter: boolean;
    live: boolean;
  }
  const debouncing = (context: QueryModel) => context.typed !== context.search;
  const model = setup({
    types: {
      context: {} as QueryModel,
      events: {} as
        | { type: 'TYPE_AB' }
        | { type: 'CLEAR' }
        | { type: 'DEBOUNCE_ELAPSED' }
        | { type: 'LOADED_60' }
        | { type: 'LOADED_0' }
        | { type: 'NEXT_PAGE' }
        | { type: 'SORT_BY_NAME' }
        | { type: 'FILTER' }
        | { type: 'LIVE_ON' }
        | { type: 'LIVE_OFF' },
    },
    guards: {
      isDebouncing: ({ context }) => debouncing(context),
      hasNextPage: ({ context }) => context.total !== null && context.page < pageCount(context.total, PER_PAGE),
      isUnsorted: ({ context }) => context.sort !== 'name',
      isUnfiltered: ({ context }) => !context.filter,
      isLive: ({ context }) => context.live,
    },
  }).createMachine({
    id: 'itemListQueryModel',
    context: { typed: '', search: '', page: 1, total: null, sort: 'none', filter: false, live: false },
    initial: 'list',
    states: {
      list: {
        on: {
          TYPE_AB: { actions: assign({ typed: 'ab' }) },
          CLEAR: { actions: assign({ typed: '' }) },
          DEBOUNCE_ELAPSED: { guard: 'isDebouncing', actions: assign({ search: ({ context }) => context.typed, page: 1 }) },
          LOADED_60: { actions: assign({ total: 60, page: ({ context }) => Math.min(context.page, 2) }) },
          LOADED_0: { actions: assign({ total: 0, page: 1 }) },
          NEXT_PAGE: { guard: 'hasNextPage', actions: assign({ page: ({ context }) => context.page + 1 }) },
          SORT_BY_NAME: { guard: 'isUnsorted', actions: assign({ sort: 'name', page: 1 }) },
          FILTER: { guard: 'isUnfiltered', actions: assign({ filter: true, page: 1 }) },
          LIVE_ON: { guard: not('isLive'), actions: assign({ live: true, sort: 'live', page: 1 }) },
          LIVE_OFF: { guard: 'isLive', actions: assign({ live: false, sort: 'none', page: 1 }) },
        },
      },
    },
  });

  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('reaches a debounced search, a clamped page, every sort and a filter', () => {
    const states = paths.flatMap((path) => path.steps.map((step) => step.state.context));
    expect(states.some((context) => debouncing(context) && context.search === 'ab')).toBe(true);
    expect(states.some((context) => context.page === 2 && context.filter && context.sort === 'live')).toBe(true);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const world = new World();
      await path.test({
        events: {
          TYPE_AB: () => world.type('ab'),
          CLEAR: () => world.type(''),
          DEBOUNCE_ELAPSED: () => {
            const before = world.context.search;
            world.clock.increment(searchDebounceMs - 1);
            // Not a moment before the debounce.
            expect(world.context.search).toBe(before);
            world.clock.increment(1);
          },
          LOADED_60: () => world.loaded(60),
          LOADED_0: () => world.loaded(0),
          NEXT_PAGE: () => world.send({ type: 'PAGE_CHANGED', page: world.context.page + 1 }),
          SORT_BY_NAME: () => world.send({ type: 'SORT_CHANGED', sort: nameSort }),
          FILTER: () => world.send({ type: 'FILTER_CHANGED', filter: '[["name","eq","x"]]' }),
          LIVE_ON: () => world.send({ type: 'LIVE_ON' }),
          LIVE_OFF: () => world.send({ type: 'LIVE_OFF' }),
        },
        states: {
          list: (state) => {
            const snapshot = world.actor.getSnapshot();
            expect(snapshot.context.searchText).toBe(state.context.typed);
            expect(snapshot.context.search).toBe(state.context.search);
            expect(snapshot.matches({ search: debouncing(state.context) ? 'debouncing' : 'idle' })).toBe(true);
            expect(snapshot.context.page).toBe(state.context.page);
            expect(snapshot.context.total).toBe(state.context.total);
            expect(snapshot.context.sort).toEqual({ none: null, name: nameSort, live: liveSort }[state.context.sort]);
            expect(snapshot.context.live).toBe(state.context.live);
            expect(Boolean(snapshot.context.filter)).toBe(state.context.filter);
            expect(snapshot.context.perPage).toBe(PER_PAGE);
          },
        },
      });
    });
  }

  it('restarts the wait on each keystroke and searches the trimmed text', () => {
    const world = new World();
    world.type(' a');
    world.clock.increment(searchDebounceMs - 100);
    world.type(' ab ');
    world.clock.increment(searchDebounceMs - 1);
    expect(world.context.search).toBe('');
    world.clock.increment(1);
    expect(world.context.search).toBe('ab');
    expect(world.context.searchText).toBe(' ab ');
    // Typing back to what was searched cancels the wait.
    world.type('abc');
    world.type('ab');
    expect(world.actor.getSnapshot().matches({ search: 'idle' })).toBe(true);
  });

  it('starts waiting only once the typed text is shown', () => {
    const world = new World();
    world.send({ type: 'SEARCH_TYPED', text: 'ab' });
    world.clock.increment(searchDebounceMs * 3);
    expect(world.context.search).toBe('');
    expect(world.actor.getSnapshot().matches({ search: 'typing' })).toBe(true);
    // The same text again (nothing new to show) keeps the wait as it is.
    world.send({ type: 'SEARCH_SHOWN' });
    world.clock.increment(searchDebounceMs - 1);
    world.send({ type: 'SEARCH_TYPED', text: 'ab' });
    world.clock.increment(1);
    expect(world.context).toMatchObject({ search: 'ab', page: 1 });
  });

  it('keeps at most the search limit of what is typed', () => {
    const world = new World();
    world.type('x'.repeat(searchMaxLength + 10));
    expect(world.context.searchText).toHaveLength(searchMaxLength);
  });

  it('goes back to page 1 when the number per page changes, and reads again on RELOAD, REFRESH and LOAD_NEW_ITEMS', () => {
    const world = new World();
    world.loaded(300);
    world.send({ type: 'PAGE_CHANGED', page: 4 });
    world.send({ type: 'PER_PAGE_CHANGED', perPage: 20 });
    expect(world.context).toMatchObject({ page: 1, perPage: 20 });
    world.send({ type: 'RELOAD' });
    expect(world.context.reload).toBe(1);
    expect(world.invalidations).toBe(1);
    world.send({ type: 'REFRESH' });
    expect(world.context.reload).toBe(2);
    expect(world.invalidations).toBe(1);
    world.send({ type: 'PAGE_CHANGED', page: 3 });
    world.send({ type: 'LOAD_NEW_ITEMS' });
    expect(world.context).toMatchObject({ page: 1, reload: 3 });
    expect(world.invalidations).toBe(2);
  });

  it('remembers a failed read until a page is read, and whether the page has ranks', () => {
    const world = new World();
    world.send({ type: 'PAGE_FAILED' });
    expect(world.context.loadFailed).toBe(true);
    world.send({ type: 'PAGE_LOADED', total: 3, rows: 3, hasRanks: true });
    expect(world.context).toMatchObject({ loadFailed: false, hasRanks: true, rowsShown: 3 });
    world.send({ type: 'LAYOUT_CHOSEN', layout: 'kanban' });
    expect(world.context.layout).toBe('kanban');
  });
});

describe('item list: selection, dialogs and deleting', () => {
  type Dialog = 'none' | 'columns' | 'layoutSettings' | 'importItems' | 'confirmDelete' | 'deleting';
  interface SelectionModel {
    multiSelect: boolean;
    selected: number;
    total: number | null;
    announced: { deleted: number; failed: number } | null;
  }
  const model = setup({
    types: {
      context: {} as SelectionModel,
      events: {} as
        | { type: 'TOGGLE_SELECT' }
        | { type: 'SELECT_TWO' }
        | { type: 'LOADED_5' }
        | { type: 'LOADED_0' }
        | { type: 'OPEN_COLUMNS' }
        | { type: 'OPEN_LAYOUT_SETTINGS' }
        | { type: 'OPEN_IMPORT' }
        | { type: 'ASK_DELETE' }
        | { type: 'CLOSE' }
        | { type: 'CONFIRM' }
        | { type: 'DELETED_ALL' }
        | { type: 'DELETED_ONE_OF_TWO' }
        | { type: 'DELETE_REFUSED' },
    },
    guards: {
      isSelecting: ({ context }) => context.multiSelect,
      hasSelection: ({ context }) => context.selected > 0,
    },
  }).createMachine({
    id: 'itemListSelectionModel',
    context: { multiSelect: false, selected: 0, total: null, announced: null },
    initial: 'none',
    states: {
      // The dialogs are modal: the list changes only while none is open.
      none: {
        on: {
          TOGGLE_SELECT: { actions: assign({ multiSelect: ({ context }) => !context.multiSelect, selected: 0 }) },
          LOADED_5: { actions: assign({ total: 5 }) },
          LOADED_0: { actions: assign({ total: 0, multiSelect: false, selected: 0 }) },
          SELECT_TWO: { guard: 'isSelecting', actions: assign({ selected: 2 }) },
          OPEN_COLUMNS: 'columns',
          OPEN_LAYOUT_SETTINGS: 'layoutSettings',
          OPEN_IMPORT: 'importItems',
          ASK_DELETE: { guard: 'hasSelection', target: 'confirmDelete' },
        },
      },
      columns: { on: { CLOSE: 'none' } },
      layoutSettings: { on: { CLOSE: 'none' } },
      importItems: { on: { CLOSE: 'none' } },
      confirmDelete: { on: { CLOSE: 'none', CONFIRM: 'deleting' } },
      deleting: {
        on: {
          DELETED_ALL: { target: 'none', actions: assign({ announced: { deleted: 2, failed: 0 }, selected: 0 }) },
          DELETED_ONE_OF_TWO: { target: 'none', actions: assign({ announced: { deleted: 1, failed: 1 }, selected: 0 }) },
          DELETE_REFUSED: { target: 'none', actions: assign({ announced: { deleted: 0, failed: 2 }, selected: 0 }) },
        },
      },
    },
  });

  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every dialog and every answer to deleting', () => {
    const states = paths.flatMap((path) => path.steps.map((step) => step.state));
    expect(new Set(states.map((state) => String(state.value)))).toEqual(new Set(['none', 'columns', 'layoutSettings', 'importItems', 'confirmDelete', 'deleting']));
    expect(new Set(states.map((state) => state.context.announced?.failed))).toEqual(new Set([undefined, 0, 1, 2]));
  });

  for (const path of paths) {
    it(path.description, async () => {
      const world = new World();
      let deleteCalls = 0;
      const answerDelete = async (answer: (pending: Deferred<string[]>) => void) => {
        const invalidations = world.invalidations;
        const reload = world.context.reload;
        const call = world.deletes.shift();
        if (!call) throw new Error('deleteItems was not called');
        answer(call.answer);
        await settle();
        // The list forgets its cached pages and reads the page again.
        expect(world.invalidations).toBe(invalidations + 1);
        expect(world.context.reload).toBe(reload + 1);
      };
      await path.test({
        events: {
          TOGGLE_SELECT: () => world.send({ type: 'TOGGLE_MULTI_SELECT' }),
          SELECT_TWO: () => world.send({ type: 'SELECTION_CHANGED', ids: ['a', 'b'] }),
          LOADED_5: () => world.loaded(5),
          LOADED_0: () => world.loaded(0),
          OPEN_COLUMNS: () => world.send({ type: 'OPEN_COLUMNS' }),
          OPEN_LAYOUT_SETTINGS: () => world.send({ type: 'OPEN_LAYOUT_SETTINGS' }),
          OPEN_IMPORT: () => world.send({ type: 'OPEN_IMPORT' }),
          ASK_DELETE: () => world.send({ type: 'ASK_DELETE' }),
          CLOSE: () => world.send({ type: 'CLOSE_DIALOG' }),
          CONFIRM: () => {
            world.send({ type: 'DELETE' });
            deleteCalls += 1;
          },
          DELETED_ALL: () => answerDelete((answer) => answer.resolve([])),
          DELETED_ONE_OF_TWO: () => answerDelete((answer) => answer.resolve(['b'])),
          DELETE_REFUSED: () => answerDelete((answer) => answer.reject(new TypeError('Failed to fetch'))),
        },
        states: Object.fromEntries(
          (['none', 'columns', 'layoutSettings', 'importItems', 'confirmDelete', 'deleting'] satisfies Dialog[]).map((dialog) => [
            dialog,
            (state: { context: SelectionModel }) => {
              const snapshot = world.actor.getSnapshot();
              expect(snapshot.matches({ dialog })).toBe(true);
              expect(snapshot.hasTag('deleting')).toBe(dialog === 'deleting');
              expect(snapshot.context.multiSelect).toBe(state.context.multiSelect);
              expect(snapshot.context.selected).toEqual(['a', 'b'].slice(0, state.context.selected));
              expect(snapshot.context.total).toBe(state.context.total);
              expect(world.announced.at(-1) ?? null).toEqual(state.context.announced);
              // Deleting asks the server once, for the selection.
              expect(world.deletes.map((call) => call.ids)).toEqual(dialog === 'deleting' ? [['a', 'b']] : []);
              expect(deleteCalls).toBe(world.announced.length + (dialog === 'deleting' ? 1 : 0));
            },
          ]),
        ),
      });
    });
  }
});

describe('item list: CSV download', () => {
  interface CsvModel {
    progress: { rows: number; total: number | null } | null;
    failures: number;
  }
  const model = setup({
    types: {
      context: {} as CsvModel,
      events: {} as { type: 'DOWNLOAD' } | { type: 'PROGRESS' } | { type: 'DONE' } | { type: 'FAIL' },
    },
    guards: {
      hasNotFailed: ({ context }) => context.failures === 0,
    },
  }).createMachine({
    id: 'itemListCsvModel',
    context: { progress: null, failures: 0 },
    initial: 'idle',
    states: {
      idle: { on: { DOWNLOAD: { target: 'downloading', actions: assign({ progress: { rows: 0, total: null } }) } } },
      downloading: {
        on: {
          // Downloading again while one runs is ignored.
          DOWNLOAD: {},
          PROGRESS: { actions: assign({ progress: { rows: 10, total: 30 } }) },
          DONE: { target: 'idle', actions: assign({ progress: null }) },
          FAIL: { guard: 'hasNotFailed', target: 'idle', actions: assign({ progress: null, failures: 1 }) },
        },
      },
    },
  });

  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();
  const failure = new Error('CSV refused');

  for (const path of paths) {
    it(path.description, async () => {
      const world = new World();
      world.type('ab');
      world.clock.increment(searchDebounceMs);
      world.send({ type: 'SORT_CHANGED', sort: nameSort });
      world.send({ type: 'PAGE_CHANGED', page: 2 });
      const download = () => {
        const current = world.downloads.at(-1);
        expect(current?.open).toBe(true);
        return current!;
      };
      await path.test({
        events: {
          DOWNLOAD: () => world.send({ type: 'DOWNLOAD_CSV' }),
          PROGRESS: () => download().send({ type: 'CSV.PROGRESS', rows: 10, total: 30 }),
          DONE: () => download().send({ type: 'CSV.DONE' }),
          FAIL: () => download().send({ type: 'CSV.FAILED', error: failure }),
        },
        states: {
          idle: (state) => {
            expect(world.actor.getSnapshot().matches({ csv: 'idle' })).toBe(true);
            expect(world.context.csv).toBeNull();
            expect(world.downloads.every((d) => !d.open)).toBe(true);
            expect(world.csvFailures).toEqual(state.context.failures ? [failure] : []);
          },
          downloading: (state) => {
            expect(world.actor.getSnapshot().matches({ csv: 'downloading' })).toBe(true);
            expect(world.context.csv).toEqual(state.context.progress);
            // One download at a time, of the list's query without its paging.
            expect(world.downloads.filter((d) => d.open)).toHaveLength(1);
            expect(download().input).toEqual({ query: { search: 'ab', sort: 'name', order: 'asc' } });
          },
        },
      });
    });
  }
});
