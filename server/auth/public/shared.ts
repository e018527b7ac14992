/**
 * What the routes of `/auth/public` (server/auth/public-routes.ts) share: the request and answer
 * schemas, who is calling, the rate limits and the helpers that read the caller's API token.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { accountLimits } from '../../../definitions/schemas/account.ts';
import { forbidden } from '../../lib/errors.ts';
import { routeRateLimit } from '../../lib/rate-limit.ts';
import type { VerifiedToken } from '../../main/api-tokens.ts';
import type { EndUserClaims } from '../end-user-tokens.ts';
import { LoginLimits } from '../login-limits.ts';
import { checkedLimit, clientAddress } from '../request-limits.ts';

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

export const tags = ['project users'];
export const security = [{ bearer: [] as string[] }];
export const bodyLimit = 16 * 1024;

export const TokenAnswer = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.Integer({ minimum: 1 }),
  token_type: Type.Literal('Bearer'),
  user_id: Type.String(),
});

export const Password = Type.String({ minLength: accountLimits.passwordMin, maxLength: accountLimits.passwordMax });
export const Email = Type.String({ minLength: 3, maxLength: accountLimits.emailMax });
const Phone = Type.String({ minLength: 3, maxLength: 40 });
/** Unknown fields are refused: `userGroups`, `verified`, `_id` or dates cannot be mass-assigned. */
export const Credentials = Type.Object({ email: Type.Optional(Email), phone: Type.Optional(Phone), password: Password }, { additionalProperties: false });
export const SignIn = Type.Object(
  { email: Type.Optional(Email), phone: Type.Optional(Phone), password: Type.String({ minLength: 1, maxLength: accountLimits.passwordMax }) },
  { additionalProperties: false },
);
export const Nonce = Type.Object({ nonce: Type.String({ minLength: 10, maxLength: 100 }) });
export const OtpAnswer = Type.Object({ nonce: Type.String(), expires_in: Type.Integer({ minimum: 1 }) });
export const Done = Type.Object({ ok: Type.Literal(true) });

/** Fastify validates a missing body as `null`: a route whose body may be left out admits it. */
export const optionalBody = <T extends TObject>(schema: T) => Type.Optional(Type.Unsafe<Static<T> | null>({ ...schema, nullable: true }));

/** The caller of a request that passed the bearer scope's hook (server/auth/public-routes.ts). */
export const callerOf = (request: FastifyRequest): AuthCaller => request.authCaller!;

const bodyField = (request: FastifyRequest, name: string) => {
  const value = (request.body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
};
const projectOf = (request: FastifyRequest) => request.authCaller?.projectId ?? '';
const account = (r: FastifyRequest) => `${projectOf(r)}:${bodyField(r, 'email') || bodyField(r, 'phone') || bodyField(r, 'emailOrPhone')}`;

/** The rate limits and the helpers every route file of `/auth/public` is given. */
export type PublicAuth = ReturnType<typeof publicAuthShared>;

export function publicAuthShared(fastify: FastifyInstance) {
  const { apiTokens, userGroups, config } = fastify.ctx;
  const address = clientAddress;
  const limits = {
    signupAddress: routeRateLimit(fastify, config.rateLimits.signupAddress, (r) => `pu-signup-ip:${address(r)}`, 'Too many sign-ups from this address.'),
    loginAddress: routeRateLimit(fastify, config.rateLimits.loginAddress, (r) => `pu-login-ip:${address(r)}`, 'Too many sign-in attempts from this address.'),
    /** Code requests per address or phone (password sign-ins have their own limits below). */
    otpAccount: checkedLimit(fastify, config.rateLimits.loginAccount, 'pu-login-account', account, 'Too many code requests for this account.'),
    resetAddress: routeRateLimit(fastify, config.rateLimits.resetAddress, (r) => `pu-reset-ip:${address(r)}`, 'Too many reset requests from this address.'),
    resetAccount: checkedLimit(fastify, config.rateLimits.resetAccount, 'pu-reset-account', account, 'Too many reset requests for this address.'),
  };
  // Failed password sign-ins per (user, address) and per user from unknown addresses: a stranger
  // cannot lock a user out of their known addresses (server/auth/login-limits.ts).
  const loginLimits = new LoginLimits(
    fastify.ctx.database.db,
    { pair: config.rateLimits.loginAccountAddress, account: config.rateLimits.loginAccount },
    'pu-login',
  );

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

  return { address, limits, loginLimits, tokenBehind, groupForNewUsers, requireUserAdmin };
}
