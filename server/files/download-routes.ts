/**
 * `GET /files/{key}` serves a stored file (`resize=200|300` thumbnails of raster images,
 * `download=true` a download), publicly: the key holds 128 random bits, so its URL is the
 * capability, and image URLs are downloadable as they are, from `<img>` tags that carry no token
 * (docs/files.md "Storage, uploads and serving"). Downloads count towards the organization's
 * BandWidth (docs/billing.md "Usage metering").
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { Type } from '@sinclair/typebox';
import { fileLimits, thumbnailSizes } from '../../definitions/files.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { meterBandwidth } from '../usage/routes.ts';
import { thumbnailKey, type FileService } from './files.ts';
import { isInline, isRasterImage } from './sniff.ts';
import { isSafeKey } from './storage.ts';

const missing = () => notFound('file_not_found', 'There is no such file.');

/** `attachment; filename=…` with an ASCII fallback and the UTF-8 name (RFC 6266). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** One byte range of a `Range` header, undefined for none (or several: the whole file is sent), null when unsatisfiable. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined | null {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

/** Makes and caches a thumbnail; a file deleted meanwhile takes its thumbnail with it. */
async function makeThumbnail(files: FileService, key: string, target: string, width: number, contentType: string) {
  const source = await files.storage.get(key);
  if (!source) throw missing();
  const resizer = sharp({ limitInputPixels: fileLimits.thumbnailInputPixelsMax, failOn: 'error' })
    .rotate()
    .resize({ width, height: width, fit: 'inside', withoutEnlargement: true });
  const encoded = contentType === 'image/jpeg' ? resizer.jpeg({ quality: 80 }) : resizer.webp({ quality: 80 });
  let output: Buffer;
  try {
    source.body.pipe(encoded);
    output = await encoded.toBuffer();
  } catch (error) {
    source.body.destroy();
    throw badRequest('unreadable_image', `The image cannot be read to make a thumbnail: ${(error as Error).message}`);
  }
  await files.storage.put(target, Readable.from(output), { size: output.length, contentType });
  if (!(await files.find(key))) await files.storage.delete(target);
}

/** Declares `GET /files/*` on the application itself (no prefix, no sign-in). */
export function fileDownloadRoutes(app: FastifyInstance): void {
  const { files, usage } = app.ctx;
  const { storage } = files;

  app.get(
    '/files/*',
    {
      schema: {
        summary: 'A stored file; resize=200|300 gives a thumbnail of a raster image, download=true a download',
        tags: ['files'],
        querystring: Type.Object({
          resize: Type.Optional(Type.String({ maxLength: 10 })),
          download: Type.Optional(Type.String({ maxLength: 10 })),
        }),
      },
    },
    async function serveFile(request: FastifyRequest, reply: FastifyReply) {
      const key = (request.params as { '*': string })['*'];
      const { resize, download } = request.query as { resize?: string; download?: string };
      if (!isSafeKey(key)) throw missing();
      const row = await files.find(key);
      if (!row) throw missing();
      const organizationId = await usage.organizationOfProject(row.projectId);
      if (organizationId) {
        // Refused (and not counted) while the organization is blocked or past its BandWidth (docs/billing.md "Usage limits").
        await app.ctx.billing.enforcement.download(reply, organizationId);
        meterBandwidth(request, organizationId);
      }

      let servedKey = key;
      let contentType = row.contentType;
      if (resize !== undefined) {
        const size = Number(resize);
        if (!(thumbnailSizes as readonly number[]).includes(size) || String(size) !== resize) {
          throw badRequest('bad_thumbnail_size', `Thumbnails come in widths ${thumbnailSizes.join(' and ')} only.`);
        }
        if (!isRasterImage(row.contentType)) throw badRequest('not_an_image', 'Only raster images (JPEG, PNG, GIF, WebP, AVIF, TIFF) have thumbnails.');
        servedKey = thumbnailKey(key, size);
        contentType = row.contentType === 'image/jpeg' ? 'image/jpeg' : 'image/webp';
        if (!(await storage.exists(servedKey))) await makeThumbnail(files, key, servedKey, size, contentType);
      }

      const stat = await storage.stat(servedKey);
      if (!stat) throw missing();
      const etag = `"${servedKey.split('/').pop()}-${stat.size}"`;
      reply.header('x-content-type-options', 'nosniff');
      reply.header('etag', etag);
      reply.header('last-modified', stat.modified.toUTCString());
      reply.header('cache-control', 'public, max-age=3600');
      reply.header('accept-ranges', 'bytes');
      const inline = isInline(contentType) && download !== 'true';
      const name = resize === undefined ? row.name : `${row.name.replace(/\.[^.]*$/, '')}-${resize}.${contentType === 'image/jpeg' ? 'jpg' : 'webp'}`;
      reply.header('content-disposition', disposition(inline ? 'inline' : 'attachment', name));
      // Anything that can run script is never a document of this origin: downloaded, and sandboxed if opened anyway.
      if (!isInline(contentType)) reply.header('content-security-policy', "default-src 'none'; sandbox");
      reply.type(contentType);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();

      const range = parseRange(request.headers.range, stat.size);
      if (range === null) return reply.code(416).header('content-range', `bytes */${stat.size}`).send();
      const found = await storage.get(servedKey, range);
      if (!found) throw missing();
      if (range) {
        reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`).header('content-length', range.end - range.start + 1);
      } else {
        reply.header('content-length', stat.size);
      }
      return reply.send(found.body);
    },
  );
}
