/**
 * The contract between the item list screen and its layouts: table,
 * calendar, kanban and map. The list owns search, filter, the collection and the nested path; a
 * layout draws the items its own way, reads only what it shows (a date range, a column's page, the
 * map's bounds) and asks the list to open an item or start a new one with values prefilled.
 */
import type { LayoutSettings } from '../../definitions/layout-settings.ts';
import type { Collection, ListParams, ProjectScope } from '../../src/api/content.ts';

/** Layout kinds and their settings; the rules live in definitions/layout-settings.ts. */
export type { LayoutKind, LayoutSettings } from '../../definitions/layout-settings.ts';
export interface LayoutProps {
  scope: ProjectScope;
  /** The list's collection; for a nested list, its schema is the nested collection's. */
  collection: Collection;
  /** A nested list: the top-level item it hangs under and its nestedID. */
  nested?: { itemID: string; nestedID: string } | undefined;
  settings: LayoutSettings;
  /** Saves changed settings on the server (merged into the stored ones). */
  onSettingsChange: (next: LayoutSettings) => void;
  /** Opens the layout settings dialog (the "choose a field" state offers it). */
  onOpenSettings: () => void;
  /**
   * The list's search and filter (and the nested list's parentItemID/nestedID): a layout adds its
   * own `query`/`find`/paging to these so it honours what the list shows.
   */
  baseParams: Pick<ListParams, 'search' | 'filter' | 'parentItemID' | 'nestedID'>;
  /** Bumped when items may have changed elsewhere (an item page closed, live data loaded). */
  reloadKey: number;
  canCreate: boolean;
  canUpdate: boolean;
  onOpenItem: (itemID: string) => void;
  /** Opens a new item with these values set (field slug → value as the item API takes it). */
  onNewItem: (prefill: Record<string, unknown>) => void;
}
