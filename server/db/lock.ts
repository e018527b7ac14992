/**
 * An exclusive lock on the PGlite data directory: PGlite is a single-process database, so a
 * second process opening the same files would corrupt them. The lock is refreshed while we run
 * and considered stale (taken over) only when its holder stopped refreshing it.
 */
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirectoryLockedError extends Error {
  constructor(dir: string) {
    super(`The data directory ${dir} is in use by another Larder process. Stop it, or set DATA_DIR to another directory.`);
    this.name = 'DataDirectoryLockedError';
  }
}

export async function lockDataDirectory(dir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dir, {
      lockfilePath: path.join(dir, 'larder.lock'),
      stale: 15_000,
      update: 5_000,
      realpath: false,
      onCompromised: (error) => {
        // Another process took the directory over: continuing would corrupt it.
        console.error(`Lost the lock on ${dir}: ${error.message}. Exiting.`);
        process.exit(70);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirectoryLockedError(dir);
    throw error;
  }
}
