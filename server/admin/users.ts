/**
 * Users of the whole platform (docs/admin.md "Users"): the server-paged list with search, filters
 * and sorts, and the actions on one user — disable and enable, grant and revoke super-admin,
 * resend the e-mail confirmation. Each action records itself in the audit log in the transaction
 * that makes the change; the command line calls the same methods with its own actor.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AdminUserSort } from '../../definitions/admin.ts';
import type { AdminUser, AdminUserPage, AdminUserQuery } from '../../definitions/schemas/admin.ts';
import type { Db } from '../db/index.ts';
import { memberships, organizations, users } from '../db/schema.ts';
import { conflict, notFound } from '../lib/errors.ts';
import type { AuditActor } from './audit.ts';
import type { AdminDeps } from './deps.ts';

type UserRow = typeof users.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** How many of a user's organizations a row names (the rest only counted). */
const organizationsShown = 5;

/** `like` pattern of a literal substring. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const userNotFound = () => notFound('user_not_found', 'There is no such user.');
const notSelf = () => conflict('not_self_admin', 'You cannot disable yourself or take away your own super-admin rights.');
/** The configuration names them: neither revoked nor disabled from the console (docs/admin.md "Users"). */
const configuredRefusal = (what: string) =>
  conflict('configured_super_admin', `This user is a super-admin by the configuration (SUPER_ADMIN_USERNAMES) and cannot be ${what} here; change it there.`);

/** What an audit entry keeps of a user before and after an action. */
const auditState = (row: Pick<UserRow, 'username' | 'email' | 'verified' | 'superAdmin' | 'disabledAt'>) => ({
  username: row.username,
  email: row.email,
  verified: row.verified,
  superAdmin: row.superAdmin,
  disabled: row.disabledAt !== null,
});

export class AdminUserService {
  constructor(private readonly deps: AdminDeps) {}

  private get db() {
    return this.deps.ctx.database.db;
  }

  /**
   * One page of users with the total. Every filter and sort is one statement over `users` (the
   * search uses the trigram indexes of migration 0028); the page's organizations are one more
   * statement for its rows only.
   */
  async list(query: AdminUserQuery): Promise<AdminUserPage> {
    const read = this.deps.ctx.database.read;
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 50;
    const configured = this.deps.ctx.access.configuredSuperAdminUsernames();
    const filters: SQL[] = [];
    const search = query.search?.trim();
    if (search) {
      const pattern = containing(search);
      filters.push(or(sql`lower(${users.username}) like ${pattern}`, sql`lower(${users.email}) like ${pattern}`)!);
    }
    if (query.verified !== undefined) filters.push(eq(users.verified, query.verified));
    if (query.disabled !== undefined) filters.push(query.disabled ? isNotNull(users.disabledAt) : isNull(users.disabledAt));
    if (query.superAdmin !== undefined) {
      // Super-admins either way: granted in the database or named by the configuration.
      const effective = configured.length ? or(eq(users.superAdmin, true), inArray(sql`lower(${users.username})`, configured))! : eq(users.superAdmin, true);
      filters.push(query.superAdmin ? effective : sql`not (${effective})`);
    }
    const where = filters.length ? and(...filters) : undefined;
    const direction = query.order === 'asc' ? asc : desc;
    const sortColumns: Record<AdminUserSort, SQL | AnyPgColumn> = {
      createdDate: users.createdAt,
      email: sql`lower(${users.email})`,
      username: sql`lower(${users.username})`,
      lastLoggedIn: users.lastLoggedIn,
    };
    const sort = query.sort ?? 'createdDate';
    // Never signed in sorts after everyone who did, whichever the direction.
    const nullsLast = sort === 'lastLoggedIn' ? [sql`${users.lastLoggedIn} is null`] : [];
    const [rows, [total]] = await Promise.all([
      read
        .select()
        .from(users)
        .where(where)
        .orderBy(...nullsLast, direction(sortColumns[sort]), direction(users.id))
        .limit(perPage)
        .offset((page - 1) * perPage),
      read.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
    ]);
    const orgs = await this.organizationsOf(
      read,
      rows.map((r) => r.id),
    );
    return { users: rows.map((row) => this.view(row, orgs.get(row.id))), total: Number(total?.n ?? 0), page, perPage };
  }

  /** One user as the list shows them. */
  async get(userId: string): Promise<AdminUser> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!row) throw userNotFound();
    return this.view(row, (await this.organizationsOf(this.db, [userId])).get(userId));
  }

  /**
   * Disables or enables a user. Disabling revokes every session in the same transaction, so the
   * user's access tokens are refused at once in every process (the sessions cache's trigger) and
   * their live streams end (each re-checks its token when the session changes); sign-in is
   * refused from then on (server/auth/tokens.ts `accountDisabled`). A super-admin the
   * configuration names cannot be disabled (409 `configured_super_admin`). A call that changes
   * nothing records nothing.
   */
  async setDisabled(actor: AuditActor, userId: string, disabled: boolean): Promise<AdminUser> {
    if (actor.id === userId) throw notSelf();
    await this.db.transaction(async (tx) => {
      const row = await this.lockUser(tx, userId);
      // Another super-admin could otherwise lock the installation's configured operators out of the console.
      if (disabled && this.deps.ctx.access.isConfiguredSuperAdmin(row.username)) throw configuredRefusal('disabled');
      if ((row.disabledAt !== null) === disabled) return;
      const disabledAt = disabled ? new Date() : null;
      await tx.update(users).set({ disabledAt }).where(eq(users.id, userId));
      if (disabled) await this.deps.ctx.tokens.revokeAllForUser(userId, 'account_disabled', tx);
      await this.deps.audit.record(tx, actor, {
        action: disabled ? 'user.disable' : 'user.enable',
        targetKind: 'user',
        targetId: userId,
        before: auditState(row),
        after: auditState({ ...row, disabledAt }),
      });
    });
    return this.get(userId);
  }

  /** Grants or revokes super-admin in the database; one the configuration names cannot be revoked here. */
  async setSuperAdmin(actor: AuditActor, userId: string, superAdmin: boolean): Promise<AdminUser> {
    if (actor.id === userId) throw notSelf();
    await this.db.transaction(async (tx) => {
      const row = await this.lockUser(tx, userId);
      if (!superAdmin && this.deps.ctx.access.isConfiguredSuperAdmin(row.username)) {
        throw configuredRefusal('revoked');
      }
      if (row.superAdmin === superAdmin) return;
      await tx.update(users).set({ superAdmin }).where(eq(users.id, userId));
      await this.deps.audit.record(tx, actor, {
        action: superAdmin ? 'user.grantSuperAdmin' : 'user.revokeSuperAdmin',
        targetKind: 'user',
        targetId: userId,
        before: auditState(row),
        after: auditState({ ...row, superAdmin }),
      });
    });
    return this.get(userId);
  }

  /** Mails a new confirmation link, as sign-up does; 409 `already_verified` for a verified user. */
  async resendVerification(actor: AuditActor, userId: string): Promise<void> {
    const send = await this.db.transaction(async (tx) => {
      const row = await this.lockUser(tx, userId);
      if (row.verified) throw conflict('already_verified', 'This e-mail address is already verified.');
      const mail = await this.deps.ctx.users.prepareConfirmation(row, tx);
      await this.deps.audit.record(tx, actor, {
        action: 'user.resendVerification',
        targetKind: 'user',
        targetId: userId,
        before: auditState(row),
        after: { ...auditState(row), mailedTo: row.email },
      });
      return mail;
    });
    // After the commit: the link in the mail must already work.
    await send();
  }

  private async lockUser(tx: Tx, userId: string): Promise<UserRow> {
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!row) throw userNotFound();
    return row;
  }

  /** The first organizations by name and the count, per user, in one statement. */
  private async organizationsOf(db: Db, userIds: string[]) {
    const found = new Map<string, { shown: { id: string; name: string }[]; count: number }>();
    if (!userIds.length) return found;
    const ranked = db
      .select({
        userId: memberships.userId,
        id: organizations.id,
        name: organizations.name,
        count: sql<number>`count(*) over (partition by ${memberships.userId})`.as('count'),
        rank: sql<number>`row_number() over (partition by ${memberships.userId} order by lower(${organizations.name}), ${organizations.id})`.as('rank'),
      })
      .from(memberships)
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .where(inArray(memberships.userId, userIds))
      .as('ranked');
    const rows = await db
      .select()
      .from(ranked)
      .where(sql`${ranked.rank} <= ${organizationsShown}`)
      .orderBy(ranked.userId, ranked.rank);
    for (const row of rows) {
      let entry = found.get(row.userId);
      if (!entry) found.set(row.userId, (entry = { shown: [], count: Number(row.count) }));
      entry.shown.push({ id: row.id, name: row.name });
    }
    return found;
  }

  private view(row: UserRow, orgs: { shown: { id: string; name: string }[]; count: number } | undefined): AdminUser {
    return {
      id: row.id,
      username: row.username,
      email: row.email,
      verified: row.verified,
      superAdmin: row.superAdmin,
      configuredSuperAdmin: this.deps.ctx.access.isConfiguredSuperAdmin(row.username),
      disabled: row.disabledAt !== null,
      disabledDate: row.disabledAt?.toISOString() ?? null,
      organizations: orgs?.shown ?? [],
      organizationCount: orgs?.count ?? 0,
      createdDate: row.createdAt.toISOString(),
      lastLoggedIn: row.lastLoggedIn?.toISOString() ?? null,
    };
  }
}
