/** An organization's billing account: details, plan, plan changes, seats and the billing summary (docs/billing.md). */
import type { BillingDeps } from './deps.ts';
import type { ChargeService } from './charges.ts';

export class BillingAccountService {
  constructor(
    readonly deps: BillingDeps,
    readonly charges: ChargeService,
  ) {}
}
