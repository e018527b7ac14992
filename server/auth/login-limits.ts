/**
 * Password sign-in limits that slow guessing without letting a stranger lock an account's owner
 * out (docs/security.md, "Sign-in limits"). Besides the per-address limit on every attempt (the
 * routes' own), two counts of failed attempts, kept in the rate-limit table so every process of a
 * deployment shares them:
 * - per (account, client address) pair: one address guessing at one account is refused after
 *   `pair.max` failures in the window, whoever else signs in to that account;
 * - per account, counting only addresses the account has not signed in from successfully in the
 *   last KNOWN_ADDRESS_DAYS days: a distributed guess is refused after `account.max` failures in
 *   the window, while the owner's known addresses are neither counted nor refused by it.
 * An attempt is counted before its password is checked (so parallel guesses cannot overshoot the
 * limit), and taken back when it succeeds. A success also clears its pair and makes its address
 * known to the account, and so does a password reset through the mailed link (`trust`).
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { RateLimitRule } from '../config.ts';
import type { Db } from '../db/index.ts';
import { rateLimits } from '../db/schema.ts';
import { type AppError, tooManyRequests } from '../lib/errors.ts';
import { incrementWindow } from '../lib/rate-limit-store.ts';

/** How long an address stays known to an account after a successful sign-in from it. */
export const KNOWN_ADDRESS_DAYS = 30;

export interface LoginAttempt {
  /** The password was right: take the attempt back, clear the pair, remember the address. */
  succeeded(): Promise<void>;
}

function tooMany(ttlMs: number, what: string): AppError {
  const wait = Math.max(1, Math.ceil(ttlMs / 1000));
  return tooManyRequests(`${what} Try again in ${wait} seconds.`, wait);
}

export class LoginLimits {
  constructor(
    private readonly db: Db,
    private readonly rules: { pair: RateLimitRule; account: RateLimitRule },
    /** Keeps the console's counts apart from project users' (`login`, `pu-login`). */
    private readonly prefix: string,
  ) {}

  private keys(account: string, address: string) {
    return {
      pair: `${this.prefix}-pair:${account}|${address}`,
      account: `${this.prefix}-failed:${account}`,
      known: `${this.prefix}-known:${account}|${address}`,
    };
  }

  /**
   * Counts an attempt at `account` from `address` (already normalised: an IPv6 /64 is one
   * address) as failed until it succeeds; throws a 429 problem when a limit is reached.
   */
  async begin(account: string, address: string): Promise<LoginAttempt> {
    const keys = this.keys(account, address);
    const [known] = await this.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, keys.known), gt(rateLimits.resetAt, sql`now()`)));
    const pair = await incrementWindow(this.db, keys.pair, this.rules.pair.windowMs);
    if (pair.current > this.rules.pair.max) throw tooMany(pair.ttl, 'Too many failed sign-in attempts for this account from this address.');
    if (!known) {
      const failed = await incrementWindow(this.db, keys.account, this.rules.account.windowMs);
      if (failed.current > this.rules.account.max) {
        // Refused unchecked: not a guess, so not held against this address's own pair.
        await this.takeBack(keys.pair);
        throw tooMany(failed.ttl, 'Too many failed sign-in attempts for this account.');
      }
    }
    return {
      succeeded: async () => {
        await this.db.delete(rateLimits).where(eq(rateLimits.key, keys.pair));
        if (!known) await this.takeBack(keys.account);
        await this.remember(keys.known);
      },
    };
  }

  /**
   * Makes `address` known to `account` without a password sign-in: a password reset through the
   * mailed link proves the owner is at that address (so a locked-out owner gets back in from it).
   */
  async trust(account: string, address: string) {
    await this.remember(this.keys(account, address).known);
  }

  private async takeBack(key: string) {
    await this.db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`)));
  }

  /** The address is known to the account for KNOWN_ADDRESS_DAYS from now (a long window of the rate-limit table). */
  private async remember(key: string) {
    const until = sql`now() + make_interval(days => ${KNOWN_ADDRESS_DAYS})`;
    await this.db.insert(rateLimits).values({ key, count: 1, resetAt: until }).onConflictDoUpdate({ target: rateLimits.key, set: { resetAt: until } });
  }
}
