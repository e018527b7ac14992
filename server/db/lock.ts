/**
 * An exclusive lock on the PGlite data directory: PGlite is a single-process database, so a
 * second process opening the same files would corrupt them. The lock is refreshed while we run.
 * After a crash the lock is left behind: when the process that held it (recorded beside it) is
 * gone from this machine, it is taken over at once instead of waiting for it to go stale.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirectoryLockedError extends Error {
  constructor(dir: string) {
    super(`The data directory ${dir} is in use by another Larder process. Stop it, or set DATA_DIR to another directory.`);
    this.name = 'DataDirectoryLockedError';
  }
}

const LOCK = 'larder.lock';
const OWNER = 'larder.lock.owner';

/** The process holding the directory, as its owner file names it (null when there is none or it names another host). */
export function lockOwnerPid(dir: string): number | null {
  try {
    const [host, pid] = readFileSync(path.join(dir, OWNER), 'utf8').trim().split(' ');
    return host === os.hostname() && pid && /^\d+$/.test(pid) ? Number(pid) : null;
  } catch {
    return null;
  }
}

function ownerIsGone(dir: string): boolean {
  try {
    const [host, pid] = readFileSync(path.join(dir, OWNER), 'utf8').trim().split(' ');
    if (host !== os.hostname() || !pid) return false;
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function acquire(dir: string) {
  return lockfile.lock(dir, {
    lockfilePath: path.join(dir, LOCK),
    // PGlite runs on this thread: one long statement on a busy machine can hold the event loop
    // past a short threshold, and the lock would count as lost though nobody took it. A crashed
    // holder on this machine is taken over at once (ownerIsGone), so a long threshold costs nothing here.
    stale: 120_000,
    update: 10_000,
    realpath: false,
    onCompromised: (error) => {
      // Another process took the directory over: continuing would corrupt it.
      console.error(`Lost the lock on ${dir}: ${error.message}. Exiting.`);
      process.exit(70);
    },
  });
}

export async function lockDataDirectory(dir: string): Promise<() => Promise<void>> {
  let release: () => Promise<void>;
  try {
    release = await acquire(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    if (!ownerIsGone(dir)) throw new DataDirectoryLockedError(dir);
    rmSync(path.join(dir, LOCK), { recursive: true, force: true });
    try {
      release = await acquire(dir);
    } catch (retryError) {
      if ((retryError as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirectoryLockedError(dir);
      throw retryError;
    }
  }
  writeFileSync(path.join(dir, OWNER), `${os.hostname()} ${process.pid}\n`);
  return async () => {
    rmSync(path.join(dir, OWNER), { force: true });
    await release();
  };
}
