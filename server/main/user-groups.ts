/**
 * A project's user groups: each grants create/read/update/delete per top-level
 * collection, optionally on "associated items only" (items whose Users panel lists the user).
 * Rights cascade into nested collections and never up: a nested path is judged by the grant of
 * the top-level collection it lives in. Groups of another project never count.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { projectUsers, userGroups } from '../db/schema.ts';
import { groupRightsBeyond, type GroupGrant, type MemberPermissions } from '../../definitions/permissions.ts';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import type { CachedGroup } from '../public/principal-cache.ts';
import type { GroupPermission, UserGroup } from '../../definitions/schemas/project-user.ts';

export interface GroupRights {
  create: boolean;
  read: boolean;
  update: boolean;
  delete: boolean;
  /** True when every group granting anything on the collection limits it to associated items. */
  associatedOnly: boolean;
}

export interface GroupInput {
  name?: string | undefined;
  permissions?: Partial<GroupPermission>[] | undefined;
}

type GroupRow = typeof userGroups.$inferSelect;

const NAME_MAX = 100;

const toView = (row: GroupRow): UserGroup => ({
  groupID: row.id,
  name: row.name,
  permissions: row.roles as GroupPermission[],
  createdDate: row.createdAt.toISOString(),
  updatedDate: row.updatedAt.toISOString(),
});

/** The top-level collection of a slug or nested path (`chapters.<id>.verses`, `chapters/verses`). */
export const topLevelCollection = (path: string) => path.split(/[./]/, 1)[0] ?? path;

/** Roles as stored: one per collection (the last wins), every flag present. */
function normaliseRoles(roles: Partial<GroupPermission>[]): GroupPermission[] {
  const byCollection = new Map<string, GroupPermission>();
  for (const role of roles) {
    const collection = String(role.collection ?? '').trim();
    if (!collection) throw badRequest('invalid_role', 'Every role names a collection.');
    byCollection.set(collection, {
      collection,
      create: role.create === true,
      read: role.read === true,
      update: role.update === true,
      delete: role.delete === true,
      associatedOnly: role.associatedOnly === true,
    });
  }
  return [...byCollection.values()];
}

function cleanName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) throw badRequest('group_name_required', 'A user group needs a name.');
  if (trimmed.length > NAME_MAX) throw badRequest('group_name_too_long', `A user group name has at most ${NAME_MAX} characters.`, { max: NAME_MAX });
  return trimmed;
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export class UserGroupService {
  constructor(
    private readonly db: Db,
    /**
     * Groups by id, per process (server/public/principal-cache.ts), for `rights`: every insert,
     * change of roles and delete of a group row drops the entry in every process at commit
     * (migration 0018's trigger), so a withdrawn right is refused from the next call on.
     */
    private readonly cache?: SharedCache<CachedGroup | null>,
  ) {}

  private async group(groupId: string): Promise<CachedGroup | null> {
    const load = async () => {
      const [row] = await this.db.select({ projectId: userGroups.projectId, roles: userGroups.roles }).from(userGroups).where(eq(userGroups.id, groupId));
      return row ?? null;
    };
    return this.cache ? this.cache.get(groupId, load) : load();
  }

  async list(projectId: string): Promise<UserGroup[]> {
    const rows = await this.db.select().from(userGroups).where(eq(userGroups.projectId, projectId)).orderBy(asc(userGroups.createdAt), asc(userGroups.id));
    return rows.map(toView);
  }

  async get(projectId: string, groupId: string): Promise<UserGroup> {
    const [row] = await this.db.select().from(userGroups).where(and(eq(userGroups.projectId, projectId), eq(userGroups.id, groupId)));
    if (!row) throw notFound('user_group_not_found', 'There is no such user group in this project.');
    return toView(row);
  }

  async create(projectId: string, input: GroupInput): Promise<UserGroup> {
    const name = cleanName(input.name);
    try {
      const [row] = await this.db
        .insert(userGroups)
        .values({ id: newId(), projectId, name, roles: normaliseRoles(input.permissions ?? []) })
        .returning();
      return toView(row!);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('user_group_exists', `A user group named "${name}" already exists in this project.`, { name });
      throw error;
    }
  }

  /**
   * Renames a group and/or replaces its roles (fields left out stay as they are). With `editor`
   * (the member's flags), roles it adds or widens beyond them are refused (403), judged against
   * the group as it is under a row lock, so a concurrent change cannot slip in between.
   */
  async update(projectId: string, groupId: string, input: GroupInput, editor?: Partial<MemberPermissions>): Promise<UserGroup> {
    const set: Partial<GroupRow> = { updatedAt: new Date() };
    if (input.name !== undefined) set.name = cleanName(input.name);
    if (input.permissions !== undefined) set.roles = normaliseRoles(input.permissions);
    const where = and(eq(userGroups.projectId, projectId), eq(userGroups.id, groupId));
    try {
      return await this.db.transaction(async (tx) => {
        const [current] = await tx.select({ roles: userGroups.roles }).from(userGroups).where(where).for('update');
        if (!current) throw notFound('user_group_not_found', 'There is no such user group in this project.');
        if (editor && input.permissions !== undefined) this.requireGrantable(editor, input.permissions, current.roles as GroupPermission[]);
        const [row] = await tx.update(userGroups).set(set).where(where).returning();
        return toView(row!);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('user_group_exists', `A user group named "${set.name}" already exists in this project.`, { name: String(set.name) });
      throw error;
    }
  }

  /** Deletes a group and takes it off every user of the project. */
  async delete(projectId: string, groupId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const gone = await tx.delete(userGroups).where(and(eq(userGroups.projectId, projectId), eq(userGroups.id, groupId))).returning({ id: userGroups.id });
      if (!gone.length) throw notFound('user_group_not_found', 'There is no such user group in this project.');
      await tx
        .update(projectUsers)
        .set({ userGroups: sql`array_remove(${projectUsers.userGroups}, ${groupId})` })
        .where(and(eq(projectUsers.projectId, projectId), sql`${groupId} = ANY(${projectUsers.userGroups})`));
    });
  }

  /** The ids among `groupIds` that are groups of this project. */
  async existing(projectId: string, groupIds: string[]): Promise<string[]> {
    const wanted = [...new Set(groupIds)].filter((id) => /^[0-9a-f]{24}$/.test(id));
    if (!wanted.length) return [];
    const rows = await this.db
      .select({ id: userGroups.id })
      .from(userGroups)
      .where(and(eq(userGroups.projectId, projectId), inArray(userGroups.id, wanted)));
    return rows.map((r) => r.id);
  }

  /** The groups among `groupIds` that are groups of this project, with their rights (others count for nothing). */
  async some(projectId: string, groupIds: string[]): Promise<UserGroup[]> {
    const wanted = [...new Set(groupIds)].filter((id) => /^[0-9a-f]{24}$/.test(id));
    if (!wanted.length) return [];
    const rows = await this.db
      .select()
      .from(userGroups)
      .where(and(eq(userGroups.projectId, projectId), inArray(userGroups.id, wanted)));
    return rows.map(toView);
  }

  /**
   * Refuses (403) a group whose rights a member with `holder`'s flags could not grant, beyond
   * those it had in `before` (docs/end-users.md "Rights handed out through groups").
   */
  requireGrantable(holder: Partial<MemberPermissions>, roles: GroupInput['permissions'], before: readonly GroupGrant[] = [], subject = 'A user group'): void {
    const missing = groupRightsBeyond(holder, (roles ?? []).map((role) => ({ ...role, collection: String(role.collection ?? '').trim() })), before);
    if (missing.length) throw forbidden('group_exceeds_permissions', `${subject} cannot grant rights you do not hold: ${missing.join(', ')}.`, { rights: missing.join(', ') });
  }

  /** Refuses (400) any id that is not a group of this project; returns the ids deduplicated. */
  async requireGroups(projectId: string, groupIds: string[]): Promise<string[]> {
    const unique = [...new Set(groupIds)];
    const found = new Set(await this.existing(projectId, unique));
    const foreign = unique.filter((id) => !found.has(id));
    if (foreign.length) throw badRequest('unknown_user_group', `Not a user group of this project: ${foreign.join(', ')}.`, { groups: foreign.join(', ') });
    return unique;
  }

  /**
   * What the groups grant on a collection (a nested path is judged by its top-level collection).
   * Operations are granted when any group grants them; `associatedOnly` holds only when every
   * group granting something there limits it to associated items.
   */
  async rights(projectId: string, groupIds: string[], collectionSlug: string): Promise<GroupRights> {
    const none: GroupRights = { create: false, read: false, update: false, delete: false, associatedOnly: false };
    const ids = [...new Set(groupIds)].filter((id) => /^[0-9a-f]{24}$/.test(id));
    if (!ids.length) return none;
    const slug = topLevelCollection(collectionSlug);
    const groups = await Promise.all(ids.map((id) => this.group(id)));
    const rows = groups.filter((group): group is CachedGroup => group !== null && group.projectId === projectId);
    const result = { ...none };
    let granting = 0;
    let limited = 0;
    for (const row of rows) {
      const role = (row.roles as GroupPermission[]).find((r) => r.collection === slug);
      if (!role || !(role.create || role.read || role.update || role.delete)) continue;
      granting++;
      if (role.associatedOnly) limited++;
      result.create ||= role.create;
      result.read ||= role.read;
      result.update ||= role.update;
      result.delete ||= role.delete;
    }
    result.associatedOnly = granting > 0 && limited === granting;
    return result;
  }
}
