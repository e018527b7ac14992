/**
 * The item list's own state (docs/console.md "Item list"): the page, the number per page, the
 * sort, the search with its debounce, the filter, multi-select and its selection, the chosen
 * layout, live data's sort, the open dialog (Import Items among them), deleting the selection
 * and the CSV download's progress.
 *
 * The machine does no I/O. The console provides the actors `deleteItems` (answers the ids it
 * could not delete) and `downloadCsv` (sends CSV.PROGRESS back while it reads), and the actions
 * `invalidateItems` (forget the cached pages), `announceDeleted` and `announceCsvFailed`. The page
 * itself is read by the grid or the layout, which report each answer with PAGE_LOADED or
 * PAGE_FAILED.
 */
import { assign, fromCallback, fromPromise, setup, type AnyEventObject } from 'xstate';
import { paging } from '../definitions/constants.ts';

/** The list search waits this long after typing and takes at most this many characters. */
export const searchDebounceMs = 500;
export const searchMaxLength = paging.searchMaxChars;

/** How many pages `total` items fill at `perPage` a page: at least one. */
export const pageCount = (total: number, perPage: number) => Math.max(1, Math.ceil(total / Math.max(1, perPage)));

export interface ListSort {
  key: string;
  order: 'asc' | 'desc';
}

/** Live data sorts the list newest first. */
export const liveSort: ListSort = { key: '_createdDate', order: 'desc' };

export interface CsvProgress {
  rows: number;
  /** Unknown until the server says how many rows the file will hold. */
  total: number | null;
}

/** The query the list's page is read with (the paging aside, also what CSV and the layouts use). */
export interface ListQuery {
  search?: string;
  filter?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

export interface ItemListContext {
  page: number;
  perPage: number;
  sort: ListSort | null;
  /** What the search box shows; `search` is what the list was last searched with. */
  searchText: string;
  search: string;
  filter: string | undefined;
  /** Bumped to read the shown page again. */
  reload: number;
  /** The list's size from the last page read; null before the first. */
  total: number | null;
  rowsShown: number;
  loadFailed: boolean;
  /** Every item of the last page read has a rank ("Make collection sortable" has run). */
  hasRanks: boolean;
  multiSelect: boolean;
  selected: string[];
  /** The layout chosen in this list (the menu or the address); undefined leaves the saved one. */
  layout: string | undefined;
  live: boolean;
  csv: CsvProgress | null;
}

export interface ItemListInput {
  perPage: number;
}

export interface PageAnswer {
  total: number;
  rows: number;
  hasRanks: boolean;
}

export type ItemListEvent =
  | { type: 'SEARCH_TYPED'; text: string }
  | { type: 'SEARCH_SHOWN' }
  | { type: 'FILTER_CHANGED'; filter: string | undefined }
  | { type: 'SORT_CHANGED'; sort: ListSort | null }
  | { type: 'PAGE_CHANGED'; page: number }
  | { type: 'PER_PAGE_CHANGED'; perPage: number }
  | ({ type: 'PAGE_LOADED' } & PageAnswer)
  | { type: 'PAGE_FAILED' }
  | { type: 'RELOAD' }
  | { type: 'REFRESH' }
  | { type: 'TOGGLE_MULTI_SELECT' }
  | { type: 'SELECTION_CHANGED'; ids: string[] }
  | { type: 'LAYOUT_CHOSEN'; layout: string }
  | { type: 'LIVE_ON' }
  | { type: 'LIVE_OFF' }
  | { type: 'LOAD_NEW_ITEMS' }
  | { type: 'OPEN_COLUMNS' }
  | { type: 'OPEN_LAYOUT_SETTINGS' }
  | { type: 'OPEN_IMPORT' }
  | { type: 'ASK_DELETE' }
  | { type: 'CLOSE_DIALOG' }
  | { type: 'DELETE' }
  | { type: 'DOWNLOAD_CSV' }
  | { type: 'CSV.PROGRESS'; rows: number; total: number }
  | { type: 'CSV.DONE' }
  | { type: 'CSV.FAILED'; error: unknown };

/** What the CSV actor reads: the list's query without its paging. */
export interface CsvInput {
  query: ListQuery;
}

/** The list's query as the API takes it, from the machine's context. */
export function listQuery(context: Pick<ItemListContext, 'sort' | 'search' | 'filter'>): ListQuery {
  return {
    ...(context.sort ? { sort: context.sort.key, order: context.sort.order } : {}),
    ...(context.search ? { search: context.search } : {}),
    ...(context.filter ? { filter: context.filter } : {}),
  };
}

const firstPage = { page: 1 } as const;

export const itemListMachine = setup({
  types: {
    context: {} as ItemListContext,
    events: {} as ItemListEvent,
    input: {} as ItemListInput,
  },
  actors: {
    // Each is provided by the console; these defaults fail loudly when one is forgotten.
    deleteItems: fromPromise<string[], { ids: string[] }>(async () => {
      throw new Error('deleteItems is not provided');
    }),
    downloadCsv: fromCallback<AnyEventObject, CsvInput>(({ sendBack }) => {
      sendBack({ type: 'CSV.FAILED', error: new Error('downloadCsv is not provided') });
    }),
  },
  actions: {
    invalidateItems: () => {},
    announceDeleted: (_, _params: { deleted: number; failed: number }) => {},
    announceCsvFailed: (_, _params: { error: unknown }) => {},
    bumpReload: assign({ reload: ({ context }) => context.reload + 1 }),
  },
  delays: {
    searchDebounce: searchDebounceMs,
  },
  guards: {
    isSearchUnchanged: ({ context, event }) => event.type === 'SEARCH_TYPED' && event.text.slice(0, searchMaxLength).trim() === context.search,
    isTextUnchanged: ({ context, event }) => event.type === 'SEARCH_TYPED' && event.text.slice(0, searchMaxLength) === context.searchText,
  },
}).createMachine({
  id: 'itemList',
  type: 'parallel',
  context: ({ input }) => ({
    page: 1,
    perPage: input.perPage,
    sort: null,
    searchText: '',
    search: '',
    filter: undefined,
    reload: 0,
    total: null,
    rowsShown: 0,
    loadFailed: false,
    hasRanks: false,
    multiSelect: false,
    selected: [],
    layout: undefined,
    live: false,
    csv: null,
  }),
  on: {
    FILTER_CHANGED: { actions: assign(({ event }) => ({ filter: event.filter, ...firstPage })) },
    SORT_CHANGED: { actions: assign(({ event }) => ({ sort: event.sort, ...firstPage })) },
    PAGE_CHANGED: { actions: assign({ page: ({ event }) => event.page }) },
    PER_PAGE_CHANGED: { actions: assign(({ event }) => ({ perPage: event.perPage, ...firstPage })) },
    PAGE_LOADED: {
      actions: assign(({ context, event }) => {
        // A page past the end (after deleting) goes back to the last page; multi-select turns
        // off when the list has no items left.
        const empty = event.total === 0;
        return {
          total: event.total,
          rowsShown: event.rows,
          hasRanks: event.hasRanks,
          loadFailed: false,
          page: Math.min(context.page, pageCount(event.total, context.perPage)),
          ...(empty ? { multiSelect: false, selected: [] } : {}),
        };
      }),
    },
    PAGE_FAILED: { actions: assign({ loadFailed: true }) },
    RELOAD: { actions: ['invalidateItems', 'bumpReload'] },
    REFRESH: { actions: 'bumpReload' },
    TOGGLE_MULTI_SELECT: { actions: assign(({ context }) => ({ multiSelect: !context.multiSelect, selected: [] })) },
    SELECTION_CHANGED: { actions: assign({ selected: ({ event }) => event.ids }) },
    LAYOUT_CHOSEN: { actions: assign({ layout: ({ event }) => event.layout }) },
    LIVE_ON: { actions: assign({ live: true, sort: liveSort, ...firstPage }) },
    LIVE_OFF: { actions: assign({ live: false, sort: null, ...firstPage }) },
    LOAD_NEW_ITEMS: { actions: [assign(firstPage), 'invalidateItems', 'bumpReload'] },
  },
  states: {
    search: {
      initial: 'idle',
      states: {
        idle: {},
        // The wait starts once the typed text is shown (the console sends SEARCH_SHOWN after drawing
        // it), so a slow render of a keystroke does not count as the person pausing.
        typing: {
          on: { SEARCH_SHOWN: 'debouncing' },
        },
        // Typing settles for searchDebounceMs before the list is searched again, from page 1.
        debouncing: {
          after: {
            searchDebounce: { target: 'idle', actions: assign(({ context }) => ({ search: context.searchText.trim(), ...firstPage })) },
          },
        },
      },
      on: {
        SEARCH_TYPED: [
          { guard: 'isTextUnchanged' },
          { guard: 'isSearchUnchanged', target: '.idle', actions: assign({ searchText: ({ event }) => event.text.slice(0, searchMaxLength) }) },
          { target: '.typing', actions: assign({ searchText: ({ event }) => event.text.slice(0, searchMaxLength) }) },
        ],
      },
    },
    dialog: {
      initial: 'none',
      states: {
        none: {
          on: {
            OPEN_COLUMNS: 'columns',
            OPEN_LAYOUT_SETTINGS: 'layoutSettings',
            OPEN_IMPORT: 'importItems',
            ASK_DELETE: 'confirmDelete',
          },
        },
        columns: { on: { CLOSE_DIALOG: 'none' } },
        layoutSettings: { on: { CLOSE_DIALOG: 'none' } },
        // Import Items (machines/item-import.ts runs the import; a success sends RELOAD).
        importItems: { on: { CLOSE_DIALOG: 'none' } },
        confirmDelete: {
          on: { CLOSE_DIALOG: 'none', DELETE: 'deleting' },
        },
        deleting: {
          tags: 'deleting',
          invoke: {
            src: 'deleteItems',
            input: ({ context }) => ({ ids: context.selected }),
            onDone: {
              target: 'none',
              actions: [
                {
                  type: 'announceDeleted',
                  params: ({ context, event }) => ({ deleted: context.selected.length - event.output.length, failed: event.output.length }),
                },
                assign({ selected: [] }),
                'invalidateItems',
                'bumpReload',
              ],
            },
            // A refused request deleted nothing.
            onError: {
              target: 'none',
              actions: [
                { type: 'announceDeleted', params: ({ context }) => ({ deleted: 0, failed: context.selected.length }) },
                assign({ selected: [] }),
                'invalidateItems',
                'bumpReload',
              ],
            },
          },
        },
      },
    },
    csv: {
      initial: 'idle',
      states: {
        idle: {
          on: { DOWNLOAD_CSV: 'downloading' },
        },
        downloading: {
          entry: assign({ csv: { rows: 0, total: null } }),
          exit: assign({ csv: null }),
          invoke: {
            src: 'downloadCsv',
            input: ({ context }) => ({ query: listQuery(context) }),
          },
          on: {
            'CSV.PROGRESS': { actions: assign({ csv: ({ event }) => ({ rows: event.rows, total: event.total }) }) },
            'CSV.DONE': 'idle',
            'CSV.FAILED': { target: 'idle', actions: { type: 'announceCsvFailed', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});
