/**
 * How list reads and searches are tuned (docs/content-storage.md "Listing and searching items").
 * The app holds its own copy in `config.listQueries` (server/config.ts): the values an operator may
 * tune come from settings (`LIST_…`, `SEARCH_…`), the rest are these defaults. The item query
 * service reads it on every call, so tests set small values on their own app to exercise every
 * path on small lists.
 */

/** Deep pages of a list (engine.ts). */
export interface ListTuning {
  /** From this offset on, a page is found by its ids first (a deferred join). */
  deferredJoinOffset: number;
  /** From this offset on, a page sorted by a system key starts from a kept anchor (engine.ts ListAnchors). */
  anchorOffset: number;
  /** Every how many entries an anchor is kept. */
  anchorStep: number;
  /** A collection written to this recently (milliseconds) gets no anchors: they would not last. */
  anchorQuietMs: number;
  /** How many lists (collection, filter, sort) keep anchors per process. */
  anchorLists: number;
  /** Bytes of pages kept in memory per process (engine.ts PageCache; 0: none). */
  pageCacheBytes: number;
}

/** Totals kept for searches no index serves and for conditions whose count was slow (kept-search.ts). */
export interface KeptSearchLimits {
  /** Terms kept per collection; a new one beyond this replaces the least recently used. */
  termsPerCollection: number;
  /** Delta rows of a term a reader folds into its base. */
  foldAt: number;
  /** How long registering waits for the item table's writers in progress (milliseconds); past it the search counts as before. */
  lockTimeoutMs: number;
  /** A term's last use is written at most this often (milliseconds). */
  touchEveryMs: number;
  /**
   * A process registers at most one term per collection this often (milliseconds): registering
   * holds the collection's writers off for as long as the writers in progress take (at most
   * lockTimeoutMs), so a reader sending new short texts one after another cannot keep the writers
   * waiting; a search in between counts as before.
   */
  registerSpacingMs: number;
  /**
   * A filtered list whose page with its count took longer than this (milliseconds; 0: none) is
   * noted; when the same conditions come again within slowRememberMs, their total is kept like a
   * search's. Not a search whose page finds every match first (its count comes from those).
   */
  slowTotalMs: number;
  slowRememberMs: number;
}

/** The word index's search (search-words.ts, compile.ts). */
export interface SearchWordLimits {
  /** A text held by more tokens of a field's vocabulary than this is searched without the word index. */
  tokens: number;
  /** Nor one whose tokens are estimated in more than this share of the rows (search-words.ts). */
  rowShare: number;
  /**
   * Tokens per `&&` test: GIN merges the posting lists of one test's tokens item by item (a cost of
   * tokens × rows), while separate tests are ORed as bitmaps (a cost of rows), so the tokens go in
   * tests of a few each.
   */
  perTest: number;
}

export interface QueryTuning {
  list: ListTuning;
  keptSearch: KeptSearchLimits;
  searchWords: SearchWordLimits;
}

/** The defaults; the settings of server/settings.ts name the same numbers for the values they expose. */
export const defaultQueryTuning: Readonly<{ [K in keyof QueryTuning]: Readonly<QueryTuning[K]> }> = {
  list: { deferredJoinOffset: 1000, anchorOffset: 5000, anchorStep: 1000, anchorQuietMs: 2000, anchorLists: 64, pageCacheBytes: 32 * 1024 * 1024 },
  keptSearch: { termsPerCollection: 8, foldAt: 1000, lockTimeoutMs: 250, touchEveryMs: 3_600_000, registerSpacingMs: 2_000, slowTotalMs: 10, slowRememberMs: 600_000 },
  searchWords: { tokens: 256, rowShare: 0.02, perTest: 16 },
};

/** A fresh, changeable copy of the defaults with `overrides` on top. */
export function queryTuning(overrides: { [K in keyof QueryTuning]?: Partial<QueryTuning[K]> } = {}): QueryTuning {
  return {
    list: { ...defaultQueryTuning.list, ...overrides.list },
    keptSearch: { ...defaultQueryTuning.keptSearch, ...overrides.keptSearch },
    searchWords: { ...defaultQueryTuning.searchWords, ...overrides.searchWords },
  };
}
