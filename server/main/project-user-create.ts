/**
 * `POST /api/organization/{org}/project/{proj}/user {email, password, verified?}` → 201 with the
 * user: a member adds a project user by hand, to try the app or the item Users panel without
 * signing up through the app (docs/console.md "Project users"). Adding a user needs the create
 * flag in the organization (definitions/permissions.ts). Groups are not set here: they are
 * changed afterwards with `PUT user/{id}`, which checks what the caller may hand out.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accountLimits } from '../../definitions/schemas/account.ts';
import { responses } from '../lib/schemas.ts';
import { ProjectParams, ProjectUser } from './project-user-schemas.ts';

const NewUser = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: accountLimits.passwordMin, maxLength: accountLimits.passwordMax }),
    verified: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Adds the route to the project users' plugin (its hooks ask for a signed-in member). */
export function addProjectUserRoute(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/user',
    {
      config: { action: 'create', scope: 'project' },
      bodyLimit: 16 * 1024,
      schema: {
        summary: 'Add a user to the project by hand, with e-mail and password, optionally verified (create); a taken e-mail is 409',
        tags: ['project users'],
        security: [{ bearer: [] as string[] }],
        params: ProjectParams,
        body: NewUser,
        response: responses({ 201: ProjectUser }),
      },
    },
    async function addProjectUser(request, reply) {
      const { email, password, verified = false } = request.body;
      return reply.code(201).send(await app.ctx.endUsers.add(request.params.proj, email, password, verified));
    },
  );
}
