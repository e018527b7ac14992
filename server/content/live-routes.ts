/**
 * `GET …/collection/{collectionID}/live?authorization&requestID&nestedID&itemID`: the console's
 * live stream of a collection. An EventSource cannot send headers, so the access
 * token comes in `authorization`; the stream stops at the token's expiry and the console resumes
 * with a fresh token and the request id. The same checks run again whenever a row they read
 * changes (sign-out, membership, restricted view, the collection): a refusal ends the stream with
 * `stop` (server/live/stream.ts).
 */
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { unauthorized } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';
import { serveLiveStream } from '../live/stream.ts';
import { resolveScope } from '../lib/request-scope.ts';
import { liveTarget } from '../live/target.ts';

const LiveQuery = Type.Object({
  authorization: Type.Optional(Type.String({ maxLength: 4096, description: 'The access token (EventSource sends no headers); `Bearer ` may precede it.' })),
  requestID: Type.Optional(Type.String({ maxLength: 64, pattern: '^[0-9a-f]*$', description: 'The request id of a stream that was told to stop: resume after it.' })),
  nestedID: Type.Optional(Type.String({ maxLength: 1024, description: 'A nested list of `itemID` (a slug chain, docs/live.md); empty for the top-level list.' })),
  itemID: Type.Optional(Type.String({ maxLength: 64, description: 'The top-level item whose nested list is followed; absent, empty or `undefined` for the top level.' })),
});

/** The access token of a stream: in `authorization`, or (clients that can) in the header. */
function tokenOf(request: FastifyRequest): string | undefined {
  const raw = (request.query as { authorization?: string }).authorization ?? /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return raw?.replace(/^Bearer\s+/i, '') || undefined;
}

export async function liveRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, tokens, live, config, collections } = app.ctx;
  const tokenHolder = async (request: FastifyRequest) => {
    const token = tokenOf(request);
    if (!token) throw unauthorized('missing_token', 'Sign in first: this call needs a token in `authorization`.');
    return (await tokens.verifyAccess(token)).userId;
  };

  app.get(
    '/collection/:collection/live',
    {
      config: { action: 'read', scope: 'collection', caller: tokenHolder },
      schema: {
        summary: 'Server-sent events of the collection’s item writes (read)',
        tags: ['items'],
        params: Type.Object({ org: Type.String({ maxLength: 64 }), proj: Type.String({ maxLength: 64 }), collection: Type.String({ maxLength: 64 }) }),
        querystring: LiveQuery,
        response: responses({}),
      },
    },
    async function followCollection(request, reply) {
      const token = tokenOf(request)!;
      const { org, proj, collection } = request.params;
      const row = await collections.row(proj, collection);
      const target = await liveTarget(database.db, row, request.query);
      const lastEventID = Number(request.headers['last-event-id']);
      await serveLiveStream(request, reply, {
        hub: live,
        db: database.db,
        collectionId: row.id,
        collectionSlug: row.slug,
        ...target,
        requestID: request.query.requestID || undefined,
        lastEventID: Number.isSafeInteger(lastEventID) && lastEventID >= 0 ? lastEventID : undefined,
        maxSeconds: config.liveStreamMaxS,
        expiresAt: decodeJwt(token).exp,
        // One event per batch of a bulk import, so the console reloads (server/content/import.ts).
        imports: true,
        // The same checks again, whenever a cached row they read changes.
        recheck: async () => {
          const again = await tokens.verifyAccess(token);
          await resolveScope(fastify, again.userId, 'read', 'collection', { organization: org, project: proj, collection });
          // The cached schema row (a deleted or replaced collection changes it everywhere).
          if ((await collections.schemaRow(proj, collection)).id !== row.id) throw unauthorized('collection_replaced', 'The collection followed is gone.');
        },
      });
    },
  );
}
