/**
 * An organization's projects under `/api/organization/{org}/project`: creating (optionally from a
 * template), reading (a restricted view shows only its collections), changing, the restricted
 * view's settings, deleting.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Action } from '../../definitions/permissions.ts';
import { platform } from '../../definitions/platform.ts';
import { Project, RestrictedView, RestrictedViewSettings } from '../../definitions/schemas/project.ts';
import { adminOnlyRichTextSettings, richTextSettingsSchema, type RichTextSettings } from '../../definitions/rich-text.ts';
import { Id } from '../content/route-schemas.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { Name } from './route-schemas.ts';

/** settings.richText (definitions/rich-text.ts): the switches to change. */
const RichTextSettingsChange = Type.Unsafe<Partial<RichTextSettings>>({ ...richTextSettingsSchema, description: 'rich-text editor switches of the project; scriptsEnabled only for admins' });

/**
 * Who sees which collections, and whether fields may carry scripts, is the administrators'
 * decision; name, description and the editor's switches need update.
 */
function adminOnlyChange(request: FastifyRequest): Action {
  const { settings } = request.body as { settings?: { restrictedView?: unknown; richText?: Partial<Record<string, unknown>> } };
  const adminOnly = settings?.restrictedView !== undefined || adminOnlyRichTextSettings.some((key) => settings?.richText?.[key] !== undefined);
  return adminOnly ? 'admin' : 'update';
}

export async function projectRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { organizations, projects } = app.ctx;
  const security = [{ bearer: [] as string[] }];
  const orgParams = Type.Object({ org: Id });
  app.addHook('onRequest', app.requireUser);

  const projectParams = Type.Object({ org: Id, proj: Id });
  const ProjectBody = Type.Object(
    { name: Name(platform.limits.projectNameMax), description: Type.Optional(Type.String({ maxLength: platform.limits.projectDescriptionMax })) },
    { additionalProperties: false },
  );

  app.post(
    '/organization/:org/project',
    {
      config: { action: 'create', scope: 'organization' },
      schema: {
        summary: 'Create a project (create), optionally from a template project of the same organization',
        tags: ['projects'],
        security,
        params: orgParams,
        querystring: Type.Object({ templateID: Type.Optional(Id) }),
        body: ProjectBody,
        response: responses({ 201: Project }),
      },
    },
    async function createProject(request, reply) {
      return reply.code(201).send(await projects.create(request.params.org, request.body, request.query.templateID));
    },
  );

  app.get(
    '/organization/:org/project/:proj',
    {
      config: { action: 'read', scope: 'organization' },
      schema: {
        summary: 'One project (read); a member in its restricted view gets only the collections it lists',
        tags: ['projects'],
        security,
        params: projectParams,
        response: responses({ 200: Project }),
      },
    },
    async function readProject(request) {
      return projects.get(request.params.org, request.params.proj, request.scope.standing);
    },
  );

  app.put(
    '/organization/:org/project/:proj',
    {
      config: { action: 'update', scope: 'organization', actionFor: adminOnlyChange },
      schema: {
        summary:
          'Change a project’s name or description (update), its rich-text switches (settings.richText; update, scriptsEnabled admin), or its restricted view (settings.restrictedView; admin)',
        tags: ['projects'],
        security,
        params: projectParams,
        body: Type.Object(
          {
            name: Type.Optional(ProjectBody.properties.name),
            description: Type.Optional(ProjectBody.properties.description),
            settings: Type.Optional(
              Type.Object(
                { restrictedView: Type.Optional(Type.Union([RestrictedView, Type.Null()])), richText: Type.Optional(RichTextSettingsChange) },
                { additionalProperties: false, minProperties: 1 },
              ),
            ),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: responses({ 200: Project }),
      },
    },
    async function changeProject(request) {
      const { org, proj } = request.params;
      const viewer = request.scope.standing;
      const memberEmails = request.body.settings?.restrictedView ? (await organizations.members(org)).map((m) => m.email) : [];
      return projects.update(org, proj, request.body, { viewer, memberEmails });
    },
  );

  app.get(
    '/organization/:org/project/:proj/restricted-view',
    {
      config: { action: 'admin', scope: 'organization' },
      schema: {
        summary: 'The project’s restricted view with every collection to choose from (admin)',
        tags: ['projects'],
        security,
        params: projectParams,
        response: responses({
          200: RestrictedViewSettings,
        }),
      },
    },
    async function readRestrictedView(request) {
      return projects.restrictedView(request.params.org, request.params.proj);
    },
  );

  app.delete(
    '/organization/:org/project/:proj',
    { config: { action: 'delete', scope: 'organization' }, schema: { summary: 'Delete a project and everything in it (delete)', tags: ['projects'], security, params: projectParams, response: responses({ 204: Empty }) } },
    async function deleteProject(request, reply) {
      await projects.delete(request.params.org, request.params.proj);
      return reply.code(204).send(null);
    },
  );
}
