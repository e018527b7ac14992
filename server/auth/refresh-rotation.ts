/**
 * Refresh-token rotation, one rule for members (server/auth/tokens.ts) and project users
 * (server/auth/end-user-tokens.ts). Refresh tokens are opaque, stored hashed and rotated on every
 * use. The successor of a token is derived from it with an HMAC and the successor's access-token
 * claims are stored, so a token presented again within the grace window (two tabs refreshing at
 * once) yields the very same pair without keeping any token in clear. Presented again later, it
 * revokes its whole session (reuse detection). An expired, unknown or revoked token is refused.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { projectUserRefreshTokens, projectUserSessions, refreshTokens, sessions } from '../db/schema.ts';
import { hashSecret, newId } from '../lib/ids.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A stored refresh token. */
export interface RefreshTokenRow {
  tokenHash: string;
  sessionId: string;
  issuedAt: number;
  jti: string;
  expiresAt: Date;
  usedAt: Date | null;
  successorHash: string | null;
}

/** The rows one kind of session keeps its refresh tokens in. */
export interface RefreshTokenStore<S extends { id: string; revokedAt: Date | null }> {
  /** The token with this hash and its session, locked for the rest of the transaction. */
  find(tx: Tx, tokenHash: string): Promise<{ token: RefreshTokenRow; session: S } | undefined>;
  token(tx: Tx, tokenHash: string): Promise<RefreshTokenRow | undefined>;
  insert(tx: Tx, row: Pick<RefreshTokenRow, 'tokenHash' | 'sessionId' | 'issuedAt' | 'jti' | 'expiresAt'>): Promise<void>;
  markUsed(tx: Tx, tokenHash: string, successorHash: string, at: Date): Promise<void>;
  /** Ends the session: its tokens are refused from now on. */
  revoke(tx: Tx, sessionId: string, at: Date, reason: 'refresh_token_reuse'): Promise<void>;
  touch(tx: Tx, sessionId: string, at: Date): Promise<void>;
}

export interface RotationRules<S> {
  /** The successor of a token (an HMAC of it with the server's refresh secret). */
  successorOf(raw: string): string;
  graceS: number;
  ttlS: number;
  /** Further conditions on the session (a project user's session belongs to the caller's project). */
  accepts?(session: S): boolean;
}

/** What a successful rotation gives: the session, the successor token and its access-token claims. */
export interface Rotated<S> {
  session: S;
  raw: string;
  issuedAt: number;
  jti: string;
}

type TokenTable = typeof refreshTokens | typeof projectUserRefreshTokens;
type SessionTable = typeof sessions | typeof projectUserSessions;

/** The store over one pair of tables: members' (refresh_tokens, sessions) or project users'. */
function tableStore<S extends { id: string; revokedAt: Date | null }>(tokens: TokenTable, sessionTable: SessionTable): RefreshTokenStore<S> {
  // Both pairs have the same columns; drizzle's builders do not take a union of tables, so the pair is read as members'.
  const t = tokens as typeof refreshTokens;
  const s = sessionTable as typeof sessions;
  return {
    async find(tx, tokenHash) {
      const [row] = await tx.select({ token: t, session: s }).from(t).innerJoin(s, eq(s.id, t.sessionId)).where(eq(t.tokenHash, tokenHash)).for('update');
      return row as { token: RefreshTokenRow; session: S } | undefined;
    },
    async token(tx, tokenHash) {
      const [row] = await tx.select().from(t).where(eq(t.tokenHash, tokenHash));
      return row;
    },
    async insert(tx, row) {
      await tx.insert(t).values(row);
    },
    async markUsed(tx, tokenHash, successorHash, at) {
      await tx.update(t).set({ usedAt: at, successorHash }).where(eq(t.tokenHash, tokenHash));
    },
    async revoke(tx, sessionId, at, reason) {
      await tx.update(s).set({ revokedAt: at, revokedReason: reason }).where(eq(s.id, sessionId));
    },
    async touch(tx, sessionId, at) {
      await tx.update(s).set({ lastUsedAt: at }).where(eq(s.id, sessionId));
    },
  };
}

/** Members' refresh tokens and sessions. */
export const memberRefreshTokens = tableStore<typeof sessions.$inferSelect>(refreshTokens, sessions);
/** Project users' refresh tokens and sessions. */
export const projectUserRefreshTokenStore = tableStore<typeof projectUserSessions.$inferSelect>(projectUserRefreshTokens, projectUserSessions);

const nowS = () => Math.floor(Date.now() / 1000);

/** Rotates `raw`; undefined when it is refused (the caller answers 401). A reuse revokes the session, committed. */
export async function rotateRefreshToken<S extends { id: string; revokedAt: Date | null }>(
  db: Db,
  store: RefreshTokenStore<S>,
  raw: string,
  rules: RotationRules<S>,
): Promise<Rotated<S> | undefined> {
  return db.transaction(async (tx) => {
    const row = await store.find(tx, hashSecret(raw));
    if (!row || row.session.revokedAt || (rules.accepts && !rules.accepts(row.session))) return undefined;
    const { token, session } = row;
    const now = new Date();

    if (token.usedAt) {
      const withinGrace = now.getTime() - token.usedAt.getTime() <= rules.graceS * 1000;
      const successorRaw = rules.successorOf(raw);
      if (withinGrace && token.successorHash === hashSecret(successorRaw)) {
        const successor = await store.token(tx, token.successorHash);
        if (successor) return { session, raw: successorRaw, issuedAt: successor.issuedAt, jti: successor.jti };
      }
      // A used token presented again after the grace window: treat the family as stolen.
      await store.revoke(tx, session.id, now, 'refresh_token_reuse');
      return undefined;
    }
    if (token.expiresAt.getTime() <= now.getTime()) return undefined;

    const successorRaw = rules.successorOf(raw);
    const successorHash = hashSecret(successorRaw);
    const issuedAt = nowS();
    const jti = newId();
    await store.insert(tx, { tokenHash: successorHash, sessionId: session.id, issuedAt, jti, expiresAt: new Date(now.getTime() + rules.ttlS * 1000) });
    await store.markUsed(tx, token.tokenHash, successorHash, now);
    await store.touch(tx, session.id, now);
    return { session, raw: successorRaw, issuedAt, jti };
  });
}
