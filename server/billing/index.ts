/**
 * The billing service (docs/billing.md): built once per app as `app.ctx.billing`, its routes under
 * `/billing` (and Contact Us under `/api`), its enforcement hooks and its scheduled runs. With
 * BILLING=0 nothing of it is registered but the answer `billing_disabled` to its routes.
 *
 * Parts, one owner each:
 * - accounts.ts: the account, plans, plan changes, seats, summary (pricing.ts: the arithmetic)
 * - providers/: the card providers; card-routes.ts: card setup and its completion
 * - charges.ts: one charge exactly once; runs.ts: the scheduled billing runs; invoices.ts: PDFs and mails
 * - enforcement.ts: billing status and usage limits on requests
 */
import type { App } from '../app.ts';
import type { BillingDeps } from './deps.ts';
import { BillingAccountService } from './accounts.ts';
import { ChargeService } from './charges.ts';
import { BillingRunner } from './runs.ts';
import { BillingEnforcement } from './enforcement.ts';
import { createCardProvider } from './providers/index.ts';
import type { CardProvider } from './providers/types.ts';

export interface BillingContext {
  enabled: boolean;
  deps: BillingDeps;
  provider: CardProvider;
  accounts: BillingAccountService;
  charges: ChargeService;
  runs: BillingRunner;
  enforcement: BillingEnforcement;
}

export interface BillingOptions {
  /** The clock of billing decisions (tests: a fake one). */
  now?: () => Date;
  /** Replaces the configured card provider (tests of failures). */
  provider?: CardProvider;
}

export function createBilling(app: App, options: BillingOptions = {}): BillingContext {
  const { config, database, mailer, usage } = app.ctx;
  const deps: BillingDeps = { database, config, mailer, usage, log: app.log, now: options.now ?? (() => new Date()) };
  const provider = options.provider ?? createCardProvider(deps);
  const charges = new ChargeService(deps, provider);
  const accounts = new BillingAccountService(deps, charges);
  return {
    enabled: config.billing.enabled,
    deps,
    provider,
    accounts,
    charges,
    runs: new BillingRunner(deps, accounts, charges),
    enforcement: new BillingEnforcement(deps),
  };
}
