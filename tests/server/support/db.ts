/** Direct reads of the database, to check what a request changed (or did not). */
import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../server/db/index.ts';
import { outbox, passwordResets, refreshTokens, sessions, users } from '../../../server/db/schema.ts';

export async function userByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

export async function userByName(db: Db, username: string) {
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  return row;
}

export async function countRows(db: Db, table: typeof users | typeof sessions | typeof outbox | typeof passwordResets | typeof refreshTokens) {
  const [row] = await db.select({ n: count() }).from(table);
  return Number(row!.n);
}

/** Everything a request could have changed about accounts, for before/after comparisons. */
export async function accountSnapshot(db: Db) {
  const [u, s, r, p, o] = await Promise.all([
    db.select().from(users).orderBy(users.id),
    db.select().from(sessions).orderBy(sessions.id),
    db.select().from(refreshTokens).orderBy(refreshTokens.tokenHash),
    db.select().from(passwordResets).orderBy(passwordResets.tokenHash),
    db.select({ n: count() }).from(outbox),
  ]);
  return { users: u, sessions: s, refreshTokens: r, passwordResets: p, outbox: Number(o[0]!.n) };
}

export async function sessionsOfUser(db: Db, userId: string) {
  return db.select().from(sessions).where(eq(sessions.userId, userId));
}
