/**
 * Business and interface constants of the console (platform §9, content §9). Product decisions:
 * change a number here and every screen follows.
 */

/** Timing and sizes of the interface. */
export const ui = {
  toastDurationMs: 2000,
  /** A spinner appears only when loading takes longer than this, so quick loads do not flicker. */
  spinnerDelayMs: 1000,
  loadingOverlayMaxMs: 3000,
  slideTransitionMs: 300,
  loadingBarHeight: '0.5vh',
  /** At this width or less the console uses its narrow layout (menu button, bottom navigation). */
  narrowBreakpointPx: 900,
  createWebhookDialogWidthPx: 400,
  deleteDialogWidthPx: 500,
  /** The ItemRef picker's dialog to create or edit a linked item: room for a form's fields. */
  linkedItemDialogWidthPx: 640,
  copiedConfirmationMs: 750,
  dropdownDelayMs: 100,
  /** Item-reference pickers search this long after the last keystroke (content §9). */
  pickerSearchDebounceMs: 300,
} as const;

/** Paging of lists. Page numbers start at 1. */
export const paging = {
  firstPage: 1,
  defaultPageSize: 50,
  nestedPageSize: 100,
  perPageOptions: [20, 50, 100, 300],
  /** The preview table of a nested collection on its parent item: rows per page, `_rank` descending, at most 600 px high (content §9). */
  nestedPreviewPageSize: 10,
  nestedPreviewMaxHeightPx: 600,
} as const;

/** How often the console may interrupt the user. */
export const throttles = {
  apiLimitDialogMs: 30_000,
  apiLimitRemindMs: 5 * 60_000,
  graceAlertMs: 60 * 60_000,
} as const;

/** Switches of features that exist but are not offered yet. */
export const featureToggles = {
  addOns: false,
  forgotPassword: true,
  files: false,
} as const;

/** Loading states shared by collections, organizations and the credit card setup. */
export const loadingStates = { INIT: 0, LOADING: 1, ERROR: 2, LOADED: 3, CREATED: 4 } as const;

/** Keys of what the console keeps in the browser's local storage. */
export const storageKeys = {
  // The same keys as src/api/session.ts, which owns reading and writing the tokens.
  session: 'larder.tokens',
  lastOrganization: 'larder.lastOrganization',
  theme: 'larder.theme',
  closeAfterSaving: 'larder.closeAfterSaving',
  /** Column layouts are kept per organization, project, collection and nested path. */
  columnLayout: (organizationID: string, projectID: string, collectionID: string, nestedPath = '') =>
    `larder.columns.${organizationID}.${projectID}.${collectionID}${nestedPath ? `.${nestedPath}` : ''}`,
} as const;
