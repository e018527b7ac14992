/**
 * Who calls the public v1 API and what they may do. All of the
 * public API's authorization is here, so the routes only ask `require(principal, collection, op)`.
 *
 * - A bearer is a project API token (ApiTokenService.verify: signature, audience, and the stored
 *   hash, so a deleted token fails at once), or else an end-user access JWT of the project's own
 *   users (the end-user service, when the process has it). Anything else is 401, and nothing but a
 *   missing, invalid or expired bearer ever is: denials are 403 (a 401 after a fresh
 *   refresh sends the client into an endless refresh loop).
 * - The rows these checks read (token, session, groups, the project's organization) come from
 *   per-process caches that every change of those rows clears in every process at commit
 *   (server/public/principal-cache.ts), so a call costs no database read to know its caller.
 * - An API token reaches only its project. Per collection it holds create/read/update/delete
 *   roles; the power flags (powerCreate, powerRead, powerUpdate, powerDelete, and powerWrite for the
 *   three writes) grant the operation on every collection.
 * - An end user's rights come from their user groups; a group may grant an operation on "associated
 *   items only": the items whose Users panel lists the user. Rights on a collection hold for its
 *   nested collections (the checks always name the top-level collection).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { VerifiedToken } from '../main/api-tokens.ts';

export type Operation = 'create' | 'read' | 'update' | 'delete';

export type Principal =
  | { kind: 'token'; projectId: string; organizationId: string; tokenId: string; rights: VerifiedToken['rights']; studio: boolean }
  | { kind: 'user'; projectId: string; organizationId: string; userId: string; groupIds: string[] };

/** What an operation on a collection is allowed: not at all, on every item, or on the caller's associated items only. */
export interface Grant {
  allowed: boolean;
  associatedOnly: boolean;
}

/** The end-user services (end-user auth, user groups, item users), present once the process provides them. */
export interface EndUserServices {
  endUsers?: { verifyAccessToken(jwt: string): Promise<{ projectId: string; userId: string; groupIds: string[] } | null> };
  userGroups?: {
    rights(projectId: string, groupIds: string[], collectionSlug: string): Promise<{ create: boolean; read: boolean; update: boolean; delete: boolean; associatedOnly: boolean }>;
  };
  itemUsers?: {
    list(projectId: string, collectionId: string, itemId: string): Promise<string[] | { userID: string }[]>;
    /** The items of a collection a user is associated with (for lists restricted to them). */
    itemsOf?(projectId: string, collectionId: string, userId: string): Promise<string[]>;
  };
  usage?: { add(organizationId: string, metric: 'ApiCalls', amount: number): void };
}

/** The optional services as the application context may hold them (other parts of the product add them). */
export const optionalServices = (app: FastifyInstance): EndUserServices => app.ctx as unknown as EndUserServices;

const invalidBearer = () => unauthorized('invalid_token', 'The bearer token is not a valid API token or user token of a project.');

/** Resolves a bearer token to its principal; 401 when it is neither a live API token nor a valid end-user token. */
export async function resolvePrincipal(app: FastifyInstance, token: string | undefined): Promise<Principal> {
  if (!token) throw unauthorized('missing_token', 'Send the project API token (or a user access token) as a bearer token.');
  let tokenError: unknown;
  try {
    const verified = await app.ctx.apiTokens.verify(token);
    return { kind: 'token', projectId: verified.projectId, organizationId: verified.organizationId, tokenId: verified.tokenId, rights: verified.rights, studio: Boolean(verified.studio) };
  } catch (error) {
    tokenError = error;
  }
  const { endUsers } = optionalServices(app);
  if (endUsers) {
    let user: Awaited<ReturnType<NonNullable<EndUserServices['endUsers']>['verifyAccessToken']>> = null;
    try {
      user = await endUsers.verifyAccessToken(token);
    } catch {
      user = null;
    }
    if (user) {
      const organizationId = await organizationOf(app, user.projectId);
      if (organizationId) return { kind: 'user', projectId: user.projectId, organizationId, userId: user.userId, groupIds: user.groupIds };
    }
    // An API token that has ended (a Studio token: docs/studio.md) says so.
    if ((tokenError as { code?: string } | undefined)?.code === 'token_expired') throw tokenError;
    throw invalidBearer();
  }
  throw tokenError ?? invalidBearer();
}

/** The project's organization (cached per process: server/public/principal-cache.ts; a deleted project drops it everywhere). */
async function organizationOf(app: FastifyInstance, projectId: string): Promise<string | undefined> {
  const load = async () => {
    const result = (await app.ctx.database.db.execute(sql`select organization_id from projects where id = ${projectId}`)) as unknown as {
      rows: { organization_id: string }[];
    };
    return result.rows[0]?.organization_id ?? null;
  };
  return (await app.ctx.authCaches.projectOrganization.get(projectId, load)) ?? undefined;
}

/** What a token's flags grant on a collection. */
export function tokenAllows(rights: VerifiedToken['rights'], collectionSlug: string, op: Operation): boolean {
  const power = {
    create: rights.powerCreate || rights.powerWrite,
    read: rights.powerRead,
    update: rights.powerUpdate || rights.powerWrite,
    delete: rights.powerDelete || rights.powerWrite,
  }[op];
  if (power) return true;
  return rights.roles.some((role) => role.collection === collectionSlug && role[op] === true);
}

/** What the principal may do with `op` on the (top-level) collection. */
export async function can(app: FastifyInstance, principal: Principal, collectionSlug: string, op: Operation): Promise<Grant> {
  if (principal.kind === 'token') return { allowed: tokenAllows(principal.rights, collectionSlug, op), associatedOnly: false };
  const { userGroups } = optionalServices(app);
  if (!userGroups) return { allowed: false, associatedOnly: false };
  const rights = await userGroups.rights(principal.projectId, principal.groupIds, collectionSlug);
  return { allowed: rights[op] === true, associatedOnly: rights[op] === true && rights.associatedOnly };
}

/** The grant, or 403. */
export async function requireRight(app: FastifyInstance, principal: Principal, collectionSlug: string, op: Operation): Promise<Grant> {
  const grant = await can(app, principal, collectionSlug, op);
  if (!grant.allowed) throw forbidden('not_permitted', `This token may not ${op} items of collection "${collectionSlug}".`);
  return grant;
}

/** Whether the principal may write project files (assets) without naming a collection: a write right anywhere. */
export function mayStoreAssets(principal: Principal): boolean {
  if (principal.kind !== 'token') return false;
  const r = principal.rights;
  return r.powerCreate || r.powerUpdate || r.powerWrite || r.roles.some((role) => role.create || role.update);
}

/** For a grant on associated items only: 403 unless the item lists the user. */
export async function requireAssociated(app: FastifyInstance, principal: Principal, grant: Grant, collectionSlug: string, itemId: string): Promise<void> {
  if (!grant.associatedOnly || principal.kind !== 'user') return;
  const { itemUsers } = optionalServices(app);
  const listed = itemUsers ? await itemUsers.list(principal.projectId, collectionSlug, itemId) : [];
  const ids = listed.map((entry) => (typeof entry === 'string' ? entry : entry.userID));
  if (!ids.includes(principal.userId)) throw forbidden('not_associated', 'This user may only reach the items they are associated with.');
}

/** For a list on associated items only: the ids the user may see (403 when they cannot be known). */
export async function associatedItems(app: FastifyInstance, principal: Principal, grant: Grant, collectionSlug: string): Promise<string[] | undefined> {
  if (!grant.associatedOnly || principal.kind !== 'user') return undefined;
  const itemsOf = optionalServices(app).itemUsers?.itemsOf;
  if (!itemsOf) throw forbidden('not_associated', 'This user may only reach the items they are associated with.');
  return itemsOf(principal.projectId, collectionSlug, principal.userId);
}
