/** JSON on one line, in the monospaced face. */
import type { DisplayProps } from '../display-types.ts';

export function JsonDisplay({ value }: DisplayProps) {
  if (value === null || value === undefined) return null;
  return <span className="cell-text cell-mono">{JSON.stringify(value)}</span>;
}
