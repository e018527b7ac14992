/** A billing day (stored as midnight UTC) as a medium date, read in UTC so no time zone moves it. */
export function formatDay(value: string | null, locale = 'en'): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** The `YYYY-MM-DD` of a date input for a stored day. */
export function dayInputValue(value: string | null): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}
