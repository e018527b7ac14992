/**
 * Column Settings of the item list: which columns are hidden and which are
 * pinned, kept in localStorage per organization, project, collection and nested path.
 */
export type Pin = 'left' | 'right';

export interface ColumnSettings {
  hidden: string[];
  pinned: Record<string, Pin>;
}

export const noColumnSettings: ColumnSettings = { hidden: [], pinned: {} };

export interface ColumnScope {
  organizationID: string;
  projectID: string;
  collectionID: string;
  /** The dot-joined nested path; '' for a top-level list. */
  nestedPath?: string;
}

export const columnSettingsKey = (scope: ColumnScope) =>
  ['larder.columns', scope.organizationID, scope.projectID, scope.collectionID, scope.nestedPath ?? ''].map(encodeURIComponent).join(':');

const isPin = (value: unknown): value is Pin => value === 'left' || value === 'right';

/** The saved settings; anything unreadable counts as none. */
export function loadColumnSettings(scope: ColumnScope, storage: Storage | undefined = globalThis.localStorage): ColumnSettings {
  try {
    const raw = storage?.getItem(columnSettingsKey(scope));
    if (!raw) return noColumnSettings;
    const parsed = JSON.parse(raw) as Partial<ColumnSettings>;
    const hidden = Array.isArray(parsed.hidden) ? parsed.hidden.filter((id): id is string => typeof id === 'string') : [];
    const pinned: Record<string, Pin> = {};
    if (parsed.pinned && typeof parsed.pinned === 'object') for (const [id, pin] of Object.entries(parsed.pinned)) if (isPin(pin)) pinned[id] = pin;
    return { hidden, pinned };
  } catch {
    return noColumnSettings;
  }
}

export function saveColumnSettings(scope: ColumnScope, settings: ColumnSettings, storage: Storage | undefined = globalThis.localStorage): void {
  try {
    if (settings.hidden.length === 0 && Object.keys(settings.pinned).length === 0) storage?.removeItem(columnSettingsKey(scope));
    else storage?.setItem(columnSettingsKey(scope), JSON.stringify(settings));
  } catch {
    // Storage full or denied: the settings last for this visit only.
  }
}

export function setHidden(settings: ColumnSettings, columnID: string, hidden: boolean): ColumnSettings {
  const rest = settings.hidden.filter((id) => id !== columnID);
  return { ...settings, hidden: hidden ? [...rest, columnID] : rest };
}

export function setPin(settings: ColumnSettings, columnID: string, pin: Pin | null): ColumnSettings {
  const { [columnID]: _old, ...rest } = settings.pinned;
  return { ...settings, pinned: pin ? { ...rest, [columnID]: pin } : rest };
}
