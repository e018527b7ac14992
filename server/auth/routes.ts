/**
 * The auth service (`/auth`): the console's sign-in. Token grants follow OAuth 2 (form-encoded),
 * errors are problem details whose `code` is the OAuth error where one fits.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { normalizeIP } from '@fastify/rate-limit';
import { resetPasswordEmailSchema, resetPasswordSchema } from '../../definitions/schemas/account.ts';
import type { RateLimitRule } from '../config.ts';
import { answered } from '../lib/background.ts';
import { badRequest, tooManyRequests } from '../lib/errors.ts';
import { Empty, Ok, responses } from '../lib/schemas.ts';
import { TokenResponse } from '../../definitions/schemas/token-response.ts';
import { bearerToken } from './authenticate.ts';
import { LoginLimits } from './login-limits.ts';
import { createThirdPartyVerifier } from './third-party.ts';

const short = (max = 512) => Type.Optional(Type.String({ maxLength: max }));

const TokenParams = Type.Object(
  {
    grant_type: short(64),
    username: short(254),
    password: short(256),
    client_id: short(128),
    client_secret: short(256),
    refresh_token: short(128),
  },
  { additionalProperties: true },
);
type TokenParams = Static<typeof TokenParams>;

/**
 * Fastify validates a request without a body as `null`, so a route whose body may be left out
 * (the refresh grant in the query, a logout with the bearer token only) must admit it.
 */
const optionalBody = <T extends TObject>(schema: T) => Type.Optional(Type.Unsafe<Static<T> | null>({ ...schema, nullable: true }));

type Limiter = (request: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number }>;

async function enforce(limiter: Limiter, request: FastifyRequest) {
  const result = await limiter(request);
  // `isAllowed` only marks the allow-list; `isExceeded` is the verdict.
  if (!result.isAllowed && result.isExceeded) {
    const wait = result.ttlInSeconds ?? 60;
    throw tooManyRequests(`Too many attempts. Try again in ${wait} seconds.`, wait);
  }
}

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, users, tokens } = app.ctx;
  const limiter = (rule: RateLimitRule, name: string, key: (request: FastifyRequest) => string) =>
    app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: (request) => `${name}:${key(request)}` }) as Limiter;
  // The account a request names, read where the handler reads it: the body, else the query
  // (the token route merges both), so moving a field into the URL does not escape the limit.
  const field = (request: FastifyRequest, name: string) => {
    const body = request.body as Record<string, unknown> | null | undefined;
    const query = request.query as Record<string, unknown> | null | undefined;
    const value = body?.[name] ?? query?.[name];
    return typeof value === 'string' ? value.trim().toLowerCase() : '';
  };
  // IPv6 clients own whole /64 networks: count the network, not each of its addresses.
  const address = (request: FastifyRequest) => normalizeIP(request.ip);
  const loginByAddress = limiter(config.rateLimits.loginAddress, 'login-ip', address);
  // Failed attempts per (account, address) and per account from unknown addresses: a stranger
  // cannot lock the owner out of their known addresses (server/auth/login-limits.ts).
  const loginLimits = new LoginLimits(app.ctx.database.db, { pair: config.rateLimits.loginAccountAddress, account: config.rateLimits.loginAccount }, 'login');
  const resetByAddress = limiter(config.rateLimits.resetAddress, 'reset-ip', address);
  const resetByAccount = limiter(config.rateLimits.resetAccount, 'reset-account', (r) => field(r, 'email'));
  const verifyThirdParty = createThirdPartyVerifier(config.google);

  const clientOf = (params: TokenParams) => {
    const { id, secret } = config.consoleClient;
    if (params.client_id !== id || params.client_secret !== secret) {
      throw badRequest('invalid_client', 'Unknown client or wrong client secret.');
    }
    return id;
  };

  app.post(
    '/token',
    {
      bodyLimit: 16 * 1024,
      schema: {
        summary: 'Get tokens: password grant (form-encoded) or refresh grant (query or form)',
        tags: ['auth'],
        // The query is merged into the parameters, so it is held to the same limits as the form.
        querystring: TokenParams,
        body: optionalBody(TokenParams),
        response: responses({ 200: TokenResponse }),
      },
    },
    async (request, reply) => {
      const params: TokenParams = { ...request.query, ...(request.body ?? {}) };
      reply.header('cache-control', 'no-store');
      switch (params.grant_type) {
        case 'password': {
          const clientId = clientOf(params);
          if (!params.username || !params.password) throw badRequest('invalid_request', 'Username and password are required.');
          // A password in the URL ends up in access logs and browser history.
          if ((request.query as Record<string, unknown>).password !== undefined) {
            throw badRequest('invalid_request', 'Send the password in the request body, never in the URL.');
          }
          await enforce(loginByAddress, request);
          // The account a sign-in names, resolved to the user when there is one, so that trying a
          // username and then its e-mail counts against one limit, not two.
          const attempt = await loginLimits.begin(await users.accountKey(params.username), address(request));
          const pair = await users.signIn(params.username, params.password, clientId);
          await attempt.succeeded();
          return pair;
        }
        case 'refresh_token': {
          if (!params.refresh_token) throw badRequest('invalid_request', 'The refresh_token parameter is required.');
          return tokens.refresh(params.refresh_token);
        }
        case undefined:
        case '':
          throw badRequest('invalid_request', 'The grant_type parameter is required.');
        default:
          throw badRequest('unsupported_grant_type', `The grant type "${params.grant_type}" is not supported.`, { grantType: String(params.grant_type) });
      }
    },
  );

  app.post(
    '/logout',
    {
      bodyLimit: 16 * 1024,
      schema: {
        summary: 'End the session of the bearer token and/or of a refresh token',
        tags: ['auth'],
        body: optionalBody(Type.Object({ refresh_token: short(128) })),
        response: responses({ 204: Empty }),
      },
    },
    async (request, reply) => {
      const access = bearerToken(request);
      const refresh = request.body?.refresh_token;
      if (!access && !refresh) throw badRequest('invalid_request', 'Send the bearer token or a refresh_token to sign out.');
      // The refresh token first: an access token that has expired meanwhile (a 401 below) must
      // not leave the session it came with alive.
      if (refresh) await tokens.revokeByRefreshToken(refresh, 'logout');
      if (access) {
        const claims = await tokens.verifyAccess(access);
        await tokens.revokeSession(claims.sessionId, 'logout');
      }
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/resetPasswordEmail',
    {
      bodyLimit: 16 * 1024,
      schema: {
        summary: 'Mail a password reset link (answers alike for known and unknown addresses)',
        tags: ['auth'],
        body: Type.Unsafe<{ email: string }>(resetPasswordEmailSchema),
        response: responses({ 200: Ok }),
      },
    },
    async (request, reply) => {
      await enforce(resetByAddress, request);
      await enforce(resetByAccount, request);
      // Answered before the address is even looked up: known and unknown addresses cannot be
      // told apart by the time the answer takes (docs/security.md, "Reset mail").
      const { email } = request.body;
      app.ctx.background.run('reset-mail', () => users.requestPasswordReset(email), request.log, answered(reply));
      return { ok: true as const };
    },
  );

  app.post(
    '/resetPassword',
    {
      bodyLimit: 16 * 1024,
      schema: {
        summary: 'Set a new password with a reset token; ends every session of the user',
        tags: ['auth'],
        body: Type.Unsafe<{ password: string; token: string }>(resetPasswordSchema),
        response: responses({ 200: Ok }),
      },
    },
    async (request) => {
      const { userId } = await users.resetPassword(request.body.token, request.body.password);
      // The owner proved the mailbox from here: this address may sign in even while the account's
      // limit for unknown addresses is reached (docs/security.md, "Sign-in limits").
      await loginLimits.trust(`user:${userId}`, address(request));
      return { ok: true as const };
    },
  );

  app.post(
    '/googleToken',
    {
      bodyLimit: 16 * 1024,
      schema: {
        summary: 'Sign in (or, with ?signup, sign up) with a third-party ID token',
        tags: ['auth'],
        querystring: Type.Object({ signup: Type.Optional(Type.String({ maxLength: 10 })) }),
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 8192 }) }, { additionalProperties: false }),
        response: responses({ 200: TokenResponse }),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await enforce(loginByAddress, request);
      const identity = await verifyThirdParty(request.body.token);
      const signup = request.query.signup !== undefined && request.query.signup !== 'false';
      return users.thirdPartySignIn(identity, signup, config.consoleClient.id);
    },
  );
}
