/**
 * Project users linked to an item: the item page's Users panel and the public `bagelUsers` calls.
 * A group granting "associated items only" reaches exactly the items that list
 * the user here. Links name the collection by slug (slugs never change) and go with the
 * collection or the user (foreign keys). A link names the top-level item and, for a nested item,
 * its nestedID chain below it (`nestedPath`, '' for the top-level item; migration 0022), so a
 * nested item has its own users, gone when it is deleted. Access ("associated items only") reads
 * top-level links alone: a nested item is judged by its top-level item (docs/end-users.md).
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { itemUsers, projectUsers } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/errors.ts';

export class ItemUserService {
  constructor(private readonly db: Db) {}

  /** The users of an item (or of the nested item `nestedPath` names under it), oldest link first: `[{userID}]` as the client expects. */
  async list(projectId: string, collectionSlug: string, itemId: string, nestedPath = ''): Promise<{ userID: string }[]> {
    const rows = await this.db
      .select({ userID: itemUsers.userId })
      .from(itemUsers)
      .where(and(eq(itemUsers.projectId, projectId), eq(itemUsers.collectionSlug, collectionSlug), eq(itemUsers.itemId, itemId), eq(itemUsers.nestedPath, nestedPath)))
      .orderBy(asc(itemUsers.createdAt), asc(itemUsers.userId));
    return rows;
  }

  /** The ids among `userIds` that are not users of this project. */
  async unknownUsers(projectId: string, userIds: string[]): Promise<string[]> {
    const wanted = [...new Set(userIds)];
    const valid = wanted.filter((id) => /^[0-9a-f]{24}$/.test(id));
    const found = valid.length
      ? await this.db
          .select({ id: projectUsers.id })
          .from(projectUsers)
          .where(and(eq(projectUsers.projectId, projectId), inArray(projectUsers.id, valid)))
      : [];
    const known = new Set(found.map((r) => r.id));
    return wanted.filter((id) => !known.has(id));
  }

  /** Refuses (404) ids that are not users of this project: the public API's answer for a user that does not exist. */
  async requireUsers(projectId: string, userIds: string[]): Promise<void> {
    const unknown = await this.unknownUsers(projectId, userIds);
    if (unknown.length) throw notFound('project_user_not_found', `Not a user of this project: ${unknown.join(', ')}.`);
  }

  /**
   * Links users to an item, or to the nested item `nestedPath` names (already linked ones stay);
   * every id must be a user of this project (else 400, nothing changed).
   */
  async add(projectId: string, collectionSlug: string, itemId: string, userIds: string[], nestedPath = ''): Promise<{ userID: string }[]> {
    const wanted = [...new Set(userIds)];
    if (wanted.length) {
      const unknown = await this.unknownUsers(projectId, wanted);
      if (unknown.length) throw badRequest('unknown_project_user', `Not a user of this project: ${unknown.join(', ')}.`, { users: unknown.join(', ') });
      await this.db
        .insert(itemUsers)
        .values(wanted.map((userId) => ({ projectId, collectionSlug, itemId, nestedPath, userId })))
        .onConflictDoNothing();
    }
    return this.list(projectId, collectionSlug, itemId, nestedPath);
  }

  /** Unlinks users from an item or the nested item `nestedPath` names (ids not linked are ignored). */
  async remove(projectId: string, collectionSlug: string, itemId: string, userIds: string[], nestedPath = ''): Promise<{ userID: string }[]> {
    const ids = [...new Set(userIds)];
    if (ids.length) {
      await this.db
        .delete(itemUsers)
        .where(
          and(
            eq(itemUsers.projectId, projectId),
            eq(itemUsers.collectionSlug, collectionSlug),
            eq(itemUsers.itemId, itemId),
            eq(itemUsers.nestedPath, nestedPath),
            inArray(itemUsers.userId, ids),
          ),
        );
    }
    return this.list(projectId, collectionSlug, itemId, nestedPath);
  }

  /** Forgets every link of an item and of the items nested in it (deleting an item does it by trigger, migration 0022). */
  async clearItem(projectId: string, collectionSlug: string, itemId: string): Promise<void> {
    await this.db.delete(itemUsers).where(and(eq(itemUsers.projectId, projectId), eq(itemUsers.collectionSlug, collectionSlug), eq(itemUsers.itemId, itemId)));
  }

  /** The ids of the items of a collection that list the user (for "associated items only"). */
  async itemIdsFor(projectId: string, collectionSlug: string, userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ itemId: itemUsers.itemId })
      .from(itemUsers)
      .where(and(eq(itemUsers.projectId, projectId), eq(itemUsers.collectionSlug, collectionSlug), eq(itemUsers.userId, userId), eq(itemUsers.nestedPath, '')))
      .orderBy(asc(itemUsers.itemId));
    return rows.map((r) => r.itemId);
  }

  /** `itemIdsFor` as a bound function (server/public/principal.ts calls it detached). */
  readonly itemsOf = (projectId: string, collectionSlug: string, userId: string) => this.itemIdsFor(projectId, collectionSlug, userId);

  /** Of the given items, those that list the user (one query; a live stream asks per batch of events). */
  async associatedAmong(projectId: string, collectionSlug: string, userId: string, itemIds: string[]): Promise<Set<string>> {
    const ids = [...new Set(itemIds)].filter((id) => id !== '');
    if (!ids.length) return new Set();
    const rows = await this.db
      .select({ itemId: itemUsers.itemId })
      .from(itemUsers)
      .where(
        and(eq(itemUsers.projectId, projectId), eq(itemUsers.collectionSlug, collectionSlug), eq(itemUsers.userId, userId), eq(itemUsers.nestedPath, ''), inArray(itemUsers.itemId, ids)),
      );
    return new Set(rows.map((r) => r.itemId));
  }

  /** Whether the (top-level) item lists the user. */
  async isAssociated(projectId: string, collectionSlug: string, itemId: string, userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql<number>`1` })
      .from(itemUsers)
      .where(
        and(
          eq(itemUsers.projectId, projectId),
          eq(itemUsers.collectionSlug, collectionSlug),
          eq(itemUsers.itemId, itemId),
          eq(itemUsers.nestedPath, ''),
          eq(itemUsers.userId, userId),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /**
   * A condition for a query over a collection's items: true for items that list the user.
   * `itemIdColumn` is the SQL of the item's id column in that query (e.g. sql`t."_id"`).
   */
  associatedCondition(projectId: string, collectionSlug: string, userId: string, itemIdColumn: SQL): SQL {
    return sql`EXISTS (SELECT 1 FROM item_users iu WHERE iu.project_id = ${projectId} AND iu.collection_slug = ${collectionSlug} AND iu.user_id = ${userId} AND iu.nested_path = '' AND iu.item_id = ${itemIdColumn})`;
  }
}
