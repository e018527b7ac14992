/**
 * A project's Integrations for the console (docs/integrations.md), under
 * `/api/organization/{org}/project/{proj}/integrations`:
 * `GET /` (the project's instances), `POST /` (201), `GET|PUT|DELETE /{integrationID}`,
 * `GET /{integrationID}/runs?page`, `POST /{integrationID}/test` (202: a run now). Instances hold secrets and send the project's data out, so
 * every call needs the organization's admin right (checked by the request scope).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  IntegrationInstance,
  IntegrationInstanceInput,
  IntegrationInstanceUpdate,
  IntegrationRunPage,
} from '../../definitions/schemas/integrations.ts';
import { currentUser } from '../auth/authenticate.ts';
import { Id } from '../content/route-schemas.ts';
import { Empty, responses } from '../lib/schemas.ts';
import type { IntegrationInstanceService } from './instances.ts';
import type { IntegrationRunner } from './runner.ts';

const ProjectParams = Type.Object({ org: Id, proj: Id });
const InstanceParams = Type.Object({ org: Id, proj: Id, integrationID: Type.String({ pattern: '^[0-9a-f]{24}$' }) });
const RunsQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) }, { additionalProperties: false });
const access = { action: 'admin', scope: 'project' } as const;

export async function integrationRoutes(fastify: FastifyInstance, { service, runner }: { service: IntegrationInstanceService; runner: IntegrationRunner }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['integrations'];
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/',
    { config: access, schema: { summary: 'The project’s integrations (admin)', tags, security, params: ProjectParams, response: responses({ 200: Type.Array(IntegrationInstance) }) } },
    async function listIntegrations(request) {
      return service.list(request.scope.projectId);
    },
  );

  app.post(
    '/',
    {
      config: access,
      schema: {
        summary: 'Switch an integration of the catalogue on for the project (admin); bad settings are 400 integration_invalid naming each',
        tags,
        security,
        params: ProjectParams,
        body: IntegrationInstanceInput,
        response: responses({ 201: IntegrationInstance }),
      },
    },
    async function createIntegration(request, reply) {
      const { organizationId, projectId } = request.scope;
      const made = await service.create({ organizationId, projectId, userId: currentUser(request).userId }, request.body);
      return reply.code(201).send(made);
    },
  );

  app.get(
    '/:integrationID',
    { config: access, schema: { summary: 'One integration (admin)', tags, security, params: InstanceParams, response: responses({ 200: IntegrationInstance }) } },
    async function readIntegration(request) {
      return service.get(request.scope.projectId, request.params.integrationID);
    },
  );

  app.put(
    '/:integrationID',
    {
      config: access,
      schema: {
        summary: 'Change an integration (admin): any part; a secret left out keeps its value, null removes it',
        tags,
        security,
        params: InstanceParams,
        body: IntegrationInstanceUpdate,
        response: responses({ 200: IntegrationInstance }),
      },
    },
    async function changeIntegration(request) {
      return service.update(request.scope.projectId, request.params.integrationID, request.body);
    },
  );

  app.delete(
    '/:integrationID',
    { config: access, schema: { summary: 'Delete an integration and its run log (admin)', tags, security, params: InstanceParams, response: responses({ 204: Empty }) } },
    async function deleteIntegration(request, reply) {
      await service.remove(request.scope.projectId, request.params.integrationID);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:integrationID/runs',
    {
      config: access,
      schema: { summary: 'The integration’s runs, newest first, 50 a page (admin)', tags, security, params: InstanceParams, querystring: RunsQuery, response: responses({ 200: IntegrationRunPage }) },
    },
    async function integrationRuns(request) {
      return service.runs(request.scope.projectId, request.params.integrationID, request.query.page ?? 1);
    },
  );

  app.post(
    '/:integrationID/test',
    {
      config: access,
      schema: {
        summary: 'Run the integration now as a test (admin): a sample message, an export, an index rebuild; 202 with the run, which the run log shows',
        tags,
        security,
        params: InstanceParams,
        response: responses({ 202: Type.Object({ runID: Type.String() }) }),
      },
    },
    async function testIntegration(request, reply) {
      const instance = await service.get(request.scope.projectId, request.params.integrationID);
      return reply.code(202).send({ runID: await runner.test(instance.id, request.scope.projectId, request.id) });
    },
  );
}
