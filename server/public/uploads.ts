/**
 * Uploads of the public v1 API: multipart bodies read in order, file parts spooled to temporary
 * files (never to memory) and stopped at the limit with 413, links fetched through the URL guard
 * (app.ctx.outbound) and spooled the same way; each checked by its real type and stored in the
 * file registry (server/files/files.ts), which deletes it with its item or project.
 */
import { writeFile } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { contentLimits } from '../../definitions/content.ts';
import { fileLimits } from '../../definitions/files.ts';
import { OutboundError } from '../lib/url-guard.ts';
import { invalid } from '../content/collections.ts';
import { fileUrl } from '../files/files.ts';
import { readForm } from '../files/multipart.ts';
import { linkedFileName } from '../files/sniff.ts';
import { spoolDirOf, tempFile, tooLarge, type Spooled } from '../files/spool.ts';
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
  const spoolDir = spoolDirOf(config.dataDir);
  const urlOf = (key: string) => fileUrl(config.publicUrl, key);

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

  /** Checks a spooled file against its real type and the accept list, stores it, returns its key and type (FileService.store). */
  const store = files.store.bind(files);

  /** Reads a multipart body in order: text parts as they are (`fetched` ones fetched), file parts spooled. */
  function readParts(request: FastifyRequest, fileFields: readonly string[], textFields: readonly string[], fetched: readonly string[], maxFiles: number) {
    return readForm(request, spoolDir, {
      files: fileFields,
      texts: textFields,
      maxFiles,
      notMultipart: 'Send the files as multipart/form-data.',
      fetched: { parts: fetched, fetch: fetchLink },
    });
  }

  return { urlOf, store, readParts };
}
