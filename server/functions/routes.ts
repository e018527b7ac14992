/**
 * A project's Functions for the console (docs/functions.md "Functions and versions"), under
 * `/api/organization/{org}/project/{proj}/functions`: the organization's read right reads
 * functions, versions and the invocation log; its admin right changes anything, runs tests and
 * manages the project's secrets (whose values are never answered).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  FunctionInput,
  FunctionInvocationPage,
  FunctionSecretInput,
  FunctionSourceInput,
  FunctionTestResult,
  FunctionUpdate,
  FunctionVersionView,
  FunctionView,
  functionLimits,
} from '../../definitions/schemas/functions.ts';
import { currentUser } from '../auth/authenticate.ts';
import { Id } from '../content/route-schemas.ts';
import { Empty, responses } from '../lib/schemas.ts';
import { notFound } from '../lib/errors.ts';
import type { FunctionService } from './service.ts';

const ProjectParams = Type.Object({ org: Id, proj: Id });
const FunctionParams = Type.Object({ org: Id, proj: Id, name: Type.String({ pattern: functionLimits.namePattern }) });
const SecretParams = Type.Object({ org: Id, proj: Id, secret: Type.String({ pattern: functionLimits.secretNamePattern }) });
const InvocationsQuery = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })), search: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);
const read = { action: 'read', scope: 'project' } as const;
const admin = { action: 'admin', scope: 'project' } as const;

export async function functionRoutes(fastify: FastifyInstance, { service }: { service: FunctionService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['functions'];
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);

  app.get('/', { config: read, schema: { summary: 'The project’s functions (read)', tags, security, params: ProjectParams, response: responses({ 200: Type.Array(FunctionView) }) } }, async (request) =>
    service.list(request.scope.projectId),
  );

  app.post(
    '/',
    { config: admin, schema: { summary: 'Make a function (admin); 409 function_exists for a name the project has', tags, security, params: ProjectParams, body: FunctionInput, response: responses({ 201: FunctionView }) } },
    async (request, reply) => {
      const { organizationId, projectId } = request.scope;
      return reply.code(201).send(await service.create({ organizationId, projectId, userId: currentUser(request).userId }, request.body));
    },
  );

  // Secrets before /:name, so that "secrets" is not read as a function's name.
  app.get(
    '/secrets',
    { config: admin, schema: { summary: 'The names of the project’s function secrets (admin); values are never answered', tags, security, params: ProjectParams, response: responses({ 200: Type.Array(Type.Object({ name: Type.String(), updatedDate: Type.String() })) }) } },
    async (request) => service.secretNames(request.scope.projectId),
  );

  app.put(
    '/secrets',
    { config: admin, schema: { summary: 'Set a function secret (admin): ctx.secrets.NAME in every function of the project', tags, security, params: ProjectParams, body: FunctionSecretInput, response: responses({ 204: Empty }) } },
    async (request, reply) => {
      await service.putSecret(request.scope.projectId, request.body.name, request.body.value);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/secrets/:secret',
    { config: admin, schema: { summary: 'Delete a function secret (admin)', tags, security, params: SecretParams, response: responses({ 204: Empty }) } },
    async (request, reply) => {
      await service.deleteSecret(request.scope.projectId, request.params.secret);
      return reply.code(204).send(null);
    },
  );

  app.get('/:name', { config: read, schema: { summary: 'One function (read)', tags, security, params: FunctionParams, response: responses({ 200: FunctionView }) } }, async (request) =>
    service.get(request.scope.projectId, request.params.name),
  );

  app.put(
    '/:name',
    { config: admin, schema: { summary: 'Change a function’s language, public switch or API token (admin)', tags, security, params: FunctionParams, body: FunctionUpdate, response: responses({ 200: FunctionView }) } },
    async (request) => service.update(request.scope.projectId, request.params.name, request.body),
  );

  app.delete(
    '/:name',
    { config: admin, schema: { summary: 'Delete a function, its versions and its log (admin)', tags, security, params: FunctionParams, response: responses({ 204: Empty }) } },
    async (request, reply) => {
      await service.remove(request.scope.projectId, request.params.name);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/:name/source',
    {
      config: admin,
      schema: {
        summary: 'Save the source as a new version (admin), compiled first: 400 function_compile_failed with each error’s line and column saves nothing; the deployed version keeps serving',
        tags,
        security,
        params: FunctionParams,
        body: FunctionSourceInput,
        response: responses({ 201: FunctionVersionView }),
      },
    },
    async (request, reply) => reply.code(201).send(await service.saveSource(request.scope.projectId, request.params.name, request.body.source, currentUser(request).userId)),
  );

  app.get(
    '/:name/versions',
    { config: read, schema: { summary: 'The function’s versions, newest first (read)', tags, security, params: FunctionParams, response: responses({ 200: Type.Array(FunctionVersionView) }) } },
    async (request) => service.versions(request.scope.projectId, request.params.name),
  );

  app.post(
    '/:name/deploy',
    {
      config: admin,
      schema: {
        summary: 'Deploy a version (admin): a newer one, or roll back to an older one',
        tags,
        security,
        params: FunctionParams,
        body: Type.Object({ versionID: Type.String({ pattern: '^[0-9a-f]{24}$' }) }, { additionalProperties: false }),
        response: responses({ 200: FunctionView }),
      },
    },
    async (request) => service.deploy(request.scope.projectId, request.params.name, request.body.versionID),
  );

  app.post(
    '/:name/test',
    {
      config: admin,
      schema: {
        summary: 'Run the latest saved version with a sample event (admin), logged as a test',
        tags,
        security,
        params: FunctionParams,
        body: Type.Object({ event: Type.Optional(Type.Unknown()) }, { additionalProperties: false }),
        response: responses({ 200: FunctionTestResult }),
      },
    },
    async (request) => {
      const fn = await service.row(request.scope.projectId, request.params.name);
      const version = await service.version(fn.id, 'latest');
      if (!version) throw notFound('function_not_deployed', 'This function has no saved version to test yet: save its source first.');
      const { result, invocation } = await service.run(fn, version, request.body.event ?? {}, 'test');
      return { invocation, result: result.ok ? await service.hideInValue(fn.projectId, result.value) : null };
    },
  );

  app.get(
    '/:name/invocations',
    {
      config: read,
      schema: { summary: 'The function’s runs, newest first, 50 a page; search finds text in their errors and logs (read)', tags, security, params: FunctionParams, querystring: InvocationsQuery, response: responses({ 200: FunctionInvocationPage }) },
    },
    async (request) => service.invocations(request.scope.projectId, request.params.name, request.query.page ?? 1, request.query.search),
  );
}
