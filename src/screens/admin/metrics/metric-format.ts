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

/**
 * The figures of `now` the screen shows, in order (docs/admin.md "Metrics"): totals of accounts,
 * today's levels, the month so far. A figure the answer leaves out is not shown.
 */
export const nowFigures: readonly { key: string; label: MessageKey; unit: 'count' | 'bytes' }[] = [
  { key: 'users', label: 'admin.metrics.now.users', unit: 'count' },
  { key: 'usersVerified', label: 'admin.metrics.now.usersVerified', unit: 'count' },
  { key: 'usersDisabled', label: 'admin.metrics.now.usersDisabled', unit: 'count' },
  { key: 'organizations', label: 'admin.metrics.metric.organizations', unit: 'count' },
  { key: 'projects', label: 'admin.metrics.metric.projects', unit: 'count' },
  { key: 'items', label: 'admin.metrics.metric.items', unit: 'count' },
  { key: 'storage', label: 'admin.metrics.metric.storage', unit: 'bytes' },
  { key: 'liveConnections', label: 'admin.metrics.metric.liveConnections', unit: 'count' },
  { key: 'apiCallsThisMonth', label: 'admin.metrics.now.apiCallsThisMonth', unit: 'count' },
  { key: 'bandwidthThisMonth', label: 'admin.metrics.now.bandwidthThisMonth', unit: 'bytes' },
];

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** A figure in full: `12,345`, `1.5 MB`. */
export function formatMetric(metric: AdminMetricName, value: number): string {
  return formatFigure(adminMetricUnits[metric], value);
}

export function formatFigure(unit: 'count' | 'bytes', value: number): string {
  return unit === 'bytes' ? formatSize(value) : whole.format(value);
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
