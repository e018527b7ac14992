/**
 * Item images of the console's API, under `/api/organization/{org}/project/{proj}/`
 * (docs/files.md "Storage, uploads and serving"):
 * - `PUT collection/{c}/item/{id}/image?imageSlug&nestedID` (multipart `altText`, then `imageFile`
 *   or `imageLink`) sets an ImageRef or appends to an ImageRefSet (update);
 * - `DELETE collection/{c}/item/{id}/image?fieldSlug&nestedID[&imageName|imageID]` empties the
 *   ImageRef or removes one entry of the set, and the file with it (update).
 * The item is read and written through the item service, so a write is validated, versioned and
 * heard like any other.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentLimits, defaultAccept, parseNestedId } from '../../definitions/content.ts';
import { extensionOf, fileLimits } from '../../definitions/files.ts';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { notFound, problem } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { responses } from '../lib/schemas.ts';
import { invalid, levelOf } from '../content/collections.ts';
import { parseVersion, StaleItemError } from '../content/items.ts';
import { CollectionId, Id, ItemId, ItemSchema, NestedId } from '../content/route-schemas.ts';
import { fieldColumn, levelAt } from '../content/schema-tree.ts';
import type { Item } from '../content/storage.ts';
import { fileUrl, type ItemOwner } from './files.ts';
import { readForm, textOf } from './multipart.ts';
import { linkedFileName } from './sniff.ts';
import { spoolDirOf } from './spool.ts';

const security = [{ bearer: [] as string[] }];
const inItem = Type.Object({ org: Id, proj: Id, collection: CollectionId, item: ItemId });
const Problem = Type.Object({}, { additionalProperties: true });
/** A fresh schema per route (Fastify normalizes each route's header schema). */
const ifMatch = () => Type.Object({ 'if-match': Type.Optional(Type.String({ maxLength: 100 })) });

const uploadQuery = Type.Object({ imageSlug: Type.String({ minLength: 1, maxLength: contentLimits.slugMax }), nestedID: Type.Optional(NestedId) });
const removeQuery = Type.Object({
  fieldSlug: Type.String({ minLength: 1, maxLength: contentLimits.slugMax }),
  nestedID: Type.Optional(NestedId),
  imageName: Type.Optional(Type.String({ maxLength: 255 })),
  imageID: Type.Optional(Type.String({ maxLength: 64 })),
});

const itemNotFound = () => notFound('item_not_found', 'Could not find item');

function sendStale(reply: FastifyReply, error: StaleItemError) {
  return reply
    .code(409)
    .type('application/problem+json')
    .header('etag', `"${error.current._lastUpdatedDate}"`)
    .send({ ...problem(409, error.code, error.message), item: error.current });
}

/** A link is kept as the address it is (the server does not fetch it): the image entry naming it. */
function linkedImage(link: string, altText: string): Record<string, string> {
  let url: URL | undefined;
  try {
    url = new URL(link);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || link.length > contentLimits.urlMax) {
    throw invalid([{ path: 'imageLink', message: `must be an http or https address of at most ${contentLimits.urlMax} characters` }]);
  }
  const name = linkedFileName(url);
  return { imageURL: url.toString(), imageName: name.slice(0, 255), altText, extension: extensionOf(name), fileName: name.slice(0, 255) };
}

export async function imageRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, collections, items, files } = app.ctx;
  const spoolDir = spoolDirOf(config.dataDir);

  /** The item a call names (nested through nestedID, which must end in an item id) and its image field. */
  async function target(proj: string, collection: string, itemId: string, nestedID: string | undefined, slug: string, slugPath: string) {
    const row = await collections.row(proj, collection);
    const steps = nestedID ? parseNestedId(nestedID) : [];
    if (!steps || (nestedID && steps[steps.length - 1]?.kind !== 'item')) {
      throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item the image belongs to' }]);
    }
    const found = await items.get(proj, collection, itemId, nestedID, { pageNumber: 1, perPage: 0 });
    if (!('item' in found)) throw itemNotFound();
    const level = levelAt(levelOf(row), steps.flatMap((s) => (s.kind === 'collection' ? [s.slug] : [])));
    if (!level) throw itemNotFound();
    const field = level.fields.find((f) => f.slug === slug);
    const type = field ? fieldType(field.type) : undefined;
    if (!field || !type?.files) throw invalid([{ path: slugPath, message: 'must name an image or image set field of the item' }]);
    const owner: ItemOwner = { projectId: proj, collectionId: row.id, rootItemId: itemId, itemTable: level.table, itemId: found.item._id, fieldColumn: fieldColumn(field.id) };
    return { row, item: found.item, field, isSet: type.files === 'many', owner };
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

  app.put(
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
        querystring: uploadQuery,
        headers: ifMatch(),
        response: responses({ 200: ItemSchema, 409: Problem }),
      },
    },
    async function uploadImage(request, reply) {
      const { proj } = request.params;
      const nestedID = request.query.nestedID || undefined;
      const found = await target(proj, request.params.collection, request.params.item, nestedID, request.query.imageSlug, 'imageSlug');
      const current = found.item[found.field.slug];
      if (found.isSet && Array.isArray(current) && current.length >= contentLimits.imageSetMax) {
        throw invalid([{ path: 'imageSlug', message: `already holds ${contentLimits.imageSetMax} images, the most a set may hold` }]);
      }
      const form = await readForm(request, spoolDir, { files: ['imageFile'], texts: ['altText', 'imageLink'], maxFiles: 1, notMultipart: 'Send the file as multipart/form-data.' });
      let stored: string | undefined;
      let outcome: Item | StaleItemError;
      try {
        const altText = textOf(form, 'altText') ?? '';
        if (altText.length > fileLimits.altTextMax) throw invalid([{ path: 'altText', message: `must be at most ${fileLimits.altTextMax} characters` }]);
        const link = textOf(form, 'imageLink');
        const upload = form.uploads[0];
        if ((link === undefined) === (upload === undefined)) throw invalid([{ path: 'imageFile', message: 'send either imageFile or imageLink' }]);
        let image: Record<string, string>;
        if (upload) {
          const { key, type } = await files.store(upload, found.field.accept || defaultAccept, found.owner, `p/${proj}/c/${found.row.id}/i/${request.params.item}`);
          stored = key;
          image = { imageURL: fileUrl(config.publicUrl, key), imageName: key.split('/').pop()!, altText, extension: type.ext, fileName: upload.name.slice(0, 255) };
        } else {
          image = linkedImage(link!, altText);
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

  app.delete(
    '/collection/:collection/item/:item/image',
    {
      config: { action: 'update', scope: 'collection' },
      schema: {
        summary:
          'Remove the image of an ImageRef field, or one image (by imageName or imageID, the entry’s _id) of an ImageRefSet, with its file (update)',
        tags: ['files'],
        security,
        params: inItem,
        querystring: removeQuery,
        headers: ifMatch(),
        response: responses({ 200: ItemSchema, 409: Problem }),
      },
    },
    async function removeImage(request, reply) {
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
}
