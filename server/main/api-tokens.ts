/**
 * API tokens of a project. The token is a JWT signed with the server key, shown once at
 * creation and stored only as a hash: deleting the row ends it at once, whatever its signature.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { TokenRights } from '../../definitions/permissions.ts';
import type { Db } from '../db/index.ts';
import { apiTokens } from '../db/schema.ts';
import { ACCESS_TOKEN_ALG, type ServerKeys } from '../auth/keys.ts';
import { VerifiedTokens } from '../auth/verified-tokens.ts';
import { notFound, unauthorized } from '../lib/errors.ts';
import { hashSecret, newId } from '../lib/ids.ts';
import type { CachedApiToken } from '../public/principal-cache.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import type { ApiToken, MintedToken } from '../../definitions/schemas/api-token.ts';

export interface TokenInput extends TokenRights {
  name: string;
  userGroupID: string | null;
}

type TokenRow = typeof apiTokens.$inferSelect;

const AUDIENCE = 'larder-public';

/** What a token may do, as its row holds it. */
export const rightsOf = (row: Pick<TokenRow, 'userAdmin' | 'userGroupId' | 'powerCreate' | 'powerRead' | 'powerUpdate' | 'powerDelete' | 'powerWrite' | 'roles'>): TokenRights & { userGroupID: string | null } => ({
  userAdmin: row.userAdmin,
  userGroupID: row.userGroupId,
  powerCreate: row.powerCreate,
  powerRead: row.powerRead,
  powerUpdate: row.powerUpdate,
  powerDelete: row.powerDelete,
  powerWrite: row.powerWrite,
  roles: row.roles as TokenRights['roles'],
});

const toView = (row: TokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  projectID: row.projectId,
  organizationID: row.organizationId,
  ...rightsOf(row),
  createdDate: row.createdAt.toISOString(),
  updatedDate: row.updatedAt.toISOString(),
});

/** Rights as stored: User Admin puts the token in the "admin" group; roles merged per collection. */
function columns(input: TokenInput) {
  const roles = new Map<string, TokenRights['roles'][number]>();
  for (const role of input.roles) roles.set(role.collection, { ...role });
  return {
    name: input.name.trim(),
    userAdmin: input.userAdmin,
    userGroupId: input.userAdmin ? 'admin' : input.userGroupID,
    powerCreate: input.powerCreate,
    powerRead: input.powerRead,
    powerUpdate: input.powerUpdate,
    powerDelete: input.powerDelete,
    powerWrite: input.powerWrite,
    roles: [...roles.values()],
  };
}

export interface VerifiedToken {
  tokenId: string;
  projectId: string;
  organizationId: string;
  rights: TokenRights & { userGroupID: string | null };
  /** A Studio token (docs/studio.md "Tokens in the workbench"): the collections' calls only. */
  studio?: boolean;
}

export class ApiTokenService {
  constructor(
    private readonly db: Db,
    private readonly keys: ServerKeys,
    /**
     * Token rows by id, per process (server/public/principal-cache.ts): every insert, update and
     * delete of a token row — by these methods or by a cascade — drops the entry in every process
     * at commit (migration 0018's trigger), so a deleted token fails from the next call on.
     */
    private readonly cache?: SharedCache<CachedApiToken | null>,
  ) {}

  /** The project's tokens; Studio's temporary tokens are never among them (docs/studio.md). */
  async list(projectId: string): Promise<ApiToken[]> {
    const rows = await this.db.select().from(apiTokens).where(and(eq(apiTokens.projectId, projectId), isNull(apiTokens.temporaryFor))).orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
    return rows.map(toView);
  }

  async row(id: string): Promise<TokenRow> {
    const [row] = await this.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    if (!row) throw notFound('token_not_found', 'There is no such API token.');
    return row;
  }

  /**
   * Mints a token. `temporary`: a Studio token (docs/studio.md "Tokens in the workbench"), ending
   * at `expiresAt` (in its signature and its row) and kept out of the project's list.
   */
  async create(organizationId: string, projectId: string, minterId: string, input: TokenInput, temporary?: { expiresAt: Date; forUser: string }): Promise<MintedToken> {
    const id = newId();
    const jwt = new SignJWT({ typ: 'api', org: organizationId, proj: projectId })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: this.keys.kid, typ: 'JWT' })
      .setSubject(id)
      .setIssuer('larder')
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setJti(newId());
    if (temporary) jwt.setExpirationTime(Math.ceil(temporary.expiresAt.getTime() / 1000));
    const jwtToken = await jwt.sign(this.keys.privateKey);
    const [row] = await this.db
      .insert(apiTokens)
      .values({
        id,
        projectId,
        organizationId,
        tokenHash: hashSecret(jwtToken),
        createdBy: minterId,
        ...columns(input),
        ...(temporary ? { expiresAt: temporary.expiresAt, temporaryFor: temporary.forUser } : {}),
      })
      .returning();
    return { ...toView(row!), jwtToken };
  }

  async update(id: string, input: TokenInput): Promise<ApiToken> {
    // A Studio token is not edited here (docs/studio.md).
    const [row] = await this.db
      .update(apiTokens)
      .set({ ...columns(input), updatedAt: new Date() })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.temporaryFor)))
      .returning();
    if (!row) throw notFound('token_not_found', 'There is no such API token.');
    return toView(row);
  }

  async delete(id: string) {
    await this.db.delete(apiTokens).where(eq(apiTokens.id, id));
  }

  /**
   * Credentials of function runs (docs/functions.md "The data client"): a random bearer, known only
   * to this process, that stands for one token row while a function runs. API tokens are kept
   * only as hashes, so a function's data calls cannot send the token itself; with this bearer the
   * public API's call is verified below exactly as the token's own would be — the same row (from the
   * same cache, so a deleted or changed token counts at once), the same expiry, the same rights —
   * and everything after verification (rights, limits, metering) does not know the difference.
   */
  private readonly runCredentials = new Map<string, string>();

  /** API tokens already checked, with their id and hash (server/auth/verified-tokens.ts). */
  private readonly verifiedTokens = new VerifiedTokens<{ tokenId: string; hash: string; exp: number | undefined }>();

  /** A bearer that verifies as token `tokenId` until `end()` is called. */
  grantRun(tokenId: string): { bearer: string; end(): void } {
    const bearer = `${RUN_CREDENTIAL_PREFIX}${randomBytes(32).toString('base64url')}`;
    this.runCredentials.set(bearer, tokenId);
    return { bearer, end: () => void this.runCredentials.delete(bearer) };
  }

  /** Verifies an API token presented to the public API; 401 for anything but a live token. */
  async verify(token: string): Promise<VerifiedToken> {
    if (token.startsWith(RUN_CREDENTIAL_PREFIX)) {
      const id = this.runCredentials.get(token);
      if (!id) throw unauthorized('invalid_token', 'The API token is invalid.');
      const row = this.cache ? await this.cache.get(id, () => this.load(id)) : await this.load(id);
      if (!row) throw unauthorized('invalid_token', 'The API token has been deleted.');
      return this.verified(row);
    }
    let known = this.verifiedTokens.get(token);
    if (known === 'expired') throw unauthorized('token_expired', 'The API token has expired.');
    if (!known) {
      try {
        const { payload } = await jwtVerify(token, this.keys.publicKey, { algorithms: [ACCESS_TOKEN_ALG], issuer: 'larder', audience: AUDIENCE });
        if (payload.typ !== 'api' || typeof payload.sub !== 'string') throw new Error('not an API token');
        known = { tokenId: payload.sub, hash: hashSecret(token), exp: payload.exp };
        this.verifiedTokens.remember(token, known, payload.nbf);
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_JWT_EXPIRED') throw unauthorized('token_expired', 'The API token has expired.');
        throw unauthorized('invalid_token', 'The API token is invalid.');
      }
    }
    const { tokenId } = known;
    const row = this.cache ? await this.cache.get(tokenId, () => this.load(tokenId)) : await this.load(tokenId);
    // The row is read on every call: a deleted or re-issued token is refused at once.
    if (!row || !sameHash(row.tokenHash, known.hash)) throw unauthorized('invalid_token', 'The API token has been deleted.');
    return this.verified(row);
  }

  /** What a live token row grants; an ended one is 401. */
  private verified(row: CachedApiToken): VerifiedToken {
    // The signature's own expiry already refuses an ended Studio token; the row's is checked too.
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw unauthorized('token_expired', 'The API token has expired.');
    return {
      tokenId: row.id,
      projectId: row.projectId,
      organizationId: row.organizationId,
      rights: rightsOf(row),
      studio: Boolean(row.temporaryFor),
    };
  }

  /** What verification reads of a token row (null when there is none). */
  private async load(tokenId: string): Promise<CachedApiToken | null> {
    const [row] = await this.db
      .select({
        id: apiTokens.id,
        projectId: apiTokens.projectId,
        organizationId: apiTokens.organizationId,
        tokenHash: apiTokens.tokenHash,
        userAdmin: apiTokens.userAdmin,
        userGroupId: apiTokens.userGroupId,
        powerCreate: apiTokens.powerCreate,
        powerRead: apiTokens.powerRead,
        powerUpdate: apiTokens.powerUpdate,
        powerDelete: apiTokens.powerDelete,
        powerWrite: apiTokens.powerWrite,
        roles: apiTokens.roles,
        expiresAt: apiTokens.expiresAt,
        temporaryFor: apiTokens.temporaryFor,
      })
      .from(apiTokens)
      .where(eq(apiTokens.id, tokenId));
    return row ?? null;
  }
}

/** Function runs' bearers (never a JWT, whose first segment is base64url JSON). */
const RUN_CREDENTIAL_PREFIX = 'larder-function-run.';

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
