/**
 * `/auth/public`: the authentication service for a project's own users (Bagel Auth), as the
 * official BagelDB client calls it.
 *
 * Which project: the bearer. The client sends the project API token, or — while one of the app's
 * users is signed in — that user's access token (except for `/user/token`, which always carries the
 * API token). Either names one project. A group the API token carries (not while User Admin is on)
 * goes to users it signs up; with a user's token, the API token that user signed in with counts.
 *
 * Status discipline: 401 only for a missing, invalid or expired bearer or a refused
 * refresh token; bad credentials and wrong codes are 400; a plain token at a User Admin call is
 * 403. `POST /user` answers exactly 201, `/user/token`, `/user/resetpassword` and
 * `/user/updatePassword` exactly 200. Every token answer has `user_id` and a positive `expires_in`.
 *
 * `POST /bagel-auth-reset-password/{resetID}` is the console's public reset page's call: no bearer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { normalizeIP } from '@fastify/rate-limit';
import { accountLimits } from '../../definitions/schemas/account.ts';
import type { RateLimitRule } from '../config.ts';
import { answered } from '../lib/background.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../lib/errors.ts';
import { routeRateLimit } from '../lib/rate-limit.ts';
import { responses } from '../lib/schemas.ts';
import type { VerifiedToken } from '../main/api-tokens.ts';
import { bearerToken } from './authenticate.ts';
import type { EndUserClaims } from './end-user-tokens.ts';
import { identityFrom, identityOf, normaliseEmail } from './end-users.ts';
import { LoginLimits } from './login-limits.ts';

/** Who is calling: the project, and the API token or the project user whose token it is. */
export interface AuthCaller {
  projectId: string;
  apiToken: VerifiedToken | null;
  endUser: EndUserClaims | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    authCaller: AuthCaller | null;
  }
}

const TokenAnswer = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.Integer({ minimum: 1 }),
  token_type: Type.Literal('Bearer'),
  user_id: Type.String(),
});

const Password = Type.String({ minLength: accountLimits.passwordMin, maxLength: accountLimits.passwordMax });
const Email = Type.String({ minLength: 3, maxLength: accountLimits.emailMax });
const Phone = Type.String({ minLength: 3, maxLength: 40 });
/** Unknown fields are refused: `userGroups`, `verified`, `_id` or dates cannot be mass-assigned. */
const Credentials = Type.Object({ email: Type.Optional(Email), phone: Type.Optional(Phone), password: Password }, { additionalProperties: false });
const SignIn = Type.Object(
  { email: Type.Optional(Email), phone: Type.Optional(Phone), password: Type.String({ minLength: 1, maxLength: accountLimits.passwordMax }) },
  { additionalProperties: false },
);
const Nonce = Type.Object({ nonce: Type.String({ minLength: 10, maxLength: 100 }) });
const OtpAnswer = Type.Object({ nonce: Type.String(), expires_in: Type.Integer({ minimum: 1 }) });
const Done = Type.Object({ ok: Type.Literal(true) });

const short = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const RefreshParams = Type.Object(
  { grant_type: short(64), refresh_token: short(128), client_id: short(128), client_secret: short(256) },
  { additionalProperties: true },
);
/** Fastify validates a missing body as `null`: a route whose body may be left out admits it. */
const optionalBody = <T extends TObject>(schema: T) => Type.Optional(Type.Unsafe<Static<T> | null>({ ...schema, nullable: true }));

const corsHeaders = {
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Accept-Version, Content-Type, Accept, X-Requested-With',
  'access-control-max-age': '600',
};

/** The client's `client_id` for refreshes. */
const PROJECT_CLIENT = 'project-client';

export async function publicAuthRoutes(fastify: FastifyInstance) {
  const { apiTokens, endUsers, userGroups, config } = fastify.ctx;
  const tags = ['project users'];
  const security = [{ bearer: [] as string[] }];
  const address = (request: FastifyRequest) => normalizeIP(request.ip);
  const bodyField = (request: FastifyRequest, name: string) => {
    const value = (request.body as Record<string, unknown> | null | undefined)?.[name];
    return typeof value === 'string' ? value.trim().toLowerCase() : '';
  };
  const projectOf = (request: FastifyRequest) => request.authCaller?.projectId ?? '';
  /**
   * A limit checked from a preHandler (the body is read by then). @fastify/rate-limit runs one
   * route hook per request, so the per-account limits are checked by hand, as server/auth/routes.ts does.
   */
  const accountLimit = (rule: RateLimitRule, name: string, key: (request: FastifyRequest) => string, tooMany: string) => {
    const limiter = fastify.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: (request) => `${name}:${key(request)}` });
    return async (request: FastifyRequest) => {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        const wait = result.ttlInSeconds ?? 60;
        throw new AppError(429, 'rate_limited', `${tooMany} Try again in ${wait} seconds.`, { headers: { 'retry-after': String(wait) } });
      }
    };
  };
  const account = (r: FastifyRequest) => `${projectOf(r)}:${bodyField(r, 'email') || bodyField(r, 'phone') || bodyField(r, 'emailOrPhone')}`;
  const limits = {
    signupAddress: routeRateLimit(fastify, config.rateLimits.signupAddress, (r) => `pu-signup-ip:${address(r)}`, 'Too many sign-ups from this address.'),
    loginAddress: routeRateLimit(fastify, config.rateLimits.loginAddress, (r) => `pu-login-ip:${address(r)}`, 'Too many sign-in attempts from this address.'),
    /** Code requests per address or phone (password sign-ins have their own limits below). */
    otpAccount: accountLimit(config.rateLimits.loginAccount, 'pu-login-account', account, 'Too many code requests for this account.'),
    resetAddress: routeRateLimit(fastify, config.rateLimits.resetAddress, (r) => `pu-reset-ip:${address(r)}`, 'Too many reset requests from this address.'),
    resetAccount: accountLimit(config.rateLimits.resetAccount, 'pu-reset-account', account, 'Too many reset requests for this address.'),
  };
  // Failed password sign-ins per (user, address) and per user from unknown addresses: a stranger
  // cannot lock a user out of their known addresses (server/auth/login-limits.ts).
  const loginLimits = new LoginLimits(
    fastify.ctx.database.db,
    { pair: config.rateLimits.loginAccountAddress, account: config.rateLimits.loginAccount },
    'pu-login',
  );

  // CORS for apps in browsers: any origin, the client's headers; no cookies are used.
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', request.headers.origin ?? '*');
    reply.header('vary', 'Origin');
  });
  fastify.options('/*', async (_request, reply) => reply.code(204).headers(corsHeaders).send());

  // The console's public reset page: no bearer.
  await fastify.register(async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/bagel-auth-reset-password/:resetID',
      {
        bodyLimit: 16 * 1024,
        onRequest: [limits.resetAddress],
        schema: {
          summary: 'Set a project user’s new password with the id of a mailed reset link (the console’s public page)',
          tags,
          params: Type.Object({ resetID: Type.String({ minLength: 1, maxLength: 200 }) }),
          body: Type.Object({ password: Password }, { additionalProperties: false }),
          response: responses({ 200: Done }),
        },
      },
      async (request) => {
        const { projectId, identity } = await endUsers.resetPassword(request.params.resetID, request.body.password);
        // The user proved the mailbox from here: this address may sign in even while the account's
        // limit for unknown addresses is reached (docs/security.md, "Sign-in limits").
        await loginLimits.trust(`${projectId}:${identity}`, address(request));
        return { ok: true as const };
      },
    );
  });

  // Everything else: the bearer names the project.
  await fastify.register(async (scope) => {
    scope.decorateRequest('authCaller', null);
    scope.addHook('onRequest', async (request) => {
      if (request.method === 'OPTIONS') return;
      const token = bearerToken(request);
      if (!token) throw unauthorized('missing_token', 'Send the project API token (or the signed-in user’s access token) as a bearer token.');
      const endUser = await endUsers.verifyAccessToken(token);
      if (endUser) {
        request.authCaller = { projectId: endUser.projectId, apiToken: null, endUser };
        return;
      }
      const apiToken = await apiTokens.verify(token);
      request.authCaller = { projectId: apiToken.projectId, apiToken, endUser: null };
    });
    const callerOf = (request: FastifyRequest): AuthCaller => request.authCaller!;

    /** The API token behind a call: the bearer, or the one the signed-in user's session began with. */
    const tokenBehind = async (caller: AuthCaller): Promise<{ tokenId: string; userAdmin: boolean; userGroupId: string | null } | null> => {
      if (caller.apiToken) return { tokenId: caller.apiToken.tokenId, userAdmin: caller.apiToken.rights.userAdmin, userGroupId: caller.apiToken.rights.userGroupID };
      const id = caller.endUser?.apiTokenId;
      if (!id) return null;
      const row = await apiTokens.row(id).catch(() => null);
      if (!row || row.projectId !== caller.projectId) return null;
      return { tokenId: row.id, userAdmin: row.userAdmin, userGroupId: row.userGroupId };
    };
    /** The group new users get: the token's, unless User Admin is on, and only a group of this project. */
    const groupForNewUsers = async (caller: AuthCaller) => {
      const token = await tokenBehind(caller);
      if (!token || token.userAdmin || !token.userGroupId) return { token, groupId: null };
      const [groupId] = await userGroups.existing(caller.projectId, [token.userGroupId]);
      return { token, groupId: groupId ?? null };
    };
    const requireUserAdmin = (caller: AuthCaller) => {
      if (!caller.apiToken?.rights.userAdmin) throw forbidden('user_admin_required', 'This call needs an API token with User Admin.');
    };

    // The refresh grant in its own scope: the client sends it as multipart, the docs urlencoded.
    await scope.register(async (tokenScope) => {
      await tokenScope.register(multipart, { attachFieldsToBody: 'keyValues', limits: { files: 0, fields: 10, fieldSize: 4096, parts: 10 } });
      const app = tokenScope.withTypeProvider<TypeBoxTypeProvider>();
      app.post(
        '/user/token',
        {
          bodyLimit: 16 * 1024,
          schema: {
            summary: 'Rotate a project user’s refresh token (multipart or urlencoded; client_id=project-client)',
            tags,
            security,
            querystring: RefreshParams,
            body: optionalBody(RefreshParams),
            response: responses({ 200: TokenAnswer }),
          },
        },
        async (request, reply) => {
          const params = { ...request.query, ...(request.body ?? {}) } as Static<typeof RefreshParams>;
          reply.header('cache-control', 'no-store');
          if ((params.grant_type ?? 'refresh_token') !== 'refresh_token') {
            throw badRequest('unsupported_grant_type', `The grant type "${params.grant_type}" is not supported.`);
          }
          if (params.client_id !== undefined && params.client_id !== PROJECT_CLIENT) throw badRequest('invalid_client', 'Unknown client.');
          if (!params.refresh_token) throw badRequest('invalid_request', 'The refresh_token parameter is required.');
          return reply.code(200).send(await endUsers.refreshTokens(params.refresh_token, callerOf(request).projectId));
        },
      );
    });

    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/user',
      {
        bodyLimit: 16 * 1024,
        onRequest: [limits.signupAddress],
        schema: {
          summary: 'Sign up a project user (exactly 201 with tokens; a taken e-mail or phone is 409)',
          tags,
          security,
          body: Credentials,
          response: responses({ 201: TokenAnswer }),
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const identity = identityFrom(request.body);
        const { token, groupId } = await groupForNewUsers(caller);
        reply.header('cache-control', 'no-store');
        return reply.code(201).send(await endUsers.signUp(caller.projectId, identity, request.body.password, groupId, token?.tokenId ?? null));
      },
    );

    app.post(
      '/user/verify',
      {
        bodyLimit: 16 * 1024,
        onRequest: [limits.loginAddress],
        schema: {
          summary: 'Sign in a project user with e-mail or phone and password (bad credentials: 400)',
          tags,
          security,
          body: SignIn,
          response: responses({ 200: TokenAnswer }),
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const identity = identityFrom(request.body);
        const attempt = await loginLimits.begin(`${caller.projectId}:${'email' in identity ? identity.email : identity.phone}`, address(request));
        const token = await tokenBehind(caller);
        reply.header('cache-control', 'no-store');
        const pair = await endUsers.signIn(caller.projectId, identity, request.body.password, token?.tokenId ?? null);
        await attempt.succeeded();
        return pair;
      },
    );

    app.get(
      '/user',
      {
        schema: {
          summary: 'The signed-in project user (needs the user’s access token)',
          tags,
          security,
          response: responses({
            200: Type.Object({
              userID: Type.String(),
              email: Type.Union([Type.String(), Type.Null()]),
              phone: Type.Union([Type.String(), Type.Null()]),
              createdDate: Type.String(),
              lastLoggedIn: Type.Union([Type.String(), Type.Null()]),
              userGroups: Type.Array(Type.String()),
            }),
          }),
        },
      },
      async (request) => {
        const caller = callerOf(request);
        if (!caller.endUser) throw forbidden('user_token_required', 'This call needs a signed-in user’s access token, not an API token.');
        const { userID, email, phone, createdDate, lastLoggedIn, userGroups: groups } = await endUsers.get(caller.projectId, caller.endUser.userId);
        return { userID, email, phone, createdDate, lastLoggedIn, userGroups: groups };
      },
    );

    app.post(
      '/user/resetpassword',
      {
        bodyLimit: 16 * 1024,
        onRequest: [limits.resetAddress],
        preHandler: [limits.resetAccount],
        schema: {
          summary: 'Mail a project user a password reset link (exactly 200, alike for known and unknown addresses)',
          tags,
          security,
          body: Type.Object({ email: Email }, { additionalProperties: false }),
          response: responses({ 200: Done }),
        },
      },
      async (request, reply) => {
        const { projectId } = callerOf(request);
        const email = normaliseEmail(request.body.email);
        // Answered before the address is even looked up: known and unknown addresses cannot be
        // told apart by the time the answer takes (docs/security.md, "Reset mail").
        fastify.ctx.background.run('project-user-reset-mail', () => endUsers.requestPasswordReset(projectId, email), request.log, answered(reply));
        return reply.code(200).send({ ok: true as const });
      },
    );

    app.post(
      '/user/updatePassword',
      {
        bodyLimit: 16 * 1024,
        schema: {
          summary: 'Set a project user’s password (User Admin API token; exactly 200); their sessions end',
          tags,
          security,
          body: Credentials,
          response: responses({ 200: Done }),
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        requireUserAdmin(caller);
        await endUsers.updatePassword(caller.projectId, identityFrom(request.body), request.body.password);
        return reply.code(200).send({ ok: true as const });
      },
    );

    app.post(
      '/user/otp',
      {
        bodyLimit: 16 * 1024,
        onRequest: [limits.loginAddress],
        preHandler: [limits.otpAccount],
        schema: {
          summary: 'Send a one-time sign-in code by e-mail or SMS; answers its nonce',
          tags,
          security,
          body: Type.Object({ emailOrPhone: Type.String({ minLength: 3, maxLength: accountLimits.emailMax }) }, { additionalProperties: false }),
          response: responses({ 200: OtpAnswer }),
        },
      },
      async (request) => {
        const caller = callerOf(request);
        identityOf(request.body.emailOrPhone);
        const token = await tokenBehind(caller);
        return endUsers.requestOtp(caller.projectId, request.body.emailOrPhone, token?.tokenId ?? null);
      },
    );

    app.post(
      '/user/otp/verify/:nonce',
      {
        bodyLimit: 16 * 1024,
        onRequest: [limits.loginAddress],
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
      async (request, reply) => {
        const caller = callerOf(request);
        const { token, groupId } = await groupForNewUsers(caller);
        reply.header('cache-control', 'no-store');
        return endUsers.verifyOtp(caller.projectId, request.params.nonce, request.body.otp, groupId, token?.tokenId ?? null);
      },
    );

    app.post(
      '/user/otp/resend/:nonce',
      {
        bodyLimit: 16 * 1024,
        onRequest: [limits.loginAddress],
        schema: {
          summary: 'Send a new one-time code for a nonce (a few times at most)',
          tags,
          security,
          params: Nonce,
          body: optionalBody(Type.Object({}, { additionalProperties: true })),
          response: responses({ 200: OtpAnswer }),
        },
      },
      async (request) => endUsers.resendOtp(callerOf(request).projectId, request.params.nonce),
    );
  });
}
