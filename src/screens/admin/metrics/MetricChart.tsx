/**
 * One metric's daily series as a uPlot line chart (docs/admin.md "Metrics"). The canvas is
 * decoration for sighted users: the figures are in the table beside it. Colours and font come
 * from the theme's custom properties, read again when the theme changes; the width follows the
 * chart's box.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AdminMetricName } from '../../../../definitions/admin.ts';
import { useTheme } from '../../../theme/use-theme.ts';
import { formatAxis } from './metric-format.ts';

const HEIGHT = 180;
/** Whole steps only on the value axis: every metric counts things or bytes, and `0.5` would repeat a rounded label. */
const WHOLE_STEPS = Array.from({ length: 16 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

export interface MetricChartProps {
  metric: AdminMetricName;
  days: readonly Date[];
  values: readonly (number | null)[];
}

/** A theme colour as the canvas takes it; `alpha` as two hex digits for a fill (`#1d6b52` + `33`). */
function themeColour(name: string, alpha = ''): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return /^#[0-9a-f]{6}$/i.test(value) ? `${value}${alpha}` : value;
}

export function MetricChart({ metric, days, values }: MetricChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const text = themeColour('--muted');
    const grid = themeColour('--border');
    const font = `12px ${getComputedStyle(document.body).fontFamily}`;
    const axis = { stroke: text, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const chart = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        // The series are UTC days: label them in UTC, not in the browser's zone.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'UTC'),
        scales: { x: { time: true }, y: { range: (_chart, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
        axes: [axis, { ...axis, size: 64, incrs: WHOLE_STEPS, values: (_chart, splits) => splits.map((value) => formatAxis(metric, value)) }],
        series: [{}, { stroke: themeColour('--primary'), fill: themeColour('--primary', '26'), width: 2, points: { show: days.length <= 31 } }],
      },
      [days.map((day) => day.getTime() / 1000), [...values]],
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [metric, days, values, theme]);

  return <div ref={box} className="admin-chart" aria-hidden="true" data-metric={metric} />;
}
