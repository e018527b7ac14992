/**
 * `GET /api/public/collection/{c}/live?authorization&requestID&nestedID&itemID`: live item writes
 * of a collection for apps, the same stream as the console's (server/live/stream.ts).
 * The client's EventSource sends no headers, so the token comes in `authorization` (the plugin's
 * authentication hook reads it there); the caller needs the read right on the collection. An end
 * user whose groups grant read on associated items only gets the events of the items that list
 * them (asked per batch of events as they come, so a link added or removed counts at once); a
 * nested list needs its top-level item to list them. The caller's access is checked again
 * whenever a row it rests on changes (a deleted or changed API token, an app user's ended
 * session, deletion or new groups, a group's rights): a refusal, or a grant that changed kind,
 * ends the stream with `stop` (server/live/stream.ts).
 */
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { decodeJwt } from 'jose';
import { responses } from '../lib/schemas.ts';
import { serveLiveStream } from '../live/stream.ts';
import { liveTarget } from '../live/target.ts';
import { forbidden } from '../lib/errors.ts';
import { bearerToken } from '../auth/authenticate.ts';
import { requireAssociated, requireRight, resolvePrincipal } from './principal.ts';
import { inCollection, principalOf, tags, type PublicApp } from './support.ts';

const LiveQuery = Type.Object({
  authorization: Type.Optional(Type.String({ maxLength: 4096, description: 'The API token or user token (EventSource sends no headers); `Bearer ` may precede it.' })),
  requestID: Type.Optional(Type.String({ maxLength: 64, pattern: '^[0-9a-f]*$', description: 'The request id of a stream that was told to stop: resume after it.' })),
  nestedID: Type.Optional(Type.String({ maxLength: 1024, description: 'A nested list of `itemID` (slug chain); empty for the top-level list.' })),
  itemID: Type.Optional(Type.String({ maxLength: 64, description: 'The top-level item whose nested list is followed; absent, empty or `undefined` for the top level.' })),
});

/** Where the authentication hook finds a live stream's token. */
export const liveRoute = '/api/public/collection/:collection/live';

export async function publicLiveRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { database, live, config, itemUsers, collections } = app.ctx;

  app.get(
    '/collection/:collection/live',
    {
      schema: {
        summary: 'Server-sent events of the collection’s item writes (read)',
        tags,
        params: inCollection,
        querystring: LiveQuery,
        response: responses({}),
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { collection } = request.params;
      const grant = await requireRight(app, principal, collection, 'read');
      const row = await collections.row(principal.projectId, collection);
      const target = await liveTarget(database.db, row, request.query);
      // A nested list or item, or one top-level item: its top-level item must list a user limited to associated items.
      const topItem = target.rootItemId ?? target.itemId;
      if (topItem) await requireAssociated(app, principal, grant, collection, topItem);
      const limitedTo = grant.associatedOnly && principal.kind === 'user' ? principal.userId : undefined;
      const visible =
        limitedTo === undefined ? undefined : (itemIds: string[]) => itemUsers.associatedAmong(principal.projectId, row.slug, limitedTo, itemIds);
      const lastEventID = Number(request.headers['last-event-id']);
      // The token the authentication hook resolved: the bearer header first, else `authorization`.
      const presented = bearerToken(request) ?? (request.query.authorization?.replace(/^Bearer\s+/i, '') || undefined);
      const recheck = async () => {
        const now = await resolvePrincipal(app, presented);
        const same = now.kind === principal.kind && now.projectId === principal.projectId && (now.kind === 'token' || (principal.kind === 'user' && now.userId === principal.userId));
        if (!same) throw forbidden('not_permitted', 'The token no longer names the same caller.');
        const again = await requireRight(app, now, collection, 'read');
        // A grant narrowed to associated items (or widened) changes what the stream shows: the client resumes under the new one.
        if (again.associatedOnly !== grant.associatedOnly) throw forbidden('not_permitted', 'The read right on this collection changed.');
        if ((await collections.schemaRow(principal.projectId, collection)).id !== row.id) throw forbidden('not_permitted', 'The collection followed is gone.');
      };
      const token = request.query.authorization?.replace(/^Bearer\s+/i, '') ?? '';
      let expiresAt: number | undefined;
      try {
        expiresAt = decodeJwt(token).exp;
      } catch {
        expiresAt = undefined;
      }
      await serveLiveStream(request, reply, {
        hub: live,
        db: database.db,
        collectionId: row.id,
        collectionSlug: row.slug,
        ...target,
        requestID: request.query.requestID || undefined,
        lastEventID: Number.isSafeInteger(lastEventID) && lastEventID >= 0 ? lastEventID : undefined,
        maxSeconds: config.liveStreamMaxS,
        expiresAt,
        visible,
        recheck,
      });
    },
  );
}
