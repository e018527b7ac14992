import { useSyncExternalStore } from 'react';
import { currentTheme, subscribeTheme } from './theme-store.ts';

/** The theme in use, re-rendering when it changes. */
export function useTheme() {
  return useSyncExternalStore(subscribeTheme, currentTheme, () => 'light' as const);
}
