/**
 * The configured card provider (BILLING_PROVIDER, docs/billing.md "Card providers"): the built-in
 * `sandbox` (the default, offline) or `stripe` (the official SDK).
 */
import type { BillingDeps } from '../deps.ts';
import { SandboxProvider } from './sandbox.ts';
import { StripeProvider } from './stripe.ts';
import type { CardProvider } from './types.ts';

export function createCardProvider(deps: BillingDeps): CardProvider {
  return deps.config.billing.provider === 'stripe' ? new StripeProvider(deps) : new SandboxProvider(deps);
}
