/**
 * Access and refresh tokens.
 *
 * Access tokens are short-lived EdDSA JWTs naming the user (`sub`) and the session (`sid`); every
 * request also checks that the session is alive, so a logout or a password reset ends it at once.
 * Refresh tokens are opaque and rotated on every use. The successor of a token is derived from it
 * with an HMAC, and the successor's access-token claims are stored, so a token presented again
 * within the grace window (two tabs refreshing at once) yields the very same pair without keeping
 * any token in clear. Presented again later, it revokes its whole session.
 */
import { createHmac } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Config } from '../config.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import type { Db } from '../db/index.ts';
import { apiTokens, refreshTokens, sessions, users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { hashSecret, newId, newSecret } from '../lib/ids.ts';
import { ACCESS_TOKEN_ALG, type ServerKeys } from './keys.ts';
import { memberRefreshTokens, rotateRefreshToken } from './refresh-rotation.ts';
import { VerifiedTokens } from './verified-tokens.ts';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
}

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

const ISSUER = 'larder';
const AUDIENCE = 'larder';

const nowS = () => Math.floor(Date.now() / 1000);

/** The refusal of every sign-in of a disabled account: password, third-party, refresh (docs/admin.md "Users"). */
export const accountDisabled = () => forbidden('account_disabled', "This account has been disabled by the platform's administrators.");

/** A session as access checks need it (cached per process; server/lib/shared-cache.ts). */
type SessionState = { userId: string; live: boolean } | null;

export class TokenService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly keys: ServerKeys,
    private readonly sessionCache?: SharedCache<SessionState>,
  ) {}

  private successorOf(raw: string) {
    return createHmac('sha256', this.keys.refreshSecret).update(`refresh:${raw}`).digest('base64url');
  }

  private async signAccess(userId: string, sessionId: string, issuedAt: number, jti: string) {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: this.keys.kid, typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.config.accessTokenTtlS)
      .setJti(jti)
      .sign(this.keys.privateKey);
  }

  private async pair(userId: string, sessionId: string, refreshRaw: string, issuedAt: number, jti: string): Promise<TokenPair> {
    const access = await this.signAccess(userId, sessionId, issuedAt, jti);
    return {
      access_token: access,
      refresh_token: refreshRaw,
      expires_in: Math.max(0, issuedAt + this.config.accessTokenTtlS - nowS()),
      token_type: 'Bearer',
    };
  }

  /** Starts a new session for a user who has just proved who they are. */
  async startSession(userId: string, clientId: string): Promise<TokenPair> {
    const sessionId = newId();
    const raw = newSecret();
    const issuedAt = nowS();
    const jti = newId();
    await this.db.transaction(async (tx) => {
      // The user's row is held until commit: a disable running now either waits for this session
      // and then revokes it, or commits first and is seen here (docs/admin.md "Users").
      const [user] = await tx.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, userId)).for('share');
      if (user?.disabledAt) throw accountDisabled();
      await tx.insert(sessions).values({ id: sessionId, userId, clientId });
      await tx.insert(refreshTokens).values({
        tokenHash: hashSecret(raw),
        sessionId,
        issuedAt,
        jti,
        expiresAt: new Date(Date.now() + this.config.refreshTokenTtlS * 1000),
      });
    });
    return this.pair(userId, sessionId, raw, issuedAt, jti);
  }

  /** Rotates a refresh token (server/auth/refresh-rotation.ts). Any refusal is a 401, which the console answers by signing out. */
  async refresh(raw: string): Promise<TokenPair> {
    const rules = { successorOf: (token: string) => this.successorOf(token), graceS: this.config.refreshReuseGraceS, ttlS: this.config.refreshTokenTtlS };
    const rotated = await rotateRefreshToken(this.db, memberRefreshTokens, raw, rules);
    // Disabling revoked the session; its holder is told why rather than only that it ended.
    if (!rotated && (await this.ownerDisabled(raw))) throw accountDisabled();
    if (!rotated) throw unauthorized('invalid_refresh_token', 'The refresh token is invalid, expired or revoked. Sign in again.');
    return this.pair(rotated.session.userId, rotated.session.id, rotated.raw, rotated.issuedAt, rotated.jti);
  }

  /** Access tokens already checked (server/auth/verified-tokens.ts). */
  private readonly verified = new VerifiedTokens<{ userId: string; sessionId: string; exp: number }>();

  /** Verifies a bearer access token and that its session is still alive. */
  async verifyAccess(token: string): Promise<AccessClaims> {
    let userId: string;
    let sessionId: string;
    const known = this.verified.get(token);
    if (known === 'expired') throw unauthorized('token_expired', 'The access token has expired.');
    if (known) {
      userId = known.userId;
      sessionId = known.sessionId;
    } else {
      try {
        const { payload } = await jwtVerify(token, this.keys.publicKey, {
          algorithms: [ACCESS_TOKEN_ALG],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') throw new Error('claims');
        userId = payload.sub;
        sessionId = payload.sid;
        this.verified.remember(token, { userId, sessionId, exp: payload.exp! }, payload.nbf);
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw unauthorized('token_expired', 'The access token has expired.');
        throw unauthorized('invalid_token', 'The access token is invalid.');
      }
    }
    const load = async (): Promise<SessionState> => {
      const [row] = await this.db.select({ userId: sessions.userId, revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.id, sessionId));
      return row ? { userId: row.userId, live: row.revokedAt === null } : null;
    };
    const session = this.sessionCache ? await this.sessionCache.get(sessionId, load) : await load();
    if (!session?.live || session.userId !== userId) throw unauthorized('session_revoked', 'This session has ended. Sign in again.');
    return { userId, sessionId };
  }

  /** Whether the user of the session a refresh token belongs to is disabled. */
  private async ownerDisabled(raw: string): Promise<boolean> {
    const [row] = await this.db
      .select({ disabledAt: users.disabledAt })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(refreshTokens.tokenHash, hashSecret(raw)));
    return Boolean(row?.disabledAt);
  }

  /** Ends the session a refresh token belongs to; unknown tokens are ignored. */
  async revokeByRefreshToken(raw: string, reason: string) {
    const [row] = await this.db
      .select({ sessionId: refreshTokens.sessionId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashSecret(raw)));
    if (row) await this.revokeSession(row.sessionId, reason);
  }

  async revokeSession(sessionId: string, reason: string) {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  async revokeAllForUser(userId: string, reason: string, db: Db = this.db) {
    await db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    // The Studio tokens minted for them end with their sessions (docs/studio.md; the row's trigger
    // drops the cached token in every process).
    await db.delete(apiTokens).where(eq(apiTokens.temporaryFor, userId));
  }
}
