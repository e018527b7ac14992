/**
 * Project users (Bagel Auth, the authentication service of apps; docs/end-users.md): the end users
 * of apps built on a project. Sign-up, sign-in by e-mail or phone and password, one-time codes by
 * e-mail or SMS, password reset by mailed link, the User Admin's password change, and the
 * console's list/view/delete. Tokens: server/auth/end-user-tokens.ts.
 *
 * No enumeration where it matters: a sign-up of a taken e-mail (409, which the client needs to
 * tell apart from a 201 with tokens) costs the same argon2 work as a new one; a wrong password and
 * an unknown user cost the same; reset requests answer alike. A one-time code allows a few
 * attempts, then its nonce dies.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, count, eq, gt, ilike, isNull, lt, or } from 'drizzle-orm';
import { formatMessage } from '../../definitions/messages/format.ts';
import { defaultMailTemplates, mailKindOfTemplate, mailLimits, type MailTemplateKind } from '../../definitions/mail.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { projects, projectUserOtps, projectUserResets, projectUsers, projectUserVerifications } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../lib/errors.ts';
import { hashSecret, newId, newSecret } from '../lib/ids.ts';
import type { Mailer } from '../mail/mailer.ts';
import { renderTemplate } from '../mail/templates.ts';
import type { SmsProvider } from '../mail/sms.ts';
import type { EndUserClaims, EndUserTokenPair, EndUserTokenService } from './end-user-tokens.ts';
import type { ServerKeys } from './keys.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { ProjectUser, ProjectUserPage } from '../../definitions/schemas/project-user.ts';

/** One-time codes: how long they live, how many wrong tries kill the nonce, how often one may be resent. */
export const otpRules = { ttlS: 300, maxAttempts: 5, maxResends: 3, digits: 6 } as const;


/** An e-mail or a phone number naming a user (exactly one). */
export type Identity = { email: string } | { phone: string };

/** What sends a project's app-user mails with its templates and sender (server/mail/project-mail.ts). */
export interface ProjectMailSender {
  send(projectId: string, kind: MailTemplateKind, to: string, values: Record<string, string | number>, link?: string): Promise<void>;
  verifyOnSignup(projectId: string): Promise<boolean>;
}

export interface UsageCounter {
  add(organizationId: string, metric: 'BagelAuthUsers' | 'SMSOTPCount', amount?: number): unknown;
}

type UserRow = typeof projectUsers.$inferSelect;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
/** Phone numbers are kept as digits with an optional leading +; spaces, dashes, dots and brackets go. */
export const normalisePhone = (phone: string) => phone.trim().replace(/[\s\-().]/g, '');

/** The identity of an e-mail-or-phone string (the client sends phones when there is no `@`). */
export function identityOf(emailOrPhone: string): Identity {
  const value = emailOrPhone.trim().toLowerCase();
  if (value.includes('@')) {
    if (!EMAIL.test(value) || value.length > 254) throw badRequest('invalid_email', 'This is not a valid e-mail address.');
    return { email: value };
  }
  const phone = normalisePhone(value);
  if (!/^\+?[0-9]{5,20}$/.test(phone)) throw badRequest('invalid_phone', 'This is not a valid e-mail address or phone number.');
  return { phone };
}

/** The identity of a body holding `email` or `phone` (exactly one). */
export function identityFrom(body: { email?: string | undefined; phone?: string | undefined }): Identity {
  if (body.email !== undefined && body.phone !== undefined) throw badRequest('invalid_request', 'Send an e-mail address or a phone number, not both.');
  if (body.email !== undefined) {
    const identity = identityOf(body.email);
    if (!('email' in identity)) throw badRequest('invalid_email', 'This is not a valid e-mail address.');
    return identity;
  }
  if (body.phone !== undefined) {
    const identity = identityOf(body.phone);
    if (!('phone' in identity)) throw badRequest('invalid_phone', 'This is not a valid phone number.');
    return identity;
  }
  throw badRequest('invalid_request', 'An e-mail address or a phone number is required.');
}

const toView = (row: UserRow): ProjectUser => ({
  userID: row.id,
  email: row.email,
  phone: row.phone,
  verified: row.verified,
  createdDate: row.createdAt.toISOString(),
  lastLoggedIn: row.lastLoggedIn?.toISOString() ?? null,
  userGroups: row.userGroups,
});

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

const identityWhere = (projectId: string, identity: Identity) =>
  'email' in identity
    ? and(eq(projectUsers.projectId, projectId), eq(projectUsers.email, identity.email))
    : and(eq(projectUsers.projectId, projectId), eq(projectUsers.phone, identity.phone));

export class EndUserService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly keys: ServerKeys,
    private readonly tokens: EndUserTokenService,
    private readonly mailer: Mailer,
    private readonly sms: SmsProvider,
    /** Usage metering, when the process has it (looked up at each count). */
    private readonly usage: () => UsageCounter | undefined = () => undefined,
  ) {}

  private projectMail: ProjectMailSender | undefined;

  /** The project templates and sender settings the app users' mails go out with (docs/mail.md). */
  useProjectMail(sender: ProjectMailSender): void {
    this.projectMail = sender;
  }

  /** Mails an app user with the project's template of `kind` (without a project mail service: the default text, the installation's sender). */
  private async mailUser(projectId: string, kind: MailTemplateKind, to: string, values: Record<string, string | number>, link?: string): Promise<void> {
    if (this.projectMail) return this.projectMail.send(projectId, kind, to, values, link);
    const rendered = await renderTemplate(defaultMailTemplates[kind], values);
    await this.mailer.send({ kind: mailKindOfTemplate[kind], to, ...rendered, projectId, template: kind, ...(link ? { link } : {}) });
  }

  /** For `/auth/public` and the public API: the claims of a project-user access token (see EndUserTokenService.verify). */
  verifyAccessToken(jwt: string): Promise<EndUserClaims | null> {
    return this.tokens.verify(jwt);
  }

  /** Rotates a refresh token of a session of the project (401 when refused). */
  refreshTokens(raw: string, projectId: string): Promise<EndUserTokenPair> {
    return this.tokens.refresh(raw, projectId);
  }

  private async project(projectId: string): Promise<{ name: string; organizationId: string }> {
    const [row] = await this.db.select({ name: projects.name, organizationId: projects.organizationId }).from(projects).where(eq(projects.id, projectId));
    if (!row) throw notFound('project_not_found', 'There is no such project.');
    return row;
  }

  private async count(projectId: string, metric: 'BagelAuthUsers' | 'SMSOTPCount') {
    const usage = this.usage();
    if (!usage) return;
    const { organizationId } = await this.project(projectId);
    usage.add(organizationId, metric, 1);
  }

  private async find(projectId: string, identity: Identity): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(projectUsers).where(identityWhere(projectId, identity));
    return row;
  }

  /**
   * Creates a user and signs them in (201 with tokens). A taken e-mail or phone is 409 after the
   * same hashing work. `groupId` is the group the caller's API token gives new users (null: none).
   */
  async signUp(projectId: string, identity: Identity, password: string, groupId: string | null, apiTokenId: string | null): Promise<EndUserTokenPair> {
    const started = performance.now();
    const passwordHash = await hashPassword(password);
    const id = newId();
    try {
      await this.db.insert(projectUsers).values({
        id,
        projectId,
        email: 'email' in identity ? identity.email : null,
        phone: 'phone' in identity ? identity.phone : null,
        passwordHash,
        userGroups: groupId ? [groupId] : [],
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        // A new sign-up also writes its session: answer no sooner than sign-ups take here lately.
        const wait = this.signUpMs - (performance.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 2000)));
        throw conflict('user_exists', 'A user with this e-mail address or phone number already exists in this project.');
      }
      throw error;
    }
    await this.count(projectId, 'BagelAuthUsers');
    const pair = await this.tokens.startSession(projectId, id, apiTokenId);
    const took = performance.now() - started;
    this.signUpMs = this.signUpMs === 0 ? took : this.signUpMs * 0.8 + took * 0.2;
    return pair;
  }

  /** How long a successful sign-up takes in this process (a moving average, milliseconds). */
  private signUpMs = 0;

  /** Signs in with e-mail or phone and password; a wrong pair is 400 (never 401, which means only a bad bearer). */
  async signIn(projectId: string, identity: Identity, password: string, apiTokenId: string | null): Promise<EndUserTokenPair> {
    const user = await this.find(projectId, identity);
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!user || !ok) throw badRequest('invalid_grant', 'The e-mail address, phone number or password is not correct.');
    return this.tokens.startSession(projectId, user.id, apiTokenId);
  }

  async get(projectId: string, userId: string): Promise<ProjectUser> {
    const [row] = await this.db.select().from(projectUsers).where(and(eq(projectUsers.projectId, projectId), eq(projectUsers.id, userId)));
    if (!row) throw notFound('project_user_not_found', 'There is no such user in this project.');
    return toView(row);
  }

  /** A page of the project's users, oldest first; `search` matches e-mail or phone (substring, any case). */
  async list(projectId: string, page: { pageNumber: number; perPage: number; search?: string | undefined }): Promise<ProjectUserPage> {
    const term = page.search?.trim();
    const escaped = term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
    const where = escaped
      ? and(eq(projectUsers.projectId, projectId), or(ilike(projectUsers.email, escaped), ilike(projectUsers.phone, escaped)))
      : eq(projectUsers.projectId, projectId);
    const [total] = await this.db.select({ n: count() }).from(projectUsers).where(where);
    const rows =
      page.perPage === 0
        ? []
        : await this.db
            .select()
            .from(projectUsers)
            .where(where)
            .orderBy(asc(projectUsers.createdAt), asc(projectUsers.id))
            .limit(page.perPage)
            .offset((page.pageNumber - 1) * page.perPage);
    return { users: rows.map(toView), total: Number(total?.n ?? 0) };
  }

  /** Deletes a user with their sessions, codes, reset links and item links (foreign keys). */
  async delete(projectId: string, userId: string): Promise<void> {
    const gone = await this.db
      .delete(projectUsers)
      .where(and(eq(projectUsers.projectId, projectId), eq(projectUsers.id, userId)))
      .returning({ id: projectUsers.id });
    if (!gone.length) throw notFound('project_user_not_found', 'There is no such user in this project.');
  }

  /**
   * Replaces a user's groups (ids already checked to be groups of the project). `check` sees the
   * groups the user has now, read under a row lock in the same transaction, and may refuse by
   * throwing (the caller's rights over the groups added: docs/end-users.md), so a concurrent change
   * of the user's groups cannot slip between the check and the write.
   */
  async setGroups(projectId: string, userId: string, groupIds: string[], check?: (current: string[]) => void): Promise<ProjectUser> {
    return this.db.transaction(async (tx) => {
      const where = and(eq(projectUsers.projectId, projectId), eq(projectUsers.id, userId));
      const [current] = await tx.select({ userGroups: projectUsers.userGroups }).from(projectUsers).where(where).for('update');
      if (!current) throw notFound('project_user_not_found', 'There is no such user in this project.');
      check?.(current.userGroups);
      const [row] = await tx.update(projectUsers).set({ userGroups: groupIds }).where(where).returning();
      return toView(row!);
    });
  }

  /**
   * A user a project member adds by hand (the console's Users screen, docs/console.md "Project
   * users"): e-mail and password, verified when the member says so; no session is started. A
   * taken e-mail is 409. Counted like a sign-up.
   */
  async add(projectId: string, email: string, password: string, verified: boolean): Promise<ProjectUser> {
    // Only an address: without an '@' identityOf would read a phone number.
    const identity = email.includes('@') ? identityOf(email) : undefined;
    if (!identity || !('email' in identity)) throw badRequest('invalid_email', 'This is not a valid e-mail address.');
    const passwordHash = await hashPassword(password);
    try {
      const [row] = await this.db
        .insert(projectUsers)
        .values({ id: newId(), projectId, email: identity.email, phone: null, passwordHash, verified, userGroups: [] })
        .returning();
      await this.count(projectId, 'BagelAuthUsers');
      return toView(row!);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('user_exists', 'A user with this e-mail address already exists in this project.');
      throw error;
    }
  }

  /**
   * Mails a reset link to the console's public page `/bagel-auth-reset-password/{resetID}` when
   * the address belongs to a user of the project; answers the same either way.
   */
  async requestPasswordReset(projectId: string, email: string): Promise<void> {
    const identity = identityOf(email);
    if (!('email' in identity)) return;
    const user = await this.find(projectId, identity);
    if (!user?.email) return;
    const project = await this.project(projectId);
    const secret = newSecret();
    await this.db.insert(projectUserResets).values({
      tokenHash: hashSecret(secret),
      projectId,
      userId: user.id,
      expiresAt: new Date(Date.now() + this.config.resetTokenTtlS * 1000),
    });
    const link = `${this.config.publicUrl}/bagel-auth-reset-password/${secret}`;
    const minutes = Math.max(1, Math.round(this.config.resetTokenTtlS / 60));
    await this.mailUser(projectId, 'reset', user.email, { email: user.email, link, project: project.name, minutes }, link);
  }

  /**
   * After a sign-up with an e-mail address (once answered): mails the user a link to the console's
   * public page `/bagel-auth-verify-email/{verifyID}` while the project's `verifyOnSignup` is on.
   */
  async sendVerification(projectId: string, userId: string): Promise<void> {
    if (this.projectMail && !(await this.projectMail.verifyOnSignup(projectId))) return;
    const [user] = await this.db.select().from(projectUsers).where(and(eq(projectUsers.projectId, projectId), eq(projectUsers.id, userId)));
    if (!user?.email || user.verified) return;
    const project = await this.project(projectId);
    const secret = newSecret();
    const hours = mailLimits.verificationTtlHours;
    await this.db.insert(projectUserVerifications).values({ tokenHash: hashSecret(secret), projectId, userId, expiresAt: new Date(Date.now() + hours * 3_600_000) });
    const link = `${this.config.publicUrl}/bagel-auth-verify-email/${secret}`;
    await this.mailUser(projectId, 'verification', user.email, { email: user.email, link, project: project.name, hours }, link);
  }

  /** Verifies an app user's address with a mailed link's id: once, before it expires. Answers the project's name. */
  async verifyEmail(verifyId: string): Promise<{ projectId: string; project: string }> {
    const done = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(projectUserVerifications)
        .where(and(eq(projectUserVerifications.tokenHash, hashSecret(verifyId)), isNull(projectUserVerifications.usedAt), gt(projectUserVerifications.expiresAt, new Date())))
        .for('update');
      if (!row) return null;
      const now = new Date();
      await tx.update(projectUsers).set({ verified: true }).where(eq(projectUsers.id, row.userId));
      // Every other link of the user is spent with this one.
      await tx
        .update(projectUserVerifications)
        .set({ usedAt: now })
        .where(and(eq(projectUserVerifications.userId, row.userId), isNull(projectUserVerifications.usedAt)));
      return row.projectId;
    });
    if (!done) throw badRequest('invalid_verification_token', 'This verification link is invalid, expired or already used.');
    return { projectId: done, project: (await this.project(done)).name };
  }

  /** Sets a new password with a reset link's id: once; ends the user's sessions and other links; proves the e-mail. */
  async resetPassword(resetId: string, password: string): Promise<{ projectId: string; identity: string }> {
    const passwordHash = await hashPassword(password);
    const done = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(projectUserResets)
        .where(and(eq(projectUserResets.tokenHash, hashSecret(resetId)), isNull(projectUserResets.usedAt), gt(projectUserResets.expiresAt, new Date())))
        .for('update');
      if (!row) return null;
      const now = new Date();
      const [user] = await tx
        .update(projectUsers)
        .set({ passwordHash, verified: true, passwordChangedAt: now })
        .where(eq(projectUsers.id, row.userId))
        .returning({ email: projectUsers.email, phone: projectUsers.phone });
      await tx
        .update(projectUserResets)
        .set({ usedAt: now })
        .where(and(eq(projectUserResets.userId, row.userId), isNull(projectUserResets.usedAt)));
      await this.tokens.revokeAllForUser(row.userId, 'password_reset', tx as unknown as Db);
      return { projectId: row.projectId, identity: user?.email ?? user?.phone ?? '' };
    });
    if (!done) throw badRequest('invalid_reset_token', 'This reset link is invalid, expired or already used. Ask for a new one.');
    return done;
  }

  /** The User Admin sets a user's password (by e-mail or phone); the user's sessions end. */
  async updatePassword(projectId: string, identity: Identity, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(projectUsers)
        .set({ passwordHash, passwordChangedAt: new Date() })
        .where(identityWhere(projectId, identity))
        .returning({ id: projectUsers.id });
      if (!row) throw notFound('project_user_not_found', 'There is no user with this e-mail address or phone number in this project.');
      await this.tokens.revokeAllForUser(row.id, 'password_changed', tx as unknown as Db);
    });
  }

  private codeHash(nonce: string, code: string) {
    return createHmac('sha256', this.keys.refreshSecret).update(`otp:${nonce}:${code}`).digest('base64url');
  }

  private newCode() {
    return String(randomInt(0, 10 ** otpRules.digits)).padStart(otpRules.digits, '0');
  }

  private async deliverCode(projectId: string, channel: 'email' | 'phone', target: string, code: string) {
    const project = await this.project(projectId);
    const minutes = Math.max(1, Math.round(otpRules.ttlS / 60));
    if (channel === 'email') {
      await this.mailUser(projectId, 'otp', target, { email: target, code, project: project.name, minutes });
    } else {
      await this.sms.send({ to: target, text: formatMessage('sms.projectUserOtp.text', { project: project.name, code, minutes }) });
      this.usage()?.add(project.organizationId, 'SMSOTPCount', 1);
    }
  }

  /**
   * Sends a one-time code to an e-mail address or phone number and answers its nonce. Known and
   * unknown addresses are treated alike: a correct code signs in the user, or creates them.
   */
  async requestOtp(projectId: string, emailOrPhone: string, apiTokenId: string | null): Promise<{ nonce: string; expires_in: number }> {
    const identity = identityOf(emailOrPhone);
    const channel = 'email' in identity ? 'email' : 'phone';
    const target = 'email' in identity ? identity.email : identity.phone;
    const nonce = newSecret();
    const code = this.newCode();
    // Codes long dead are forgotten as new ones are asked for (indexed by expiry: cheap).
    await this.db.delete(projectUserOtps).where(lt(projectUserOtps.expiresAt, new Date(Date.now() - 86_400_000)));
    await this.db.insert(projectUserOtps).values({
      nonce,
      projectId,
      channel,
      target,
      codeHash: this.codeHash(nonce, code),
      apiTokenId,
      expiresAt: new Date(Date.now() + otpRules.ttlS * 1000),
    });
    await this.deliverCode(projectId, channel, target, code);
    return { nonce, expires_in: otpRules.ttlS };
  }

  /** Sends a new code for a live nonce (a few times at most); earlier codes stop working, wrong tries still count. */
  async resendOtp(projectId: string, nonce: string): Promise<{ nonce: string; expires_in: number }> {
    const code = this.newCode();
    const outcome = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(projectUserOtps)
        .where(and(eq(projectUserOtps.nonce, nonce), eq(projectUserOtps.projectId, projectId)))
        .for('update');
      if (!row || row.usedAt || row.attempts >= otpRules.maxAttempts) return { error: 'dead' as const };
      if (row.resends >= otpRules.maxResends) return { error: 'resends' as const };
      await tx
        .update(projectUserOtps)
        .set({ codeHash: this.codeHash(nonce, code), resends: row.resends + 1, expiresAt: new Date(Date.now() + otpRules.ttlS * 1000) })
        .where(eq(projectUserOtps.nonce, nonce));
      return { row };
    });
    if ('error' in outcome) {
      if (outcome.error === 'resends') throw badRequest('otp_resend_limit', 'This code cannot be sent again. Ask for a new one.');
      throw badRequest('otp_expired', 'This code has expired or was tried too often. Ask for a new one.');
    }
    await this.deliverCode(projectId, outcome.row.channel, outcome.row.target, code);
    return { nonce, expires_in: otpRules.ttlS };
  }

  /**
   * Checks a one-time code. A wrong one is 400 and counts; the last allowed wrong try kills the
   * nonce. The right one signs in the user of that address, creating them (verified) if new.
   */
  async verifyOtp(projectId: string, nonce: string, code: string, groupId: string | null, apiTokenId: string | null): Promise<EndUserTokenPair> {
    const outcome = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(projectUserOtps)
        .where(and(eq(projectUserOtps.nonce, nonce), eq(projectUserOtps.projectId, projectId)))
        .for('update');
      const now = new Date();
      if (!row || row.usedAt || row.attempts >= otpRules.maxAttempts || row.expiresAt.getTime() <= now.getTime()) return { error: 'dead' as const };
      const expected = Buffer.from(row.codeHash);
      const given = Buffer.from(this.codeHash(nonce, code.trim()));
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        const attempts = row.attempts + 1;
        await tx
          .update(projectUserOtps)
          .set({ attempts, ...(attempts >= otpRules.maxAttempts ? { usedAt: now } : {}) })
          .where(eq(projectUserOtps.nonce, nonce));
        return { error: 'wrong' as const };
      }
      await tx.update(projectUserOtps).set({ usedAt: now }).where(eq(projectUserOtps.nonce, nonce));
      const identity: Identity = row.channel === 'email' ? { email: row.target } : { phone: row.target };
      const [existing] = await tx.select().from(projectUsers).where(identityWhere(projectId, identity));
      if (existing) {
        if (!existing.verified) {
          // The code proves the address (or phone) for the first time. Whoever chose this user's
          // password may not own it (pre-hijacking; docs/security.md): the password, every
          // session and every open reset link go, in this transaction, before the owner is let in.
          const [locked] = await tx.select({ verified: projectUsers.verified }).from(projectUsers).where(eq(projectUsers.id, existing.id)).for('update');
          if (locked && !locked.verified) {
            await tx.update(projectUsers).set({ verified: true, passwordHash: null, passwordChangedAt: now }).where(eq(projectUsers.id, existing.id));
            await tx
              .update(projectUserResets)
              .set({ usedAt: now })
              .where(and(eq(projectUserResets.userId, existing.id), isNull(projectUserResets.usedAt)));
            await this.tokens.revokeAllForUser(existing.id, 'address_proved_by_owner', tx as unknown as Db);
          }
        }
        return { userId: existing.id, created: false };
      }
      const [inserted] = await tx
        .insert(projectUsers)
        .values({
          id: newId(),
          projectId,
          email: row.channel === 'email' ? row.target : null,
          phone: row.channel === 'phone' ? row.target : null,
          verified: true,
          userGroups: groupId ? [groupId] : [],
        })
        .onConflictDoNothing()
        .returning({ id: projectUsers.id });
      if (inserted) return { userId: inserted.id, created: true };
      // Signed up by another request meanwhile: that user it is.
      const [raced] = await tx.select({ id: projectUsers.id }).from(projectUsers).where(identityWhere(projectId, identity));
      return { userId: raced!.id, created: false };
    });
    if ('error' in outcome) {
      if (outcome.error === 'wrong') throw badRequest('wrong_otp', 'The code is not correct.');
      throw badRequest('otp_expired', 'This code has expired or was tried too often. Ask for a new one.');
    }
    if (outcome.created) await this.count(projectId, 'BagelAuthUsers');
    return this.tokens.startSession(projectId, outcome.userId, apiTokenId);
  }

  /** How many users the project has (the item Users panel needs to know whether there are any). */
  async total(projectId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(projectUsers).where(eq(projectUsers.projectId, projectId));
    return Number(row?.n ?? 0);
  }
}
