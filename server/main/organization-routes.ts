/**
 * Organizations under `/api`: the signed-in user's list, creating one, and reading, renaming and
 * deleting one. Each route states the action it needs (server/lib/request-scope.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { platform } from '../../definitions/platform.ts';
import { Organization } from '../../definitions/schemas/organization.ts';
import { currentUser } from '../auth/authenticate.ts';
import { Id } from '../content/route-schemas.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { Name } from './route-schemas.ts';

export async function organizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { organizations } = app.ctx;
  const tags = ['organizations'];
  const security = [{ bearer: [] as string[] }];
  const orgParams = Type.Object({ org: Id });
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/organizations',
    {
      schema: {
        summary: 'The signed-in user’s organizations (optionally only some), with projects when projectOn is set',
        tags,
        security,
        querystring: Type.Object({
          organizations: Type.Optional(Type.String({ maxLength: 5000 })),
          projectOn: Type.Optional(Type.String({ maxLength: 10 })),
        }),
        response: responses({ 200: Type.Array(Organization) }),
      },
    },
    async function listOrganizations(request) {
      const only = request.query.organizations
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const withProjects = request.query.projectOn !== undefined && request.query.projectOn !== 'false';
      const list = await organizations.listForUser(currentUser(request).userId, only, withProjects);
      return list;
    },
  );

  app.post(
    '/organization',
    {
      schema: {
        summary: 'Create an organization; its creator becomes its administrator',
        tags,
        security,
        body: Type.Object({ name: Name(platform.limits.organizationNameMax) }, { additionalProperties: false }),
        response: responses({ 201: Organization }),
      },
    },
    async function createOrganization(request, reply) {
      return reply.code(201).send(await organizations.create(currentUser(request).userId, request.body.name));
    },
  );

  app.get(
    '/organization/:org',
    { config: { action: 'read', scope: 'organization' }, schema: { summary: 'One organization with its projects and members', tags, security, params: orgParams, response: responses({ 200: Organization }) } },
    async function readOrganization(request) {
      return organizations.view(request.params.org);
    },
  );

  app.put(
    '/organization/:org',
    {
      config: { action: 'admin', scope: 'organization' },
      schema: {
        summary: 'Rename an organization (admin)',
        tags,
        security,
        params: orgParams,
        body: Type.Object({ name: Name(platform.limits.organizationNameMax) }, { additionalProperties: false }),
        response: responses({ 200: Organization }),
      },
    },
    async function renameOrganization(request) {
      return organizations.rename(request.params.org, request.body.name);
    },
  );

  app.delete(
    '/organization/:org',
    { config: { action: 'admin', scope: 'organization' }, schema: { summary: 'Delete an organization and everything in it (admin)', tags, security, params: orgParams, response: responses({ 204: Empty }) } },
    async function deleteOrganization(request, reply) {
      await organizations.delete(request.params.org);
      return reply.code(204).send(null);
    },
  );

}
