/**
 * The next billing dates a platform super-admin may set (`PUT billingDetails/billingDate`): from
 * today to the same day two years on, as UTC calendar days (`YYYY-MM-DD`, which compare as
 * strings). A past date would make every billing run charge one more period until it caught up.
 * The server enforces it with the billing clock; the console offers the same range.
 */
export function billingDateRange(now: Date): { earliest: string; latest: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    earliest: day(now.getTime()),
    latest: day(Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate())),
  };
}
