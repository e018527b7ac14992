/**
 * Business and interface constants of the console. Product decisions:
 * change a number here and every screen follows.
 */

/** Timing and sizes of the interface. */
export const ui = {
  toastDurationMs: 2000,
  /** A spinner appears only when loading takes longer than this, so quick loads do not flicker. */
  spinnerDelayMs: 1000,
  loadingBarHeight: '0.5vh',
  createWebhookDialogWidthPx: 400,
  deleteDialogWidthPx: 500,
  /** The ItemRef picker's dialog to create or edit a linked item: room for a form's fields. */
  linkedItemDialogWidthPx: 640,
  copiedConfirmationMs: 750,
  dropdownDelayMs: 100,
  /** Item-reference pickers search this long after the last keystroke. */
  pickerSearchDebounceMs: 300,
} as const;

/**
 * Paging of lists, the same for the server's defaults and bounds and the console's choices. Page
 * numbers start at 1.
 */
export const paging = {
  firstPage: 1,
  defaultPageSize: 50,
  /** Nested lists show this many per page. */
  nestedPageSize: 100,
  perPageOptions: [20, 50, 100, 300],
  /** The most items one page holds, and the highest page number asked for. */
  perPageMax: 1000,
  pageNumberMax: 1_000_000,
  /** The longest search of a list (terms separated by `|`). */
  searchMaxChars: 256,
  /** The preview table of a nested collection on its parent item: rows per page, `_rank` descending, at most 600 px high. */
  nestedPreviewPageSize: 10,
  nestedPreviewMaxHeightPx: 600,
} as const;

/** How often the console may interrupt the user. */
export const throttles = {
  apiLimitDialogMs: 30_000,
  apiLimitRemindMs: 5 * 60_000,
  /** The GRACE "Billing Account Status" dialog shows at most once per hour per organization. */
  graceAlertMs: 3_600_000,
} as const;

/** Keys of what the console keeps in the browser's local storage. */
export const storageKeys = {
  // The same keys as src/api/session.ts, which owns reading and writing the tokens.
  session: 'larder.tokens',
  lastOrganization: 'larder.lastOrganization',
  theme: 'larder.theme',
  closeAfterSaving: 'larder.closeAfterSaving',
  /** When the "Billing Account Status" dialog last showed for an organization (ms since the epoch). */
  billingStatusAlert: (organizationID: string) => `larder.billingStatusAlert.${organizationID}`,
  /** Column layouts are kept per organization, project, collection and nested path. */
  columnLayout: (organizationID: string, projectID: string, collectionID: string, nestedPath = '') =>
    `larder.columns.${organizationID}.${projectID}.${collectionID}${nestedPath ? `.${nestedPath}` : ''}`,
} as const;

/** Places and maps: the address search of GeoPoint editors and the maps the console draws. */
export const maps = {
  /** An address search needs this many characters (fewer: no request; the server answers 400). */
  searchMinChars: 3,
  /** Search inputs hold as many characters as a list's search. */
  searchMaxChars: paging.searchMaxChars,
  /** The address search asks this long after the last keystroke. */
  searchDebounceMs: 380,
  /** Places offered per search. */
  predictionsMax: 5,
  /** Coordinates are shown with this many decimals. */
  geoDecimals: 4,
  defaultZoom: 6,
  /** Where a map with no point looks first, and the zoom it shows the whole world at. */
  worldCenter: { lat: 20, lng: 0 },
  worldZoom: 2,
  /** The map layout asks for at most this many markers of the visible area (the list's per-page limit). */
  layoutMarkersMax: 1000,
  /** The map layout's Unset Markers list: items per page. */
  layoutUnsetPerPage: 20,
  /** The map layout asks for the visible area this long after the map stops moving. */
  layoutBoundsDebounceMs: 300,
} as const;

/** Link previews (docs/security.md "Outbound requests"): the card under a Link editor and the server's fetch. */
export const linkPreview = {
  /** The card asks for a preview this long after the address last changed. */
  debounceMs: 600,
  /** The server's whole fetch, redirects included, ends after this long (504). */
  timeoutMs: 8000,
  maxRedirects: 5,
  /** Most bytes of a page read for its title and description; the rest is not read. */
  pageBytesMax: 1_000_000,
  /** Most bytes of a preview image the server reads (larger: no image). */
  imageBytesMax: 5_000_000,
  /** The preview image is re-encoded to at most this many pixels wide and high. */
  imageSizePx: 300,
  titleMax: 300,
  descriptionMax: 1000,
} as const;
