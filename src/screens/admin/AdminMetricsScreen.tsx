/**
 * Metrics of the whole installation (docs/admin.md "Metrics"): the figures now, plans in use,
 * monthly recurring revenue and failed payments, then one chart per daily metric over the last 30
 * or 90 days, each with its figures as a table (the charts' accessible alternative). uPlot is
 * imported by this screen's chunk only.
 */
import '../../../definitions/messages/areas/admin.ts';
import { useId, useMemo, useState } from 'react';
import { ToggleGroup } from 'radix-ui';
import { adminMetricNames, type AdminMetricName } from '../../../definitions/admin.ts';
import { formatMoney } from '../../../definitions/billing/money.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { AdminMetrics } from '../../api/admin.ts';
import { useAdminMetrics } from '../../api/admin-queries.ts';
import { MetricChart } from './metrics/MetricChart.tsx';
import { formatDay, formatFigure, formatMetric, metricLabels, nowFigures, seriesDays } from './metrics/metric-format.ts';

type Days = 30 | 90;

export default function AdminMetricsScreen() {
  const format = useFormat();
  const id = useId();
  const [days, setDays] = useState<Days>(30);
  const query = useAdminMetrics(days);
  const metrics = query.data;

  return (
    <div className="admin-screen" aria-busy={query.isFetching || undefined}>
      <div className="admin-toolbar">
        <h2 id={`${id}-title`}>{format('route.metrics.title')}</h2>
        <span className="visually-hidden" id={`${id}-window`}>
          {format('admin.metrics.window')}
        </span>
        <ToggleGroup.Root
          type="single"
          className="segmented"
          value={String(days)}
          aria-labelledby={`${id}-window`}
          // A click on the chosen segment would clear the value: there is always a window.
          onValueChange={(value) => {
            if (value === '30' || value === '90') setDays(Number(value) as Days);
          }}
        >
          <ToggleGroup.Item className="segment" value="30">
            {format('admin.metrics.days', { days: 30 })}
          </ToggleGroup.Item>
          <ToggleGroup.Item className="segment" value="90">
            {format('admin.metrics.days', { days: 90 })}
          </ToggleGroup.Item>
        </ToggleGroup.Root>
      </div>
      {query.isError ? (
        <p role="alert" className="callout-error">
          {format('admin.metrics.loadFailed')}
        </p>
      ) : metrics === undefined ? (
        <p className="muted" role="status">
          {format('app.loading')}
        </p>
      ) : (
        <MetricsView metrics={metrics} />
      )}
    </div>
  );
}

function MetricsView({ metrics }: { metrics: AdminMetrics }) {
  const format = useFormat();
  const id = useId();
  const series = useMemo(() => new Map(metrics.series.map((entry) => [entry.metric, entry.values] as const)), [metrics]);
  const longest = Math.max(0, ...metrics.series.map((entry) => entry.values.length));
  const days = useMemo(() => seriesDays(metrics.from, longest), [metrics.from, longest]);
  const figuresNow = nowFigures.filter((figure) => typeof metrics.now[figure.key] === 'number');

  return (
    <>
      <p className="muted">{format('admin.metrics.range', { from: formatDay(new Date(`${metrics.from}T00:00:00Z`)), to: formatDay(new Date(`${metrics.to}T00:00:00Z`)) })}</p>
      <section aria-labelledby={`${id}-now`} className="admin-section">
        <h3 id={`${id}-now`}>{format('admin.metrics.now')}</h3>
        <dl className="admin-figures">
          {figuresNow.map((figure) => (
            <div key={figure.key} className="admin-figure">
              <dt>{format(figure.label)}</dt>
              <dd>{formatFigure(figure.unit, metrics.now[figure.key]!)}</dd>
            </div>
          ))}
          <div className="admin-figure">
            <dt>{format('admin.metrics.mrr')}</dt>
            <dd>
              {formatMoney(metrics.mrr.USD, 'USD')}
              <span className="admin-figure-second">{formatMoney(metrics.mrr.NIS, 'NIS')}</span>
            </dd>
          </div>
          <div className="admin-figure">
            <dt>{format('admin.metrics.failedPayments', { days: metrics.days })}</dt>
            <dd>{formatMetric('failedPayments', metrics.failedPayments)}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby={`${id}-plans`} className="admin-section">
        <h3 id={`${id}-plans`}>{format('admin.metrics.plans')}</h3>
        {metrics.plans.length === 0 ? (
          <p className="empty-state">{format('admin.metrics.noPlans')}</p>
        ) : (
          <div className="table-scroll admin-plans">
            <table className="table" aria-labelledby={`${id}-plans`}>
              <thead>
                <tr>
                  <th scope="col">{format('admin.metrics.plan')}</th>
                  <th scope="col" className="admin-number">
                    {format('admin.metrics.planOrganizations')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {metrics.plans.map((plan) => (
                  <tr key={plan.planID ?? 'free'}>
                    <th scope="row">{plan.planName}</th>
                    <td className="admin-number">{formatMetric('organizations', plan.organizations)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby={`${id}-charts`} className="admin-section">
        <h3 id={`${id}-charts`}>{format('admin.metrics.perDay', { days: metrics.days })}</h3>
        <ul className="admin-charts">
          {adminMetricNames.map((metric) => {
            const values = series.get(metric);
            return values ? (
              <li key={metric}>
                <MetricFigure metric={metric} days={days} values={values} />
              </li>
            ) : null;
          })}
        </ul>
      </section>
    </>
  );
}

function MetricFigure({ metric, days, values }: { metric: AdminMetricName; days: readonly Date[]; values: readonly (number | null)[] }) {
  const format = useFormat();
  const id = useId();
  const label = format(metricLabels[metric]);
  const latest = [...values].reverse().find((value) => value !== null);
  return (
    <figure className="admin-chart-figure" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="admin-chart-caption">
        <span className="admin-chart-title">{label}</span>
        <span className="muted">{latest === undefined || latest === null ? format('admin.metrics.noData') : formatMetric(metric, latest)}</span>
      </figcaption>
      <MetricChart metric={metric} days={days} values={values} />
      <details className="admin-chart-data">
        <summary>{format('admin.metrics.showTable')}</summary>
        {/* Scrolls on its own: focusable, so the keyboard can scroll it too. */}
        <div className="table-scroll" tabIndex={0} role="region" aria-label={format('admin.metrics.tableCaption', { metric: label })}>
          <table className="table">
            <caption className="visually-hidden">{format('admin.metrics.tableCaption', { metric: label })}</caption>
            <thead>
              <tr>
                <th scope="col">{format('admin.metrics.day')}</th>
                <th scope="col" className="admin-number">
                  {label}
                </th>
              </tr>
            </thead>
            <tbody>
              {values.map((value, index) => (
                <tr key={index}>
                  <th scope="row">{days[index] ? formatDay(days[index]) : ''}</th>
                  <td className="admin-number">{value === null ? format('admin.metrics.noValue') : formatMetric(metric, value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
