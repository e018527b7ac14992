/** An organization's usage in a month as `GET /api/organization/{org}/usage` answers it. */
import { Type, type Static } from '@sinclair/typebox';
import { usageMetrics } from '../usage.ts';

export const UsageLine = Type.Object({
  name: Type.Union(usageMetrics.map((name) => Type.Literal(name))),
  amount: Type.Number({ description: 'counters: the month’s total; SimultaneousLive: the month’s peak; Users, ItemCount, TotalStore: the level now (a closed month: its highest recorded)' }),
  unitOfMeasure: Type.Union([Type.Literal('count'), Type.Literal('bytes')]),
});
export type UsageLine = Static<typeof UsageLine>;

export const UsageReport = Type.Object(
  {
    organizationID: Type.String(),
    month: Type.String({ description: 'UTC month, YYYY-MM' }),
    usage: Type.Array(UsageLine),
  },
  { $id: 'UsageReport' },
);
export type UsageReport = Static<typeof UsageReport>;
