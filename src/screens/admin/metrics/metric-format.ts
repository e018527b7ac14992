/** The names and number formats of the admin metrics (definitions/admin.ts), for charts, tables and figures. */
import { adminMetricUnits, type AdminMetricName } from '../../../../definitions/admin.ts';
import type { MessageKey } from '../../../../definitions/messages/format.ts';
import { formatSize } from '../../../../definitions/format-size.ts';

export const metricLabels: Record<AdminMetricName, MessageKey> = {
  newUsers: 'admin.metrics.metric.newUsers',
  verifiedUsers: 'admin.metrics.metric.verifiedUsers',
  activeUsers: 'admin.metrics.metric.activeUsers',
  organizations: 'admin.metrics.metric.organizations',
  projects: 'admin.metrics.metric.projects',
  items: 'admin.metrics.metric.items',
  storage: 'admin.metrics.metric.storage',
  apiCalls: 'admin.metrics.metric.apiCalls',
  bandwidth: 'admin.metrics.metric.bandwidth',
  webhookDeliveries: 'admin.metrics.metric.webhookDeliveries',
  liveConnections: 'admin.metrics.metric.liveConnections',
  failedPayments: 'admin.metrics.metric.failedPayments',
};

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** A figure in full: `12,345`, `1.5 MB`. */
export function formatMetric(metric: AdminMetricName, value: number): string {
  return adminMetricUnits[metric] === 'bytes' ? formatSize(value) : whole.format(value);
}

/** A figure on a chart's axis, short: `12K`, `1.5 MB`. */
export function formatAxis(metric: AdminMetricName, value: number): string {
  return adminMetricUnits[metric] === 'bytes' ? formatSize(value) : compact.format(value);
}

/** The UTC days of a series, oldest first, from its first day (YYYY-MM-DD). */
export function seriesDays(from: string, count: number): Date[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => new Date(start + index * 86_400_000));
}

const dayFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

export function formatDay(day: Date): string {
  return dayFormat.format(day);
}
