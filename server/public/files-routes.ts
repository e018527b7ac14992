/**
 * Item images through the public v1 API: `PUT …/collection/{c}/items/{id}/image?imageSlug&nestedID`
 * (multipart `altText`, then `imageFile` or `imageLink`) sets an ImageRef or appends to an
 * ImageRefSet (update right). Project files (assets) are in asset-routes.ts. A link (`imageLink`, `urlAssets`) is fetched through the URL guard (app.ctx.outbound) and stored
 * like an upload, so every URL the API answers is one of this server's files. Uploads and fetched
 * bodies are spooled to temporary files, checked by their real type, and kept in the file registry
 * (server/files/files.ts), which deletes them with their item or project.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { contentLimits, defaultAccept, parseNestedId } from '../../definitions/content.ts';
import { fileLimits } from '../../definitions/files.ts';
import { fieldType } from '../../definitions/field-types/index.ts';
import { newId } from '../lib/ids.ts';
import { invalid, levelOf } from '../content/collections.ts';
import { NestedId } from '../content/route-schemas.ts';
import { fieldColumn, levelAt } from '../content/schema-tree.ts';
import type { ItemOwner } from '../files/files.ts';
import { requireAssociated, requireRight } from './principal.ts';
import { changeField, inItem, principalOf, security, tags, type PublicApp } from './support.ts';
import { closeUnreadBodies, publicUploads } from './uploads.ts';

export async function publicFileRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { collections, items, files } = app.ctx;
  const { urlOf, store, readParts } = publicUploads(app);
  closeUnreadBodies(app);

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
    async function uploadItemImage(request, reply) {
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
      const holds = field ? fieldType(field.type)?.files : undefined;
      if (!field || holds === undefined) throw invalid([{ path: 'imageSlug', message: 'must name an image or image set field of the item' }]);
      const isSet = holds === 'many';
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
        await files.markAttached(key);
        stored = undefined;
        // The image this one replaced (and anything else the item no longer holds) goes now.
        await files.sweepItem(row.id, item);
        return reply.send({ id: found.item._id, imageURL: image.imageURL });
      } catch (error) {
        if (stored) await files.remove(stored);
        throw error;
      } finally {
        await form.cleanup();
      }
    },
  );
}
