/** One charge, exactly once whatever happens (docs/billing.md "Exactly once"). */
import type { BillingDeps } from './deps.ts';
import type { CardProvider } from './providers/types.ts';

export class ChargeService {
  constructor(
    readonly deps: BillingDeps,
    readonly provider: CardProvider,
  ) {}
}
