/**
 * The usage metrics of an organization, in the fixed order the
 * billing screens list them, with their unit. Shared by the server, which measures them
 * (server/usage/usage.ts), and the console, which will show them with the billing issue.
 */

/** Counted as they happen: the month's total. */
export const counterMetrics = ['ApiCalls', 'BandWidth', 'WebhookTriggers', 'BagelAuthUsers', 'SMSOTPCount'] as const;
/** The month's highest value seen at any moment. */
export const peakMetrics = ['SimultaneousLive'] as const;
/** A level of what the organization holds: now for the current month, the month's highest recorded level for past ones. */
export const levelMetrics = ['Users', 'ItemCount', 'TotalStore'] as const;

export type CounterMetric = (typeof counterMetrics)[number];
export type PeakMetric = (typeof peakMetrics)[number];
export type LevelMetric = (typeof levelMetrics)[number];
export type UsageMetric = CounterMetric | PeakMetric | LevelMetric;

/** Every metric in display order. */
export const usageMetrics: readonly UsageMetric[] = ['Users', 'ApiCalls', 'ItemCount', 'TotalStore', 'BandWidth', 'SimultaneousLive', 'WebhookTriggers', 'BagelAuthUsers', 'SMSOTPCount'];

export type UsageUnit = 'count' | 'bytes';
export const usageUnits: Record<UsageMetric, UsageUnit> = {
  Users: 'count',
  ApiCalls: 'count',
  ItemCount: 'count',
  TotalStore: 'bytes',
  BandWidth: 'bytes',
  SimultaneousLive: 'count',
  WebhookTriggers: 'count',
  BagelAuthUsers: 'count',
  SMSOTPCount: 'count',
};

/** A month of usage: `YYYY-MM`, in UTC. */
export const usageMonthPattern = '^[0-9]{4}-(0[1-9]|1[0-2])$';

/** The UTC month (`YYYY-MM`) of a moment. */
export const usageMonthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);
