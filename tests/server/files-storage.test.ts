/**
 * The file storages through one list of cases: the local directory and an S3-compatible bucket
 * (s3rver, a real S3 HTTP server on a random port, started here). Whatever the storage, a file is
 * all there or not there, ranges read the right bytes, deletes are idempotent and keys that are
 * not the server's own (traversal, absolute paths) are refused before they reach a path or bucket.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSafeKey, LocalDiskStorage, S3Storage, type FileStorage } from '../../server/files/storage.ts';

const require = createRequire(import.meta.url);
// s3rver ships no types: only run() and close() are used.
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

const text = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
};
const body = (s: string) => Readable.from([Buffer.from(s)]);

interface Subject {
  storage: FileStorage;
  close(): Promise<void>;
}

const subjects: Record<string, () => Promise<Subject>> = {
  local: async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'larder-files-'));
    return { storage: new LocalDiskStorage(dir), close: async () => rmSync(dir, { recursive: true, force: true }) };
  },
  s3: async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'larder-s3rver-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'larder' }] });
    const { port } = await server.run();
    const storage = new S3Storage({
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'larder',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix: 'install-1/',
    });
    return {
      storage,
      close: async () => {
        storage.close();
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

describe('file keys', () => {
  it.each([
    ['p/abc/c/def/i/0123/aa.png', true],
    ['p/abc/a/ff.tar.gz', true],
    ['../etc/passwd', false],
    ['p/../../etc/passwd', false],
    ['p/./x', false],
    ['/etc/passwd', false],
    ['p//x', false],
    ['p/x/', false],
    ['p\\..\\x', false],
    ['P/Upper', false],
    ['p/x%2e%2e', false],
    ['p/x..y', false],
    ['', false],
  ])('%s → %s', (key, safe) => {
    expect(isSafeKey(key)).toBe(safe);
  });
});

for (const [name, make] of Object.entries(subjects)) {
  describe(`${name} storage`, () => {
    let subject: Subject;
    let storage: FileStorage;
    beforeAll(async () => {
      subject = await make();
      storage = subject.storage;
    });
    afterAll(() => subject?.close());

    it('stores a file whole, reads it back and states its size', async () => {
      await storage.put('p/one/a/hello.txt', body('hello, files'), { size: 12, contentType: 'text/plain' });
      expect(await storage.exists('p/one/a/hello.txt')).toBe(true);
      const stat = await storage.stat('p/one/a/hello.txt');
      expect(stat?.size).toBe(12);
      expect(stat!.modified.getTime()).toBeGreaterThan(Date.now() - 60_000);
      const found = await storage.get('p/one/a/hello.txt');
      expect(await text(found!.body)).toBe('hello, files');
      expect(found!.stat.size).toBe(12);
    });

    it('reads a byte range, both ends included', async () => {
      await storage.put('p/one/a/range.txt', body('0123456789'), { size: 10, contentType: 'text/plain' });
      const found = await storage.get('p/one/a/range.txt', { start: 2, end: 5 });
      expect(await text(found!.body)).toBe('2345');
      expect(found!.stat.size).toBe(10);
    });

    it.runIf(name === 'local')('reads a file whole that is deleted after it was found (a page asking for an image being removed)', async () => {
      await storage.put('p/one/a/race.txt', body('still here'), { size: 10, contentType: 'text/plain' });
      const found = await storage.get('p/one/a/race.txt');
      await storage.delete('p/one/a/race.txt');
      expect(await storage.exists('p/one/a/race.txt')).toBe(false);
      expect(await text(found!.body)).toBe('still here');
    });

    it('replaces a file at the same key', async () => {
      await storage.put('p/one/a/again.txt', body('first'), { size: 5, contentType: 'text/plain' });
      await storage.put('p/one/a/again.txt', body('second'), { size: 6, contentType: 'text/plain' });
      expect(await text((await storage.get('p/one/a/again.txt'))!.body)).toBe('second');
    });

    it('answers undefined for a missing file and deletes idempotently', async () => {
      expect(await storage.get('p/one/a/none.txt')).toBeUndefined();
      expect(await storage.stat('p/one/a/none.txt')).toBeUndefined();
      expect(await storage.exists('p/one/a/none.txt')).toBe(false);
      await storage.put('p/one/a/gone.txt', body('x'), { size: 1, contentType: 'text/plain' });
      await storage.delete('p/one/a/gone.txt');
      await storage.delete('p/one/a/gone.txt');
      expect(await storage.exists('p/one/a/gone.txt')).toBe(false);
    });

    it('refuses keys that are not the server’s own before touching anything', async () => {
      for (const key of ['../escape.txt', 'p/../../escape.txt', '/tmp/escape.txt', 'p/%2e%2e/x']) {
        await expect(storage.put(key, body('x'), { size: 1, contentType: 'text/plain' })).rejects.toThrow(/Refused a file key/);
        await expect(storage.get(key)).rejects.toThrow(/Refused a file key/);
        await expect(storage.delete(key)).rejects.toThrow(/Refused a file key/);
      }
    });

    it('leaves nothing behind when the stream fails half-way', async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.from('partial'));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(storage.put('p/one/a/broken.txt', failing, { size: 100, contentType: 'text/plain' })).rejects.toThrow();
      expect(await storage.exists('p/one/a/broken.txt')).toBe(false);
    });
  });
}

describe('local storage on disk', () => {
  it('writes through a temporary file that is gone afterwards, and keeps every file under its root', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'larder-files-'));
    try {
      const storage = new LocalDiskStorage(dir);
      await storage.put('p/x/a/file.bin', body('abc'), { size: 3, contentType: 'application/octet-stream' });
      expect(existsSync(path.join(dir, 'p/x/a/file.bin'))).toBe(true);
      expect(readdirSync(path.join(dir, '.tmp'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile())).toEqual([]);
      expect(await storage.list('p/')).toEqual(['p/x/a/file.bin']);
      expect(existsSync(path.join(path.dirname(dir), 'escape.txt'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
