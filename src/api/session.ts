/**
 * The signed-in session as the browser keeps it: the token pair and the last used organization,
 * in localStorage so every tab shares them. Other tabs' writes arrive as `storage` events, so a
 * pair refreshed (or cleared) in one tab is seen by all.
 */
import { storageKeys } from '../../definitions/constants.ts';
import type { TokenPair, TokenStorage } from '../../machines/token-refresh.ts';

export const TOKENS_STORAGE_KEY = storageKeys.session;
export const LAST_ORGANIZATION_STORAGE_KEY = storageKeys.lastOrganization;

/** The tokens plus the other per-browser facts of a session. */
export interface Session extends TokenStorage {
  getLastOrganization(): string | null;
  setLastOrganization(organizationID: string | null): void;
  /** Stops listening to other tabs. */
  dispose(): void;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
type EventSource = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export interface SessionOptions {
  /** Defaults to `localStorage`, or memory where it is unavailable (private modes, tests). */
  storage?: StorageLike;
  /** Where `storage` events of other tabs arrive; defaults to `window`. */
  events?: EventSource | null;
}

function memoryStorage(): StorageLike {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

function defaultStorage(): StorageLike {
  try {
    // Reading the property itself throws when storage is blocked.
    const storage = globalThis.localStorage;
    if (storage) return storage;
  } catch {
    // fall through
  }
  return memoryStorage();
}

export function parseTokens(raw: string | null): TokenPair | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { accessToken, refreshToken } = value as Record<string, unknown>;
    if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || accessToken === '') return null;
    return { accessToken, refreshToken };
  } catch {
    return null;
  }
}

export function createSession(options: SessionOptions = {}): Session {
  const storage = options.storage ?? defaultStorage();
  const events = options.events === undefined ? (typeof window === 'undefined' ? null : window) : options.events;
  const listeners = new Set<(tokens: TokenPair | null) => void>();

  // After the first storage failure (quota, security) the session lives in memory, as long as the page.
  let broken = false;
  const safely = <T>(action: () => T, fallback: T): T => {
    if (broken) return fallback;
    try {
      return action();
    } catch {
      broken = true;
      return fallback;
    }
  };
  let memory: string | null = safely(() => storage.getItem(TOKENS_STORAGE_KEY), null);
  const readRaw = () => safely(() => storage.getItem(TOKENS_STORAGE_KEY), memory);
  const notify = (tokens: TokenPair | null) => {
    for (const listener of [...listeners]) listener(tokens);
  };

  const onStorage = (event: Event) => {
    const { key } = event as StorageEvent;
    // key null: another tab called localStorage.clear().
    if (key !== TOKENS_STORAGE_KEY && key !== null) return;
    memory = readRaw();
    notify(parseTokens(memory));
  };
  let listening = false;
  const listen = (on: boolean) => {
    if (!events || on === listening) return;
    if (on) events.addEventListener('storage', onStorage);
    else events.removeEventListener('storage', onStorage);
    listening = on;
  };

  return {
    read: () => parseTokens(readRaw()),
    write(tokens) {
      memory = JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
      safely(() => storage.setItem(TOKENS_STORAGE_KEY, memory!), undefined);
      // `storage` events reach only other tabs; this tab's listeners are told here.
      notify({ ...tokens });
    },
    clear() {
      memory = null;
      safely(() => storage.removeItem(TOKENS_STORAGE_KEY), undefined);
      notify(null);
    },
    subscribe(listener) {
      listeners.add(listener);
      listen(true);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) listen(false);
      };
    },
    getLastOrganization: () => safely(() => storage.getItem(LAST_ORGANIZATION_STORAGE_KEY), null),
    setLastOrganization(organizationID) {
      safely(() => {
        if (organizationID === null) storage.removeItem(LAST_ORGANIZATION_STORAGE_KEY);
        else storage.setItem(LAST_ORGANIZATION_STORAGE_KEY, organizationID);
      }, undefined);
    },
    dispose() {
      listeners.clear();
      listen(false);
    },
  };
}
