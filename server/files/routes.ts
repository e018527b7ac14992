/**
 * Files over HTTP (docs/files.md "Storage, uploads and serving"), one file per resource:
 * - `GET /files/{key}` serves a file, publicly (download-routes.ts);
 * - `PUT|DELETE …/collection/{c}/item/{id}/image` sets or removes an item's image (image-routes.ts);
 * - `PUT …/asset` and `…/assets` store project files (asset-routes.ts).
 * Uploads stream to a temporary file (never to memory) and stop at the limit with 413
 * (server/files/multipart.ts).
 */
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { contentLimits } from '../../definitions/content.ts';
import { fileLimits } from '../../definitions/files.ts';
import { assetRoutes } from './asset-routes.ts';
import { fileDownloadRoutes } from './download-routes.ts';
import { imageRoutes } from './image-routes.ts';

export async function registerFiles(app: FastifyInstance): Promise<void> {
  fileDownloadRoutes(app);

  await app.register(
    async function fileUploadRoutes(scope: FastifyInstance) {
      await scope.register(multipart, {
        limits: { fileSize: fileLimits.uploadBytesMax, files: fileLimits.assetsPerCall, fields: 10, fieldSize: contentLimits.urlMax * 2, parts: fileLimits.assetsPerCall + 10 },
      });
      scope.addHook('onRequest', app.requireUser);
      // An answer given before the body was read (413 at the limit, a refusal before the upload):
      // the rest of the body is never read, so the connection cannot carry another request.
      scope.addHook('onSend', async (request, reply, payload) => {
        if (!request.raw.complete) reply.header('connection', 'close');
        return payload;
      });
      await scope.register(imageRoutes);
      await scope.register(assetRoutes);
    },
    { prefix: '/api/organization/:org/project/:proj' },
  );
}
