/**
 * Temporary files of uploads: the spool (`DATA_DIR/uploads`, server/files/spool.ts) and local
 * storage's half-written files (`<files>/.tmp`, server/files/storage.ts). A process killed mid-upload
 * cannot remove its own, so each process writes into a folder of its own named `<host>-<pid>`, and a
 * starting process removes what dead ones left (docs/files.md "Temporary files after a crash"):
 *
 * - a folder of this host whose process is gone, or this process's own at its first start (what is
 *   there was left by an earlier process that had this pid): at once, whole;
 * - anything else (a live process's folder, another host's sharing the directory, loose files of
 *   older versions): only files not written to for `staleMs`, and the folder once empty and as old.
 *
 * The host part is the host name plus, on Linux, the PID namespace: containers that share a volume
 * and a host name (host networking) but not PIDs never judge each other's processes.
 */
import { readlinkSync } from 'node:fs';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A temporary file untouched this long belongs to no upload in progress (an upload writes as its bytes arrive). */
export const leftoverStaleMs = 60 * 60 * 1000;

function pidNamespace(): string {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '';
  } catch {
    return '';
  }
}

/** This process's host part: no `-`, so the pid is what follows the last one. */
export const hostTag = [os.hostname().toLowerCase().replace(/[^a-z0-9.]+/g, '_') || 'host', pidNamespace()].filter(Boolean).join('.');

/** The folder, under a temporary root, of this process's temporary files. */
export const processFolder = `${hostTag}-${process.pid}`;

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether this process has removed its own folder's leftovers yet (several apps may be built in one process, e.g. tests). */
let ownChecked = false;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** Removes the files under `dir` (not descending further) older than the cutoff; true when `dir` is then empty. */
async function removeStale(dir: string, cutoff: number): Promise<{ removed: number; empty: boolean }> {
  let removed = 0;
  let kept = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const s = await stat(file).catch(() => undefined);
    if (!s || !entry.isFile() || s.mtimeMs >= cutoff) {
      kept += 1;
      continue;
    }
    await rm(file, { force: true });
    removed += 1;
  }
  return { removed, empty: kept === 0 };
}

/** Removes what earlier processes left under one temporary root; answers how many files went. */
async function removeUnder(root: string, now: number, staleMs: number): Promise<number> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
  const cutoff = now - staleMs;
  let removed = 0;
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    if (!entry.isDirectory()) {
      const s = await stat(full).catch(() => undefined);
      if (s && s.mtimeMs < cutoff) {
        await rm(full, { force: true });
        removed += 1;
      }
      continue;
    }
    const dash = entry.name.lastIndexOf('-');
    const host = entry.name.slice(0, dash);
    const pid = Number(entry.name.slice(dash + 1));
    const own = entry.name === processFolder && !ownChecked;
    if (own || (dash > 0 && host === hostTag && Number.isSafeInteger(pid) && pid > 0 && !isAlive(pid))) {
      removed += (await readdir(full, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).length;
      await rm(full, { recursive: true, force: true });
      continue;
    }
    const stale = await removeStale(full, cutoff);
    removed += stale.removed;
    const folder = await stat(full).catch(() => undefined);
    // rmdir refuses a folder a file was just written into: a live process never loses one.
    if (stale.empty && entry.name !== processFolder && folder && folder.mtimeMs < cutoff) await rmdir(full).catch(() => undefined);
  }
  return removed;
}

/**
 * Removes the temporary files earlier processes left under these roots (called once as the app is
 * built). Never fails the start: a root that cannot be read is logged and left.
 */
export async function removeLeftovers(
  roots: readonly (string | undefined)[],
  log?: { warn(object: object, message: string): void; info(object: object, message: string): void },
  options: { now?: number; staleMs?: number } = {},
): Promise<number> {
  let removed = 0;
  for (const root of roots) {
    if (!root) continue;
    try {
      removed += await removeUnder(root, options.now ?? Date.now(), options.staleMs ?? leftoverStaleMs);
    } catch (error) {
      log?.warn({ err: error, root }, 'could not remove leftover temporary files');
    }
  }
  ownChecked = true;
  if (removed > 0) log?.info({ removed }, 'removed temporary files of earlier processes');
  return removed;
}
