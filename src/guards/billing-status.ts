import type { Guard } from '../../renderers/router/types.ts';

/**
 * PASS-THROUGH until billing exists. Its issue makes it divert every route except organization and
 * organizationSettings to organizationSettings while the billing status is BLOCK, NO_CLIENT or GRACE.
 */
export const billingStatus: Guard = () => undefined;
