/**
 * Files through the public v1 API:
 * - `PUT …/collection/{c}/items/{id}/image?imageSlug&nestedID` (multipart `altText`, then
 *   `imageFile` or `imageLink`) sets an ImageRef or appends to an ImageRefSet (update right);
 * - `POST …/collection/{c}/assets` and the client's `POST …/collection//assets` (parts
 *   `fileAssets` or `urlAssets`, in any mix) store project files and answer
 *   `[{imageName, altText, imageUrl, extension}]`, one per part, in order.
 * A link (`imageLink`, `urlAssets`) is fetched through the URL guard (app.ctx.outbound) and stored
 * like an upload, so every URL the API answers is one of this server's files. Uploads and fetched
 * bodies are spooled to temporary files, checked by their real type, and kept in the file registry
 * (server/files/files.ts), which deletes them with their item or project.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentLimits, defaultAccept, parseNestedId } from '../../definitions/content.ts';
import { acceptsFile, fileLimits } from '../../definitions/files.ts';
import { fieldType } from '../../definitions/field-types/index.ts';
import { AppError, badRequest, forbidden, unsupportedMediaType as unsupported } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { OutboundError } from '../lib/url-guard.ts';
import { CollectionService, invalid, levelOf } from '../content/collections.ts';
import { ItemService } from '../content/items.ts';
import { NestedId } from '../content/route-schemas.ts';
import { fieldColumn, levelAt } from '../content/schema-tree.ts';
import type { ItemOwner } from '../files/files.ts';
import { linkedFileName, sniffFile, type Sniffed } from '../files/sniff.ts';
import { mayStoreAssets, requireAssociated, requireRight } from './principal.ts';
import { changeField, inCollection, inItem, principalOf, security, tags, type PublicApp } from './support.ts';

const tooLarge = () => new AppError(413, 'file_too_large', `The file is too large: files must be at most ${fileLimits.uploadBytesMax} bytes.`);

interface Spooled {
  file: string;
  name: string;
  size: number;
}

export async function publicFileRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, database, outbound } = app.ctx;
  const collections = new CollectionService(database.db);
  const items = new ItemService(database.db);
  const spoolDir = path.join(config.dataDir, 'uploads');
  const urlOf = (key: string) => `${config.publicUrl}/files/${key}`;
  // Registered on the application after this plugin: looked up when a call needs it.
  const files = () => (fastify as FastifyInstance).files;

  // An answer given before the body was read: the rest is never read, so the connection cannot carry another request.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    return payload;
  });

  const tempFile = async () => {
    await mkdir(spoolDir, { recursive: true });
    return path.join(spoolDir, `${randomBytes(12).toString('hex')}.upload`);
  };

  /** A file part written to a temporary file as it arrives; stops at the limit with 413. */
  async function spool(part: MultipartFile): Promise<Spooled> {
    const file = await tempFile();
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
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
    const file = await tempFile();
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
    await files().register(key, owner, { contentType: sniffed.type.mime, name: upload.name.slice(0, 255), size: upload.size });
    try {
      await files().storage.put(key, createReadStream(upload.file), { size: upload.size, contentType: sniffed.type.mime });
    } catch (error) {
      await files().remove(key);
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
          parts.push({ field: part.fieldname, upload: await spool(part) });
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

  app.put(
    '/collection/:collection/items/:item/image',
    {
      schema: {
        summary: 'Upload an image or file (imageFile), or fetch one (imageLink), into an ImageRef field or appended to an ImageRefSet (update). Multipart: altText, then imageFile or imageLink.',
        tags,
        security,
        consumes: ['multipart/form-data'],
        params: inItem,
        querystring: Type.Object({ imageSlug: Type.String({ minLength: 1, maxLength: contentLimits.slugMax }), nestedID: Type.Optional(NestedId) }),
        response: { 200: Type.Object({ id: Type.String(), imageURL: Type.String() }) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { collection, item } = request.params;
      const grant = await requireRight(app, principal, collection, 'update');
      await requireAssociated(app, principal, grant, collection, item);
      const nestedID = request.query.nestedID || undefined;
      const steps = nestedID ? parseNestedId(nestedID) : [];
      if (!steps || (nestedID && steps[steps.length - 1]?.kind !== 'item')) throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item the image belongs to' }]);
      const found = await items.get(principal.projectId, collection, item, nestedID, { pageNumber: 1, perPage: 0 });
      if (!('item' in found)) throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item the image belongs to' }]);
      const row = await collections.schemaRow(principal.projectId, collection);
      const level = levelAt(levelOf(row), steps.flatMap((s) => (s.kind === 'collection' ? [s.slug] : []))) ?? levelOf(row);
      const field = level.fields.find((f) => f.slug === request.query.imageSlug);
      const typeName = field ? fieldType(field.type)?.name : undefined;
      if (!field || (typeName !== 'ImageRef' && typeName !== 'ImageRefSet')) throw invalid([{ path: 'imageSlug', message: 'must name an image or image set field of the item' }]);
      const isSet = typeName === 'ImageRefSet';
      const present = found.item[field.slug];
      if (isSet && Array.isArray(present) && present.length >= contentLimits.imageSetMax) {
        throw invalid([{ path: 'imageSlug', message: `already holds ${contentLimits.imageSetMax} images, the most a set may hold` }]);
      }
      const owner: ItemOwner = { projectId: principal.projectId, collectionId: row.id, rootItemId: item, itemTable: level.table, itemId: found.item._id, fieldColumn: fieldColumn(field.id) };
      const form = await readParts(request, ['imageFile'], ['altText', 'imageLink'], ['imageLink'], 1);
      let stored: string | undefined;
      try {
        const altText = form.parts.find((p) => p.field === 'altText')?.text ?? '';
        if (altText.length > fileLimits.altTextMax) throw invalid([{ path: 'altText', message: `must be at most ${fileLimits.altTextMax} characters` }]);
        const upload = form.parts.find((p) => p.upload)?.upload;
        if (!upload || form.parts.filter((p) => p.field !== 'altText').length !== 1) throw invalid([{ path: 'imageFile', message: 'send either imageFile or imageLink' }]);
        const { key, type } = await store(upload, field.accept || defaultAccept, owner, `p/${principal.projectId}/c/${row.id}/i/${item}`);
        stored = key;
        const image = { imageURL: urlOf(key), imageName: key.split('/').pop()!, altText, extension: type.ext, fileName: upload.name.slice(0, 255) };
        const entry = isSet ? { _id: newId(), ...image } : image;
        await changeField(items, principal.projectId, { collection, item, nestedID }, field.slug, found.item, (value) => (isSet ? [...(Array.isArray(value) ? value : []), entry] : entry));
        await files().markAttached(key);
        stored = undefined;
        // The image this one replaced (and anything else the item no longer holds) goes now.
        await files().sweepItem(row.id, item);
        return reply.send({ id: found.item._id, imageURL: image.imageURL });
      } catch (error) {
        if (stored) await files().remove(stored);
        throw error;
      } finally {
        await form.cleanup();
      }
    },
  );

  const Asset = Type.Object({ imageName: Type.String(), altText: Type.String(), imageUrl: Type.String(), extension: Type.String() });

  async function storeAssets(request: FastifyRequest, collection: string | undefined) {
    const principal = principalOf(request);
    if (collection) {
      const grant = await requireRight(app, principal, collection, 'create').catch(() => requireRight(app, principal, collection, 'update'));
      if (grant.associatedOnly) throw forbidden('not_permitted', 'This user may not store project files.');
    } else if (!mayStoreAssets(principal)) {
      throw forbidden('not_permitted', 'This token may not store project files: it needs a create or update right.');
    }
    const form = await readParts(request, ['fileAssets'], ['urlAssets'], ['urlAssets'], fileLimits.assetsPerCall);
    const stored: string[] = [];
    try {
      if (form.parts.length === 0) throw invalid([{ path: 'fileAssets', message: 'send at least one file (fileAssets) or address (urlAssets)' }]);
      const out = [];
      for (const part of form.parts) {
        const { key, type } = await store(part.upload!, '*/*', { projectId: principal.projectId }, `p/${principal.projectId}/a`);
        stored.push(key);
        out.push({ imageName: key.split('/').pop()!, altText: '', imageUrl: urlOf(key), extension: type.ext });
      }
      return out;
    } catch (error) {
      for (const key of stored) await files().remove(key);
      throw error;
    } finally {
      await form.cleanup();
    }
  }

  const assetSchema = (summary: string, params?: typeof inCollection) => ({
    schema: { summary, tags, security, consumes: ['multipart/form-data'], ...(params ? { params } : {}), response: { 201: Type.Array(Asset) } },
  });

  app.post('/collection//assets', assetSchema('Store project files: parts fileAssets (files) or urlAssets (addresses fetched) (a create or update right)'), async (request, reply) =>
    reply.code(201).send(await storeAssets(request, undefined)),
  );

  app.post(
    '/collection/:collection/assets',
    assetSchema('Store project files: parts fileAssets (files) or urlAssets (addresses fetched) (create or update on the collection)', inCollection),
    async (request, reply) => reply.code(201).send(await storeAssets(request, (request.params as { collection: string }).collection)),
  );
}
