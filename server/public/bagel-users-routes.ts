/**
 * An item's users through the public v1 API: `GET|PUT|DELETE
 * …/collection/{c}/items/{id}/bagelUsers`, PUT and DELETE with `{"userID"}`. Every call needs an
 * API token with User Admin (others: 403). The links are those of the item page's Users panel
 * (server/main/item-users.ts); groups granting "associated items only" reach exactly these items.
 * With `nestedID` ending in a nested item's id the calls act on that nested item's
 * own users; an unknown item, nested collection, nested item or user is 404 (docs/end-users.md).
 */
import { Type } from '@sinclair/typebox';
import { parseNestedId } from '../../definitions/content.ts';
import { invalid } from '../content/collections.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { badRequest, forbidden } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';
import type { Principal } from './principal.ts';
import { inItem, nestedQuery, principalOf, security, tags, type PublicApp } from './support.ts';

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
  const { itemUsers, database, items } = app.ctx;

  /**
   * The caller's project and the item's place (`nestedPath`: the nestedID of a nested item, '' for
   * the top-level item), after the User Admin check and with every item on the way known (404).
   */
  async function itemOf(principal: Principal, collection: string, item: string, nestedID: string | undefined): Promise<{ project: string; nestedPath: string }> {
    requireUserAdmin(principal);
    const nestedPath = nestedID ?? '';
    const steps = parseNestedId(nestedPath);
    if (!steps || (steps.length && steps[steps.length - 1]!.kind !== 'item')) {
      throw invalid([{ path: 'nestedID', message: 'must end with the id of the nested item whose users these are' }]);
    }
    await items.get(principal.projectId, collection, item, nestedPath || undefined, { pageNumber: 1, perPage: 1 });
    return { project: principal.projectId, nestedPath };
  }

  const querystring = Type.Object(nestedQuery);

  app.get(
    '/collection/:collection/items/:item/bagelUsers',
    {
      schema: {
        summary: 'The users linked to an item, or (nestedID) to a nested item (User Admin)',
        tags,
        security,
        params: inItem,
        querystring,
        response: responses({ 200: ItemUsers }),
      },
    },
    async (request) => {
      const { collection, item } = request.params;
      const { project, nestedPath } = await itemOf(principalOf(request), collection, item, request.query.nestedID);
      return itemUsers.list(project, collection, item, nestedPath);
    },
  );

  app.put(
    '/collection/:collection/items/:item/bagelUsers',
    {
      schema: {
        summary: 'Link a project user to an item or (nestedID) a nested item: {"userID"}; an unknown user is 404 (User Admin)',
        tags,
        security,
        params: inItem,
        querystring,
        response: responses({ 200: ItemUsers }),
      },
    },
    async (request) => {
      const { collection, item } = request.params;
      const { project, nestedPath } = await itemOf(principalOf(request), collection, item, request.query.nestedID);
      const userId = userIdOf(request.body);
      await itemUsers.requireUsers(project, [userId]);
      return itemUsers.add(project, collection, item, [userId], nestedPath);
    },
  );

  app.delete(
    '/collection/:collection/items/:item/bagelUsers',
    {
      schema: {
        summary: 'Unlink a project user from an item or (nestedID) a nested item: {"userID"}; an unknown user is 404 (User Admin)',
        tags,
        security,
        params: inItem,
        querystring,
        response: responses({ 200: ItemUsers }),
      },
    },
    async (request) => {
      const { collection, item } = request.params;
      const { project, nestedPath } = await itemOf(principalOf(request), collection, item, request.query.nestedID);
      const userId = userIdOf(request.body);
      await itemUsers.requireUsers(project, [userId]);
      return itemUsers.remove(project, collection, item, [userId], nestedPath);
    },
  );
}
