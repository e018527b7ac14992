/**
 * The console's calls for a project's users and user groups (the Auth section's
 * Users and Groups, the item page's Users panel), under `/api/organization/{org}/project/{proj}`:
 * - `GET user?pageNumber&perPage&search` → `{users, total}`; `GET user/{id}`; `DELETE user/{id}`;
 *   `PUT user/{id}` `{userGroups}` (the User Admin's "change a user's group", from the console);
 * - `GET userGroups`; `POST userGroups` `{name, permissions?}`; `PUT userGroups/{groupID}` (or
 *   `PUT userGroups` with `groupID` in the body) `{name?, permissions?}`; `DELETE userGroups/{groupID}`;
 * - `GET|PUT|DELETE collection/{c}/item/{id}/bagelUsers` (`{userID}` for PUT and DELETE).
 * And, under `/auth/organization/{org}/project/{proj}` (it belongs with the auth service's
 * calls): `POST resetPassword {email}` mails the user a reset link.
 *
 * Permissions are the member's flags in the organization (definitions/permissions.ts): reading
 * needs membership, changes need create/update/delete as the verb says; a collection hidden by the
 * project's restricted view answers as if it did not exist.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Action } from '../../definitions/permissions.ts';
import { currentUser } from '../auth/authenticate.ts';
import { normaliseEmail } from '../auth/end-users.ts';
import { ItemService } from '../content/items.ts';
import { CollectionId, Id, ItemId } from '../content/route-schemas.ts';
import { contentCollections } from '../db/schema.ts';
import { badRequest } from '../lib/errors.ts';
import { Empty, Ok, responses } from '../lib/schemas.ts';
import { addProjectUserRoute } from './project-user-create.ts';
import { ProjectParams, ProjectUser } from './project-user-schemas.ts';
import { collectionVisibilityOf } from './projects.ts';

const UserParams = Type.Object({ org: Id, proj: Id, id: Id });
const GroupParams = Type.Object({ org: Id, proj: Id, groupID: Id });
const ItemParams = Type.Object({ org: Id, proj: Id, collection: CollectionId, item: ItemId });

const Permission = Type.Object(
  {
    collection: Type.String({ minLength: 1, maxLength: 64 }),
    create: Type.Optional(Type.Boolean()),
    read: Type.Optional(Type.Boolean()),
    update: Type.Optional(Type.Boolean()),
    delete: Type.Optional(Type.Boolean()),
    associatedOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const Group = Type.Object({
  groupID: Type.String(),
  name: Type.String(),
  permissions: Type.Array(
    Type.Object({ collection: Type.String(), create: Type.Boolean(), read: Type.Boolean(), update: Type.Boolean(), delete: Type.Boolean(), associatedOnly: Type.Boolean() }),
  ),
  createdDate: Type.String(),
  updatedDate: Type.String(),
});
const GroupName = Type.String({ maxLength: 100 });
const GroupBody = Type.Object(
  {
    name: Type.Optional(GroupName),
    permissions: Type.Optional(Type.Array(Permission, { maxItems: 1000 })),
    // The console sends a group back as it read it: its id and dates are accepted and ignored.
    groupID: Type.Optional(Type.String({ maxLength: 100 })),
    createdDate: Type.Optional(Type.String({ maxLength: 40 })),
    updatedDate: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
const ItemUsers = Type.Array(Type.Object({ userID: Type.String() }));
const UserIdBody = Type.Object({ userID: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

/** The caller may do `action` in the organization, and the project is one of its projects. */
async function allowed(app: FastifyInstance, request: FastifyRequest, action: Action) {
  const { org, proj, collection } = request.params as { org: string; proj: string; collection?: string };
  const viewer = await app.ctx.access.require(currentUser(request).userId, org, action);
  const project = await app.ctx.projects.row(org, proj);
  if (collection !== undefined) collectionVisibilityOf(project, viewer).require(collection);
  return proj;
}

/** The caller's flags in the organization (cached; `allowed` has already checked membership). */
async function flagsOf(app: FastifyInstance, request: FastifyRequest) {
  const { org } = request.params as { org: string };
  return (await app.ctx.access.organization(currentUser(request).userId, org)).permissions;
}

export async function projectUserRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers, userGroups, itemUsers, database } = app.ctx;
  const items = new ItemService(database.db);
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  // Users.
  app.get(
    '/user',
    {
      schema: {
        summary: 'A page of the project’s users, oldest first; search by e-mail or phone (read)',
        tags: ['project users'],
        security,
        params: ProjectParams,
        querystring: Type.Object({
          pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
          perPage: Type.Optional(Type.Integer({ minimum: 0, maximum: 500 })),
          search: Type.Optional(Type.String({ maxLength: 254 })),
        }),
        response: responses({ 200: Type.Object({ users: Type.Array(ProjectUser), total: Type.Integer() }) }),
      },
    },
    async (request) => {
      const proj = await allowed(app, request, 'read');
      const { pageNumber = 1, perPage = 50, search } = request.query;
      return endUsers.list(proj, { pageNumber, perPage, search });
    },
  );

  addProjectUserRoute(app);

  app.get(
    '/user/:id',
    { schema: { summary: 'One user of the project (read)', tags: ['project users'], security, params: UserParams, response: responses({ 200: ProjectUser }) } },
    async (request) => endUsers.get(await allowed(app, request, 'read'), request.params.id),
  );

  app.put(
    '/user/:id',
    {
      schema: {
        summary: 'Change a user’s groups (update); every id must be a group of this project',
        tags: ['project users'],
        security,
        params: UserParams,
        body: Type.Object({ userGroups: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }) }, { additionalProperties: false }),
        response: responses({ 200: ProjectUser }),
      },
    },
    async (request) => {
      const proj = await allowed(app, request, 'update');
      const groups = await userGroups.requireGroups(proj, request.body.userGroups);
      // Giving a user a group hands out its rights: the groups added need the caller's flags for them.
      const flags = await flagsOf(app, request);
      const wanted = await userGroups.some(proj, groups);
      return endUsers.setGroups(proj, request.params.id, groups, (current) => {
        for (const group of wanted.filter((g) => !current.includes(g.groupID))) {
          userGroups.requireGrantable(flags, group.permissions, [], `The user group "${group.name}"`);
        }
      });
    },
  );

  app.delete(
    '/user/:id',
    {
      schema: {
        summary: 'Delete a user with their sessions and item links (delete)',
        tags: ['project users'],
        security,
        params: UserParams,
        response: responses({ 204: Empty }),
      },
    },
    async (request, reply) => {
      await endUsers.delete(await allowed(app, request, 'delete'), request.params.id);
      return reply.code(204).send(null);
    },
  );

  // User groups. Rights name top-level collections of the project (nested ones follow their top level).
  const requireCollections = async (proj: string, permissions: { collection?: string | undefined }[] | undefined) => {
    const named = [...new Set((permissions ?? []).map((p) => String(p.collection ?? '')))];
    if (!named.length) return;
    const rows = await database.db
      .select({ slug: contentCollections.slug })
      .from(contentCollections)
      .where(and(eq(contentCollections.projectId, proj), inArray(contentCollections.slug, named)));
    const known = new Set(rows.map((r) => r.slug));
    const unknown = named.filter((slug) => !known.has(slug));
    if (unknown.length) throw badRequest('unknown_collection', `Not a collection of this project: ${unknown.join(', ')}.`);
  };

  app.get(
    '/userGroups',
    { schema: { summary: 'The project’s user groups with their rights (read)', tags: ['user groups'], security, params: ProjectParams, response: responses({ 200: Type.Array(Group) }) } },
    async (request) => userGroups.list(await allowed(app, request, 'read')),
  );

  app.get(
    '/userGroups/:groupID',
    { schema: { summary: 'One user group (read)', tags: ['user groups'], security, params: GroupParams, response: responses({ 200: Group }) } },
    async (request) => userGroups.get(await allowed(app, request, 'read'), request.params.groupID),
  );

  app.post(
    '/userGroups',
    {
      schema: {
        summary: 'Create a user group (create); a taken name is 409',
        tags: ['user groups'],
        security,
        params: ProjectParams,
        body: GroupBody,
        response: responses({ 201: Group }),
      },
    },
    async (request, reply) => {
      const proj = await allowed(app, request, 'create');
      await requireCollections(proj, request.body.permissions);
      userGroups.requireGrantable(await flagsOf(app, request), request.body.permissions);
      return reply.code(201).send(await userGroups.create(proj, { name: request.body.name, permissions: request.body.permissions }));
    },
  );

  const update = async (request: FastifyRequest, groupID: string | undefined, body: { name?: string | undefined; permissions?: Parameters<typeof userGroups.update>[2]['permissions'] }) => {
    const proj = await allowed(app, request, 'update');
    if (!groupID) throw badRequest('group_id_required', 'Name the user group to change (groupID).');
    await requireCollections(proj, body.permissions);
    // Rights the group already had may be sent back; only added or widened ones need the caller's flags.
    return userGroups.update(proj, groupID, { name: body.name, permissions: body.permissions }, await flagsOf(app, request));
  };

  app.put(
    '/userGroups/:groupID',
    {
      schema: {
        summary: 'Rename a user group and/or replace its rights (update)',
        tags: ['user groups'],
        security,
        params: GroupParams,
        body: GroupBody,
        response: responses({ 200: Group }),
      },
    },
    async (request) => {
      if (request.body.groupID !== undefined && request.body.groupID !== request.params.groupID) {
        throw badRequest('group_id_mismatch', 'The groupID in the body differs from the one in the address.');
      }
      return update(request, request.params.groupID, request.body);
    },
  );

  app.put(
    '/userGroups',
    {
      schema: {
        summary: 'Rename a user group and/or replace its rights, named by groupID in the body (update)',
        tags: ['user groups'],
        security,
        params: ProjectParams,
        body: GroupBody,
        response: responses({ 200: Group }),
      },
    },
    async (request) => update(request, request.body.groupID, request.body),
  );

  app.delete(
    '/userGroups/:groupID',
    {
      schema: {
        summary: 'Delete a user group; its users lose it (delete)',
        tags: ['user groups'],
        security,
        params: GroupParams,
        response: responses({ 204: Empty }),
      },
    },
    async (request, reply) => {
      await userGroups.delete(await allowed(app, request, 'delete'), request.params.groupID);
      return reply.code(204).send(null);
    },
  );

  // The item page's Users panel (top-level items).
  const itemExists = async (proj: string, collection: string, item: string) => {
    await items.get(proj, collection, item, undefined, { pageNumber: 1, perPage: 1 });
  };

  app.get(
    '/collection/:collection/item/:item/bagelUsers',
    { schema: { summary: 'The users linked to an item (read)', tags: ['project users'], security, params: ItemParams, response: responses({ 200: ItemUsers }) } },
    async (request) => {
      const proj = await allowed(app, request, 'read');
      const { collection, item } = request.params;
      await itemExists(proj, collection, item);
      return itemUsers.list(proj, collection, item);
    },
  );

  app.put(
    '/collection/:collection/item/:item/bagelUsers',
    {
      schema: {
        summary: 'Link a user to an item (update); the user must be one of the project’s',
        tags: ['project users'],
        security,
        params: ItemParams,
        body: UserIdBody,
        response: responses({ 200: ItemUsers }),
      },
    },
    async (request) => {
      const proj = await allowed(app, request, 'update');
      const { collection, item } = request.params;
      await itemExists(proj, collection, item);
      return itemUsers.add(proj, collection, item, [request.body.userID]);
    },
  );

  app.delete(
    '/collection/:collection/item/:item/bagelUsers',
    {
      schema: {
        summary: 'Unlink a user from an item (update)',
        tags: ['project users'],
        security,
        params: ItemParams,
        body: UserIdBody,
        response: responses({ 200: ItemUsers }),
      },
    },
    async (request) => {
      const proj = await allowed(app, request, 'update');
      const { collection, item } = request.params;
      await itemExists(proj, collection, item);
      return itemUsers.remove(proj, collection, item, [request.body.userID]);
    },
  );
}

/** `POST /auth/organization/{org}/project/{proj}/resetPassword {email}`. */
export async function projectUserAuthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;
  app.addHook('onRequest', app.requireUser);
  app.post(
    '/resetPassword',
    {
      bodyLimit: 16 * 1024,
      schema: {
        summary: 'Mail a project user a password reset link (update)',
        tags: ['project users'],
        security: [{ bearer: [] as string[] }],
        params: ProjectParams,
        body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) }, { additionalProperties: false }),
        response: responses({ 200: Ok }),
      },
    },
    async (request) => {
      const proj = await allowed(app, request, 'update');
      await endUsers.requestPasswordReset(proj, normaliseEmail(request.body.email));
      return { ok: true as const };
    },
  );
}
