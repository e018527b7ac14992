/** Billing status and usage limits on requests (docs/billing.md "Billing status", "Usage limits"). */
import type { BillingDeps } from './deps.ts';

export class BillingEnforcement {
  constructor(readonly deps: BillingDeps) {}
}
