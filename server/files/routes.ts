/**
 * Files over HTTP (docs/files.md):
 * - `PUT …/collection/{c}/item/{id}/image?imageSlug&nestedID` (multipart `altText`, then
 *   `imageFile` or `imageLink`) sets an ImageRef or appends to an ImageRefSet (update right);
 * - `DELETE …/item/{id}/image?fieldSlug&nestedID[&imageName|imageID]` empties the ImageRef or
 *   removes one entry of the set, and the file with it (update right);
 * - `PUT …/asset` and `…/assets` (multipart `asset`) store project files, answering their URLs;
 * - `GET /files/{key}` serves a file (`resize=200|300` thumbnails, `download=true`), publicly: the
 *   key holds 128 random bits, so its URL is the capability (contract: image URLs must be
 *   downloadable as they are, from `<img>` tags that carry no token).
 * Uploads stream to a temporary file (never to memory) and stop at the limit with 413.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart, { type MultipartValue } from '@fastify/multipart';
import sharp from 'sharp';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentLimits, defaultAccept, parseNestedId } from '../../definitions/content.ts';
import { acceptsFile, extensionOf, fileLimits, thumbnailSizes } from '../../definitions/files.ts';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { badRequest, notFound, problem, unsupportedMediaType as unsupported } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { responses } from '../lib/schemas.ts';
import { invalid, levelOf } from '../content/collections.ts';
import { parseVersion, StaleItemError } from '../content/items.ts';
import { CollectionId, Id, ItemId, ItemSchema, NestedId } from '../content/route-schemas.ts';
import { fieldColumn, followChain } from '../content/schema-tree.ts';
import { readItem, type Item } from '../content/storage.ts';
import { thumbnailKey, type ItemOwner } from './files.ts';
import { isInline, isRasterImage, linkedFileName, sniffFile, type Sniffed } from './sniff.ts';
import { isSafeKey } from './storage.ts';
import { meterBandwidth } from '../usage/routes.ts';
import { spool, tooLarge, type Spooled } from './spool.ts';

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

export async function registerFiles(app: FastifyInstance): Promise<void> {
  const { config, database } = app.ctx;
  const { files } = app.ctx;
  const storage = files.storage;
  const spoolDir = path.join(config.dataDir, 'uploads');
  const { collections, items } = app.ctx;
  const urlOf = (key: string) => `${config.publicUrl}/files/${key}`;

  const api = '/api/organization/:org/project/:proj';

  // Serving.
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
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const { resize, download } = request.query as { resize?: string; download?: string };
      const missing = () => notFound('file_not_found', 'There is no such file.');
      if (!isSafeKey(key)) throw missing();
      const row = await files.find(key);
      if (!row) throw missing();
      // Downloads count towards the organization's BandWidth (docs/billing.md "Usage metering").
      const organizationId = await app.ctx.usage.organizationOfProject(row.projectId);
      if (organizationId) meterBandwidth(request, organizationId);

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
        if (!(await storage.exists(servedKey))) await makeThumbnail(key, servedKey, size, contentType);
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

  /** Makes and caches a thumbnail; a file deleted meanwhile takes its thumbnail with it. */
  async function makeThumbnail(key: string, target: string, width: number, contentType: string) {
    const source = await storage.get(key);
    if (!source) throw notFound('file_not_found', 'There is no such file.');
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
    await storage.put(target, Readable.from(output), { size: output.length, contentType });
    if (!(await files.find(key))) await storage.delete(target);
  }

  await app.register(
    async (scope: FastifyInstance) => {
      const routes = scope.withTypeProvider<TypeBoxTypeProvider>();
      await routes.register(multipart, {
        limits: { fileSize: fileLimits.uploadBytesMax, files: fileLimits.assetsPerCall, fields: 10, fieldSize: contentLimits.urlMax * 2, parts: fileLimits.assetsPerCall + 10 },
      });
      routes.addHook('onRequest', app.requireUser);
      // An answer given before the body was read (413 at the limit, a refusal before the upload):
      // the rest of the body is never read, so the connection cannot carry another request.
      routes.addHook('onSend', async (request, reply, payload) => {
        if (!request.raw.complete) reply.header('connection', 'close');
        return payload;
      });
      const security = [{ bearer: [] as string[] }];

      /** The item a call names (nested through nestedID, which must end in an item id) and its image field. */
      async function target(proj: string, collection: string, itemId: string, nestedID: string | undefined, slug: string, slugPath: string) {
        const row = await collections.row(proj, collection);
        const top = levelOf(row);
        let level = top;
        let current = itemId;
        let parentId: string | undefined;
        const itemNotFound = () => notFound('item_not_found', 'Could not find item');
        if (nestedID) {
          const steps = parseNestedId(nestedID);
          if (!steps || steps[steps.length - 1]?.kind !== 'item') throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item the image belongs to' }]);
          const end = await followChain((l, id, parent, lock) => readItem(database.db, l, id, parent, lock), top, itemId, steps, {
            readFinalItem: true,
            missingItem: itemNotFound,
            missingCollection: (s) => notFound('nested_collection_not_found', `There is no nested collection "${s}" here.`),
          });
          level = end.level;
          current = end.current;
          parentId = end.parentId;
        }
        const item = await readItem(database.db, level, current, parentId);
        if (!item) throw itemNotFound();
        const field = level.fields.find((f) => f.slug === slug);
        const type = field ? fieldType(field.type) : undefined;
        if (!field || !type?.files) throw invalid([{ path: slugPath, message: 'must name an image or image set field of the item' }]);
        const owner: ItemOwner = { projectId: proj, collectionId: row.id, rootItemId: itemId, itemTable: level.table, itemId: current, fieldColumn: fieldColumn(field.id) };
        return { row, item, field, isSet: type.files === 'many', owner };
      }

      /**
       * Writes the field through the item service (validation, version bump, live event). A change
       * computed from the item as read is retried on a concurrent write, so two uploads to one
       * image set both land; with If-Match the caller's version decides instead.
       */
      async function writeField(
        request: FastifyRequest,
        proj: string,
        at: { collection: string; item: string; nestedID: string | undefined },
        field: SchemaField,
        start: Item,
        change: (current: unknown) => unknown,
      ): Promise<Item> {
        const given = parseVersion(request.headers['if-match'], 'If-Match');
        let current = start;
        for (let attempt = 0; ; attempt++) {
          try {
            return await items.update(proj, at.collection, at.item, { [field.slug]: change(current[field.slug] ?? null) }, {
              nestedID: at.nestedID,
              version: given ?? current._lastUpdatedDate,
            });
          } catch (error) {
            if (!(error instanceof StaleItemError) || given !== undefined || attempt >= 4) throw error;
            current = error.current;
          }
        }
      }

      function sendStale(reply: FastifyReply, error: StaleItemError) {
        return reply
          .code(409)
          .type('application/problem+json')
          .header('etag', `"${error.current._lastUpdatedDate}"`)
          .send({ ...problem(409, error.code, error.message), item: error.current });
      }

      /** Checks a spooled upload against its real type and the field's accept list, stores it, returns its key and type. */
      async function store(upload: Spooled, accept: string, owner: ItemOwner | { projectId: string }, keyBase: string): Promise<{ key: string; type: Sniffed }> {
        const sniffed = await sniffFile(upload.file, upload.name, upload.size);
        if (!sniffed.ok) throw sniffed.code === 'empty_file' ? badRequest('empty_file', sniffed.message) : unsupported('type_mismatch', sniffed.message);
        if (!acceptsFile(accept, sniffed.type.mime, `x.${sniffed.type.ext}`)) {
          throw unsupported('type_not_accepted', `This field accepts ${accept}; the file is ${sniffed.type.mime}.`);
        }
        const key = `${keyBase}/${randomBytes(16).toString('hex')}.${sniffed.type.ext}`;
        await files.register(key, owner, { contentType: sniffed.type.mime, name: upload.name.slice(0, 255), size: upload.size });
        try {
          await storage.put(key, createReadStream(upload.file), { size: upload.size, contentType: sniffed.type.mime });
        } catch (error) {
          await files.remove(key);
          throw error;
        }
        return { key, type: sniffed.type };
      }

      /** Reads a multipart body: its text fields and its files, each spooled to disk (and refused at the limit). */
      async function readForm(request: FastifyRequest, fileFields: readonly string[], textFields: readonly string[], maxFiles: number) {
        if (!request.isMultipart()) throw unsupported('multipart_expected', 'Send the file as multipart/form-data.');
        const texts = new Map<string, string>();
        const uploads: { field: string; upload: Spooled }[] = [];
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (!fileFields.includes(part.fieldname) || uploads.length >= maxFiles) {
                part.file.resume();
                throw invalid([{ path: part.fieldname, message: uploads.length >= maxFiles ? 'is one file too many' : 'is not a known part of this form' }]);
              }
              uploads.push({ field: part.fieldname, upload: await spool(part, spoolDir) });
            } else {
              const value = (part as MultipartValue).value;
              if (!textFields.includes(part.fieldname)) throw invalid([{ path: part.fieldname, message: 'is not a known part of this form' }]);
              if (part.valueTruncated) throw invalid([{ path: part.fieldname, message: 'is too long' }]);
              texts.set(part.fieldname, typeof value === 'string' ? value : String(value));
            }
          }
        } catch (error) {
          await Promise.all(uploads.map(({ upload }) => rm(upload.file, { force: true })));
          // Limits busboy reports by erroring (too many parts or files) are the caller's mistake.
          const code = (error as { code?: string }).code;
          if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('too_many_parts', (error as Error).message);
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
          throw error;
        }
        return { texts, uploads, cleanup: () => Promise.all(uploads.map(({ upload }) => rm(upload.file, { force: true }))) };
      }

      const inItem = Type.Object({ org: Id, proj: Id, collection: CollectionId, item: ItemId });
      const Problem = Type.Object({}, { additionalProperties: true });

      routes.put(
        '/collection/:collection/item/:item/image',
        {
          config: { action: 'update', scope: 'collection' },
          schema: {
            summary:
              'Upload an image or file into an ImageRef field (replacing the one there) or an ImageRefSet (appended), or set it to a link (update). Multipart: altText, then imageFile or imageLink.',
            tags: ['files'],
            security,
            consumes: ['multipart/form-data'],
            params: inItem,
            querystring: Type.Object({ imageSlug: Type.String({ minLength: 1, maxLength: contentLimits.slugMax }), nestedID: Type.Optional(NestedId) }),
            headers: Type.Object({ 'if-match': Type.Optional(Type.String({ maxLength: 100 })) }),
            response: responses({ 200: ItemSchema, 409: Problem }),
          },
        },
        async (request, reply) => {
          const { proj } = request.params;
          const nestedID = request.query.nestedID || undefined;
          const found = await target(proj, request.params.collection, request.params.item, nestedID, request.query.imageSlug, 'imageSlug');
          const current = found.item[found.field.slug];
          if (found.isSet && Array.isArray(current) && current.length >= contentLimits.imageSetMax) {
            throw invalid([{ path: 'imageSlug', message: `already holds ${contentLimits.imageSetMax} images, the most a set may hold` }]);
          }
          const form = await readForm(request, ['imageFile'], ['altText', 'imageLink'], 1);
          let stored: string | undefined;
          let outcome: Item | StaleItemError;
          try {
            const altText = form.texts.get('altText') ?? '';
            if (altText.length > fileLimits.altTextMax) throw invalid([{ path: 'altText', message: `must be at most ${fileLimits.altTextMax} characters` }]);
            const link = form.texts.get('imageLink');
            const upload = form.uploads[0]?.upload;
            if ((link === undefined) === (upload === undefined)) throw invalid([{ path: 'imageFile', message: 'send either imageFile or imageLink' }]);
            let image: Record<string, string>;
            if (upload) {
              const { key, type } = await store(upload, found.field.accept || defaultAccept, found.owner, `p/${proj}/c/${found.row.id}/i/${request.params.item}`);
              stored = key;
              image = { imageURL: urlOf(key), imageName: key.split('/').pop()!, altText, extension: type.ext, fileName: upload.name.slice(0, 255) };
            } else {
              // A link is kept as the address it is; the server does not fetch it.
              let url: URL | undefined;
              try {
                url = new URL(link!);
              } catch {
                url = undefined;
              }
              if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || link!.length > contentLimits.urlMax) {
                throw invalid([{ path: 'imageLink', message: `must be an http or https address of at most ${contentLimits.urlMax} characters` }]);
              }
              const name = linkedFileName(url);
              image = { imageURL: url.toString(), imageName: name.slice(0, 255), altText, extension: extensionOf(name), fileName: name.slice(0, 255) };
            }
            const entry = found.isSet ? { _id: newId(), ...image } : image;
            const at = { collection: request.params.collection, item: request.params.item, nestedID };
            const item = await writeField(request, proj, at, found.field, found.item, (value) => (found.isSet ? [...(Array.isArray(value) ? value : []), entry] : entry));
            if (stored) await files.markAttached(stored);
            stored = undefined;
            // The image this one replaced (and anything else the item no longer holds) goes now.
            await files.sweepItem(found.row.id, request.params.item);
            outcome = item;
          } catch (error) {
            if (stored) await files.remove(stored);
            if (!(error instanceof StaleItemError)) throw error;
            outcome = error;
          } finally {
            // Before answering: once answered, nothing of the upload is left anywhere.
            await form.cleanup();
          }
          if (outcome instanceof StaleItemError) return sendStale(reply, outcome);
          return reply.header('etag', `"${outcome._lastUpdatedDate}"`).send(outcome);
        },
      );

      routes.delete(
        '/collection/:collection/item/:item/image',
        {
          config: { action: 'update', scope: 'collection' },
          schema: {
            summary:
              'Remove the image of an ImageRef field, or one image (by imageName or imageID, the entry’s _id) of an ImageRefSet, with its file (update)',
            tags: ['files'],
            security,
            params: inItem,
            querystring: Type.Object({
              fieldSlug: Type.String({ minLength: 1, maxLength: contentLimits.slugMax }),
              nestedID: Type.Optional(NestedId),
              imageName: Type.Optional(Type.String({ maxLength: 255 })),
              imageID: Type.Optional(Type.String({ maxLength: 64 })),
            }),
            headers: Type.Object({ 'if-match': Type.Optional(Type.String({ maxLength: 100 })) }),
            response: responses({ 200: ItemSchema, 409: Problem }),
          },
        },
        async (request, reply) => {
          const { proj } = request.params;
          const nestedID = request.query.nestedID || undefined;
          const { imageName, imageID } = request.query;
          const found = await target(proj, request.params.collection, request.params.item, nestedID, request.query.fieldSlug, 'fieldSlug');
          const noImage = () => notFound('image_not_found', 'There is no such image in this field.');
          const matches = (entry: unknown) =>
            typeof entry === 'object' && entry !== null && ((imageID !== undefined && (entry as { _id?: string })._id === imageID) || (imageName !== undefined && (entry as { imageName?: string }).imageName === imageName));
          if (found.isSet && imageName === undefined && imageID === undefined) throw invalid([{ path: 'imageName', message: 'name the image of the set to remove (imageName or imageID)' }]);
          const present = found.item[found.field.slug];
          if (found.isSet ? !(Array.isArray(present) && present.some(matches)) : present === null || present === undefined) throw noImage();
          try {
            const at = { collection: request.params.collection, item: request.params.item, nestedID };
            const item = await writeField(request, proj, at, found.field, found.item, (value) => {
              if (!found.isSet) return null;
              const rest = (Array.isArray(value) ? value : []).filter((entry) => !matches(entry));
              return rest.length ? rest : null;
            });
            await files.sweepItem(found.row.id, request.params.item);
            return reply.header('etag', `"${item._lastUpdatedDate}"`).send(item);
          } catch (error) {
            if (error instanceof StaleItemError) return sendStale(reply, error);
            throw error;
          }
        },
      );

      const Asset = Type.Object({ url: Type.String(), imageName: Type.String(), name: Type.String(), extension: Type.String(), contentType: Type.String(), size: Type.Integer() });
      const assetAccept = '*/*';
      const storeAssets = async (request: FastifyRequest, proj: string, max: number) => {
        const form = await readForm(request, ['asset'], [], max);
        const stored: string[] = [];
        try {
          if (form.uploads.length === 0) throw invalid([{ path: 'asset', message: 'send at least one file in the asset part' }]);
          const out = [];
          for (const { upload } of form.uploads) {
            const { key, type } = await store(upload, assetAccept, { projectId: proj }, `p/${proj}/a`);
            stored.push(key);
            out.push({ url: urlOf(key), imageName: key.split('/').pop()!, name: upload.name, extension: type.ext, contentType: type.mime, size: upload.size });
          }
          return out;
        } catch (error) {
          for (const key of stored) await files.remove(key);
          throw error;
        } finally {
          await form.cleanup();
        }
      };
      const assetSchema = (summary: string, response: ReturnType<typeof Type.Object> | ReturnType<typeof Type.Array>) => ({
        config: { action: 'update' as const, scope: 'project' as const },
        schema: { summary, tags: ['files'], security, consumes: ['multipart/form-data'], params: Type.Object({ org: Id, proj: Id }), response: responses({ 201: response }) },
      });

      routes.put('/asset', assetSchema('Store one project file (multipart part `asset`) and answer its URL (update)', Asset), async (request, reply) => {
        const { proj } = request.params;
        const [asset] = await storeAssets(request, proj, 1);
        return reply.code(201).send(asset!);
      });

      routes.put('/assets', assetSchema('Store several project files (parts named `asset`) and answer their URLs in order (update)', Type.Array(Asset)), async (request, reply) => {
        const { proj } = request.params;
        return reply.code(201).send(await storeAssets(request, proj, fileLimits.assetsPerCall));
      });
    },
    { prefix: api },
  );
}
