/** The configured card provider (BILLING_PROVIDER). */
import type { BillingDeps } from '../deps.ts';
import type { CardProvider } from './types.ts';

export function createCardProvider(deps: BillingDeps): CardProvider {
  const name = deps.config.billing.provider;
  return {
    name,
    framed: name === 'sandbox',
    startSetup: () => Promise.reject(new Error(`the ${name} card provider is not built yet`)),
    setupOutcome: () => Promise.reject(new Error(`the ${name} card provider is not built yet`)),
    charge: () => Promise.reject(new Error(`the ${name} card provider is not built yet`)),
  };
}
