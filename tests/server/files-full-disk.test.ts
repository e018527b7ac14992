/**
 * A full disk for uploads (docs/errors.md "Out of room"): the data directory is a 2 MB tmpfs, so
 * the spool and the local file storage run out of room for real. An upload that does not fit is
 * answered 507 `storage_full` and leaves nothing (no spool file, no stored file, no registry row);
 * one that fits still goes in; once room is made the same upload succeeds, with no restart.
 *
 * Mounting needs root (as CI and this machine's sessions run); elsewhere the suite is skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem, waitFor } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';

/** Whether a tmpfs can be mounted here (root, and mount allowed). */
function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(tmpdir(), 'larder-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const mountable = canMount();

/** A multipart body with one file part named `asset`. */
async function multipart(content: Buffer, filename: string) {
  const form = new FormData();
  form.append('asset', new Blob([new Uint8Array(content)], { type: 'application/octet-stream' }), filename);
  const request = new Request('http://larder.test/', { method: 'PUT', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** Every file under `dir`, recursively (relative paths). */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();

describe.skipIf(!mountable).each(databaseKinds)('uploads on a full disk (%s)', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let dataDir: string;
  const filler = () => path.join(dataDir, 'filler.bin');
  /** Free bytes on the data directory's disk. */
  const free = () => {
    const stats = statfsSync(dataDir);
    return stats.bavail * stats.bsize;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'larder-full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dataDir]);
    t = await createTestApp(kind, { DATA_DIR: dataDir, FILES_STORAGE: 'local', FILES_SWEEP_INTERVAL_S: '0' });
    f = await contentFixture(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dataDir) {
      execFileSync('umount', ['-l', dataDir], { stdio: 'ignore' });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const upload = async (bytes: number, name: string) => {
    const body = await multipart(Buffer.alloc(bytes, name.length), name);
    return f.call('PUT', 'asset', body.payload, { headers: body.headers });
  };
  const registered = async () => {
    const result = (await t.database.db.execute(sql`select key from stored_files where project_id = ${f.project}`)) as unknown as { rows: { key: string }[] };
    return result.rows.map((row) => row.key).sort();
  };

  it('answers 507 storage_full for an upload that finds no room, keeps nothing of it, and takes it once room is made', async () => {
    // Leave about 400 KB of the 2 MB free (an upload takes twice its size while it is stored: its
    // spool file and the storage's temporary copy).
    writeFileSync(filler(), Buffer.alloc(1648 * 1024));
    const filesBefore = filesUnder(dataDir);
    const freeBefore = free();
    const rowsBefore = await registered();

    const refused = await upload(600 * 1024, 'too-big.bin');
    expectProblem(refused, 507, 'storage_full');
    expect(refused.headers['retry-after']).toBe('60');
    expect(filesUnder(dataDir)).toEqual(filesBefore);
    expect(await registered()).toEqual(rowsBefore);
    // The room the cut file took comes back (its file is closed as well as removed).
    await waitFor(() => free() === freeBefore, 5000);

    // What fits still goes in: the refused upload left nothing behind to take its room.
    const small = await upload(40 * 1024, 'small.bin');
    expect(small.statusCode, small.body).toBe(201);
    expect(await registered()).toHaveLength(rowsBefore.length + 1);

    // Room for its spool file but not for the storage's copy: refused as well, and both are gone.
    rmSync(filler());
    writeFileSync(filler(), Buffer.alloc(free() - 900 * 1024));
    const filesThen = filesUnder(dataDir);
    const freeThen = free();
    expectProblem(await upload(600 * 1024, 'too-big.bin'), 507, 'storage_full');
    expect(filesUnder(dataDir)).toEqual(filesThen);
    await waitFor(() => free() === freeThen, 5000);
    expect(await registered()).toHaveLength(rowsBefore.length + 1);

    // Room is made (an operator frees the disk): the same upload goes in, without a restart.
    rmSync(filler());
    const again = await upload(600 * 1024, 'too-big.bin');
    expect(again.statusCode, again.body).toBe(201);
    const served = await t.app.inject({ method: 'GET', url: new URL(json(again).url as string).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBe(600 * 1024);
    expect(await registered()).toHaveLength(rowsBefore.length + 2);
  });
});
