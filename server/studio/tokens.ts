/**
 * Studio's temporary tokens (docs/studio.md "Tokens in the workbench"): minted by the console for
 * one member of the project, read-only (`preview`) or with the rights of one of the project's
 * tokens (`from`), never beyond the member's own rights; they end after `studioTokens.lifetimeMinutes`
 * and a member keeps at most `studioTokens.perMemberMax` of them per project.
 */
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { groupRightsBeyond, rightsBeyond, type TokenRights } from '../../definitions/permissions.ts';
import { readRestrictedView } from '../../definitions/restricted-view.ts';
import { studioTokens } from '../../definitions/studio.ts';
import type { StudioToken, StudioTokenInput } from '../../definitions/schemas/studio.ts';
import type { Db } from '../db/index.ts';
import { apiTokens } from '../db/schema.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { rightsOf, type ApiTokenService, type TokenInput } from '../main/api-tokens.ts';
import type { UserGroupService } from '../main/user-groups.ts';
import type { RequestScope } from '../lib/request-scope.ts';

const noRights: TokenRights = { userAdmin: false, powerCreate: false, powerRead: false, powerUpdate: false, powerDelete: false, powerWrite: false, roles: [] };

export class StudioTokenService {
  constructor(
    private readonly db: Db,
    private readonly apiTokens: ApiTokenService,
    private readonly userGroups: UserGroupService,
  ) {}

  /** The rights the new token carries, or 403/404 when the member may not have them. */
  private async rightsFor(scope: RequestScope, input: StudioTokenInput): Promise<TokenInput> {
    const view = scope.visibility.restricted ? readRestrictedView(scope.project?.settings) : null;
    if ('preview' in input) {
      // Read on every collection the member sees: all of them, or those of their restricted view.
      if (!view) return { ...noRights, name: studioTokens.previewName, userGroupID: null, powerRead: true };
      return {
        ...noRights,
        name: studioTokens.previewName,
        userGroupID: null,
        roles: view.collections.map((collection) => ({ collection, create: false, read: true, update: false, delete: false })),
      };
    }
    const [row] = await this.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.id, input.from), eq(apiTokens.projectId, scope.projectId), isNull(apiTokens.temporaryFor)));
    if (!row) throw notFound('token_not_found', 'There is no such API token in this project.');
    const rights: TokenInput = { name: `${studioTokens.fromName}: ${row.name}`.slice(0, 200), ...rightsOf(row) };
    const permissions = scope.standing.permissions;
    const missing = rightsBeyond(permissions, rights);
    if (!rights.userAdmin && rights.userGroupID) {
      const [group] = await this.userGroups.some(scope.projectId, [rights.userGroupID]);
      if (group) missing.push(...groupRightsBeyond(permissions, group.permissions).map((right) => `userGroup.${right}`));
    }
    if (view) {
      // A restricted member's own rights stop at the collections they see (definitions/restricted-view.ts).
      const seen = new Set(view.collections);
      for (const flag of ['powerCreate', 'powerRead', 'powerUpdate', 'powerDelete', 'powerWrite'] as const) if (rights[flag]) missing.push(flag);
      for (const role of rights.roles) if (!seen.has(role.collection) && (role.create || role.read || role.update || role.delete)) missing.push(`roles.${role.collection}`);
    }
    if (missing.length) {
      const list = [...new Set(missing)].join(', ');
      throw forbidden('token_exceeds_permissions', `A Studio token cannot carry rights you do not hold: ${list}.`, { rights: list });
    }
    return rights;
  }

  async mint(scope: RequestScope, input: StudioTokenInput): Promise<StudioToken> {
    const userId = scope.standing.userId;
    const rights = await this.rightsFor(scope, input);
    const expiresAt = new Date(Date.now() + studioTokens.lifetimeMinutes * 60_000);
    const minted = await this.apiTokens.create(scope.organizationId, scope.projectId, userId, rights, { expiresAt, forUser: userId });
    await this.prune(scope.projectId, userId);
    return { ...minted, expiresDate: expiresAt.toISOString() };
  }

  /** Ends the member's expired Studio tokens of the project and all but the newest `perMemberMax`. */
  private async prune(projectId: string, userId: string) {
    const mine = and(eq(apiTokens.projectId, projectId), eq(apiTokens.temporaryFor, userId));
    const rows = await this.db
      .select({ id: apiTokens.id, expiresAt: apiTokens.expiresAt })
      .from(apiTokens)
      .where(mine)
      .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
    const now = Date.now();
    const alive = rows.filter((row) => !row.expiresAt || row.expiresAt.getTime() > now);
    const ended = rows.filter((row) => row.expiresAt && row.expiresAt.getTime() <= now).map((row) => row.id);
    const surplus = alive.slice(0, Math.max(0, alive.length - studioTokens.perMemberMax)).map((row) => row.id);
    const drop = [...ended, ...surplus];
    if (drop.length) await this.db.delete(apiTokens).where(and(mine, or(inArray(apiTokens.id, drop), lte(apiTokens.expiresAt, new Date(now)))));
  }

  /** Ends one of the caller's own Studio tokens of the project (404 for any other token). */
  async revoke(projectId: string, userId: string, tokenId: string) {
    const gone = await this.db
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.projectId, projectId), eq(apiTokens.temporaryFor, userId)))
      .returning({ id: apiTokens.id });
    if (gone.length === 0) throw notFound('token_not_found', 'There is no such Studio token of yours in this project.');
  }
}
