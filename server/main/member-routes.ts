/**
 * An organization's members under `/api/organization/{org}/users`: inviting people by e-mail,
 * changing a member's flags, removing a member or an invitation. All need admin.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { platform } from '../../definitions/platform.ts';
import { MemberFlags as Flags, Member } from '../../definitions/schemas/organization.ts';
import { currentUser } from '../auth/authenticate.ts';
import { Id } from '../content/route-schemas.ts';
import { responses } from '../lib/schemas.ts';
import { Email } from './route-schemas.ts';

const PartialFlags = Type.Partial(Flags, { additionalProperties: false });

export async function memberRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { organizations } = app.ctx;
  const tags = ['organizations'];
  const security = [{ bearer: [] as string[] }];
  const orgParams = Type.Object({ org: Id });
  app.addHook('onRequest', app.requireUser);

  app.put(
    '/organization/:org/users',
    {
      config: { action: 'admin', scope: 'organization' },
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
    async function inviteMembers(request) {
      const { userId } = currentUser(request);
      return organizations.invite(request.params.org, userId, request.body);
    },
  );

  const memberParams = Type.Object({ org: Id, email: Email });

  app.put(
    '/organization/:org/users/:email',
    {
      config: { action: 'admin', scope: 'organization' },
      schema: {
        summary: 'Change a member’s permissions (admin; not one’s own). Flags flattened with the e-mail; write expands.',
        tags,
        security,
        params: memberParams,
        body: Type.Composite([Type.Object({ email: Type.Optional(Email) }), PartialFlags], { additionalProperties: false }),
        response: responses({ 200: Type.Array(Member) }),
      },
    },
    async function changeMember(request) {
      const { userId } = currentUser(request);
      const { email: _email, ...flags } = request.body;
      return organizations.editMember(request.params.org, userId, request.params.email, flags);
    },
  );

  app.delete(
    '/organization/:org/users/:email',
    {
      config: { action: 'admin', scope: 'organization' },
      schema: {
        summary: 'Remove a member or withdraw an invitation (admin; not oneself)',
        tags,
        security,
        params: memberParams,
        response: responses({ 200: Type.Object({ removed: Type.String() }) }),
      },
    },
    async function removeMember(request) {
      const { userId } = currentUser(request);
      return { removed: await organizations.removeMember(request.params.org, userId, request.params.email) };
    },
  );

}
