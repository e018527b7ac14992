/** The item page's "Close after saving" choice: kept in this browser, on by default. */
const storageKey = 'larder.item.closeAfterSaving';

export function loadCloseAfterSaving(): boolean {
  try {
    return globalThis.localStorage?.getItem(storageKey) !== 'false';
  } catch {
    return true;
  }
}

export function saveCloseAfterSaving(value: boolean): void {
  try {
    globalThis.localStorage?.setItem(storageKey, value ? 'true' : 'false');
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this page only.
  }
}
