/**
 * Project files through the public v1 API: `POST …/collection/{c}/assets` and the client's
 * `POST …/collection//assets` (parts `fileAssets` or `urlAssets`, in any mix) store project files
 * and answer `[{imageName, altText, imageUrl, extension}]`, one per part, in order (server/public/uploads.ts).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { fileLimits } from '../../definitions/files.ts';
import { forbidden } from '../lib/errors.ts';
import { invalid } from '../content/collections.ts';
import { mayStoreAssets, requireRight } from './principal.ts';
import { inCollection, principalOf, security, tags, type PublicApp } from './support.ts';
import { closeUnreadBodies, publicUploads } from './uploads.ts';

export async function publicAssetRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { files } = app.ctx;
  const { urlOf, readParts } = publicUploads(app);
  closeUnreadBodies(app);

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
    try {
      if (form.parts.length === 0) throw invalid([{ path: 'fileAssets', message: 'send at least one file (fileAssets) or address (urlAssets)' }]);
      const stored = await files.storeAssets(principal.projectId, form.uploads);
      return stored.map(({ key, type }) => ({ imageName: key.split('/').pop()!, altText: '', imageUrl: urlOf(key), extension: type.ext }));
    } finally {
      await form.cleanup();
    }
  }

  const assetSchema = (summary: string, params?: typeof inCollection) => ({
    schema: { summary, tags, security, consumes: ['multipart/form-data'], ...(params ? { params } : {}), response: { 201: Type.Array(Asset) } },
  });

  app.post('/collection//assets', assetSchema('Store project files: parts fileAssets (files) or urlAssets (addresses fetched) (a create or update right)'), async function storeClientAssets(request, reply) {
    return reply.code(201).send(await storeAssets(request, undefined));
  },
  );

  app.post(
    '/collection/:collection/assets',
    assetSchema('Store project files: parts fileAssets (files) or urlAssets (addresses fetched) (create or update on the collection)', inCollection),
    async function storeCollectionAssets(request, reply) {
      return reply.code(201).send(await storeAssets(request, (request.params as { collection: string }).collection));
    },
  );
}
