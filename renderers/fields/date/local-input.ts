/** Between instants (ISO text) and the local-time text of a `datetime-local` input. */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The `datetime-local` text of an instant in the local zone (seconds only when it has them). */
export function toLocalInput(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const seconds = date.getSeconds() || date.getMilliseconds() ? `:${pad(date.getSeconds())}` : '';
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}${seconds}`;
}

/** The instant a `datetime-local` text names in the local zone, as ISO text; null for none. */
export function fromLocalInput(text: string): string | null {
  if (text === '') return null;
  // Date and time without an offset are local time (ECMAScript date-time string format).
  const date = new Date(text.includes('T') ? text : `${text}T00:00`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
