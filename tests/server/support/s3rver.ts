/**
 * An S3-compatible bucket for tests: s3rver (a real S3 HTTP server) on a loopback port, with the
 * settings that point a server at it under a prefix (one installation each) and a listing of what
 * the bucket holds, read through S3 itself.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { S3Storage, type FileStorage } from '../../../server/files/storage.ts';

const require = createRequire(import.meta.url);
// s3rver ships no types: only run() and close() are used.
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

export interface TestBucket {
  /** The settings of a server whose files are in this bucket under `prefix`. */
  env(prefix: string): Record<string, string>;
  storage(prefix: string): S3Storage;
  /** Every object key in the bucket under `prefix` (the whole key, prefix included), sorted. */
  objects(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startBucket(): Promise<TestBucket> {
  const dir = mkdtempSync(path.join(tmpdir(), 'larder-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'larder' }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const storages: S3Storage[] = [];
  return {
    env: (prefix) => ({
      FILES_STORAGE: 's3',
      S3_BUCKET: 'larder',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: prefix,
    }),
    storage: (prefix) => {
      const storage = new S3Storage({ endpoint, bucket: 'larder', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true, prefix });
      storages.push(storage);
      return storage;
    },
    objects: async (prefix = '') => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: 'larder', Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    close: async () => {
      for (const storage of storages) storage.close();
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A storage whose `failAt`-th write (1 for the first) fails midway: half of the file's bytes go
 * out, then its source stream errors, as a disk or archive read failing in the middle would.
 */
export function failingMidway(storage: FileStorage, failAt: number): FileStorage & { writes: number } {
  const wrapper = {
    writes: 0,
    put(key: string, body: Readable, info: { size: number; contentType: string }) {
      wrapper.writes += 1;
      if (wrapper.writes !== failAt) return storage.put(key, body, info);
      let sent = 0;
      const half = Math.max(1, Math.floor(info.size / 2));
      const broken = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (sent + chunk.length < half) {
            sent += chunk.length;
            done(null, chunk);
            return;
          }
          this.push(chunk.subarray(0, half - sent));
          sent = half;
          setTimeout(() => done(new Error('the source of the file failed midway')), 20);
        },
      });
      body.pipe(broken);
      return storage.put(key, broken, info);
    },
    get: storage.get.bind(storage),
    stat: storage.stat.bind(storage),
    delete: storage.delete.bind(storage),
    exists: storage.exists.bind(storage),
    ...(storage.list ? { list: storage.list.bind(storage) } : {}),
  };
  return wrapper;
}
