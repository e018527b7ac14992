/**
 * The light/dark theme: the user's choice in local storage, or the system's preference until a
 * choice is made. Applied as `data-theme` on <html>, which the style sheets key on.
 */
import { storageKeys } from '../../definitions/constants.ts';

export type Theme = 'light' | 'dark';

const listeners = new Set<() => void>();
const darkQuery = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null);

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(storageKeys.theme);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

export function currentTheme(): Theme {
  return storedTheme() ?? (darkQuery()?.matches ? 'dark' : 'light');
}

function apply() {
  document.documentElement.dataset.theme = currentTheme();
  for (const listener of [...listeners]) listener();
}

export function setTheme(theme: Theme) {
  try {
    localStorage.setItem(storageKeys.theme, theme);
  } catch {
    // Storage blocked: the theme holds for this page only.
    document.documentElement.dataset.theme = theme;
    return;
  }
  apply();
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Applies the theme now and follows the system's preference and other tabs' choices. */
export function startTheme() {
  apply();
  darkQuery()?.addEventListener('change', apply);
  window.addEventListener('storage', (event) => {
    if (event.key === storageKeys.theme || event.key === null) apply();
  });
}
