/** Figures over a bench's timings: percentiles by the nearest rank, means, rounding to 0.01. */

/** The nearest-rank percentile `p` (0–100) of `values` (not changed). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export const round = (n: number) => Math.round(n * 100) / 100;
