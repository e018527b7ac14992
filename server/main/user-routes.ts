/** `/api/user`: sign-up, e-mail confirmation, the signed-in user and the first-time questionnaire. */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { normalizeIP } from '@fastify/rate-limit';
import { questionnaireSchema, signupSchema, type QuestionnairePayload, type SignupPayload } from '../../definitions/schemas/account.ts';
import { currentUser } from '../auth/authenticate.ts';
import { routeRateLimit } from '../lib/rate-limit.ts';
import { Ok, responses } from '../lib/schemas.ts';
import { PublicUser } from '../../definitions/schemas/user.ts';

const SignupAccepted = Type.Object({ status: Type.Literal('accepted') });

export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { users, config } = app.ctx;
  const secured = { onRequest: app.requireUser, schema: { security: [{ bearer: [] as string[] }] } };

  app.post(
    '/',
    {
      bodyLimit: 16 * 1024,
      onRequest: routeRateLimit(app, config.rateLimits.signupAddress, (request) => `signup-ip:${normalizeIP(request.ip)}`, 'Too many sign-ups from this address.'),
      schema: {
        summary: 'Sign up. The answer is the same whether or not the e-mail already has an account.',
        tags: ['users'],
        querystring: Type.Object({ inviteID: Type.Optional(Type.String({ maxLength: 64 })) }),
        body: Type.Unsafe<SignupPayload>(signupSchema),
        response: responses({ 201: SignupAccepted }),
      },
    },
    async (request, reply) => {
      await users.signUp(request.body, request.query.inviteID);
      return reply.code(201).send({ status: 'accepted' as const });
    },
  );

  app.post(
    '/:id/confirm',
    {
      onRequest: secured.onRequest,
      schema: {
        ...secured.schema,
        summary: 'Confirm the signed-in user’s e-mail with the id from the confirmation mail',
        tags: ['users'],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: responses({ 200: Ok }),
      },
    },
    async (request) => {
      await users.confirmEmail(currentUser(request).userId, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/me/confirmation',
    {
      onRequest: secured.onRequest,
      schema: {
        ...secured.schema,
        summary: 'Send the confirmation mail again',
        tags: ['users'],
        response: responses({ 202: Ok }),
      },
    },
    async (request, reply) => {
      await users.resendConfirmation(currentUser(request).userId);
      return reply.code(202).send({ ok: true as const });
    },
  );

  app.get(
    '/me',
    {
      onRequest: secured.onRequest,
      schema: { ...secured.schema, summary: 'The signed-in user', tags: ['users'], response: responses({ 200: PublicUser }) },
    },
    async (request) => users.me(currentUser(request).userId),
  );

  app.put(
    '/questionnaire',
    {
      onRequest: secured.onRequest,
      bodyLimit: 16 * 1024,
      schema: {
        ...secured.schema,
        summary: 'Save the first-time questionnaire',
        tags: ['users'],
        body: Type.Unsafe<QuestionnairePayload>(questionnaireSchema),
        response: responses({ 200: Ok }),
      },
    },
    async (request) => {
      await users.saveQuestionnaire(currentUser(request).userId, request.body);
      return { ok: true as const };
    },
  );
}
