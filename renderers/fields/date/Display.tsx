/** A date-time in the reader's locale and time zone. */
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import type { DisplayProps } from '../display-types.ts';

export function DateDisplay({ value }: DisplayProps) {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = formatDateTime(value);
  return text ? <time className="cell-text" dateTime={typeof value === 'string' ? value : new Date(value).toISOString()}>{text}</time> : null;
}
