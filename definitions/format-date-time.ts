/** Dates are shown as a long localized date and time. */
export function formatDateTime(value: string | number | Date, locale = 'en'): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(date);
}
