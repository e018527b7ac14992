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
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ProjectUserPage } from '../../definitions/schemas/project-user.ts';
import { PROJECT_USERS_PER_PAGE } from '../../definitions/user-groups.ts';
import { normaliseEmail } from '../auth/end-users.ts';
import { Id } from '../content/route-schemas.ts';
import { Empty, Ok, responses } from '../lib/schemas.ts';
import { addProjectUserRoute } from './project-user-create.ts';
import { ProjectParams, ProjectUser } from './project-user-schemas.ts';
import { itemUserRoutes } from './item-user-routes.ts';
import { userGroupRoutes } from './user-group-routes.ts';

const UserParams = Type.Object({ org: Id, proj: Id, id: Id });

export async function projectUserRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers, userGroups } = app.ctx;
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/user',
    {
      config: { action: 'read', scope: 'project' },
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
        response: responses({ 200: ProjectUserPage }),
      },
    },
    async function listUsers(request) {
      const proj = request.params.proj;
      const { pageNumber = 1, perPage = PROJECT_USERS_PER_PAGE, search } = request.query;
      return endUsers.list(proj, { pageNumber, perPage, search });
    },
  );

  addProjectUserRoute(app);

  app.get(
    '/user/:id',
    { config: { action: 'read', scope: 'project' }, schema: { summary: 'One user of the project (read)', tags: ['project users'], security, params: UserParams, response: responses({ 200: ProjectUser }) } },
    async function readUser(request) {
      return endUsers.get(request.params.proj, request.params.id);
    },
  );

  app.put(
    '/user/:id',
    {
      config: { action: 'update', scope: 'project' },
      schema: {
        summary: 'Change a user’s groups (update); every id must be a group of this project',
        tags: ['project users'],
        security,
        params: UserParams,
        body: Type.Object({ userGroups: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }) }, { additionalProperties: false }),
        response: responses({ 200: ProjectUser }),
      },
    },
    async function changeUserGroups(request) {
      const proj = request.params.proj;
      const groups = await userGroups.requireGroups(proj, request.body.userGroups);
      // Giving a user a group hands out its rights: the groups added need the caller's flags for them.
      const flags = request.scope.standing.permissions;
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
      config: { action: 'delete', scope: 'project' },
      schema: {
        summary: 'Delete a user with their sessions and item links (delete)',
        tags: ['project users'],
        security,
        params: UserParams,
        response: responses({ 204: Empty }),
      },
    },
    async function deleteUser(request, reply) {
      await endUsers.delete(request.params.proj, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Groups and the item page's Users panel, with the same sign-in hook.
  await app.register(userGroupRoutes);
  await app.register(itemUserRoutes);
}

/** `POST /auth/organization/{org}/project/{proj}/resetPassword {email}`. */
export async function projectUserAuthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;
  app.addHook('onRequest', app.requireUser);
  app.post(
    '/resetPassword',
    {
      config: { action: 'update', scope: 'project' },
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
    async function requestPasswordReset(request) {
      const proj = request.params.proj;
      await endUsers.requestPasswordReset(proj, normaliseEmail(request.body.email));
      return { ok: true as const };
    },
  );
}
