/**
 * `/api/apiTokens`: a project's API tokens. Listing needs read, minting create, editing update,
 * deleting delete; and a token never carries a right its minter (or editor) does not hold,
 * counting the rights of the user group it gives out.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { groupRightsBeyond, rightsBeyond } from '../../definitions/permissions.ts';
import { platform } from '../../definitions/platform.ts';
import { currentUser } from '../auth/authenticate.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { namedIn } from '../lib/request-scope.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { ApiToken, MintedToken } from '../../definitions/schemas/api-token.ts';
import type { ApiTokenService, TokenInput } from './api-tokens.ts';

type TokenRow = Awaited<ReturnType<ApiTokenService['row']>>;

const Id = Type.String({ pattern: '^[0-9a-f]{24}$' });
const Role = Type.Object(
  {
    collection: Type.String({ minLength: 1, maxLength: 200 }),
    create: Type.Optional(Type.Boolean()),
    read: Type.Optional(Type.Boolean()),
    update: Type.Optional(Type.Boolean()),
    delete: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const rightsFields = {
  name: Type.String({ minLength: 1, maxLength: platform.limits.tokenNameMax, pattern: '\\S' }),
  userAdmin: Type.Optional(Type.Boolean()),
  userGroupID: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  powerCreate: Type.Optional(Type.Boolean()),
  powerRead: Type.Optional(Type.Boolean()),
  powerUpdate: Type.Optional(Type.Boolean()),
  powerDelete: Type.Optional(Type.Boolean()),
  powerWrite: Type.Optional(Type.Boolean()),
  roles: Type.Optional(Type.Array(Role, { maxItems: 1000 })),
};
const CreateBody = Type.Object({ ...rightsFields, projectID: Id, organizationID: Id }, { additionalProperties: false });
// The saved-token view sends the token back as it read it: ids and dates are accepted and ignored.
const UpdateBody = Type.Object(
  {
    ...rightsFields,
    id: Type.Optional(Type.String()),
    projectID: Type.Optional(Type.String()),
    organizationID: Type.Optional(Type.String()),
    createdDate: Type.Optional(Type.String()),
    updatedDate: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
function toInput(body: Static<typeof CreateBody> | Static<typeof UpdateBody>): TokenInput {
  return {
    name: body.name,
    userAdmin: body.userAdmin ?? false,
    userGroupID: body.userGroupID ?? null,
    powerCreate: body.powerCreate ?? false,
    powerRead: body.powerRead ?? false,
    powerUpdate: body.powerUpdate ?? false,
    powerDelete: body.powerDelete ?? false,
    powerWrite: body.powerWrite ?? false,
    roles: (body.roles ?? []).map((r) => ({
      collection: r.collection,
      create: r.create ?? false,
      read: r.read ?? false,
      update: r.update ?? false,
      delete: r.delete ?? false,
    })),
  };
}

export async function apiTokenRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { apiTokens, userGroups } = app.ctx;
  const tokenNamed = async (request: FastifyRequest) => {
    const token = await apiTokens.row((request.params as { id: string }).id);
    // Studio's temporary tokens are not the project's tokens: not listed, not edited here (docs/studio.md).
    if (token.temporaryFor) throw notFound('token_not_found', 'There is no such API token.');
    return { organization: token.organizationId, resource: token };
  };
  const tags = ['api tokens'];
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  /**
   * A token's rights are its own flags and roles plus those of the user group it gives the users
   * it signs up (User Admin tokens give none); a group of another project gives nothing
   * (docs/end-users.md "Rights handed out through groups").
   */
  const refuseBeyond = async (permissions: Parameters<typeof rightsBeyond>[0], projectId: string, input: TokenInput) => {
    const missing = rightsBeyond(permissions, input);
    if (!input.userAdmin && input.userGroupID) {
      const [group] = await userGroups.some(projectId, [input.userGroupID]);
      if (group) missing.push(...groupRightsBeyond(permissions, group.permissions).map((right) => `userGroup.${right}`));
    }
    if (missing.length) throw forbidden('token_exceeds_permissions', `A token cannot carry rights you do not hold: ${missing.join(', ')}.`, { rights: missing.join(', ') });
  };

  app.get(
    '/',
    {
      config: { action: 'read', scope: 'project', locate: namedIn('query') },
      schema: {
        summary: 'The API tokens of a project (read)',
        tags,
        security,
        querystring: Type.Object({ projectID: Id, organizationID: Id }),
        response: responses({ 200: Type.Array(ApiToken) }),
      },
    },
    async function listTokens(request) {
      return apiTokens.list(request.scope.projectId);
    },
  );

  app.post(
    '/',
    {
      config: { action: 'create', scope: 'project', locate: namedIn('body') },
      schema: {
        summary: 'Mint an API token (create). The jwtToken is shown only in this answer.',
        tags,
        security,
        body: CreateBody,
        response: responses({ 201: MintedToken }),
      },
    },
    async function mintToken(request, reply) {
      const { userId } = currentUser(request);
      const { organizationID, projectID } = request.body;
      const input = toInput(request.body);
      await refuseBeyond(request.scope.standing.permissions, projectID, input);
      return reply.code(201).send(await apiTokens.create(organizationID, projectID, userId, input));
    },
  );

  app.put(
    '/:id',
    {
      config: { action: 'update', scope: 'organization', locate: tokenNamed },
      schema: { summary: 'Change an API token’s name and rights (update)', tags, security, params: Type.Object({ id: Id }), body: UpdateBody, response: responses({ 200: ApiToken }) },
    },
    async function changeToken(request) {
      const token = request.scope.resource as TokenRow;
      const input = toInput(request.body);
      await refuseBeyond(request.scope.standing.permissions, token.projectId, input);
      return apiTokens.update(token.id, input);
    },
  );

  app.delete(
    '/:id',
    { config: { action: 'delete', scope: 'organization', locate: tokenNamed }, schema: { summary: 'Delete an API token; it stops working at once (delete)', tags, security, params: Type.Object({ id: Id }), response: responses({ 204: Empty }) } },
    async function deleteToken(request, reply) {
      await apiTokens.delete((request.scope.resource as TokenRow).id);
      return reply.code(204).send(null);
    },
  );
}
