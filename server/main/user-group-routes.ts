/**
 * A project's user groups (the Auth section's Groups), under `/api/organization/{org}/project/{proj}/userGroups`
 * (reached through projectUserRoutes). A group's rights name top-level collections of the project, and
 * giving out a right needs the caller's own flag for it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { UserGroup } from '../../definitions/schemas/project-user.ts';
import { Id } from '../content/route-schemas.ts';
import { badRequest } from '../lib/errors.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { ProjectParams } from './project-user-schemas.ts';

const GroupParams = Type.Object({ org: Id, proj: Id, groupID: Id });
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

export async function userGroupRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { userGroups, collections } = app.ctx;
  const security = [{ bearer: [] as string[] }];

  // User groups. Rights name top-level collections of the project (nested ones follow their top level).
  const requireCollections = async (proj: string, permissions: { collection?: string | undefined }[] | undefined) => {
    const named = [...new Set((permissions ?? []).map((p) => String(p.collection ?? '')))];
    if (!named.length) return;
    const known = new Set((await collections.list(proj)).map((r) => r.slug));
    const unknown = named.filter((slug) => !known.has(slug));
    if (unknown.length) throw badRequest('unknown_collection', `Not a collection of this project: ${unknown.join(', ')}.`, { collections: unknown.join(', ') });
  };

  app.get(
    '/userGroups',
    { config: { action: 'read', scope: 'project' }, schema: { summary: 'The project’s user groups with their rights (read)', tags: ['user groups'], security, params: ProjectParams, response: responses({ 200: Type.Array(UserGroup) }) } },
    async function listGroups(request) {
      return userGroups.list(request.params.proj);
    },
  );

  app.get(
    '/userGroups/:groupID',
    { config: { action: 'read', scope: 'project' }, schema: { summary: 'One user group (read)', tags: ['user groups'], security, params: GroupParams, response: responses({ 200: UserGroup }) } },
    async function readGroup(request) {
      return userGroups.get(request.params.proj, request.params.groupID);
    },
  );

  app.post(
    '/userGroups',
    {
      config: { action: 'create', scope: 'project' },
      schema: {
        summary: 'Create a user group (create); a taken name is 409',
        tags: ['user groups'],
        security,
        params: ProjectParams,
        body: GroupBody,
        response: responses({ 201: UserGroup }),
      },
    },
    async function createGroup(request, reply) {
      const proj = request.params.proj;
      await requireCollections(proj, request.body.permissions);
      userGroups.requireGrantable(request.scope.standing.permissions, request.body.permissions);
      return reply.code(201).send(await userGroups.create(proj, { name: request.body.name, permissions: request.body.permissions }));
    },
  );

  const update = async (request: FastifyRequest, groupID: string | undefined, body: { name?: string | undefined; permissions?: Parameters<typeof userGroups.update>[2]['permissions'] }) => {
    const proj = request.scope.projectId;
    if (!groupID) throw badRequest('group_id_required', 'Name the user group to change (groupID).');
    await requireCollections(proj, body.permissions);
    // Rights the group already had may be sent back; only added or widened ones need the caller's flags.
    return userGroups.update(proj, groupID, { name: body.name, permissions: body.permissions }, request.scope.standing.permissions);
  };

  app.put(
    '/userGroups/:groupID',
    {
      config: { action: 'update', scope: 'project' },
      // A body naming another group than the address is refused before anything is looked up.
      preHandler: async function sameGroupID(request) {
        if (request.body.groupID !== undefined && request.body.groupID !== request.params.groupID) {
          throw badRequest('group_id_mismatch', 'The groupID in the body differs from the one in the address.');
        }
      },
      schema: {
        summary: 'Rename a user group and/or replace its rights (update)',
        tags: ['user groups'],
        security,
        params: GroupParams,
        body: GroupBody,
        response: responses({ 200: UserGroup }),
      },
    },
    async function changeGroup(request) {
      return update(request, request.params.groupID, request.body);
    },
  );

  app.put(
    '/userGroups',
    {
      config: { action: 'update', scope: 'project' },
      schema: {
        summary: 'Rename a user group and/or replace its rights, named by groupID in the body (update)',
        tags: ['user groups'],
        security,
        params: ProjectParams,
        body: GroupBody,
        response: responses({ 200: UserGroup }),
      },
    },
    async function changeGroupNamedInBody(request) {
      return update(request, request.body.groupID, request.body);
    },
  );

  app.delete(
    '/userGroups/:groupID',
    {
      config: { action: 'delete', scope: 'project' },
      schema: {
        summary: 'Delete a user group; its users lose it (delete)',
        tags: ['user groups'],
        security,
        params: GroupParams,
        response: responses({ 204: Empty }),
      },
    },
    async function deleteGroup(request, reply) {
      await userGroups.delete(request.params.proj, request.params.groupID);
      return reply.code(204).send(null);
    },
  );
}
