/** Uploaded parts written to temporary files as they arrive, for the console's and the public API's upload routes. */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { fileLimits } from '../../definitions/files.ts';
import { AppError } from '../lib/errors.ts';
import { processFolder } from './leftovers.ts';

export const tooLarge = () => new AppError(413, 'file_too_large', `The file is too large: files must be at most ${fileLimits.uploadBytesMax} bytes.`);

/** A file part written to a temporary file as it arrived, counted. */
export interface Spooled {
  file: string;
  name: string;
  size: number;
}

/** Where every process spools: `uploads` in the data directory. */
export const spoolRootOf = (dataDir: string) => path.join(dataDir, 'uploads');

/** Where this process spools: a folder of its own under the root, so a later start can remove what it left (server/files/leftovers.ts). */
export const spoolDirOf = (dataDir: string) => path.join(spoolRootOf(dataDir), processFolder);

/** A new, unused temporary file name in `dir` (made if missing). */
export async function tempFile(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return path.join(dir, `${randomBytes(12).toString('hex')}.upload`);
}

/** Writes a part to a temporary file in `dir`; 413 at the upload limit, with nothing left behind. */
export async function spool(part: MultipartFile, dir: string): Promise<Spooled> {
  const file = await tempFile(dir);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  // busboy marks the stream truncated at the limit but ends it only where the part ends (it reads
  // and drops the rest): stop at the limit itself, so the answer is 413 at once, not after the upload.
  const stop = new AbortController();
  const atLimit = () => stop.abort();
  part.file.once('limit', atLimit);
  try {
    await pipeline(part.file, counter, createWriteStream(file, { flags: 'wx' }), { signal: stop.signal });
  } catch (error) {
    await rm(file, { force: true });
    throw stop.signal.aborted ? tooLarge() : error;
  } finally {
    part.file.off('limit', atLimit);
  }
  if (part.file.truncated) {
    await rm(file, { force: true });
    throw tooLarge();
  }
  return { file, name: part.filename || 'file', size };
}
