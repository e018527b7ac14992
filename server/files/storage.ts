/**
 * Where uploaded files live: one small interface with a local-disk implementation (the default,
 * under `DATA_DIR/files`) and an S3-compatible one, so several server processes can share files
 * (docs/files.md). Keys are the server's own (`p/<project>/…/<random>.<ext>`), checked by
 * `isSafeKey` before they reach a path or a bucket; nothing a client sends is used as a key.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { processFolder } from './leftovers.ts';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** A byte range, both ends included (as in an HTTP Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStat {
  size: number;
  modified: Date;
}

export interface FileStorage {
  /** Stores a whole file; readers see either nothing or all of it. */
  put(key: string, body: Readable, info: { size: number; contentType: string }): Promise<void>;
  /** The file (or the range of it), or undefined when there is no such file. */
  get(key: string, range?: ByteRange): Promise<{ body: Readable; stat: FileStat } | undefined>;
  stat(key: string): Promise<FileStat | undefined>;
  /** Removes the file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Keys under a prefix (tests and maintenance; not used on request paths). */
  list?(prefix: string): Promise<string[]>;
  /** Where the storage writes its temporary files, when it has such a place (server/files/leftovers.ts). */
  readonly tempRoot?: string;
}

/**
 * A key the storages accept: lower-case segments of letters, digits, `.`, `_` and `-` joined by
 * `/`, none of them `.` or `..`, nothing absolute. Every key is made by the server, so anything
 * else is a bug or an attack and is refused before it can name a path.
 */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => /^[a-z0-9][a-z0-9._-]*$/.test(segment) && segment !== '.' && segment !== '..' && !segment.includes('..'));
}

function requireSafeKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`Refused a file key that is not the server's own: ${JSON.stringify(key)}`);
  return key;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/**
 * Files under one directory; each write goes to a temporary file first (in this process's folder
 * under `.tmp`, so a later start can remove what a killed one left) and is renamed into place.
 */
export class LocalDiskStorage implements FileStorage {
  readonly tempRoot: string;
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.root = path.resolve(root);
    this.tempRoot = path.join(this.root, '.tmp');
    this.tmpDir = path.join(this.tempRoot, processFolder);
  }

  /** The file of a key; checked twice: the key's shape and the resolved path staying under the root. */
  private pathOf(key: string): string {
    const file = path.resolve(this.root, requireSafeKey(key));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Refused a file key outside the storage: ${JSON.stringify(key)}`);
    return file;
  }

  async put(key: string, body: Readable, _info: { size: number; contentType: string }): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(this.tmpDir, { recursive: true });
    const temp = path.join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    try {
      await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange) {
    // Opened first, then read through the handle: a file deleted meanwhile (an image removed while
    // a page still asks for it) is either missing here (404) or read whole, never an error mid-answer.
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const s = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (!s.isFile()) {
      await handle.close();
      return undefined;
    }
    const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    return { body, stat: { size: s.size, modified: s.mtime } };
  }

  async stat(key: string): Promise<FileStat | undefined> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size, modified: s.mtime } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async list(prefix: string): Promise<string[]> {
    const base = path.join(this.root, prefix);
    let entries: string[];
    try {
      entries = (await readdir(base, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return entries.map((file) => path.relative(this.root, file).split(path.sep).join('/')).filter((key) => !key.startsWith('.tmp/'));
  }
}

export interface S3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several installations. */
  prefix: string;
}

const notFoundStatus = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/** Files in an S3-compatible bucket (AWS, MinIO, Ceph, R2, …). A PUT of a whole object is atomic there. */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      // Checksums only where S3 demands them: many S3-compatible servers do not understand the newer default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string) {
    return this.settings.prefix + requireSafeKey(key);
  }

  async put(key: string, body: Readable, info: { size: number; contentType: string }): Promise<void> {
    const command = new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: body, ContentLength: info.size, ContentType: info.contentType });
    // The SDK does not notice a source stream failing (it waits for bytes forever): abort the request then.
    const abort = new AbortController();
    const failed = (error: Error) => abort.abort(error);
    body.once('error', failed);
    try {
      await this.client.send(command, { abortSignal: abort.signal });
    } catch (error) {
      throw abort.signal.aborted ? (abort.signal.reason as Error) : error;
    } finally {
      body.off('error', failed);
    }
  }

  async get(key: string, range?: ByteRange) {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      const total = range ? Number(/\/(\d+)$/.exec(out.ContentRange ?? '')?.[1] ?? out.ContentLength) : Number(out.ContentLength);
      return { body: out.Body as Readable, stat: { size: total, modified: out.LastModified ?? new Date(0) } };
    } catch (error) {
      if (notFoundStatus(error)) return undefined;
      throw error;
    }
  }

  async stat(key: string): Promise<FileStat | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return { size: Number(out.ContentLength ?? 0), modified: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (notFoundStatus(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (!notFoundStatus(error)) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  close() {
    this.client.destroy();
  }
}

export type FilesConfig = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Settings);

export function createStorage(config: FilesConfig): FileStorage & { close?(): void } {
  return config.kind === 's3' ? new S3Storage(config) : new LocalDiskStorage(config.dir);
}
