/**
 * What every public API call reads to know its caller (server/public/principal.ts), cached per
 * process so that a call costs no database read for it: API token rows, user groups' roles, a
 * project's organization, project-user sessions and a project user's groups.
 *
 * These are shared caches (server/lib/shared-cache.ts): bounded, expiring after `authCacheTtlMs`
 * as a safety net, and kept right across processes by the triggers of migration 0018, which name
 * the changed entry on the `larder_invalidate` channel inside the writing transaction — whatever
 * the code path (console API, cascades of a project or organization deletion, a group deleted
 * off its users). PostgreSQL delivers that at commit to every process; the writing process
 * answers only once it has heard it (the `settle` hook in server/app.ts), so a deleted token or
 * a withdrawn right is refused from the very next call. A load that was reading the old row when
 * the invalidation arrived is not stored (the caches' per-key generations).
 *
 * Signatures are still checked on every call: only the row reads are cached.
 */
import type { CacheRegistry, SharedCache } from '../lib/shared-cache.ts';

/** An expiry as a safety net only: invalidations, not time, keep the entries right. */
export const authCacheTtlMs = 60_000;
const maxEntries = 10_000;

/** An API token's row as verification needs it (null: no such token). */
export interface CachedApiToken {
  id: string;
  projectId: string;
  organizationId: string;
  tokenHash: string;
  userAdmin: boolean;
  userGroupId: string | null;
  powerCreate: boolean;
  powerRead: boolean;
  powerUpdate: boolean;
  powerDelete: boolean;
  powerWrite: boolean;
  roles: unknown;
  /** A Studio token's end (docs/studio.md); null: never. */
  expiresAt?: Date | null;
  /** The member a Studio token was minted for; null: a project token. */
  temporaryFor?: string | null;
}

/** A user group as rights need it (null: no such group). */
export interface CachedGroup {
  projectId: string;
  roles: unknown;
}

/** A project-user session as the access-token check needs it (null: no such session). */
export interface CachedSession {
  userId: string;
  projectId: string;
  revoked: boolean;
  apiTokenId: string | null;
}

export interface AuthCaches {
  /** By token id (the JWT's subject); the presented token must still match the stored hash. */
  apiToken: SharedCache<CachedApiToken | null>;
  /** By group id. */
  userGroup: SharedCache<CachedGroup | null>;
  /** Project id → its organization's id (null: no such project). */
  projectOrganization: SharedCache<string | null>;
  /** By session id. */
  endUserSession: SharedCache<CachedSession | null>;
  /** Project-user id → the user's group ids (null: no such user). */
  endUserGroups: SharedCache<string[] | null>;
}

/** The names are those the triggers of migration 0018 send. */
export function createAuthCaches(registry: CacheRegistry, ttlMs = authCacheTtlMs): AuthCaches {
  return {
    apiToken: registry.create('apiToken', ttlMs, maxEntries),
    userGroup: registry.create('userGroup', ttlMs, maxEntries),
    projectOrganization: registry.create('projectOrganization', ttlMs, maxEntries),
    endUserSession: registry.create('endUserSession', ttlMs, maxEntries),
    endUserGroups: registry.create('endUserGroups', ttlMs, maxEntries),
  };
}
