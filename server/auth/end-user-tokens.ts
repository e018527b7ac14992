/**
 * Tokens of project users (the end users of apps, `/auth/public`), on the same mechanism as the
 * console's (server/auth/tokens.ts): EdDSA access JWTs naming the user and the session, checked
 * against the session on every call; opaque refresh tokens stored hashed, rotated on every use,
 * whose successor is derived by HMAC so that a replay within the grace window returns the very
 * same pair, and a replay after it ends the session (reuse detection).
 *
 * The JWTs have their own audience, so they are never taken for console or API tokens, and carry
 * the `bagelUserID` claim the official client reads.
 */
import { createHmac } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { projectUserRefreshTokens, projectUserSessions, projectUsers } from '../db/schema.ts';
import { unauthorized } from '../lib/errors.ts';
import { hashSecret, newId, newSecret } from '../lib/ids.ts';
import { ACCESS_TOKEN_ALG, type ServerKeys } from './keys.ts';
import { projectUserRefreshTokenStore, rotateRefreshToken } from './refresh-rotation.ts';
import type { AuthCaches, CachedSession } from '../public/principal-cache.ts';
import { VerifiedTokens } from './verified-tokens.ts';

/** What every token answer of `/auth/public` holds (`user_id` and a positive `expires_in`). */
export interface EndUserTokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
  user_id: string;
}

export interface EndUserClaims {
  projectId: string;
  userId: string;
  sessionId: string;
  groupIds: string[];
  /** The API token the session's sign-in came with (gone when it was deleted since). */
  apiTokenId: string | null;
}

const ISSUER = 'larder';
export const END_USER_AUDIENCE = 'larder-project-user';

const nowS = () => Math.floor(Date.now() / 1000);

const refused = () => unauthorized('invalid_refresh_token', 'The refresh token is invalid, expired or revoked. Sign in again.');

export class EndUserTokenService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly keys: ServerKeys,
    /**
     * Sessions and users' groups, per process (server/public/principal-cache.ts): a revoked or
     * deleted session, a deleted user and changed groups drop the entries in every process at
     * commit (migration 0018's triggers), so `verify` reads no row on a hit.
     */
    private readonly caches?: Pick<AuthCaches, 'endUserSession' | 'endUserGroups'>,
  ) {}

  private async session(sessionId: string): Promise<CachedSession | null> {
    const load = async () => {
      const [row] = await this.db
        .select({ userId: projectUserSessions.userId, projectId: projectUserSessions.projectId, revokedAt: projectUserSessions.revokedAt, apiTokenId: projectUserSessions.apiTokenId })
        .from(projectUserSessions)
        .where(eq(projectUserSessions.id, sessionId));
      return row ? { userId: row.userId, projectId: row.projectId, revoked: row.revokedAt !== null, apiTokenId: row.apiTokenId } : null;
    };
    return this.caches ? this.caches.endUserSession.get(sessionId, load) : load();
  }

  private async groupsOf(userId: string): Promise<string[] | null> {
    const load = async () => {
      const [row] = await this.db.select({ groups: projectUsers.userGroups }).from(projectUsers).where(eq(projectUsers.id, userId));
      return row ? row.groups : null;
    };
    return this.caches ? this.caches.endUserGroups.get(userId, load) : load();
  }

  private successorOf(raw: string) {
    return createHmac('sha256', this.keys.refreshSecret).update(`project-user-refresh:${raw}`).digest('base64url');
  }

  private async pair(projectId: string, userId: string, sessionId: string, refreshRaw: string, issuedAt: number, jti: string): Promise<EndUserTokenPair> {
    const access = await new SignJWT({ sid: sessionId, proj: projectId, bagelUserID: userId })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: this.keys.kid, typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(END_USER_AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.config.accessTokenTtlS)
      .setJti(jti)
      .sign(this.keys.privateKey);
    return {
      access_token: access,
      refresh_token: refreshRaw,
      // Never 0: a missing or zero expiry makes the client refresh before every request.
      expires_in: Math.max(1, issuedAt + this.config.accessTokenTtlS - nowS()),
      token_type: 'Bearer',
      user_id: userId,
    };
  }

  /** Starts a session for a project user who has just proved who they are. */
  async startSession(projectId: string, userId: string, apiTokenId: string | null): Promise<EndUserTokenPair> {
    const sessionId = newId();
    const raw = newSecret();
    const issuedAt = nowS();
    const jti = newId();
    await this.db.transaction(async (tx) => {
      await tx.insert(projectUserSessions).values({ id: sessionId, projectId, userId, apiTokenId });
      await tx.insert(projectUserRefreshTokens).values({
        tokenHash: hashSecret(raw),
        sessionId,
        issuedAt,
        jti,
        expiresAt: new Date(Date.now() + this.config.refreshTokenTtlS * 1000),
      });
      await tx.update(projectUsers).set({ lastLoggedIn: new Date() }).where(eq(projectUsers.id, userId));
    });
    return this.pair(projectId, userId, sessionId, raw, issuedAt, jti);
  }

  /**
   * Rotates a refresh token of a session of `projectId` (the project of the API token the call
   * carries; server/auth/refresh-rotation.ts). Any refusal is a 401: the client answers it by
   * signing the user out.
   */
  async refresh(raw: string, projectId: string): Promise<EndUserTokenPair> {
    const rotated = await rotateRefreshToken(this.db, projectUserRefreshTokenStore, raw, {
      successorOf: (token) => this.successorOf(token),
      graceS: this.config.refreshReuseGraceS,
      ttlS: this.config.refreshTokenTtlS,
      accepts: (session) => session.projectId === projectId,
    });
    if (!rotated) throw refused();
    const { session } = rotated;
    return this.pair(session.projectId, session.userId, session.id, rotated.raw, rotated.issuedAt, rotated.jti);
  }

  /** Signature checks already made (server/auth/verified-tokens.ts). */
  private readonly verified = new VerifiedTokens<{ userId: string; sessionId: string; projectId: string; exp: number }>();

  /**
   * The claims of a project-user access token, with the session checked alive and the user's
   * groups as they are now. `null` when the string is not meant as a project-user token (an API
   * token, a console token, not a JWT); 401 when it is one but expired, tampered or ended.
   */
  async verify(token: string): Promise<EndUserClaims | null> {
    let known = this.verified.get(token);
    if (known === 'expired') throw unauthorized('token_expired', 'The access token has expired.');
    if (!known) {
      let audience: unknown;
      try {
        audience = decodeJwt(token).aud;
      } catch {
        return null;
      }
      const ours = audience === END_USER_AUDIENCE || (Array.isArray(audience) && audience.includes(END_USER_AUDIENCE));
      if (!ours) return null;
      try {
        const { payload } = await jwtVerify(token, this.keys.publicKey, {
          algorithms: [ACCESS_TOKEN_ALG],
          issuer: ISSUER,
          audience: END_USER_AUDIENCE,
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.proj !== 'string') throw new Error('claims');
        known = { userId: payload.sub, sessionId: payload.sid, projectId: payload.proj, exp: payload.exp! };
        this.verified.remember(token, known, payload.nbf);
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw unauthorized('token_expired', 'The access token has expired.');
        throw unauthorized('invalid_token', 'The access token is invalid.');
      }
    }
    const row = await this.session(known.sessionId);
    const groups = row && !row.revoked && row.userId === known.userId && row.projectId === known.projectId ? await this.groupsOf(row.userId) : null;
    if (!row || !groups) throw unauthorized('session_revoked', 'This session has ended. Sign in again.');
    return { projectId: row.projectId, userId: row.userId, sessionId: known.sessionId, groupIds: [...groups], apiTokenId: row.apiTokenId };
  }

  /** Ends every session of a project user (password changes). */
  async revokeAllForUser(userId: string, reason: string, db: Db = this.db) {
    await db
      .update(projectUserSessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(and(eq(projectUserSessions.userId, userId), isNull(projectUserSessions.revokedAt)));
  }
}
