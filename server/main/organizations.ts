/**
 * Organizations, their members and invitations, and seats. Permission checks happen in the
 * routes (AccessService) before these are called; rules about people (not oneself, seats, the
 * invite's e-mail) are checked here.
 */
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { formatMessage } from '../../definitions/messages/format.ts';
import { expandWrite, invitePermissions, normalisePermissions, ownerPermissions, type MemberPermissions } from '../../definitions/permissions.ts';
import { platform } from '../../definitions/platform.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { apiTokens, billingAccounts, invites, memberships, organizations, projects, users } from '../db/schema.ts';
import { conflict, forbidden, notFound } from '../lib/errors.ts';
import { hashSecret, newId, newSecret } from '../lib/ids.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Member, Organization } from '../../definitions/schemas/organization.ts';
import { contentDropped } from '../content/drops.ts';
import { billingEnforcedSql } from '../billing/enforcement.ts';

const lower = (email: string) => email.trim().toLowerCase();

export class OrganizationService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly mailer: Mailer,
  ) {}

  async create(userId: string, name: string): Promise<Organization> {
    const id = newId();
    await this.db.transaction(async (tx) => {
      await tx.insert(organizations).values({ id, name: name.trim() });
      await tx.insert(memberships).values({ organizationId: id, userId, permissions: ownerPermissions });
      await tx.insert(billingAccounts).values({ organizationId: id, seats: platform.defaultSeats });
    });
    return this.view(id);
  }

  async view(organizationId: string, withProjects = true): Promise<Organization> {
    const [org] = await this.db
      .select({
        id: organizations.id,
        name: organizations.name,
        createdAt: organizations.createdAt,
        seats: billingAccounts.seats,
        failedAt: billingAccounts.initialBillingFailedDate,
        enforced: sql<boolean>`${billingEnforcedSql(sql`${organizations.id}`)}`,
      })
      .from(organizations)
      .leftJoin(billingAccounts, eq(billingAccounts.organizationId, organizations.id))
      .where(eq(organizations.id, organizationId));
    if (!org) throw notFound('organization_not_found', 'There is no such organization.');
    const projectRows = withProjects
      ? await this.db
          .select({ id: projects.id, name: projects.name, description: projects.description })
          .from(projects)
          .where(eq(projects.organizationId, organizationId))
          .orderBy(asc(projects.createdAt), asc(projects.id))
      : [];
    return {
      id: org.id,
      name: org.name,
      createdDate: org.createdAt.toISOString(),
      seats: org.seats ?? platform.defaultSeats,
      // With BILLING=0 no organization is ever behind on billing (docs/billing.md "Self-hosting without billing"),
      // nor while soft launch leaves it out of billing (docs/admin.md "Soft launch").
      initialBillingFailedDate: this.config.billing.enabled && org.enforced !== false && org.failedAt ? org.failedAt.toISOString() : null,
      projects: projectRows,
      users: await this.members(organizationId),
    };
  }

  async members(organizationId: string): Promise<Member[]> {
    const active = await this.db
      .select({ email: users.email, username: users.username, permissions: memberships.permissions })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.organizationId, organizationId))
      .orderBy(asc(memberships.createdAt));
    const pending = await this.pendingInvites(organizationId);
    return [
      ...active.map((m) => ({ email: m.email, username: m.username, userName: m.username, status: 'active' as const, permissions: normalisePermissions(m.permissions as Record<string, unknown>) })),
      ...pending.map((i) => ({ email: i.email, username: null, userName: null, status: 'invited' as const, permissions: normalisePermissions(i.permissions as Record<string, unknown>) })),
    ];
  }

  private pendingInvites(organizationId: string, db: Db = this.db) {
    return db
      .select()
      .from(invites)
      .where(and(eq(invites.organizationId, organizationId), isNull(invites.acceptedAt), gt(invites.expiresAt, new Date())))
      .orderBy(asc(invites.createdAt));
  }

  /** The organizations a user belongs to, optionally only some of them. */
  async listForUser(userId: string, only: string[] | undefined, withProjects: boolean): Promise<Organization[]> {
    const rows = await this.db
      .select({ id: memberships.organizationId })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), only ? inArray(memberships.organizationId, only) : undefined))
      .orderBy(asc(memberships.createdAt));
    return Promise.all(rows.map((r) => this.view(r.id, withProjects)));
  }

  async rename(organizationId: string, name: string) {
    await this.db.update(organizations).set({ name: name.trim() }).where(eq(organizations.id, organizationId));
    return this.view(organizationId);
  }

  async delete(organizationId: string) {
    await this.db.delete(organizations).where(eq(organizations.id, organizationId));
    contentDropped(this.db, { orphanedProjects: true });
  }

  /**
   * Invites people by e-mail. All or nothing: an address that is already a member, or more
   * invitations than free seats, refuses the whole request. Inviting a pending address again
   * renews its invitation with the new flags.
   */
  async invite(organizationId: string, inviterId: string, entries: { email: string; permissions: Partial<MemberPermissions> }[]) {
    const wanted = new Map<string, MemberPermissions>();
    for (const entry of entries) wanted.set(lower(entry.email), invitePermissions(entry.permissions));
    const emails = [...wanted.keys()];
    const secrets = new Map<string, string>();

    await this.db.transaction(async (tx) => {
      // One invitation round at a time per organization, so two rounds cannot both take the last seat.
      await tx.select({ id: billingAccounts.organizationId }).from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId)).for('update');
      const members = await tx
        .select({ email: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.organizationId, organizationId), inArray(sql`lower(${users.email})`, emails)));
      if (members.length) {
        const emails = members.map((m) => m.email).join(', ');
        throw conflict('already_member', `Already a member: ${emails}.`, { emails });
      }
      const pending = await this.pendingInvites(organizationId, tx as unknown as Db);
      const renewing = new Set(pending.filter((p) => wanted.has(lower(p.email))).map((p) => lower(p.email)));
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(memberships)
        .where(eq(memberships.organizationId, organizationId));
      const [account] = await tx.select({ seats: billingAccounts.seats }).from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
      const seats = account?.seats ?? platform.defaultSeats;
      const needed = Number(count) + pending.length + (emails.length - renewing.size);
      if (needed > seats) throw conflict('no_seats', formatMessage('seats.exhausted'));

      const expiresAt = new Date(Date.now() + platform.inviteTtlDays * 86_400_000);
      for (const email of emails) {
        const secret = newSecret();
        secrets.set(email, secret);
        if (renewing.has(email)) {
          await tx
            .update(invites)
            .set({ id: hashSecret(secret), permissions: wanted.get(email)!, expiresAt })
            .where(and(eq(invites.organizationId, organizationId), isNull(invites.acceptedAt), sql`lower(${invites.email}) = ${email}`));
        } else {
          await tx.insert(invites).values({ id: hashSecret(secret), organizationId, email, permissions: wanted.get(email)!, expiresAt });
        }
      }
    });

    const [org] = await this.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
    const [inviter] = await this.db.select({ username: users.username }).from(users).where(eq(users.id, inviterId));
    for (const [email, secret] of secrets) {
      const link = `${this.config.publicUrl}/join/${secret}`;
      await this.mailer.send({
        kind: 'invite',
        to: email,
        subject: formatMessage('mail.invite.subject', { organization: org?.name ?? '' }),
        text: formatMessage('mail.invite.text', {
          inviter: inviter?.username ?? '',
          organization: org?.name ?? '',
          link,
          days: platform.inviteTtlDays,
          signature: formatMessage('mail.signature'),
        }),
        link,
      });
    }
    return this.members(organizationId);
  }

  /** Changes a member's (or a pending invitation's) flags; write expands to create, update and delete. */
  async editMember(organizationId: string, actorId: string, email: string, flags: Partial<MemberPermissions>) {
    const permissions = expandWrite(flags);
    permissions.read = true;
    const target = await this.findMember(organizationId, email);
    if (target?.userId === actorId) throw forbidden('not_self', 'You cannot change your own permissions.');
    if (target) {
      await this.db.transaction(async (tx) => {
        await tx
          .update(memberships)
          .set({ permissions })
          .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, target.userId)));
        await endStudioTokens(tx, organizationId, target.userId);
      });
      return this.members(organizationId);
    }
    const updated = await this.db
      .update(invites)
      .set({ permissions })
      .where(and(eq(invites.organizationId, organizationId), isNull(invites.acceptedAt), sql`lower(${invites.email}) = ${lower(email)}`))
      .returning({ id: invites.id });
    if (!updated.length) throw notFound('member_not_found', 'No member or invitation with this e-mail address.');
    return this.members(organizationId);
  }

  /** Removes a member or withdraws an invitation; returns the name to show. */
  async removeMember(organizationId: string, actorId: string, email: string): Promise<string> {
    const target = await this.findMember(organizationId, email);
    if (target?.userId === actorId) throw forbidden('not_self', 'You cannot remove yourself.');
    if (target) {
      await this.db.transaction(async (tx) => {
        await tx.delete(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, target.userId)));
        await endStudioTokens(tx, organizationId, target.userId);
      });
      return target.username;
    }
    const removed = await this.db
      .delete(invites)
      .where(and(eq(invites.organizationId, organizationId), isNull(invites.acceptedAt), sql`lower(${invites.email}) = ${lower(email)}`))
      .returning({ email: invites.email });
    if (!removed.length) throw notFound('member_not_found', 'No member or invitation with this e-mail address.');
    return removed[0]!.email;
  }

  private async findMember(organizationId: string, email: string) {
    const [row] = await this.db
      .select({ userId: users.id, username: users.username })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.organizationId, organizationId), sql`lower(${users.email}) = ${lower(email)}`));
    return row;
  }

  async addSeats(organizationId: string, count: number): Promise<number> {
    const [row] = await this.db
      .insert(billingAccounts)
      .values({ organizationId, seats: platform.defaultSeats + count })
      .onConflictDoUpdate({ target: billingAccounts.organizationId, set: { seats: sql`${billingAccounts.seats} + ${count}` } })
      .returning({ seats: billingAccounts.seats });
    return row!.seats;
  }

  private async openInvite(secret: string, db: Db = this.db) {
    const [invite] = await db
      .select({ id: invites.id, email: invites.email, organizationId: invites.organizationId, permissions: invites.permissions })
      .from(invites)
      .where(and(eq(invites.id, hashSecret(secret)), isNull(invites.acceptedAt), gt(invites.expiresAt, new Date())));
    return invite;
  }

  /** What the join page needs: whose invitation it is and whether that person already has a verified account. */
  async readInvite(secret: string) {
    const invite = await this.openInvite(secret);
    if (!invite) throw notFound('invite_not_found', formatMessage('invite.notFound'));
    const [user] = await this.db.select({ verified: users.verified }).from(users).where(sql`lower(${users.email}) = ${lower(invite.email)}`);
    const [org] = await this.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, invite.organizationId));
    return { email: invite.email, verified: user?.verified ?? false, organizationID: invite.organizationId, organizationName: org?.name ?? '' };
  }

  /** Accepts an invitation for the signed-in user, whose e-mail must be the invited one. Once only. */
  async acceptInvite(secret: string, userId: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      const [invite] = await tx
        .select()
        .from(invites)
        .where(and(eq(invites.id, hashSecret(secret)), isNull(invites.acceptedAt), gt(invites.expiresAt, new Date())))
        .for('update');
      if (!invite) throw notFound('invite_not_found', formatMessage('invite.notFound'));
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (!user || lower(user.email) !== lower(invite.email)) {
        throw forbidden('invite_other_email', 'This invitation was sent to another e-mail address.');
      }
      await tx
        .insert(memberships)
        .values({ organizationId: invite.organizationId, userId, permissions: invite.permissions })
        .onConflictDoNothing();
      await tx.update(invites).set({ acceptedAt: new Date() }).where(eq(invites.id, invite.id));
      // The link in the invitation reached this mailbox: the address is proven.
      await tx.update(users).set({ verified: true }).where(eq(users.id, userId));
      return invite.organizationId;
    });
  }
}

/**
 * A member's Studio tokens in an organization end when their membership changes or ends: a token
 * minted with the rights they had must not outlive them (docs/studio.md).
 */
async function endStudioTokens(db: Pick<Db, 'delete'>, organizationId: string, userId: string) {
  await db.delete(apiTokens).where(and(eq(apiTokens.organizationId, organizationId), eq(apiTokens.temporaryFor, userId)));
}
