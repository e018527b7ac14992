/**
 * Studio's history (docs/studio.md "Code for a request"): the last 20 requests run, per project,
 * in localStorage, newest first, each with what the builder needs to reopen it.
 */
import type { StudioRequest } from '../../../definitions/studio-request.ts';
import type { FilterState } from '../items/filter-state.ts';

export const historyMax = 20;

export interface HistoryEntry {
  /** When it ran, ISO 8601. */
  at: string;
  request: StudioRequest;
  /** The filter control's state and the search text, to put back into the controls. */
  filter: FilterState | null;
  searchText: string;
  /** The answer's status; 0 when no answer came. */
  status: number;
}

const storageKey = (projectID: string) => `larder.studio.history.${projectID}`;

const isEntry = (value: unknown): value is HistoryEntry =>
  typeof value === 'object' && value !== null && typeof (value as HistoryEntry).at === 'string' && typeof (value as HistoryEntry).request?.collection === 'string';

export function readHistory(projectID: string, storage: Storage = localStorage): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey(projectID)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, historyMax) : [];
  } catch {
    return [];
  }
}

/** Adds an entry on top and keeps the newest `historyMax`; returns the new list. */
export function addToHistory(projectID: string, entry: HistoryEntry, storage: Storage = localStorage): HistoryEntry[] {
  const next = [entry, ...readHistory(projectID, storage)].slice(0, historyMax);
  try {
    storage.setItem(storageKey(projectID), JSON.stringify(next));
  } catch {
    // Storage full or refused: the history simply is not kept.
  }
  return next;
}

export function clearHistory(projectID: string, storage: Storage = localStorage) {
  storage.removeItem(storageKey(projectID));
}
