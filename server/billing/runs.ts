/** The scheduled billing runs: every organization due is charged once per period (docs/billing.md "Billing runs"). */
import type { BillingDeps } from './deps.ts';
import type { BillingAccountService } from './accounts.ts';
import type { ChargeService } from './charges.ts';

export class BillingRunner {
  constructor(
    readonly deps: BillingDeps,
    readonly accounts: BillingAccountService,
    readonly charges: ChargeService,
  ) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {}
}
