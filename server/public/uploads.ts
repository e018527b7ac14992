/**
 * Uploads of the public v1 API: multipart bodies read in order, file parts spooled to temporary
 * files (never to memory) and stopped at the limit with 413, links fetched through the URL guard
 * (app.ctx.outbound) and spooled the same way; each checked by its real type and stored in the
 * file registry (server/files/files.ts), which deletes it with its item or project.
 */
import { createReadStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { MultipartValue } from '@fastify/multipart';
import { contentLimits } from '../../definitions/content.ts';
import { acceptsFile, fileLimits } from '../../definitions/files.ts';
import { badRequest, unsupportedMediaType as unsupported } from '../lib/errors.ts';
import { OutboundError } from '../lib/url-guard.ts';
import { invalid } from '../content/collections.ts';
import type { ItemOwner } from '../files/files.ts';
import { linkedFileName, sniffFile, type Sniffed } from '../files/sniff.ts';
import { spool, tempFile, tooLarge, type Spooled } from '../files/spool.ts';
import type { PublicApp } from './support.ts';

/** An answer given before the body was read: the rest is never read, so the connection cannot carry another request. */
export function closeUnreadBodies(app: PublicApp): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    return payload;
  });
}

/** The upload steps the public file routes share, over this application's services. */
export function publicUploads(app: PublicApp) {
  const { config, outbound, files } = app.ctx;
  const spoolDir = path.join(config.dataDir, 'uploads');
  const urlOf = (key: string) => `${config.publicUrl}/files/${key}`;

  /** Fetches a link through the URL guard into a temporary file (400 when it cannot be fetched, 413 when too large). */
  async function fetchLink(link: string, pathName: string): Promise<Spooled> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw invalid([{ path: pathName, message: 'must be an http or https address' }]);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || link.length > contentLimits.urlMax) {
      throw invalid([{ path: pathName, message: `must be an http or https address of at most ${contentLimits.urlMax} characters` }]);
    }
    let body: Buffer;
    try {
      body = (await outbound.fetch(url, { maxBytes: fileLimits.uploadBytesMax, overflow: 'fail' })).body;
    } catch (error) {
      if (error instanceof OutboundError) {
        if (error.kind === 'too_large') throw tooLarge();
        throw invalid([{ path: pathName, message: error.kind === 'refused' ? 'is not an address this server may fetch' : `could not be fetched (${error.kind})` }]);
      }
      throw error;
    }
    const file = await tempFile(spoolDir);
    await writeFile(file, body, { flag: 'wx' });
    const name = linkedFileName(url);
    return { file, name: name.slice(0, 255), size: body.length };
  }

  /** Checks a spooled file against its real type and the accept list, stores it, returns its key and type. */
  async function store(upload: Spooled, accept: string, owner: ItemOwner | { projectId: string }, keyBase: string): Promise<{ key: string; type: Sniffed }> {
    const sniffed = await sniffFile(upload.file, upload.name, upload.size);
    if (!sniffed.ok) throw sniffed.code === 'empty_file' ? badRequest('empty_file', sniffed.message) : unsupported('type_mismatch', sniffed.message);
    if (!acceptsFile(accept, sniffed.type.mime, `x.${sniffed.type.ext}`)) throw unsupported('type_not_accepted', `This field accepts ${accept}; the file is ${sniffed.type.mime}.`);
    const key = `${keyBase}/${randomBytes(16).toString('hex')}.${sniffed.type.ext}`;
    await files.register(key, owner, { contentType: sniffed.type.mime, name: upload.name.slice(0, 255), size: upload.size });
    try {
      await files.storage.put(key, createReadStream(upload.file), { size: upload.size, contentType: sniffed.type.mime });
    } catch (error) {
      await files.remove(key);
      throw error;
    }
    return { key, type: sniffed.type };
  }

  /** Reads a multipart body in order: text parts as they are (`fetched` ones fetched), file parts spooled. */
  async function readParts(request: FastifyRequest, fileFields: readonly string[], textFields: readonly string[], fetched: readonly string[], maxFiles: number) {
    if (!request.isMultipart()) throw unsupported('multipart_expected', 'Send the files as multipart/form-data.');
    const parts: { field: string; text?: string; upload?: Spooled }[] = [];
    const uploads = () => parts.flatMap((p) => (p.upload ? [p.upload] : []));
    const cleanup = () => Promise.all(uploads().map((u) => rm(u.file, { force: true })));
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (!fileFields.includes(part.fieldname) || uploads().length >= maxFiles) {
            part.file.resume();
            throw invalid([{ path: part.fieldname, message: uploads().length >= maxFiles ? 'is one file too many' : 'is not a known part of this form' }]);
          }
          parts.push({ field: part.fieldname, upload: await spool(part, spoolDir) });
        } else {
          const value = (part as MultipartValue).value;
          const text = typeof value === 'string' ? value : String(value);
          if (!textFields.includes(part.fieldname)) throw invalid([{ path: part.fieldname, message: 'is not a known part of this form' }]);
          if (part.valueTruncated) throw invalid([{ path: part.fieldname, message: 'is too long' }]);
          if (fetched.includes(part.fieldname)) {
            if (uploads().length >= maxFiles) throw invalid([{ path: part.fieldname, message: 'is one file too many' }]);
            parts.push({ field: part.fieldname, text, upload: await fetchLink(text, part.fieldname) });
          } else parts.push({ field: part.fieldname, text });
        }
      }
    } catch (error) {
      await cleanup();
      const code = (error as { code?: string }).code;
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('too_many_parts', (error as Error).message);
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw error;
    }
    return { parts, cleanup };
  }

  return { urlOf, store, readParts };
}
