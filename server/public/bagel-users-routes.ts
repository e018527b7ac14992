/**
 * An item's users through the public v1 API (contract §6, content §7): `GET|PUT|DELETE
 * …/collection/{c}/items/{id}/bagelUsers`, PUT and DELETE with `{"userID"}`. Every call needs an
 * API token with User Admin (others: 403). The links are those of the item page's Users panel
 * (server/main/item-users.ts); groups granting "associated items only" reach exactly these items.
 */
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ItemService } from '../content/items.ts';
import { badRequest, forbidden } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';
import type { Principal } from './principal.ts';
import { inItem, principalOf, security, tags, type PublicApp } from './support.ts';

const ItemUsers = Type.Array(Type.Object({ userID: Type.String() }));

function requireUserAdmin(principal: Principal) {
  if (principal.kind !== 'token' || !principal.rights.userAdmin) throw forbidden('user_admin_required', 'Item users need an API token with User Admin.');
}

/** The `userID` of a body the plugin's parser read (JSON whatever its Content-Type). */
function userIdOf(body: unknown): string {
  const value = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).userID : undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 100) throw badRequest('invalid_user_id', 'Send {"userID": "<the user’s id>"}.');
  return value.trim();
}

export async function publicBagelUserRoutes(fastify: PublicApp) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { itemUsers, database } = app.ctx;
  const items = new ItemService(database.db);

  /** The caller's project, after the User Admin check and with the item known (404 otherwise). */
  async function itemOf(principal: Principal, collection: string, item: string): Promise<string> {
    requireUserAdmin(principal);
    await items.get(principal.projectId, collection, item, undefined, { pageNumber: 1, perPage: 1 });
    return principal.projectId;
  }

  app.get(
    '/collection/:collection/items/:item/bagelUsers',
    { schema: { summary: 'The users linked to an item (User Admin)', tags, security, params: inItem, response: responses({ 200: ItemUsers }) } },
    async (request) => {
      const { collection, item } = request.params;
      return itemUsers.list(await itemOf(principalOf(request), collection, item), collection, item);
    },
  );

  app.put(
    '/collection/:collection/items/:item/bagelUsers',
    { schema: { summary: 'Link a project user to an item: {"userID"} (User Admin)', tags, security, params: inItem, response: responses({ 200: ItemUsers }) } },
    async (request) => {
      const { collection, item } = request.params;
      const project = await itemOf(principalOf(request), collection, item);
      return itemUsers.add(project, collection, item, [userIdOf(request.body)]);
    },
  );

  app.delete(
    '/collection/:collection/items/:item/bagelUsers',
    { schema: { summary: 'Unlink a project user from an item: {"userID"} (User Admin)', tags, security, params: inItem, response: responses({ 200: ItemUsers }) } },
    async (request) => {
      const { collection, item } = request.params;
      const project = await itemOf(principalOf(request), collection, item);
      return itemUsers.remove(project, collection, item, [userIdOf(request.body)]);
    },
  );
}
