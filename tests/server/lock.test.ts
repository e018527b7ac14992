/**
 * The PGlite data-directory lock: while one Database holds a directory, opening it again (in this
 * process or another) throws DataDirectoryLockedError; after close it opens again, data intact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { DataDirectoryLockedError } from '../../server/db/lock.ts';
import { settings } from '../../server/db/schema.ts';

const template = () => new Blob([readFileSync(path.resolve('.tmp/pglite-template.tar.gz'))]);

/** Runs `openDatabase({ dataDir })` in a second Node process and reports how it ended. */
function openInAnotherProcess(dataDir: string) {
  const script = `
    import { openDatabase } from './server/db/index.ts';
    try {
      const db = await openDatabase({ dataDir: ${JSON.stringify(dataDir)}, skipMigrations: true });
      await db.close();
      console.log('opened');
    } catch (error) {
      console.log(error.name);
      process.exitCode = 3;
    }`;
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: path.resolve('.'), timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout: stdout.trim() }),
    );
  });
}

describe('PGlite data-directory lock', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-lock-'));
  let first: Database | undefined;

  beforeAll(async () => {
    first = await openDatabase({ dataDir, loadDataDir: template() });
    await first.db.insert(settings).values({ key: 'lock-test', value: { written: 'before close' } });
  });
  afterAll(async () => {
    await first?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second open in the same process while the first holds the directory', async () => {
    expect(existsSync(path.join(dataDir, 'larder.lock'))).toBe(true);
    const second = openDatabase({ dataDir, skipMigrations: true });
    await expect(second).rejects.toBeInstanceOf(DataDirectoryLockedError);
    await expect(openDatabase({ dataDir, skipMigrations: true })).rejects.toThrow(/in use by another Larder process/);
    // The refused open did not disturb the holder.
    expect(await first!.ping()).toBe(true);
  });

  it('refuses a second process while the first holds the directory', async () => {
    const result = await openInAnotherProcess(dataDir);
    expect(result).toEqual({ code: 3, stdout: 'DataDirectoryLockedError' });
    expect(await first!.ping()).toBe(true);
  });

  it('opens again after close, with the data kept, and locks again', async () => {
    await first!.close();
    first = undefined;
    expect(existsSync(path.join(dataDir, 'larder.lock'))).toBe(false);
    const reopened = await openDatabase({ dataDir });
    try {
      const [row] = await reopened.db.select().from(settings).where(eq(settings.key, 'lock-test'));
      expect(row?.value).toEqual({ written: 'before close' });
      await expect(openDatabase({ dataDir, skipMigrations: true })).rejects.toBeInstanceOf(DataDirectoryLockedError);
    } finally {
      await reopened.close();
    }
    expect(existsSync(path.join(dataDir, 'larder.lock'))).toBe(false);
  });
});
