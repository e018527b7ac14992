/**
 * The billing status of an organization, from the days since its first failed charge
 * (`initialBillingFailedDate`): GRACE 0–2 days, NO_CLIENT 3–14 (the console is restricted),
 * BLOCK 15 days on (the public API is suspended). The windows are data; the server may replace
 * them (BILLING_STATUS_WINDOWS) and sends its own in `GET billing/getBillingStatuses`, which the
 * console's machine (machines/billing-status.ts) fetches at start. docs/billing.md "Billing status".
 */

export const billingStatuses = ['OK', 'GRACE', 'NO_CLIENT', 'BLOCK'] as const;
export type BillingStatus = (typeof billingStatuses)[number];
export type FailedStatus = Exclude<BillingStatus, 'OK'>;

/** Day ranges (inclusive) since the failed charge. */
export interface StatusWindow {
  from: number;
  to: number;
}
export type StatusWindows = Record<FailedStatus, StatusWindow>;

export const defaultStatusWindows: StatusWindows = {
  GRACE: { from: 0, to: 2 },
  NO_CLIENT: { from: 3, to: 14 },
  BLOCK: { from: 15, to: 30 },
};

const dayMs = 86_400_000;

/** Whole days from `failedAt` to `now` (UTC days elapsed, never negative). */
export const daysSince = (failedAt: Date | string, now: Date | number): number =>
  Math.max(0, Math.floor((Number(now instanceof Date ? now.getTime() : now) - new Date(failedAt).getTime()) / dayMs));

/**
 * The status for a failed-charge date. No date: OK. Past the last window the organization stays
 * blocked (nothing lifts a block but a successful charge).
 */
export function billingStatusOf(failedAt: Date | string | null | undefined, now: Date | number, windows: StatusWindows = defaultStatusWindows): BillingStatus {
  if (failedAt === null || failedAt === undefined) return 'OK';
  const days = daysSince(failedAt, now);
  for (const status of ['GRACE', 'NO_CLIENT', 'BLOCK'] as const) {
    const window = windows[status];
    if (days >= window.from && days <= window.to) return status;
  }
  return days > windows.BLOCK.to ? 'BLOCK' : 'GRACE';
}

/** Statuses that divert the console to organization settings (every one but OK). */
export const divertingStatuses: readonly BillingStatus[] = ['GRACE', 'NO_CLIENT', 'BLOCK'];
