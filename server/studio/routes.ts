/**
 * Studio's console calls under `/api/organization/{org}/project/{proj}/studio` (docs/studio.md):
 * - `POST tokens` `{preview: true}` | `{from: tokenID}` → 201 a temporary token for the workbench
 *   (any member: its rights never exceed theirs); `DELETE tokens/{tokenID}` ends one (its minter only).
 * - `GET openapi.json`: the project's generated OpenAPI document as the member may see it (every
 *   collection of their view, every operation), for the console's reference view.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { StudioToken, StudioTokenInput } from '../../definitions/schemas/studio.ts';
import { Id } from '../content/route-schemas.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { StudioTokenService } from './tokens.ts';
import { studioDocuments } from './documents.ts';

const ProjectParams = Type.Object({ org: Id, proj: Id });

export async function studioRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, apiTokens, userGroups } = app.ctx;
  const tokens = new StudioTokenService(database.db, apiTokens, userGroups);
  const documents = studioDocuments(app);
  const tags = ['studio'];
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  app.post(
    '/tokens',
    {
      config: { action: 'read', scope: 'project' },
      schema: {
        summary: 'Mint a Studio token: read-only (preview) or with the rights of a project token (from), never beyond yours; it ends after 30 minutes (read)',
        tags,
        security,
        params: ProjectParams,
        body: StudioTokenInput,
        response: responses({ 201: StudioToken }),
      },
    },
    async function mintStudioToken(request, reply) {
      return reply.code(201).send(await tokens.mint(request.scope, request.body));
    },
  );

  app.delete(
    '/tokens/:tokenID',
    {
      config: { action: 'read', scope: 'project' },
      schema: {
        summary: 'End one of your Studio tokens; it stops working at once (read)',
        tags,
        security,
        params: Type.Object({ org: Id, proj: Id, tokenID: Id }),
        response: responses({ 204: Empty }),
      },
    },
    async function revokeStudioToken(request, reply) {
      await tokens.revoke(request.scope.projectId, request.scope.standing.userId, request.params.tokenID);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/openapi.json',
    {
      config: { action: 'read', scope: 'project' },
      schema: {
        summary: 'The project’s generated OpenAPI 3.1 document: every collection you see, every operation (read)',
        tags,
        security,
        params: ProjectParams,
        response: responses({ 200: Type.Object({ openapi: Type.String() }, { additionalProperties: true }) }),
      },
    },
    async function studioOpenApi(request, reply) {
      const { project, visibility } = request.scope;
      const text = await documents.forMember(project!, visibility.visible);
      // The document is kept as JSON text: sent as it is.
      return reply.type('application/json; charset=utf-8').send(text as unknown as { openapi: string });
    },
  );
}
