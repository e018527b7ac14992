/** What every part of billing is built with (server/billing/index.ts builds them once per app). */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { UsageMeter } from '../usage/usage.ts';

export interface BillingDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
  usage: UsageMeter;
  log: FastifyBaseLogger;
  /** The clock of every billing decision (dates, windows, pro rata); tests pass a fake one. */
  now: () => Date;
}
