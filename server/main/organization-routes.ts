/**
 * Organizations, members, invitations and projects under `/api`. Every call names the action it
 * needs; AccessService refuses (403) before anything is read or changed.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { memberFlags } from '../../definitions/permissions.ts';
import { platform } from '../../definitions/platform.ts';
import { restrictedViewSchema, type RestrictedView as RestrictedViewShape } from '../../definitions/restricted-view.ts';
import { adminOnlyRichTextSettings, richTextSettingsSchema, type RichTextSettings } from '../../definitions/rich-text.ts';
import { currentUser } from '../auth/authenticate.ts';
import { Empty, responses } from '../lib/schemas.ts';

const Id = Type.String({ pattern: '^[0-9a-f]{24}$', description: '24-character hex id' });
const Secret = Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });
const Email = Type.String({ format: 'email', maxLength: 254 });
const Flags = Type.Object(
  Object.fromEntries(memberFlags.map((flag) => [flag, Type.Boolean()])) as Record<(typeof memberFlags)[number], ReturnType<typeof Type.Boolean>>,
);
const PartialFlags = Type.Partial(Flags, { additionalProperties: false });
const Name = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

const Member = Type.Object({
  email: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
  userName: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('active'), Type.Literal('invited')]),
  permissions: Flags,
});
const ProjectSummary = Type.Object({ id: Type.String(), name: Type.String(), description: Type.String() });
const Organization = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdDate: Type.String(),
    seats: Type.Integer(),
    projects: Type.Array(ProjectSummary),
    users: Type.Array(Member),
  },
  { $id: 'Organization' },
);
/** settings.restrictedView (definitions/restricted-view.ts): null turns it off. */
const RestrictedView = Type.Unsafe<RestrictedViewShape>({ ...restrictedViewSchema, description: 'members (e-mails of the member list) who see only these collections (ids) of the project' });
/** settings.richText (definitions/rich-text.ts): the switches to change. */
const RichTextSettingsChange = Type.Unsafe<Partial<RichTextSettings>>({ ...richTextSettingsSchema, description: 'rich-text editor switches of the project; scriptsEnabled only for admins' });
const Project = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    organizationID: Type.String(),
    createdDate: Type.String(),
    collections: Type.Array(
      Type.Object({ id: Type.String(), name: Type.String(), schema: Type.Optional(Type.Array(Type.Unknown())), singleItem: Type.Boolean(), rtlDirection: Type.Boolean() }),
    ),
    webhooks: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    files: Type.Array(Type.Object({ fileName: Type.String() })),
    settings: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'Project' },
);

export async function organizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { access, organizations, projects } = app.ctx;
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
    async (request) => {
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
    async (request, reply) => reply.code(201).send(await organizations.create(currentUser(request).userId, request.body.name)),
  );

  app.get(
    '/organization/:org',
    { schema: { summary: 'One organization with its projects and members', tags, security, params: orgParams, response: responses({ 200: Organization }) } },
    async (request) => {
      await access.require(currentUser(request).userId, request.params.org, 'read');
      return organizations.view(request.params.org);
    },
  );

  app.put(
    '/organization/:org',
    {
      schema: {
        summary: 'Rename an organization (admin)',
        tags,
        security,
        params: orgParams,
        body: Type.Object({ name: Name(platform.limits.organizationNameMax) }, { additionalProperties: false }),
        response: responses({ 200: Organization }),
      },
    },
    async (request) => {
      await access.require(currentUser(request).userId, request.params.org, 'admin');
      return organizations.rename(request.params.org, request.body.name);
    },
  );

  app.delete(
    '/organization/:org',
    { schema: { summary: 'Delete an organization and everything in it (admin)', tags, security, params: orgParams, response: responses({ 204: Empty }) } },
    async (request, reply) => {
      await access.require(currentUser(request).userId, request.params.org, 'admin');
      await organizations.delete(request.params.org);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/organization/:org/users',
    {
      schema: {
        summary: 'Invite people by e-mail with chosen permissions (admin). All or nothing.',
        tags,
        security,
        params: orgParams,
        body: Type.Array(Type.Object({ email: Email, permissions: PartialFlags }, { additionalProperties: false }), {
          minItems: 1,
          maxItems: platform.limits.invitesPerRequest,
        }),
        response: responses({ 200: Type.Array(Member) }),
      },
    },
    async (request) => {
      const { userId } = currentUser(request);
      await access.require(userId, request.params.org, 'admin');
      return organizations.invite(request.params.org, userId, request.body);
    },
  );

  const memberParams = Type.Object({ org: Id, email: Email });

  app.put(
    '/organization/:org/users/:email',
    {
      schema: {
        summary: 'Change a member’s permissions (admin; not one’s own). Flags flattened with the e-mail; write expands.',
        tags,
        security,
        params: memberParams,
        body: Type.Composite([Type.Object({ email: Type.Optional(Email) }), PartialFlags], { additionalProperties: false }),
        response: responses({ 200: Type.Array(Member) }),
      },
    },
    async (request) => {
      const { userId } = currentUser(request);
      await access.require(userId, request.params.org, 'admin');
      const { email: _email, ...flags } = request.body;
      return organizations.editMember(request.params.org, userId, request.params.email, flags);
    },
  );

  app.delete(
    '/organization/:org/users/:email',
    {
      schema: {
        summary: 'Remove a member or withdraw an invitation (admin; not oneself)',
        tags,
        security,
        params: memberParams,
        response: responses({ 200: Type.Object({ removed: Type.String() }) }),
      },
    },
    async (request) => {
      const { userId } = currentUser(request);
      await access.require(userId, request.params.org, 'admin');
      return { removed: await organizations.removeMember(request.params.org, userId, request.params.email) };
    },
  );

  const projectParams = Type.Object({ org: Id, proj: Id });
  const ProjectBody = Type.Object(
    { name: Name(platform.limits.projectNameMax), description: Type.Optional(Type.String({ maxLength: platform.limits.projectDescriptionMax })) },
    { additionalProperties: false },
  );

  app.post(
    '/organization/:org/project',
    {
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
    async (request, reply) => {
      await access.require(currentUser(request).userId, request.params.org, 'create');
      return reply.code(201).send(await projects.create(request.params.org, request.body, request.query.templateID));
    },
  );

  app.get(
    '/organization/:org/project/:proj',
    {
      schema: {
        summary: 'One project (read); a member in its restricted view gets only the collections it lists',
        tags: ['projects'],
        security,
        params: projectParams,
        response: responses({ 200: Project }),
      },
    },
    async (request) => {
      const viewer = await access.require(currentUser(request).userId, request.params.org, 'read');
      return projects.get(request.params.org, request.params.proj, viewer);
    },
  );

  app.put(
    '/organization/:org/project/:proj',
    {
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
    async (request) => {
      const { org, proj } = request.params;
      // Who sees which collections, and whether fields may carry scripts, is the administrators'
      // decision; name, description and the editor's switches need update.
      const { settings } = request.body;
      const adminOnly = settings?.restrictedView !== undefined || adminOnlyRichTextSettings.some((key) => settings?.richText?.[key] !== undefined);
      const viewer = await access.require(currentUser(request).userId, org, adminOnly ? 'admin' : 'update');
      const memberEmails = request.body.settings?.restrictedView ? (await organizations.members(org)).map((m) => m.email) : [];
      return projects.update(org, proj, request.body, { viewer, memberEmails });
    },
  );

  app.get(
    '/organization/:org/project/:proj/restricted-view',
    {
      schema: {
        summary: 'The project’s restricted view with every collection to choose from (admin)',
        tags: ['projects'],
        security,
        params: projectParams,
        response: responses({
          200: Type.Object({
            restrictedView: Type.Union([RestrictedView, Type.Null()]),
            collections: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
          }),
        }),
      },
    },
    async (request) => {
      await access.require(currentUser(request).userId, request.params.org, 'admin');
      return projects.restrictedView(request.params.org, request.params.proj);
    },
  );

  app.delete(
    '/organization/:org/project/:proj',
    { schema: { summary: 'Delete a project and everything in it (delete)', tags: ['projects'], security, params: projectParams, response: responses({ 204: Empty }) } },
    async (request, reply) => {
      await access.require(currentUser(request).userId, request.params.org, 'delete');
      await projects.delete(request.params.org, request.params.proj);
      return reply.code(204).send(null);
    },
  );
}

/** Invitations by their secret id: reading one needs no sign-in (the join page runs signed out). */
export async function inviteRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { organizations } = app.ctx;
  const params = Type.Object({ id: Secret });

  app.get(
    '/user/invite/:id',
    {
      schema: {
        summary: 'Read an invitation: its e-mail and whether that person already has a verified account',
        tags: ['organizations'],
        params,
        response: responses({
          200: Type.Object({ email: Type.String(), verified: Type.Boolean(), organizationID: Type.String(), organizationName: Type.String() }),
        }),
      },
    },
    async (request) => organizations.readInvite(request.params.id),
  );

  app.post(
    '/user/invite/:id/accept',
    {
      onRequest: app.requireUser,
      schema: {
        summary: 'Accept an invitation as the signed-in user (whose e-mail it must be)',
        tags: ['organizations'],
        security: [{ bearer: [] as string[] }],
        params,
        response: responses({ 200: Type.Object({ organizationID: Type.String() }) }),
      },
    },
    async (request) => ({ organizationID: await organizations.acceptInvite(request.params.id, currentUser(request).userId) }),
  );
}
