/**
 * What an audit entry changed, as short lines `key: before → after` (docs/admin.md "Audit log"):
 * for two objects, the keys whose values differ; otherwise the two values whole. Values are
 * compact JSON cut to a readable length; a side that has no value is undefined.
 */
export interface DiffLine {
  /** Empty when the values were compared whole. */
  key: string;
  before: string | undefined;
  after: string | undefined;
}

const MAX_VALUE_CHARS = 80;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function valueText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

export function auditDiff(before: unknown, after: unknown): DiffLine[] {
  const empty = (value: unknown) => value === null || value === undefined;
  if ((isRecord(before) || empty(before)) && (isRecord(after) || empty(after)) && !(empty(before) && empty(after))) {
    const from = isRecord(before) ? before : {};
    const to = isRecord(after) ? after : {};
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
    return keys
      .filter((key) => JSON.stringify(from[key]) !== JSON.stringify(to[key]))
      .map((key) => ({ key, before: valueText(from[key]), after: valueText(to[key]) }));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ key: '', before: valueText(before ?? undefined), after: valueText(after ?? undefined) }];
}
