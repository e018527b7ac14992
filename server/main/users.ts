/**
 * The account lifecycle: sign-up, e-mail confirmation, sign-in, password reset, third-party
 * sign-in and the first-start super-admin. Answers never tell whether an e-mail is registered.
 */
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { formatMessage } from '../../definitions/messages/format.ts';
import type { PublicUser, QuestionnairePayload, SignupPayload } from '../../definitions/schemas/account.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { emailConfirmations, invites, memberships, passwordResets, users } from '../db/schema.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { accountDisabled, type TokenPair, type TokenService } from '../auth/tokens.ts';
import { badRequest, conflict, notFound, unauthorized } from '../lib/errors.ts';
import { hashSecret, newId, newSecret } from '../lib/ids.ts';
import type { Mailer } from '../mail/mailer.ts';
import { configuredSuperAdmins } from './access.ts';

export type UserRow = typeof users.$inferSelect;

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export class UserService {
  private readonly configuredSuperAdmins: ReadonlySet<string>;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly tokens: TokenService,
  ) {
    this.configuredSuperAdmins = configuredSuperAdmins(config);
  }

  /** A username the configuration names as super-admin (any letter case): no sign-up may take it. */
  private isReserved(username: string): boolean {
    return this.configuredSuperAdmins.has(username.toLowerCase());
  }

  private link(path: string) {
    return `${this.config.publicUrl}${path}`;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.email}) = ${normaliseEmail(email)}`);
    return row;
  }

  private async findByLogin(identifier: string): Promise<UserRow | undefined> {
    const key = identifier.trim().toLowerCase();
    const [row] = await this.db
      .select()
      .from(users)
      .where(or(sql`lower(${users.email}) = ${key}`, sql`lower(${users.username}) = ${key}`));
    return row;
  }

  /**
   * Creates an account. An e-mail that already has one gets a mail telling its owner, and the
   * caller gets the same answer as for a new account, after the same work (the password hash).
   */
  async signUp(payload: SignupPayload, inviteId?: string): Promise<void> {
    const email = normaliseEmail(payload.email);
    const username = payload.username.trim();
    const passwordHash = await hashPassword(payload.password);
    // The username is checked first: its answer (409) depends only on the name, which is public.
    // Checked after the e-mail, a taken name would answer 409 for a new e-mail and 201 for a
    // registered one, telling the two apart.
    // A name the configuration makes super-admin is reserved: only `larder admin create` makes
    // its user (docs/admin.md "Access"), or whoever signed up first would be a super-admin.
    if (this.isReserved(username)) throw conflict('username_reserved', 'This username is reserved. Choose another one.');
    const [taken] = await this.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
    if (taken) throw conflict('username_taken', 'This username is taken. Choose another one.');

    const existing = await this.findByEmail(email);
    if (existing) return this.mailExistingAccount(existing);

    const invited = inviteId ? await this.validInviteFor(inviteId, email) : false;
    const id = newId();
    try {
      await this.db.insert(users).values({ id, username, email, passwordHash, verified: invited });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Lost a race with another sign-up: answer as for an existing e-mail or a taken name.
      const winner = await this.findByEmail(email);
      if (winner) return this.mailExistingAccount(winner);
      throw conflict('username_taken', 'This username is taken. Choose another one.');
    }
    if (!invited) await this.sendConfirmation({ id, username, email });
  }

  private async mailExistingAccount(user: UserRow) {
    await this.mailer.send({
      kind: 'signup-existing',
      to: user.email,
      subject: formatMessage('mail.signupExisting.subject'),
      text: formatMessage('mail.signupExisting.text', {
        username: user.username,
        link: this.link('/login'),
        signature: formatMessage('mail.signature'),
      }),
      link: this.link('/login'),
    });
  }

  private async validInviteFor(inviteId: string, email: string): Promise<boolean> {
    const [invite] = await this.db
      .select({ id: invites.id })
      .from(invites)
      .where(
        and(
          eq(invites.id, hashSecret(inviteId)),
          sql`lower(${invites.email}) = ${email}`,
          isNull(invites.acceptedAt),
          gt(invites.expiresAt, new Date()),
        ),
      );
    return Boolean(invite);
  }

  async sendConfirmation(user: { id: string; username: string; email: string }) {
    await (await this.prepareConfirmation(user, this.db))();
  }

  /**
   * Records a new confirmation link with `db` (a transaction: the admin area's resend records its
   * audit entry with it) and answers the mail to send once that is committed.
   */
  async prepareConfirmation(user: { id: string; username: string; email: string }, db: Pick<Db, 'insert'>): Promise<() => Promise<void>> {
    const secret = newSecret();
    await db.insert(emailConfirmations).values({
      idHash: hashSecret(secret),
      userId: user.id,
      email: user.email,
      expiresAt: new Date(Date.now() + this.config.confirmationTtlS * 1000),
    });
    const link = this.link(`/confirm/${secret}`);
    return () => this.mailConfirmation(user, link);
  }

  private async mailConfirmation(user: { username: string; email: string }, link: string) {
    await this.mailer.send({
      kind: 'confirm',
      to: user.email,
      subject: formatMessage('mail.confirm.subject'),
      text: formatMessage('mail.confirm.text', {
        username: user.username,
        link,
        days: Math.max(1, Math.round(this.config.confirmationTtlS / 86_400)),
        signature: formatMessage('mail.signature'),
      }),
      link,
    });
  }

  /** Confirms the signed-in user's e-mail with the id from the mail. Confirming twice is harmless. */
  async confirmEmail(userId: string, confirmationId: string) {
    const [row] = await this.db.select().from(emailConfirmations).where(eq(emailConfirmations.idHash, hashSecret(confirmationId)));
    if (!row || row.userId !== userId) throw notFound('confirmation_not_found', 'This confirmation link is not valid for the signed-in account.');
    const user = await this.getRow(userId);
    if (user.verified) return;
    if (row.usedAt || row.expiresAt.getTime() <= Date.now()) {
      throw badRequest('confirmation_expired', 'This confirmation link has expired. Ask for a new one.');
    }
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ verified: true }).where(eq(users.id, userId));
      await tx.update(emailConfirmations).set({ usedAt: new Date() }).where(eq(emailConfirmations.idHash, row.idHash));
    });
  }

  async resendConfirmation(userId: string) {
    const user = await this.getRow(userId);
    if (user.verified) throw conflict('already_verified', 'This e-mail address is already verified.');
    await this.sendConfirmation(user);
  }

  private async getRow(userId: string): Promise<UserRow> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!row) throw unauthorized('invalid_token', 'The account of this token no longer exists.');
    return row;
  }

  async me(userId: string): Promise<PublicUser> {
    const user = await this.getRow(userId);
    const orgs = await this.db.select({ id: memberships.organizationId }).from(memberships).where(eq(memberships.userId, userId));
    return {
      _id: user.id,
      username: user.username,
      email: user.email,
      organizations: orgs.map((o) => o.id),
      verified: user.verified,
      // The configured ones too: the console shows them the admin area (docs/admin.md "Access").
      superAdmin: user.superAdmin || this.configuredSuperAdmins.has(user.username.toLowerCase()),
      questionnaireCompleted: user.questionnaireAt !== null,
      createdDate: user.createdAt.toISOString(),
      lastLoggedIn: user.lastLoggedIn?.toISOString() ?? null,
    };
  }

  async saveQuestionnaire(userId: string, answers: QuestionnairePayload) {
    await this.getRow(userId);
    await this.db.update(users).set({ questionnaire: answers, questionnaireAt: new Date() }).where(eq(users.id, userId));
  }

  /** What sign-in attempts are counted under: the user's id when the name is an account's, else the name as typed. */
  async accountKey(identifier: string): Promise<string> {
    const user = await this.findByLogin(identifier);
    return user ? `user:${user.id}` : `name:${identifier.trim().toLowerCase()}`;
  }

  /** The password grant. Unverified users get tokens too: the console's login flow decides. */
  async signIn(identifier: string, password: string, clientId: string): Promise<TokenPair> {
    const user = await this.findByLogin(identifier);
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!user || !ok) throw badRequest('invalid_grant', 'The username or password is not correct.');
    // Only after the password: whether an account is disabled is no one else's business.
    if (user.disabledAt) throw accountDisabled();
    await this.db.update(users).set({ lastLoggedIn: new Date() }).where(eq(users.id, user.id));
    return this.tokens.startSession(user.id, clientId);
  }

  /** Mails a reset link when the address has an account; answers the same either way. */
  async requestPasswordReset(email: string) {
    const user = await this.findByEmail(email);
    if (!user) return;
    const secret = newSecret();
    await this.db.insert(passwordResets).values({
      tokenHash: hashSecret(secret),
      userId: user.id,
      expiresAt: new Date(Date.now() + this.config.resetTokenTtlS * 1000),
    });
    const link = this.link(`/resetPassword/${secret}`);
    await this.mailer.send({
      kind: 'reset',
      to: user.email,
      subject: formatMessage('mail.reset.subject'),
      text: formatMessage('mail.reset.text', {
        username: user.username,
        link,
        minutes: Math.max(1, Math.round(this.config.resetTokenTtlS / 60)),
        signature: formatMessage('mail.signature'),
      }),
      link,
    });
  }

  /**
   * Sets a new password with a single-use reset token. Every session of the user ends, and every
   * other outstanding reset link stops working. Owning the mailbox also proves the e-mail address.
   */
  async resetPassword(token: string, password: string): Promise<{ userId: string }> {
    const passwordHash = await hashPassword(password);
    const done = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(passwordResets)
        .where(and(eq(passwordResets.tokenHash, hashSecret(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
        .for('update');
      if (!row) return null;
      const now = new Date();
      await tx.update(users).set({ passwordHash, verified: true, passwordChangedAt: now }).where(eq(users.id, row.userId));
      await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.userId, row.userId), isNull(passwordResets.usedAt)));
      await this.tokens.revokeAllForUser(row.userId, 'password_reset', tx);
      return row.userId;
    });
    if (!done) throw badRequest('invalid_reset_token', 'This reset link is invalid, expired or already used. Ask for a new one.');
    return { userId: done };
  }

  /**
   * Signs in with a verified third-party identity; with `signup` an account is created for a
   * new e-mail. An existing account with the same verified e-mail is linked to the identity.
   */
  async thirdPartySignIn(identity: { subject: string; email: string; name?: string }, signup: boolean, clientId: string): Promise<TokenPair> {
    const email = normaliseEmail(identity.email);
    let [user] = await this.db.select().from(users).where(eq(users.googleSubject, identity.subject));
    if (user?.disabledAt) throw accountDisabled();
    if (!user) {
      const byEmail = await this.findByEmail(email);
      // Refused before the identity is linked: a disabled account changes no further.
      if (byEmail?.disabledAt) throw accountDisabled();
      if (byEmail) {
        await this.db.transaction(async (tx) => {
          const [row] = await tx.select({ verified: users.verified }).from(users).where(eq(users.id, byEmail.id)).for('update');
          if (row && !row.verified) await this.takeOverUnproved(byEmail.id, tx);
          await tx.update(users).set({ googleSubject: identity.subject, verified: true }).where(eq(users.id, byEmail.id));
        });
        user = byEmail;
      }
    }
    if (!user) {
      if (!signup) throw notFound('account_not_found', 'No account uses this identity yet. Sign up first.');
      const id = newId();
      const username = await this.freeUsername(email.split('@')[0] ?? 'user');
      try {
        await this.db.insert(users).values({ id, username, email, verified: true, googleSubject: identity.subject });
      } catch (error) {
        // Two sign-ups with one identity at once: the other one made the account; use it.
        if (!isUniqueViolation(error)) throw error;
        return this.thirdPartySignIn(identity, false, clientId);
      }
      [user] = await this.db.select().from(users).where(eq(users.id, id));
    }
    await this.db.update(users).set({ lastLoggedIn: new Date() }).where(eq(users.id, user!.id));
    return this.tokens.startSession(user!.id, clientId);
  }

  /**
   * An account nobody had proved the e-mail of is now proved by its owner: whoever registered it
   * may have been someone else (pre-hijacking; docs/security.md), so nothing they hold stays —
   * the password goes, every session ends (refresh tokens refused; access tokens too, as session
   * revocation is checked on every request) and every open reset link dies. Run in the caller's
   * transaction with the user's row locked.
   */
  private async takeOverUnproved(userId: string, tx: Db) {
    const now = new Date();
    await tx.update(users).set({ passwordHash: null, passwordChangedAt: now }).where(eq(users.id, userId));
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    await this.tokens.revokeAllForUser(userId, 'email_proved_by_owner', tx);
  }

  /**
   * A username nobody has, from `seed`: else with a random suffix. A reserved name (a configured
   * super-admin's) counts as taken unless `mayTakeReserved` (the first administrator, whom the
   * configuration itself makes).
   */
  private async freeUsername(seed: string, mayTakeReserved = false): Promise<string> {
    const base = (seed.replace(/[^A-Za-z0-9_.-]/g, '').replace(/^[^A-Za-z0-9]+/, '') || 'user').slice(0, 30).padEnd(3, '0');
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate = attempt === 0 ? base : `${base}-${newId().slice(0, 6)}`;
      if (!mayTakeReserved && this.isReserved(candidate)) continue;
      const [taken] = await this.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${candidate.toLowerCase()}`);
      if (!taken) return candidate;
    }
    return `user-${newId()}`;
  }

  /** First start: a verified platform super-admin from ADMIN_EMAIL / ADMIN_PASSWORD, when none has that e-mail. */
  async bootstrapAdmin(): Promise<'created' | 'exists' | 'skipped'> {
    const { adminEmail, adminPassword } = this.config;
    if (!adminEmail || !adminPassword) return 'skipped';
    if (await this.findByEmail(adminEmail)) return 'exists';
    const username = await this.freeUsername(this.config.adminUsername, true);
    try {
      await this.db.insert(users).values({
        id: newId(),
        username,
        email: normaliseEmail(adminEmail),
        passwordHash: await hashPassword(adminPassword),
        verified: true,
        superAdmin: true,
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'exists';
      throw error;
    }
    return 'created';
  }
}
