/**
 * The server's half of "who may do what": a member's flags in an organization, super-admins,
 * and the checks every organization-scoped call makes before it touches anything.
 */
import { and, eq } from 'drizzle-orm';
import { allowedActions, normalisePermissions, ownerPermissions, type Action, type MemberPermissions } from '../../definitions/permissions.ts';
import type { Db } from '../db/index.ts';
import { memberships, organizations, users } from '../db/schema.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import { platform } from '../../definitions/platform.ts';

/** The usernames the configuration makes super-admins (lower case): definitions/platform.ts and SUPER_ADMIN_USERNAMES. */
export function configuredSuperAdmins(config: { superAdminUsernames: readonly string[] }): Set<string> {
  return new Set([...platform.superAdminUsernames, ...config.superAdminUsernames].map((u) => u.toLowerCase()));
}

export interface OrganizationAccess {
  organizationId: string;
  userId: string;
  permissions: MemberPermissions;
  /** A member of the organization (a super-admin who is not is still allowed everything). */
  member: boolean;
  /** The caller's e-mail: a project's restricted view names people by it. */
  email: string;
}

const denials: Record<Action, string> = {
  read: 'You are not a member of this organization.',
  create: 'Your permissions in this organization do not allow creating.',
  update: 'Your permissions in this organization do not allow changes.',
  delete: 'Your permissions in this organization do not allow deleting.',
  admin: 'Only an administrator of this organization may do this.',
};

/** What the access checks read, cached per process (server/lib/shared-cache.ts); rows change by trigger-sent invalidations. */
export interface AccessCaches {
  user: SharedCache<{ superAdmin: boolean; email: string }>;
  /** By `organizationId:userId`: the member's flags, null when not a member. */
  membership: SharedCache<{ permissions: unknown }>;
}

export class AccessService {
  constructor(
    private readonly db: Db,
    private readonly superAdminUsernames: ReadonlySet<string>,
    private readonly caches?: AccessCaches,
  ) {}

  /** Whether the configuration names this username (such a super-admin cannot be revoked in the console; docs/admin.md "Users"). */
  isConfiguredSuperAdmin(username: string): boolean {
    return this.superAdminUsernames.has(username.toLowerCase());
  }

  /** The configured usernames, lower case. */
  configuredSuperAdminUsernames(): string[] {
    return [...this.superAdminUsernames];
  }

  async isSuperAdmin(userId: string): Promise<boolean> {
    return (await this.user(userId)).superAdmin;
  }

  /** The user's e-mail as the audit log names an actor ('' for an unknown user). */
  async emailOf(userId: string): Promise<string> {
    return (await this.user(userId)).email;
  }

  private async user(userId: string): Promise<{ superAdmin: boolean; email: string }> {
    const load = async () => {
      const [user] = await this.db.select({ superAdmin: users.superAdmin, username: users.username, email: users.email }).from(users).where(eq(users.id, userId));
      if (!user) return { superAdmin: false, email: '' };
      return { superAdmin: user.superAdmin || this.superAdminUsernames.has(user.username.toLowerCase()), email: user.email };
    };
    return this.caches ? this.caches.user.get(userId, load) : load();
  }

  /** The caller's standing in an organization; 404 when it does not exist, 403 when not a member. */
  async organization(userId: string, organizationId: string): Promise<OrganizationAccess> {
    const load = async () => {
      const [found] = await this.db
        .select({ id: organizations.id, permissions: memberships.permissions })
        .from(organizations)
        .leftJoin(memberships, and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, userId)))
        .where(eq(organizations.id, organizationId));
      // An unknown organization is not kept: it throws, and a load that throws stores nothing.
      if (!found) throw notFound('organization_not_found', 'There is no such organization.');
      return { permissions: found.permissions };
    };
    const row = this.caches ? await this.caches.membership.get(`${organizationId}:${userId}`, load) : await load();
    const { superAdmin, email } = await this.user(userId);
    if (superAdmin) {
      return { organizationId, userId, permissions: ownerPermissions, member: row.permissions !== null, email };
    }
    if (row.permissions === null) throw forbidden('not_a_member', denials.read);
    return { organizationId, userId, permissions: normalisePermissions(row.permissions as Record<string, unknown>), member: true, email };
  }

  /** Checks the caller may do `action` in the organization, and returns their standing. */
  async require(userId: string, organizationId: string, action: Action): Promise<OrganizationAccess> {
    const access = await this.organization(userId, organizationId);
    if (!allowedActions(access.permissions)[action]) throw forbidden('insufficient_permissions', denials[action]);
    return access;
  }
}
