/** `POST /auth/public/user/token`: a project user's refresh grant (the refresh token rotates: server/auth/refresh-rotation.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type, type Static } from '@sinclair/typebox';
import { badRequest } from '../../lib/errors.ts';
import { responses } from '../../lib/schemas.ts';
import { bodyLimit, callerOf, optionalBody, security, tags, TokenAnswer } from './shared.ts';

/** The client's `client_id` for refreshes. */
const PROJECT_CLIENT = 'project-client';

const short = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const RefreshParams = Type.Object(
  { grant_type: short(64), refresh_token: short(128), client_id: short(128), client_secret: short(256) },
  { additionalProperties: true },
);

/** In a scope of its own: the client sends the grant as multipart, the docs urlencoded. */
export async function tokenRoutes(fastify: FastifyInstance) {
  await fastify.register(multipart, { attachFieldsToBody: 'keyValues', limits: { files: 0, fields: 10, fieldSize: 4096, parts: 10 } });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;

  app.post(
    '/user/token',
    {
      bodyLimit,
      schema: {
        summary: 'Rotate a project user’s refresh token (multipart or urlencoded; client_id=project-client)',
        tags,
        security,
        querystring: RefreshParams,
        body: optionalBody(RefreshParams),
        response: responses({ 200: TokenAnswer }),
      },
    },
    async function refreshGrant(request, reply) {
      const params = { ...request.query, ...(request.body ?? {}) } as Static<typeof RefreshParams>;
      reply.header('cache-control', 'no-store');
      if ((params.grant_type ?? 'refresh_token') !== 'refresh_token') {
        throw badRequest('unsupported_grant_type', `The grant type "${params.grant_type}" is not supported.`, { grantType: String(params.grant_type) });
      }
      if (params.client_id !== undefined && params.client_id !== PROJECT_CLIENT) throw badRequest('invalid_client', 'Unknown client.');
      if (!params.refresh_token) throw badRequest('invalid_request', 'The refresh_token parameter is required.');
      return reply.code(200).send(await endUsers.refreshTokens(params.refresh_token, callerOf(request).projectId));
    },
  );
}
