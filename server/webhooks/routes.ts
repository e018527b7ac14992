/**
 * `/api/webhook`: a project's webhooks for the console. Listing and the log need
 * read, creating create, changing and redelivering update, deleting delete — in the webhook's
 * organization, for a project of it.
 *
 * POST /webhook · GET /webhook?organizationID&projectID · GET /webhook/{id}/logs ·
 * PUT /webhook/{id} · DELETE /webhook/{id} · POST /webhook/{id}/logs/{deliveryID}/redeliver
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { webhookLimits } from '../../definitions/webhooks.ts';
import { currentUser } from '../auth/authenticate.ts';
import { Empty, responses } from '../lib/schemas.ts';
import type { WebhookDispatcher } from './delivery.ts';
import { CreatedWebhook, Webhook, WebhookLogEntry } from '../../definitions/schemas/webhook.ts';
import type { WebhookInput, WebhookService } from './webhooks.ts';

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
  const { access, projects } = app.ctx;
  const { webhooks, dispatcher } = options;
  const tags = ['webhooks'];
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  app.post(
    '/',
    {
      schema: {
        summary: 'Create a webhook (create). The signing secret is shown only in this answer.',
        tags,
        security,
        body: CreateBody,
        response: responses({ 201: CreatedWebhook }),
      },
    },
    async (request, reply) => {
      const { userId } = currentUser(request);
      const { organizationID, projectID } = request.body;
      await access.require(userId, organizationID, 'create');
      await projects.row(organizationID, projectID);
      return reply.code(201).send(await webhooks.create(organizationID, projectID, userId, toInput(request.body)));
    },
  );

  app.get(
    '/',
    {
      schema: { summary: 'The webhooks of a project (read)', tags, security, querystring: Type.Object({ organizationID: Id, projectID: Id }), response: responses({ 200: Type.Array(Webhook) }) },
    },
    async (request) => {
      const { organizationID, projectID } = request.query;
      await access.require(currentUser(request).userId, organizationID, 'read');
      await projects.row(organizationID, projectID);
      return webhooks.list(projectID);
    },
  );

  app.get(
    '/:id/logs',
    {
      schema: {
        summary: `A webhook's delivery log, newest attempt first, ${webhookLimits.logPage} per page (read)`,
        tags,
        security,
        params: Type.Object({ id: Id }),
        querystring: Type.Object({ before: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: responses({ 200: Type.Array(WebhookLogEntry) }),
      },
    },
    async (request) => {
      const row = await webhooks.row(request.params.id);
      await access.require(currentUser(request).userId, row.organizationId, 'read');
      return webhooks.logs(row.id, request.query.before);
    },
  );

  app.post(
    '/:id/logs/:deliveryID/redeliver',
    {
      schema: {
        summary: 'Send a logged delivery once more, now (update)',
        tags,
        security,
        params: Type.Object({ id: Id, deliveryID: Id }),
        response: responses({ 202: Type.Object({ deliveryID: Type.String() }) }),
      },
    },
    async (request, reply) => {
      const row = await webhooks.row(request.params.id);
      await access.require(currentUser(request).userId, row.organizationId, 'update');
      const delivery = await webhooks.delivery(row.id, request.params.deliveryID);
      await dispatcher.redeliver(delivery.id);
      return reply.code(202).send({ deliveryID: delivery.id });
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        summary: "Change a webhook's settings; enabled: true turns a disabled webhook back on (update)",
        tags,
        security,
        params: Type.Object({ id: Id }),
        body: UpdateBody,
        response: responses({ 200: Webhook }),
      },
    },
    async (request) => {
      const row = await webhooks.row(request.params.id);
      await access.require(currentUser(request).userId, row.organizationId, 'update');
      return webhooks.update(row, toInput(request.body), request.body.enabled);
    },
  );

  app.delete(
    '/:id',
    { schema: { summary: 'Delete a webhook and its log (delete)', tags, security, params: Type.Object({ id: Id }), response: responses({ 204: Empty }) } },
    async (request, reply) => {
      const row = await webhooks.row(request.params.id);
      await access.require(currentUser(request).userId, row.organizationId, 'delete');
      await webhooks.delete(row.id);
      return reply.code(204).send(null);
    },
  );
}
