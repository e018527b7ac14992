/**
 * The plans an organization can be on: data, not code (docs/billing.md "Plans"). An operator
 * changes prices, limits and overage here; nothing else names a plan. Every amount is an integer
 * in minor units (cents, agorot) for each currency; the console divides by 100 only to display.
 *
 * Flags instead of ids: `free` is the plan organizations start on and fall back to; `defaultUpgrade`
 * is the plan a card setup without a chosen plan upgrades to; `hidden` keeps a plan out of
 * `GET plans` (an operator assigns it, e.g. a negotiated contract).
 */
import type { UsageMetric } from '../usage.ts';
import type { Money } from './money.ts';
import type { Plan } from '../schemas/billing.ts';

export interface UsageLimit {
  name: UsageMetric;
  /** Included in the plan per month. */
  limit: number;
  /**
   * The price of each further `additionalPer` units, per currency; `null` makes `limit` a hard
   * limit (past it the public API answers 429 `usage_limit`).
   */
  additionalCost: Money | null;
  additionalPer: number;
}

export interface PlanDefinition {
  id: string;
  name: string;
  description: string;
  /** Price per billing period, per frequency and currency. */
  price: { monthly: Money; yearly: Money };
  usageLimits: UsageLimit[];
  free?: true;
  defaultUpgrade?: true;
  hidden?: true;
}

const GB = 1_000_000_000;
const hard = (name: UsageMetric, limit: number): UsageLimit => ({ name, limit, additionalCost: null, additionalPer: 1 });
const over = (name: UsageMetric, limit: number, USD: number, NIS: number, per: number): UsageLimit => ({
  name,
  limit,
  additionalCost: { USD, NIS },
  additionalPer: per,
});

export const plans: readonly PlanDefinition[] = [
  {
    id: 'free',
    name: 'Free Plan',
    description: 'For side projects and trying Larder out.',
    price: { monthly: { USD: 0, NIS: 0 }, yearly: { USD: 0, NIS: 0 } },
    free: true,
    usageLimits: [
      hard('Users', 3),
      hard('ApiCalls', 500_000),
      hard('ItemCount', 2_000_000),
      hard('TotalStore', 1 * GB),
      hard('BandWidth', 5 * GB),
      hard('SimultaneousLive', 200),
      hard('WebhookTriggers', 50_000),
      hard('BagelAuthUsers', 10_000),
      hard('SMSOTPCount', 50),
    ],
  },
  {
    id: 'basic',
    name: 'Basic Plan',
    description: 'For apps in production: more of everything, and usage past the plan billed instead of refused.',
    price: { monthly: { USD: 2_500, NIS: 9_000 }, yearly: { USD: 25_000, NIS: 90_000 } },
    defaultUpgrade: true,
    usageLimits: [
      hard('Users', 10),
      over('ApiCalls', 5_000_000, 100, 370, 100_000),
      over('ItemCount', 10_000_000, 100, 370, 100_000),
      over('TotalStore', 50 * GB, 10, 37, GB),
      over('BandWidth', 100 * GB, 9, 33, GB),
      hard('SimultaneousLive', 2_000),
      over('WebhookTriggers', 500_000, 100, 370, 100_000),
      over('BagelAuthUsers', 100_000, 200, 740, 10_000),
      over('SMSOTPCount', 500, 5, 19, 1),
    ],
  },
  {
    id: 'pro',
    name: 'Pro Plan',
    description: 'For teams with several apps and heavy traffic.',
    price: { monthly: { USD: 9_900, NIS: 36_000 }, yearly: { USD: 99_000, NIS: 360_000 } },
    usageLimits: [
      hard('Users', 50),
      over('ApiCalls', 50_000_000, 80, 300, 100_000),
      over('ItemCount', 100_000_000, 80, 300, 100_000),
      over('TotalStore', 500 * GB, 8, 30, GB),
      over('BandWidth', 1_000 * GB, 7, 26, GB),
      over('SimultaneousLive', 20_000, 1_000, 3_700, 1_000),
      over('WebhookTriggers', 5_000_000, 80, 300, 100_000),
      over('BagelAuthUsers', 1_000_000, 150, 550, 10_000),
      over('SMSOTPCount', 5_000, 4, 15, 1),
    ],
  },
  {
    id: 'enterprise',
    name: 'Enterprise Plan',
    description: 'A contract agreed with sales; assigned by the operator.',
    price: { monthly: { USD: 0, NIS: 0 }, yearly: { USD: 0, NIS: 0 } },
    hidden: true,
    usageLimits: [
      hard('Users', 1_000),
      over('ApiCalls', 1_000_000_000, 0, 0, 1),
      over('ItemCount', 1_000_000_000, 0, 0, 1),
      over('TotalStore', 10_000 * GB, 0, 0, 1),
      over('BandWidth', 10_000 * GB, 0, 0, 1),
      over('SimultaneousLive', 1_000_000, 0, 0, 1),
      over('WebhookTriggers', 1_000_000_000, 0, 0, 1),
      over('BagelAuthUsers', 100_000_000, 0, 0, 1),
      over('SMSOTPCount', 1_000_000, 0, 0, 1),
    ],
  },
];

export const planById = (id: string): PlanDefinition | undefined => plans.find((plan) => plan.id === id);

/** The plan every organization starts on and a downgrade lands on. */
export const freePlan: PlanDefinition = plans.find((plan) => plan.free)!;

/** The plan a card setup upgrades to when none is chosen (`creditCardProcessingLink` without planID). */
export const defaultUpgradePlan: PlanDefinition = plans.find((plan) => plan.defaultUpgrade)!;

/** The plans `GET plans` lists, in this file's order. */
export const listedPlans: readonly PlanDefinition[] = plans.filter((plan) => !plan.hidden);

/** A plan as `GET plans` sends it; `price` is the monthly USD price. */
export function planWire(plan: PlanDefinition): Plan {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    price: plan.price.monthly.USD,
    prices: { monthly: { ...plan.price.monthly }, yearly: { ...plan.price.yearly } },
    free: plan.free === true,
    usageLimits: plan.usageLimits.map((limit) => ({
      name: limit.name,
      limit: limit.limit,
      additionalCost: limit.additionalCost?.USD ?? null,
      additionalNisCost: limit.additionalCost?.NIS ?? null,
      additionalPer: limit.additionalPer,
    })),
  };
}
