/**
 * `/api/webhook`: a project's webhooks for the console. Listing and the log need
 * read, creating create, changing and redelivering update, deleting delete — in the webhook's
 * organization, for a project of it.
 *
 * POST /webhook · GET /webhook?organizationID&projectID · GET /webhook/{id}/logs ·
 * PUT /webhook/{id} · DELETE /webhook/{id} · POST /webhook/{id}/logs/{deliveryID}/redeliver
 *
 * A webhook named by id is checked in its own project, so a member who sees a restricted view of
 * it reaches only the webhooks of that view (server/webhooks/webhooks.ts); the others answer 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { webhookLimits } from '../../definitions/webhooks.ts';
import { currentUser } from '../auth/authenticate.ts';
import { namedIn } from '../lib/request-scope.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { CreatedWebhook, Webhook, WebhookLogEntry } from '../../definitions/schemas/webhook.ts';
import type { WebhookDispatcher } from './delivery.ts';
import type { WebhookInput, WebhookRow, WebhookService } from './webhooks.ts';

const Id = Type.String({ pattern: '^[0-9a-f]{24}$' });
// Lengths are checked by the service, so that a long address gets its own clear message.
const fields = {
  name: Type.String({ maxLength: 1000 }),
  webhookURI: Type.String({ maxLength: 100_000 }),
  method: Type.String({ maxLength: 100 }),
  trigger: Type.String({ maxLength: 100 }),
  collections: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 10_000 })),
};
const CreateBody = Type.Object({ ...fields, projectID: Id, organizationID: Id }, { additionalProperties: false });
// The webhook view sends the webhook back as it read it: ids, dates and state are accepted and ignored.
const UpdateBody = Type.Object(
  {
    ...fields,
    enabled: Type.Optional(Type.Boolean()),
    id: Type.Optional(Type.String()),
    projectID: Type.Optional(Type.String()),
    organizationID: Type.Optional(Type.String()),
    disabledAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    disabledReason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    consecutiveFailures: Type.Optional(Type.Integer()),
    createdDate: Type.Optional(Type.String()),
    updatedDate: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const toInput = (body: { name: string; webhookURI: string; method: string; trigger: string; collections?: string[] | undefined }): WebhookInput => ({
  name: body.name,
  webhookURI: body.webhookURI,
  method: body.method,
  trigger: body.trigger,
  collections: body.collections ?? [],
});

export async function webhookRoutes(fastify: FastifyInstance, options: { webhooks: WebhookService; dispatcher: WebhookDispatcher }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks, dispatcher } = options;
  const webhookNamed = async (request: FastifyRequest) => {
    const row = await webhooks.row((request.params as { id: string }).id);
    return { organization: row.organizationId, project: row.projectId, resource: row };
  };
  /** The webhook the address names, once the caller's view of its project may see it. */
  const seenWebhook = async (request: FastifyRequest) => {
    const row = request.scope.resource as WebhookRow;
    await webhooks.requireSeen(row, request.scope.visibility);
    return row;
  };
  const tags = ['webhooks'];
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  app.post(
    '/',
    {
      config: { action: 'create', scope: 'project', locate: namedIn('body') },
      schema: {
        summary: 'Create a webhook (create). The signing secret is shown only in this answer.',
        tags,
        security,
        body: CreateBody,
        response: responses({ 201: CreatedWebhook }),
      },
    },
    async function createWebhook(request, reply) {
      const { userId } = currentUser(request);
      const { organizationID, projectID } = request.body;
      return reply.code(201).send(await webhooks.create(organizationID, projectID, userId, toInput(request.body), request.scope.visibility));
    },
  );

  app.get(
    '/',
    {
      config: { action: 'read', scope: 'project', locate: namedIn('query') },
      schema: { summary: 'The webhooks of a project (read)', tags, security, querystring: Type.Object({ organizationID: Id, projectID: Id }), response: responses({ 200: Type.Array(Webhook) }) },
    },
    async function listWebhooks(request) {
      return webhooks.list(request.scope.projectId, request.scope.visibility);
    },
  );

  app.get(
    '/:id/logs',
    {
      config: { action: 'read', scope: 'project', locate: webhookNamed },
      schema: {
        summary: `A webhook's delivery log, newest attempt first, ${webhookLimits.logPage} per page (read)`,
        tags,
        security,
        params: Type.Object({ id: Id }),
        // Bounded so that a number past a bigint is a 400 here, not a failed query.
        querystring: Type.Object({ before: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) }),
        response: responses({ 200: Type.Array(WebhookLogEntry) }),
      },
    },
    async function readLog(request) {
      const row = await seenWebhook(request);
      return webhooks.logs(row.id, request.query.before);
    },
  );

  app.post(
    '/:id/logs/:deliveryID/redeliver',
    {
      config: { action: 'update', scope: 'project', locate: webhookNamed },
      schema: {
        summary: 'Send a logged delivery once more, now (update)',
        tags,
        security,
        params: Type.Object({ id: Id, deliveryID: Id }),
        response: responses({ 202: Type.Object({ deliveryID: Type.String() }) }),
      },
    },
    async function redeliver(request, reply) {
      const row = await seenWebhook(request);
      const delivery = await webhooks.delivery(row.id, request.params.deliveryID);
      await dispatcher.redeliver(delivery.id, request.id);
      return reply.code(202).send({ deliveryID: delivery.id });
    },
  );

  app.put(
    '/:id',
    {
      config: { action: 'update', scope: 'project', locate: webhookNamed },
      schema: {
        summary: "Change a webhook's settings; enabled: true turns a disabled webhook back on (update)",
        tags,
        security,
        params: Type.Object({ id: Id }),
        body: UpdateBody,
        response: responses({ 200: Webhook }),
      },
    },
    async function changeWebhook(request) {
      const row = await seenWebhook(request);
      return webhooks.update(row, toInput(request.body), request.body.enabled, request.scope.visibility);
    },
  );

  app.delete(
    '/:id',
    { config: { action: 'delete', scope: 'project', locate: webhookNamed }, schema: { summary: 'Delete a webhook and its log (delete)', tags, security, params: Type.Object({ id: Id }), response: responses({ 204: Empty }) } },
    async function deleteWebhook(request, reply) {
      const row = await seenWebhook(request);
      await webhooks.delete(row.id);
      return reply.code(204).send(null);
    },
  );
}
