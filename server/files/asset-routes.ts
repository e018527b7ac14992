/**
 * Project files (assets) of the console's API, under `/api/organization/{org}/project/{proj}/`:
 * `PUT asset` and `PUT assets` (multipart parts `asset`) store files of any type that live as long
 * as the project, answering their URLs in order (update). A call stores all of its files or none
 * (FileService.storeAssets).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TArray, type TObject } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { fileLimits } from '../../definitions/files.ts';
import { responses } from '../lib/schemas.ts';
import { invalid } from '../content/collections.ts';
import { Id } from '../content/route-schemas.ts';
import { fileUrl } from './files.ts';
import { readForm } from './multipart.ts';
import { spoolDirOf } from './spool.ts';

const security = [{ bearer: [] as string[] }];
const Asset = Type.Object({ url: Type.String(), imageName: Type.String(), name: Type.String(), extension: Type.String(), contentType: Type.String(), size: Type.Integer() });

const assetRoute = (summary: string, response: TObject | TArray) => ({
  config: { action: 'update' as const, scope: 'project' as const },
  schema: { summary, tags: ['files'], security, consumes: ['multipart/form-data'], params: Type.Object({ org: Id, proj: Id }), response: responses({ 201: response }) },
});

export async function assetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, files } = app.ctx;
  const spoolDir = spoolDirOf(config.dataDir);

  /** Reads up to `max` parts named `asset`, stores them as the project's files and answers what each became. */
  async function storeAssets(request: FastifyRequest, proj: string, max: number) {
    const form = await readForm(request, spoolDir, { files: ['asset'], texts: [], maxFiles: max, notMultipart: 'Send the file as multipart/form-data.' });
    try {
      if (form.uploads.length === 0) throw invalid([{ path: 'asset', message: 'send at least one file in the asset part' }]);
      const stored = await files.storeAssets(proj, form.uploads);
      return stored.map(({ key, type, upload }) => ({
        url: fileUrl(config.publicUrl, key),
        imageName: key.split('/').pop()!,
        name: upload.name,
        extension: type.ext,
        contentType: type.mime,
        size: upload.size,
      }));
    } finally {
      await form.cleanup();
    }
  }

  app.put('/asset', assetRoute('Store one project file (multipart part `asset`) and answer its URL (update)', Asset), async function storeAsset(request, reply) {
    const [asset] = await storeAssets(request, request.params.proj, 1);
    return reply.code(201).send(asset!);
  });

  app.put('/assets', assetRoute('Store several project files (parts named `asset`) and answer their URLs in order (update)', Type.Array(Asset)), async function storeAssetList(request, reply) {
    return reply.code(201).send(await storeAssets(request, request.params.proj, fileLimits.assetsPerCall));
  });
}
