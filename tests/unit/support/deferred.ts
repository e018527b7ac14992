/** Promises the test settles by hand, and a memory token storage that can play "another tab". */
import type { TokenPair, TokenStorage } from '../../../machines/token-refresh.ts';

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback and zero-delay timer run. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** An error shaped like the server's problem details (what ApiError carries). */
export function problemError(status: number, code: string, detail = `${code} detail`) {
  return Object.assign(new Error(detail), { status, code, detail });
}

export interface MemoryTokenStorage extends TokenStorage {
  /** A write made by another tab: subscribers hear it, as with a `storage` event. */
  external(tokens: TokenPair | null): void;
  writes: number;
}

export function memoryTokenStorage(initial: TokenPair | null): MemoryTokenStorage {
  let tokens = initial;
  const listeners = new Set<(tokens: TokenPair | null) => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener(tokens);
  };
  const storage: MemoryTokenStorage = {
    writes: 0,
    read: () => tokens,
    write(next) {
      tokens = next;
      storage.writes += 1;
      notify();
    },
    clear() {
      tokens = null;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    external(next) {
      tokens = next;
      notify();
    },
  };
  return storage;
}
