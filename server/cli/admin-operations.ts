/**
 * The administrator and migration operations of the command line (docs/cli.md "Administrators
 * and migrations"). Each checks its own input (a running server gets it as JSON from the control
 * channel) and records its change in the audit log in the transaction that makes it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { and, count, eq, isNull, or, sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { accountLimits, emailSchema, passwordSchema, usernameSchema } from '../../definitions/schemas/account.ts';
import { loadServerKeys } from '../auth/keys.ts';
import { hashPassword } from '../auth/passwords.ts';
import { TokenService } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import { databaseCode, migrationsFolder, type Database, type Db } from '../db/index.ts';
import { passwordResets, sessions, users } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { configuredSuperAdmins } from '../main/access.ts';
import { CliError, defineOperation, type Operation, type OperationContext } from './operation.ts';

/** A user as the commands print it. */
export interface CliUser {
  id: string;
  email: string;
  username: string;
  /** Granted in the database (the command line or the admin area). */
  superAdmin: boolean;
  /** Named by the configuration (SUPER_ADMIN_USERNAMES): a super-admin whatever the database says. */
  configuredSuperAdmin: boolean;
  verified: boolean;
  disabled: boolean;
}

type UserRow = typeof users.$inferSelect;

/** Named by the configuration: the same rule as the server's access checks (server/main/access.ts). */
const configuredSuperAdmin = (config: Config, username: string) => configuredSuperAdmins(config).has(username.toLowerCase());

const cliUser = (config: Config, row: UserRow): CliUser => ({
  id: row.id,
  email: row.email,
  username: row.username,
  superAdmin: row.superAdmin,
  configuredSuperAdmin: configuredSuperAdmin(config, row.username),
  verified: row.verified,
  disabled: row.disabledAt !== null,
});

const invalid = (message: string) => new CliError(message, 2, 'invalid_input');

const ajv = new Ajv({ strict: false, allErrors: false });
addFormats.default(ajv);

/** What each field must be, said once for a refused value. */
const fieldRules: Record<string, string> = {
  email: 'The e-mail address is not valid.',
  username: `A username is ${accountLimits.usernameMin} to ${accountLimits.usernameMax} letters, digits, "_", "." or "-", starting with a letter or a digit.`,
  password: `A password is ${accountLimits.passwordMin} to ${accountLimits.passwordMax} characters long.`,
  user: 'Name the user by e-mail address or username.',
};

/** Checks an operation's input against its schema: a refusal names the field and its rule. */
function checked<T>(schema: object) {
  const validate = ajv.compile<T>(schema);
  return (input: unknown): T => {
    if (validate(input)) return input;
    const error = validate.errors?.[0];
    const field = error?.instancePath.split('/')[1] ?? (error?.params as { missingProperty?: string } | undefined)?.missingProperty ?? (error?.params as { additionalProperty?: string } | undefined)?.additionalProperty;
    if (field && fieldRules[field]) throw invalid(fieldRules[field]);
    throw invalid(`The input is not valid${field ? ` (${field})` : ''}: ${error?.message ?? 'unknown reason'}.`);
  };
}

const who = { type: 'string', minLength: 1, maxLength: accountLimits.emailMax } as const;

/** A password to print once: 24 characters of base64url (144 random bits). */
const generatePassword = () => randomBytes(18).toString('base64url');

async function findUser(db: Db, identifier: string, lock = false): Promise<UserRow> {
  const key = identifier.trim().toLowerCase();
  const query = db
    .select()
    .from(users)
    .where(or(sql`lower(${users.email}) = ${key}`, sql`lower(${users.username}) = ${key}`));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new CliError(`No user has the e-mail address or username "${identifier}".`, 1, 'user_not_found');
  return row;
}

/** The same session revocation as a password reset by mail (server/auth/tokens.ts). */
async function tokenService(context: OperationContext): Promise<TokenService> {
  return new TokenService(context.database.db, context.config, await loadServerKeys(context.database.db));
}

const isUniqueViolation = (error: unknown) => databaseCode(error) === '23505';

// ---------------------------------------------------------------------------------------------

export interface CreateAdminInput {
  email: string;
  username: string;
  /** Absent: one is generated and answered once. */
  password?: string;
}

export interface CreateAdminOutput {
  user: CliUser;
  /** The generated password, when none was given: shown this once, stored only as a hash. */
  password?: string;
}

const checkCreateAdmin = checked<CreateAdminInput>({
  type: 'object',
  additionalProperties: false,
  required: ['email', 'username'],
  properties: { email: emailSchema, username: usernameSchema, password: passwordSchema },
});

export const createAdmin = defineOperation<CreateAdminInput, CreateAdminOutput>({
  name: 'admin.create',
  async run(context, raw) {
    const input = checkCreateAdmin(raw);
    const email = input.email.trim().toLowerCase();
    const username = input.username.trim();
    const password = input.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    const { db } = context.database;
    const taken = (what: string) =>
      new CliError(`A user with this ${what} exists already. To make them a super-admin, run: larder admin grant ${what === 'e-mail address' ? email : username}`, 1, what === 'e-mail address' ? 'email_taken' : 'username_taken');
    const row = await db
      .transaction(async (tx) => {
        const [existing] = await tx
          .select({ email: users.email })
          .from(users)
          .where(or(sql`lower(${users.email}) = ${email}`, sql`lower(${users.username}) = ${username.toLowerCase()}`));
        if (existing) throw taken(existing.email.toLowerCase() === email ? 'e-mail address' : 'username');
        const [created] = await tx.insert(users).values({ id: newId(), username, email, passwordHash, verified: true, superAdmin: true }).returning();
        await context.audit.record(tx, { id: null, name: context.actor }, {
          action: 'user.create',
          targetKind: 'user',
          targetId: created!.id,
          after: { email, username, verified: true, superAdmin: true },
        });
        return created!;
      })
      .catch(async (error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        // Made at the same moment by someone else (a sign-up): say which name is taken.
        const [other] = await db.select({ email: users.email }).from(users).where(sql`lower(${users.email}) = ${email}`);
        throw taken(other ? 'e-mail address' : 'username');
      });
    return { user: cliUser(context.config, row), ...(input.password === undefined ? { password } : {}) };
  },
});

// ---------------------------------------------------------------------------------------------

export interface UserInput {
  /** E-mail address or username. */
  user: string;
}

export interface SuperAdminOutput {
  user: CliUser;
  /** False when the user already was (or was not) one. */
  changed: boolean;
}

const checkUser = checked<UserInput>({ type: 'object', additionalProperties: false, required: ['user'], properties: { user: who } });

function superAdminOperation(name: string, grant: boolean): Operation<UserInput, SuperAdminOutput> {
  return defineOperation<UserInput, SuperAdminOutput>({
    name,
    async run(context, raw) {
      const input = checkUser(raw);
      return context.database.db.transaction(async (tx) => {
        const row = await findUser(tx, input.user, true);
        if (!grant && configuredSuperAdmin(context.config, row.username)) {
          throw new CliError(
            `${row.username} is a super-admin by configuration (SUPER_ADMIN_USERNAMES), which the command line cannot change: remove the name there and restart the server.`,
            1,
            'configured_super_admin',
          );
        }
        if (row.superAdmin === grant) return { user: cliUser(context.config, row), changed: false };
        const [updated] = await tx.update(users).set({ superAdmin: grant }).where(eq(users.id, row.id)).returning();
        await context.audit.record(tx, { id: null, name: context.actor }, {
          action: grant ? 'user.grantSuperAdmin' : 'user.revokeSuperAdmin',
          targetKind: 'user',
          targetId: row.id,
          before: { superAdmin: row.superAdmin },
          after: { superAdmin: grant },
        });
        return { user: cliUser(context.config, updated!), changed: true };
      });
    },
  });
}

export const grantSuperAdmin = superAdminOperation('admin.grant', true);
export const revokeSuperAdmin = superAdminOperation('admin.revoke', false);

// ---------------------------------------------------------------------------------------------

export interface ResetPasswordInput extends UserInput {
  /** Absent: one is generated and answered once. */
  password?: string;
}

export interface ResetPasswordOutput {
  user: CliUser;
  /** Sessions that ended (the user signs in again everywhere). */
  sessionsEnded: number;
  password?: string;
}

const checkResetPassword = checked<ResetPasswordInput>({
  type: 'object',
  additionalProperties: false,
  required: ['user'],
  properties: { user: who, password: passwordSchema },
});

export const resetPassword = defineOperation<ResetPasswordInput, ResetPasswordOutput>({
  name: 'user.resetPassword',
  async run(context, raw) {
    const input = checkResetPassword(raw);
    const password = input.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    const tokens = await tokenService(context);
    const result = await context.database.db.transaction(async (tx) => {
      const row = await findUser(tx, input.user, true);
      const now = new Date();
      const [live] = await tx
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.userId, row.id), isNull(sessions.revokedAt)));
      await tx.update(users).set({ passwordHash, passwordChangedAt: now }).where(eq(users.id, row.id));
      // As after a reset by mail: links asked for before no longer work, and every session ends.
      await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.userId, row.id), isNull(passwordResets.usedAt)));
      await tokens.revokeAllForUser(row.id, 'password_reset', tx);
      const sessionsEnded = Number(live?.n ?? 0);
      await context.audit.record(tx, { id: null, name: context.actor }, {
        action: 'user.resetPassword',
        targetKind: 'user',
        targetId: row.id,
        after: { sessionsEnded },
      });
      return { user: cliUser(context.config, row), sessionsEnded };
    });
    return { ...result, ...(input.password === undefined ? { password } : {}) };
  },
});

// ---------------------------------------------------------------------------------------------

export interface MigrateOutput {
  /** The migrations this run applied, oldest first. */
  applied: string[];
  /** The newest migration the database now has. */
  latest: string | null;
}

interface JournalEntry {
  tag: string;
  when: number;
}

const journal = (): JournalEntry[] => (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] }).entries;

/** The `created_at` (the journal's `when`) of each migration the database has; none on a new one. */
async function appliedStamps(database: Database): Promise<number[]> {
  try {
    const rows = await database.db.execute<{ created_at: string | number }>(sql`select created_at from drizzle.__drizzle_migrations`);
    const list = Array.isArray(rows) ? rows : (rows as { rows: { created_at: string | number }[] }).rows;
    return list.map((row) => Number(row.created_at));
  } catch (error) {
    // A database nothing was applied to yet has no migrations table (or schema).
    if (databaseCode(error) === '42P01' || databaseCode(error) === '3F000') return [];
    throw error;
  }
}

export const migrate = defineOperation<Record<string, never>, MigrateOutput>({
  name: 'installation.migrate',
  exclusive: true,
  withoutMigrations: true,
  async run(context) {
    const { database } = context;
    const known = journal();
    const before = new Set(await appliedStamps(database));
    const newest = Math.max(0, ...before);
    const last = known.at(-1);
    if (last && newest > last.when) {
      throw new CliError('The database has migrations newer than this Larder knows: it was used by a newer version. Run that version (or newer) instead.', 1, 'database_newer');
    }
    // drizzle applies what is missing in one transaction: all of it or none.
    if (database.kind === 'pglite') await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    else await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
    const after = new Set(await appliedStamps(database));
    const applied = known.filter((entry) => after.has(entry.when) && !before.has(entry.when)).map((entry) => entry.tag);
    const latest = [...known].reverse().find((entry) => after.has(entry.when))?.tag ?? null;
    if (applied.length) {
      // After the migrations' own transaction: the audit table may be one of them.
      await database.db.transaction((tx) =>
        context.audit.record(tx, { id: null, name: context.actor }, { action: 'installation.migrate', targetKind: 'installation', targetId: null, after: { applied, latest } }),
      );
    }
    return { applied, latest };
  },
});

// Each operation has its own input and output types; the registry holds them side by side.
export const adminOperations: readonly Operation<never, unknown>[] = [createAdmin, grantSuperAdmin, revokeSuperAdmin, resetPassword, migrate] as unknown as Operation<never, unknown>[];
