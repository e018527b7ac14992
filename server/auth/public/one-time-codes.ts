/** Sign-in with a one-time code sent by e-mail or SMS: request a code, verify it, send it again. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountLimits } from '../../../definitions/schemas/account.ts';
import { responses } from '../../lib/schemas.ts';
import { identityOf } from '../end-users.ts';
import { bodyLimit, callerOf, Nonce, optionalBody, OtpAnswer, security, tags, TokenAnswer, type PublicAuth } from './shared.ts';

export async function oneTimeCodeRoutes(fastify: FastifyInstance, { shared }: { shared: PublicAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { endUsers } = app.ctx;

  app.post(
    '/user/otp',
    {
      bodyLimit,
      onRequest: [shared.limits.loginAddress],
      preHandler: [shared.limits.otpAccount],
      schema: {
        summary: 'Send a one-time sign-in code by e-mail or SMS; answers its nonce',
        tags,
        security,
        body: Type.Object({ emailOrPhone: Type.String({ minLength: 3, maxLength: accountLimits.emailMax }) }, { additionalProperties: false }),
        response: responses({ 200: OtpAnswer }),
      },
    },
    async function sendCode(request) {
      const caller = callerOf(request);
      identityOf(request.body.emailOrPhone);
      const token = await shared.tokenBehind(caller);
      return endUsers.requestOtp(caller.projectId, request.body.emailOrPhone, token?.tokenId ?? null);
    },
  );

  app.post(
    '/user/otp/verify/:nonce',
    {
      bodyLimit,
      onRequest: [shared.limits.loginAddress],
      schema: {
        summary: 'Sign in with a one-time code (a wrong code is 400; a few wrong codes end the nonce)',
        tags,
        security,
        params: Nonce,
        querystring: Type.Object({ t: Type.Optional(Type.String({ maxLength: 20 })) }),
        body: Type.Object({ otp: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: false }),
        response: responses({ 200: TokenAnswer }),
      },
    },
    async function verifyCode(request, reply) {
      const caller = callerOf(request);
      const { token, groupId } = await shared.groupForNewUsers(caller);
      reply.header('cache-control', 'no-store');
      return endUsers.verifyOtp(caller.projectId, request.params.nonce, request.body.otp, groupId, token?.tokenId ?? null);
    },
  );

  app.post(
    '/user/otp/resend/:nonce',
    {
      bodyLimit,
      onRequest: [shared.limits.loginAddress],
      schema: {
        summary: 'Send a new one-time code for a nonce (a few times at most)',
        tags,
        security,
        params: Nonce,
        body: optionalBody(Type.Object({}, { additionalProperties: true })),
        response: responses({ 200: OtpAnswer }),
      },
    },
    async function resendCode(request) {
      return endUsers.resendOtp(callerOf(request).projectId, request.params.nonce);
    },
  );
}
