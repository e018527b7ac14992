/**
 * The item page's Users panel: project users linked to a top-level item, under
 * `/api/organization/{org}/project/{proj}/collection/{c}/item/{id}/bagelUsers` (reached through projectUserRoutes).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CollectionId, Id, ItemId } from '../content/route-schemas.ts';
import { responses } from '../lib/schemas.ts';

const ItemParams = Type.Object({ org: Id, proj: Id, collection: CollectionId, item: ItemId });
const ItemUsers = Type.Array(Type.Object({ userID: Type.String() }));
const UserIdBody = Type.Object({ userID: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export async function itemUserRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { itemUsers, items } = app.ctx;
  const security = [{ bearer: [] as string[] }];

  // The item page's Users panel (top-level items).
  const itemExists = async (proj: string, collection: string, item: string) => {
    await items.get(proj, collection, item, undefined, { pageNumber: 1, perPage: 1 });
  };

  app.get(
    '/collection/:collection/item/:item/bagelUsers',
    { config: { action: 'read', scope: 'collection' }, schema: { summary: 'The users linked to an item (read)', tags: ['project users'], security, params: ItemParams, response: responses({ 200: ItemUsers }) } },
    async function listItemUsers(request) {
      const proj = request.params.proj;
      const { collection, item } = request.params;
      await itemExists(proj, collection, item);
      return itemUsers.list(proj, collection, item);
    },
  );

  app.put(
    '/collection/:collection/item/:item/bagelUsers',
    {
      config: { action: 'update', scope: 'collection' },
      schema: {
        summary: 'Link a user to an item (update); the user must be one of the project’s',
        tags: ['project users'],
        security,
        params: ItemParams,
        body: UserIdBody,
        response: responses({ 200: ItemUsers }),
      },
    },
    async function linkItemUser(request) {
      const proj = request.params.proj;
      const { collection, item } = request.params;
      await itemExists(proj, collection, item);
      return itemUsers.add(proj, collection, item, [request.body.userID]);
    },
  );

  app.delete(
    '/collection/:collection/item/:item/bagelUsers',
    {
      config: { action: 'update', scope: 'collection' },
      schema: {
        summary: 'Unlink a user from an item (update)',
        tags: ['project users'],
        security,
        params: ItemParams,
        body: UserIdBody,
        response: responses({ 200: ItemUsers }),
      },
    },
    async function unlinkItemUser(request) {
      const proj = request.params.proj;
      const { collection, item } = request.params;
      await itemExists(proj, collection, item);
      return itemUsers.remove(proj, collection, item, [request.body.userID]);
    },
  );
}
