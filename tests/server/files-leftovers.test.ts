/**
 * The start-up removal of temporary upload files (server/files/leftovers.ts, docs/files.md
 * "Temporary files after a crash"): a dead process's folder goes whole (this process's own too, at
 * its first start), a live one's keeps what it is writing, and another host's (or a loose old) file
 * goes only once stale.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostTag, leftoverStaleMs, processFolder, removeLeftovers } from '../../server/files/leftovers.ts';
import { spoolDirOf, spoolRootOf } from '../../server/files/spool.ts';
import { LocalDiskStorage } from '../../server/files/storage.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'larder-leftovers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A pid that belonged to a process now ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;

function file(at: string, ageMs = 0) {
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, 'half written');
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(at, when, when);
  return at;
}

describe('temporary upload files left by earlier processes', () => {
  it('spools and writes local files in a folder of this process', () => {
    expect(processFolder).toBe(`${hostTag}-${process.pid}`);
    expect(spoolDirOf('/data')).toBe(path.join(spoolRootOf('/data'), processFolder));
    expect(new LocalDiskStorage(path.join(root, 'files')).tempRoot).toBe(path.join(root, 'files', '.tmp'));
  });

  it('removes what an earlier process with this pid left, at its first start only', async () => {
    const spool = path.join(root, 'first');
    const predecessor = file(path.join(spool, processFolder, 'a.upload'));
    expect(await removeLeftovers([spool])).toBe(1);
    expect(existsSync(predecessor)).toBe(false);
    // Another app built later in this process (tests build several) keeps the first one's uploads.
    const live = file(path.join(spool, processFolder, 'b.upload'));
    expect(await removeLeftovers([spool])).toBe(0);
    expect(existsSync(live)).toBe(true);
  });

  it('removes a dead process folder at once, keeps live work, and removes others only when stale', async () => {
    const spool = path.join(root, 'uploads');
    const dead = file(path.join(spool, `${hostTag}-${deadPid()}`, 'a.upload'));
    const mine = file(path.join(spool, processFolder, 'b.upload'));
    const mineOld = file(path.join(spool, processFolder, 'c.upload'), leftoverStaleMs + 60_000);
    const parent = file(path.join(spool, `${hostTag}-${process.ppid}`, 'd.upload'));
    const otherHost = file(path.join(spool, 'elsewhere.example-1', 'e.upload'));
    const otherHostOld = file(path.join(spool, 'elsewhere.example-2', 'f.upload'), leftoverStaleMs + 60_000);
    const looseOld = file(path.join(spool, 'g.upload'), leftoverStaleMs + 60_000);
    const loose = file(path.join(spool, 'h.upload'));
    const part = file(path.join(root, 'files', '.tmp', `${hostTag}-${deadPid()}`, 'i.part'));

    const removed = await removeLeftovers([spool, path.join(root, 'files', '.tmp'), path.join(root, 'missing')]);

    expect(removed).toBe(5);
    expect([dead, mineOld, otherHostOld, looseOld, part].filter(existsSync)).toEqual([]);
    expect([mine, parent, otherHost, loose].filter((f) => !existsSync(f))).toEqual([]);
    expect(existsSync(path.dirname(dead))).toBe(false);
    expect(existsSync(path.dirname(mine))).toBe(true);
  });
});
